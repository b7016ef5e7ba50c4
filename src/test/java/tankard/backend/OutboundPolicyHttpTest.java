package tankard.backend;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.RequestOptions;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tankard.testing.MockCompletionServer;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ST's private-address filter and outbound proxy (st-backends.md §0.4) on the completion routes. */
@Timeout(60)
class OutboundPolicyHttpTest extends ServerTest {
    private static final String CHAT = "/api/backends/chat-completions";
    private static final String TEXT = "/api/backends/text-completions";
    /** The filter on, with no loopback address allowed, so the loopback mock counts as a private address. */
    private static final String FILTER_WITHOUT_LOOPBACK = "privateAddressWhitelist:\n  enabled: true\n"
            + "  allowedRanges: ['10.99.0.0/16']\n";

    private MockCompletionServer mock;
    private final List<HttpServer> extraServers = new CopyOnWriteArrayList<>();
    /** The proxy's own Vert.x, as it must listen before Tankard starts. */
    private Vertx side;
    private HttpServer proxy;

    private void startWith(String configYaml) {
        start(configYaml);
        mock = MockCompletionServer.start(server.vertx);
    }

    @AfterEach
    void stopMocks() {
        if (mock != null) {
            mock.close();
        }
        extraServers.forEach(s -> TestServer.await(s.close().toCompletionStage().toCompletableFuture()));
        if (side != null) {
            TestServer.await(side.close().toCompletionStage().toCompletableFuture());
        }
    }

    private static String chatBody(String customUrl, boolean stream) {
        return "{\"chat_completion_source\":\"custom\",\"custom_url\":\"" + customUrl + "\",\"model\":\"mock-model\","
                + "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}],\"stream\":" + stream + "}";
    }

    private static String textBody(String server, boolean stream) {
        return "{\"api_type\":\"llamacpp\",\"api_server\":\"" + server + "\",\"prompt\":\"Hi\",\"stream\":" + stream + "}";
    }

    private static String refusal(String url, String ip) {
        return "request to " + url + " failed, reason: Blocked request to private IP address: " + ip;
    }

    @Test
    void aRefusedAddressGetsStsAnswersAndTheBackendIsNeverCalled() {
        startWith(FILTER_WITHOUT_LOOPBACK);
        String chatUrl = mock.baseUrl() + "/chat/completions";
        for (boolean stream : new boolean[]{false, true}) {
            HttpResponse<Buffer> chat = client.post(CHAT + "/generate", chatBody(mock.baseUrl(), stream));
            assertEquals(502, chat.statusCode());
            assertEquals("{\"error\":{\"message\":\"" + refusal(chatUrl, "127.0.0.1") + "\",\"type\":\"system\"}}",
                    chat.bodyAsString());
            HttpResponse<Buffer> text = client.post(TEXT + "/generate", textBody(mock.origin(), stream));
            assertEquals(200, text.statusCode());
            assertEquals("{\"error\":true,\"status\":\"UNKNOWN\",\"response\":\""
                    + refusal(mock.origin() + "/completion", "127.0.0.1") + "\"}", text.bodyAsString());
        }
        assertEquals("{\"error\":true}", client.post(CHAT + "/status", chatBody(mock.baseUrl(), false)).bodyAsString());
        assertEquals(500, client.post(TEXT + "/status", textBody(mock.origin(), false)).statusCode());
        assertEquals(List.of(), mock.calls());
    }

    @Test
    void aLanAddressIsRefusedWithTheDefaultSettings() {
        startWith("privateAddressWhitelist:\n  enabled: true\n");
        HttpResponse<Buffer> chat = client.post(CHAT + "/generate", chatBody("http://10.1.2.3:5000/v1", false));
        assertEquals(502, chat.statusCode());
        assertEquals("{\"error\":{\"message\":\"" + refusal("http://10.1.2.3:5000/v1/chat/completions", "10.1.2.3")
                + "\",\"type\":\"system\"}}", chat.bodyAsString());
        HttpResponse<Buffer> mapped = client.post(CHAT + "/generate", chatBody("http://[::ffff:192.168.1.1]:5000/v1", false));
        // ST lets IPv4-mapped addresses through (its ranges never match them); Tankard checks them as IPv4
        assertTrue(mapped.bodyAsString().contains("Blocked request to private IP address: ::ffff:c0a8:101"), mapped.bodyAsString());
    }

    @Test
    void loopbackModelServersKeepWorkingWithTheDefaultSettings() {
        startWith("privateAddressWhitelist:\n  enabled: true\n");
        HttpResponse<Buffer> chat = client.post(CHAT + "/generate", chatBody(mock.baseUrl(), false));
        assertEquals(200, chat.statusCode());
        assertTrue(chat.bodyAsString().contains(MockCompletionServer.replyText(1)), chat.bodyAsString());
        HttpResponse<Buffer> viaName = client.post(CHAT + "/generate",
                chatBody(mock.baseUrl().replace("127.0.0.1", "localhost"), false));
        assertEquals(200, viaName.statusCode());
        assertEquals(2, mock.calls().size());
    }

    @Test
    void aHostNameIsCheckedByTheAddressesItResolvesTo() {
        startWith(FILTER_WITHOUT_LOOPBACK);
        String byName = mock.baseUrl().replace("127.0.0.1", "localhost");
        HttpResponse<Buffer> chat = client.post(CHAT + "/generate", chatBody(byName, false));
        assertEquals(502, chat.statusCode());
        assertTrue(chat.bodyAsString().matches("\\{\"error\":\\{\"message\":\"request to " + byName.replace(".", "\\.")
                + "/chat/completions failed, reason: Blocked request to private IP address: (127\\.0\\.0\\.1|::1)\","
                + "\"type\":\"system\"}}"), chat.bodyAsString());
        assertEquals(List.of(), mock.calls());
        HttpResponse<Buffer> unknown = client.post(CHAT + "/generate", chatBody("http://nonexistent.invalid:5000/v1", false));
        assertEquals("{\"error\":{\"message\":\"request to http://nonexistent.invalid:5000/v1/chat/completions failed, "
                + "reason: Unable to resolve host: nonexistent.invalid. Set privateAddressWhitelist.allowUnresolvedHosts "
                + "to true to bypass this check.\",\"type\":\"system\"}}", unknown.bodyAsString());
    }

    @Test
    void redirectsAreCheckedLikeTheFirstRequest() {
        startWith("privateAddressWhitelist:\n  enabled: true\n  allowedRanges: ['127.0.0.1']\n");
        List<String> hitsOnOtherAddress = new CopyOnWriteArrayList<>();
        HttpServer other = server.vertx.createHttpServer()
                .requestHandler(request -> {
                    hitsOnOtherAddress.add(request.uri());
                    request.response().end("{}");
                });
        TestServer.await(other.listen(0, "127.0.0.2").toCompletionStage().toCompletableFuture());
        extraServers.add(other);
        String target = "http://127.0.0.2:" + other.actualPort() + "/v1/chat/completions";
        mock.onCompletion(request -> request.response().setStatusCode(303).putHeader("Location", target).end());
        HttpResponse<Buffer> refused = client.post(CHAT + "/generate", chatBody(mock.baseUrl(), false));
        assertEquals(502, refused.statusCode());
        assertEquals("{\"error\":{\"message\":\"" + refusal(target, "127.0.0.2") + "\",\"type\":\"system\"}}",
                refused.bodyAsString());
        assertEquals(List.of(), hitsOnOtherAddress);

        // an allowed target is followed
        mock.route("/v1/moved", request -> request.response().putHeader("Content-Type", "application/json")
                .end("{\"moved\":true}"));
        mock.onCompletion(request -> request.response().setStatusCode(303)
                .putHeader("Location", mock.baseUrl() + "/moved").end());
        HttpResponse<Buffer> followed = client.post(CHAT + "/generate", chatBody(mock.baseUrl(), false));
        assertEquals("{\"moved\":true}", followed.bodyAsString());
    }

    /** A forward proxy for plain-HTTP targets on its own Vert.x: it records each request line and relays it. */
    private List<String> startProxy() {
        List<String> seen = new CopyOnWriteArrayList<>();
        side = Vertx.vertx();
        HttpClient relay = side.createHttpClient();
        proxy = side.createHttpServer().requestHandler(request -> {
            seen.add(request.method() + " " + request.uri());
            request.body().compose(body -> relay.request(new RequestOptions().setMethod(request.method())
                            .setAbsoluteURI(request.uri()).setHeaders(request.headers()))
                    .compose(out -> out.send(body)).compose(answer -> answer.body().map(bytes -> {
                        request.response().setStatusCode(answer.statusCode()).end(bytes);
                        return bytes;
                    })))
                    .onFailure(e -> request.response().setStatusCode(502).end());
        });
        TestServer.await(proxy.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture());
        return seen;
    }

    @Test
    void requestsGoThroughTheConfiguredProxyUncheckedAsInSt() {
        List<String> seen = startProxy();
        startWith("requestProxy:\n  enabled: true\n  url: http://127.0.0.1:" + proxy.actualPort()
                + "\n  bypass: []\n" + FILTER_WITHOUT_LOOPBACK);
        HttpResponse<Buffer> chat = client.post(CHAT + "/generate", chatBody(mock.baseUrl(), false));
        assertEquals(200, chat.statusCode(), chat.bodyAsString());
        assertTrue(chat.bodyAsString().contains(MockCompletionServer.replyText(1)), chat.bodyAsString());
        assertEquals(List.of("POST " + mock.baseUrl() + "/chat/completions"), seen);
        assertEquals(1, mock.calls().size());
    }

    @Test
    void hostsOnTheBypassListAreCalledDirectly() {
        List<String> seen = startProxy();
        startWith("requestProxy:\n  enabled: true\n  url: http://127.0.0.1:" + proxy.actualPort()
                + "\n  bypass:\n    - localhost\n    - 127.0.0.1\n");
        HttpResponse<Buffer> chat = client.post(CHAT + "/generate", chatBody(mock.baseUrl(), false));
        assertEquals(200, chat.statusCode(), chat.bodyAsString());
        assertEquals(List.of(), seen);
        assertEquals(1, mock.calls().size());
    }
}
