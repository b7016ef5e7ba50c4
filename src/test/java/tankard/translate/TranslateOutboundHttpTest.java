package tankard.translate;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tankard.json.JsJson;
import tankard.testing.ConfiguredMockTest;
import tankard.testing.TestServer;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** ST's private-address filter (src/private-request-filter.js) on the translation services' user-given URLs. */
@Timeout(60)
class TranslateOutboundHttpTest extends ConfiguredMockTest {
    private HttpServer other;

    @AfterEach
    void stopMocks() {
        if (other != null) {
            TestServer.await(other.close());
        }
    }

    private void secret(String key, String value) {
        client.post("/api/secrets/write", JsJson.compact(JsJson.object().put("key", key).put("value", value)));
    }

    private HttpResponse<Buffer> translate(String route, String body) {
        return client.post("/api/translate/" + route, body);
    }

    private static void assertBlocked(String url, String ip, HttpResponse<Buffer> response) {
        assertEquals(403, response.statusCode(), response.bodyAsString());
        assertEquals("{\"error\":\"request to " + url + " failed, reason: Blocked request to private IP address: "
                + ip + "\"}", response.bodyAsString());
    }

    @Test
    void userGivenUrlsOnAPrivateAddressAreRefusedAndNeverCalled() {
        startWith("privateAddressWhitelist:\n  enabled: true\n  allowedRanges: ['10.99.0.0/16']\n");
        secret("deeplx_url", mock.origin() + "/translate");
        secret("libre_url", mock.origin() + "/libre");
        secret("lingva_url", mock.origin() + "/api/v1");
        secret("oneringtranslator_url", mock.origin() + "/onering");
        String text = "{\"text\":\"Hi\",\"lang\":\"de\",\"from_lang\":\"en\",\"to_lang\":\"de\"}";
        assertBlocked(mock.origin() + "/translate", "127.0.0.1", translate("deeplx", text));
        assertBlocked(mock.origin() + "/libre", "127.0.0.1", translate("libre", text));
        assertBlocked(mock.origin() + "/api/v1/auto/de/Hi", "127.0.0.1", translate("lingva", text));
        assertBlocked(mock.origin() + "/onering?text=Hi&from_lang=en&to_lang=de", "127.0.0.1",
                translate("onering", text));
        assertEquals(List.of(), mock.calls());
    }

    @Test
    void aRedirectToAPrivateAddressIsNotFollowed() {
        startWith("privateAddressWhitelist:\n  enabled: true\n  allowedRanges: ['127.0.0.1']\n");
        List<String> hitsOnOtherAddress = new CopyOnWriteArrayList<>();
        other = server.vertx.createHttpServer().requestHandler(request -> {
            hitsOnOtherAddress.add(request.uri());
            request.response().end("{\"translatedText\":\"Hallo\"}");
        });
        TestServer.await(other.listen(0, "127.0.0.2"));
        String target = "http://127.0.0.2:" + other.actualPort() + "/translate";
        mock.route("/translate", request -> request.response().setStatusCode(307).putHeader("Location", target).end());
        secret("libre_url", mock.origin() + "/translate");

        assertBlocked(target, "127.0.0.2", translate("libre", "{\"text\":\"Hi\",\"lang\":\"de\"}"));
        assertEquals(1, mock.calls().size()); // the allowed first hop was made
        assertEquals(List.of(), hitsOnOtherAddress);
    }
}
