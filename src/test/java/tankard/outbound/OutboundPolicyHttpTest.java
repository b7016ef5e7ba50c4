package tankard.outbound;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tankard.json.JsJson;
import tankard.testing.MockCompletionServer;
import tankard.testing.ConfiguredMockTest;
import tankard.testing.TestServer;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ST's private-address filter and outbound proxy (src/private-request-filter.js, src/request-proxy.js) on the
 * completion routes.
 */
@Timeout(60)
class OutboundPolicyHttpTest extends ConfiguredMockTest {
    private static final String CHAT = "/api/backends/chat-completions";
    private static final String TEXT = "/api/backends/text-completions";
    /** The filter on, with no loopback address allowed, so the loopback mock counts as a private address. */
    private static final String FILTER_WITHOUT_LOOPBACK = "privateAddressWhitelist:\n  enabled: true\n"
            + "  allowedRanges: ['10.99.0.0/16']\n";

    private final List<HttpServer> extraServers = new CopyOnWriteArrayList<>();
    /** The proxy's own Vert.x, as it must listen before Tankard starts. */
    private Vertx side;
    private HttpServer proxy;

    @AfterEach
    void stopMocks() {
        extraServers.forEach(s -> TestServer.await(s.close()));
        if (side != null) { // the mock runs on it: closed first
            mock.close();
            mock = null;
            TestServer.await(side.close());
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
        TestServer.await(other.listen(0, "127.0.0.2"));
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

    /** node-fetch's rules, as ST's calls follow redirects: 307 and 308 send the POST again, 301 to 303 turn it into a GET. */
    @Test
    void redirectsAreFollowedAsNodeFetchFollowsThem() {
        startWith("privateAddressWhitelist:\n  enabled: true\n"); // every hop is checked, and passes
        client.post("/api/secrets/write", "{\"key\":\"api_key_custom\",\"value\":\"sk\"}");
        mock.route("/v1/final", request -> request.response().putHeader("Content-Type", "application/json")
                .end("{\"moved\":true}"));
        String sent = null;
        for (int status : List.of(307, 308)) {
            mock.onCompletion(request -> request.response().setStatusCode(status).putHeader("Location", "/v1/final").end());
            for (boolean stream : new boolean[]{false, true}) {
                assertEquals("{\"moved\":true}", client.post(CHAT + "/generate", chatBody(mock.baseUrl(), stream)).bodyAsString());
                MockCompletionServer.Call resent = mock.lastCall();
                sent = mock.lastCall("/v1/chat/completions").body();
                assertEquals("POST /v1/final", resent.method() + " " + resent.path(), status + "");
                assertEquals(sent, resent.body());
                assertEquals("Bearer sk", resent.headers().get("Authorization"));
            }
        }
        assertTrue(sent.contains("\"messages\""), sent);
        for (int status : List.of(301, 302, 303)) {
            mock.onCompletion(request -> request.response().setStatusCode(status)
                    .putHeader("Location", mock.baseUrl() + "/final").end());
            assertEquals("{\"moved\":true}", client.post(CHAT + "/generate", chatBody(mock.baseUrl(), false)).bodyAsString());
            MockCompletionServer.Call get = mock.lastCall();
            assertEquals("GET /v1/final", get.method() + " " + get.path(), status + "");
            assertEquals("", get.body());
        }

        // to another host, the credentials stay behind
        mock.onCompletion(request -> request.response().setStatusCode(307)
                .putHeader("Location", mock.baseUrl().replace("127.0.0.1", "localhost") + "/final").end());
        assertEquals("{\"moved\":true}", client.post(CHAT + "/generate", chatBody(mock.baseUrl(), false)).bodyAsString());
        assertEquals(null, mock.lastCall().headers().get("Authorization"));
        assertEquals(mock.lastCall("/v1/chat/completions").body(), mock.lastCall().body());

        // 20 redirects are followed, not 21
        mock.route("/v1/hop", request -> {
            int left = Integer.parseInt(request.getParam("left"));
            request.response().setStatusCode(308).putHeader("Location", left == 0 ? "/v1/final" : "/v1/hop?left=" + (left - 1)).end();
        });
        mock.onCompletion(request -> request.response().setStatusCode(307).putHeader("Location", "/v1/hop?left=18").end());
        assertEquals("{\"moved\":true}", client.post(CHAT + "/generate", chatBody(mock.baseUrl(), false)).bodyAsString());
        Handler<HttpServerRequest> tooFar = request -> request.response().setStatusCode(307)
                .putHeader("Location", "/v1/hop?left=19").end();
        mock.onCompletion(tooFar);
        mock.route("/v1/completions", tooFar);
        HttpResponse<Buffer> tooMany = client.post(CHAT + "/generate", chatBody(mock.baseUrl(), false));
        assertEquals(502, tooMany.statusCode());
        assertEquals("{\"error\":{\"message\":\"maximum redirect reached at: " + mock.baseUrl() + "/hop?left=0\"}}",
                tooMany.bodyAsString());
        HttpResponse<Buffer> text = client.post(TEXT + "/generate", textBody(mock.baseUrl(), false)
                .replace("\"llamacpp\"", "\"generic\""));
        assertEquals("{\"error\":true,\"status\":\"UNKNOWN\",\"response\":\"maximum redirect reached at: "
                + mock.baseUrl() + "/hop?left=0\"}", text.bodyAsString());
    }

    /** Vertex AI's service-account token call is an outgoing call like the others: the filter refuses it too. */
    @Test
    void vertexAisTokenCallIsCheckedLikeTheOthers() throws Exception {
        side = Vertx.vertx();
        mock = MockCompletionServer.start(side);
        mock.route("/token", request -> request.response().end("{\"access_token\":\"ya29.t\"}"));
        start(FILTER_WITHOUT_LOOPBACK + TestServer.providerOrigins(Map.of("https://oauth2.googleapis.com", mock.origin(),
                "https://us-central1-aiplatform.googleapis.com", mock.origin())));
        KeyPair keys = KeyPairGenerator.getInstance("RSA").generateKeyPair();
        String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getEncoder().encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        String account = "{\"client_email\":\"bot@p.iam.gserviceaccount.com\",\"project_id\":\"p\",\"private_key\":"
                + JsJson.compact(JsJson.tree(pem)) + "}";
        client.post("/api/secrets/write", JsJson.compact(JsJson.object().put("key", "vertexai_service_account_json")
                .put("value", account)));
        HttpResponse<Buffer> r = client.post(CHAT + "/generate", "{\"chat_completion_source\":\"vertexai\","
                + "\"vertexai_auth_mode\":\"full\",\"model\":\"gemini-2.5-pro\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"Hi\"}]}");
        assertEquals(400, r.statusCode());
        assertEquals("{\"error\":true,\"message\":\"Service account authentication failed: "
                + refusal(mock.origin() + "/token", "127.0.0.1") + "\"}", r.bodyAsString());
        assertEquals(List.of(), mock.calls());
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
        TestServer.await(proxy.listen(0, "127.0.0.1"));
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
