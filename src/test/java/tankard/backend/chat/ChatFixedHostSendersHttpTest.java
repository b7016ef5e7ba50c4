package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.MockCompletionServer;
import tankard.testing.ServerTest;
import tankard.testing.StreamingClient;
import tankard.testing.TestServer;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The senders whose hosts are fixed (Cohere; Vertex AI by API key or service account) with those hosts sent to
 * the mock by {@code tankard.providerOrigins}: Vertex's regional hosts become {@code /region-R} on the mock, its
 * global host {@code /global}, Google's token endpoint {@code /token}.
 */
class ChatFixedHostSendersHttpTest extends ServerTest {
    private static final String BASE = "/api/backends/chat-completions";
    private static final String MESSAGES = "[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\",\"content\":\"Hi\"}]";

    private static final String PLACEHOLDER = "Your turn, Bramble.";

    private Vertx mockVertx;
    private MockCompletionServer mock;

    @BeforeEach
    void startServers() {
        mockVertx = Vertx.vertx();
        mock = MockCompletionServer.start(mockVertx);
        start("promptPlaceholder: \"" + PLACEHOLDER + "\"\n" + TestServer.providerOrigins(Map.of(
                "https://api.cohere.ai", mock.origin(), "https://api.anthropic.com", mock.origin(),
                "https://europe-west4-aiplatform.googleapis.com", mock.origin() + "/region-europe-west4",
                "https://us-central1-aiplatform.googleapis.com", mock.origin() + "/region-us-central1",
                "https://aiplatform.googleapis.com", mock.origin() + "/global",
                "https://oauth2.googleapis.com", mock.origin())));
    }

    @AfterEach
    void stopMock() {
        // closing the Vert.x closes the mock too, if the test has not already
        TestServer.await(mockVertx.close());
    }

    private String body(String source, boolean stream, String model, String extra) {
        return "{\"type\":\"normal\",\"messages\":" + MESSAGES + ",\"model\":\"" + model + "\",\"temperature\":1,"
                + "\"max_tokens\":300,\"stream\":" + stream + ",\"top_p\":1,\"top_k\":0,\"stop\":[\"\\nWren:\"],"
                + "\"chat_completion_source\":\"" + source + "\",\"user_name\":\"Wren\",\"char_name\":\"Bramble\","
                + "\"use_sysprompt\":true" + extra + "}";
    }

    private HttpResponse<Buffer> generate(String json) {
        return client.post(BASE + "/generate", json);
    }

    private String streamed(String json) {
        return StreamingClient.await(StreamingClient.post(server, client, BASE + "/generate", json)
                .compose(HttpClientResponse::body)).toString();
    }

    private void secret(String key, String value) {
        client.post("/api/secrets/write", JsJson.compact(JsJson.object().put("key", key).put("value", value)));
    }

    /** ST's Claude and Cohere converters put config promptPlaceholder where the prompt has no turn. */
    @Test
    void claudeAndCohereTakeTheConfiguredPlaceholder() {
        secret("api_key_claude", "cl-key");
        secret("api_key_cohere", "co-key");
        mock.route("/v1/messages", request -> request.response().end("{\"content\":[]}"));
        mock.route("/v2/chat", request -> request.response().end("{}"));
        String systemOnly = "[{\"role\":\"system\",\"content\":\"Be brief.\"}]";
        generate(body("claude", false, "claude-3-haiku", "").replace(MESSAGES, systemOnly));
        assertEquals("[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"" + PLACEHOLDER + "\"}]}]",
                JsJson.compact(mock.lastCall("/v1/messages").json().get("messages")));
        generate(body("cohere", false, "command-r", "").replace(MESSAGES, "[]"));
        assertEquals("[{\"role\":\"user\",\"content\":\"" + PLACEHOLDER + "\"}]",
                JsJson.compact(mock.lastCall("/v2/chat").json().get("messages")));
    }

    @Test
    void cohereGetsV2ChatAndItsAnswerAsIs() {
        secret("api_key_cohere", "co-key");
        String answer = "{\"id\":\"c1\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\","
                + "\"text\":\"Hello.\"}]},\"finish_reason\":\"COMPLETE\"}";
        mock.route("/v2/chat", request -> request.response().end(answer));
        HttpResponse<Buffer> r = generate(body("cohere", false, "command-r-08-2024", ",\"seed\":5,\"tools\":[{"
                + "\"type\":\"function\",\"function\":{\"name\":\"roll\",\"parameters\":{\"$schema\":\"x\",\"type\":"
                + "\"object\"}}}],\"json_schema\":{\"name\":\"n\",\"value\":{\"type\":\"object\"}}"));
        assertEquals(200, r.statusCode());
        assertEquals(answer, r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("POST /v2/chat", call.method() + " " + call.path());
        assertEquals("Bearer co-key", call.headers().get("Authorization"));
        assertEquals("{\"stream\":false,\"model\":\"command-r-08-2024\",\"messages\":[{\"role\":\"system\",\"content\":"
                + "\"Be brief.\"},{\"role\":\"user\",\"content\":\"Hi\"}],\"temperature\":1,\"max_tokens\":300,\"k\":0,"
                + "\"p\":1,\"seed\":5,\"stop_sequences\":[\"\\nWren:\"],\"documents\":[],\"tools\":[{\"type\":\"function\","
                + "\"function\":{\"name\":\"roll\",\"parameters\":{\"type\":\"object\"}}}],\"safety_mode\":\"OFF\","
                + "\"response_format\":{\"type\":\"json_schema\",\"schema\":{\"type\":\"object\"}}}", call.body());
    }

    @Test
    void coheresStreamIsRelayedUntouchedErrorsIncluded() {
        secret("api_key_cohere", "co-key");
        String start = "event: message-start\ndata: {\"type\":\"message-start\",\"id\":\"c1\"}\n\n";
        String delta = "event: content-delta\ndata: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":"
                + "{\"content\":{\"text\":\"Hel\"}}}}\n\n";
        String error = "data: {\"message\":\"internal server error\"}\n\n";
        mock.route("/v2/chat", request -> {
            HttpServerResponse response = request.response().setChunked(true);
            response.write(start + delta.substring(0, 20)).compose(v -> response.end(delta.substring(20) + error));
        });
        assertEquals(start + delta + error, streamed(body("cohere", true, "command-r", "")));
        assertTrue(mock.lastCall().json().path("stream").asBoolean());
    }

    @Test
    void cohereErrorsAndStatusAnswerStsShapes() {
        secret("api_key_cohere", "co-key");
        mock.route("/v2/chat", request -> request.response().setStatusCode(400).end("{\"message\":\"invalid model\"}"));
        HttpResponse<Buffer> refused = generate(body("cohere", false, "command-x", ""));
        assertEquals(500, refused.statusCode());
        assertEquals("{\"message\":\"invalid model\"}", refused.bodyAsString());

        mock.route("/v1/models", request -> request.response().end("{\"models\":[{\"name\":\"command-r\"}]}"));
        HttpResponse<Buffer> status = client.post(BASE + "/status", "{\"chat_completion_source\":\"cohere\"}");
        assertEquals("{\"models\":[{\"name\":\"command-r\"}]}", status.bodyAsString(), "sent before ST maps it");
        assertEquals("Bearer co-key", mock.lastCall().headers().get("Authorization"));

        mock.close();
        HttpResponse<Buffer> unreachable = generate(body("cohere", false, "command-r", ""));
        assertEquals(200, unreachable.statusCode(), "ST answers Cohere's exceptions with a 200");
        assertEquals("{\"error\":true}", unreachable.bodyAsString());
    }

    @Test
    void vertexExpressCallsTheRegionsHostWithTheKey() {
        secret("api_key_vertexai", "vx-key");
        String answer = "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Hi.\"}]}}]}";
        mock.route("/region-europe-west4/v1/publishers/google/models/gemini-2.0-flash:generateContent",
                request -> request.response().end(answer));
        HttpResponse<Buffer> r = generate(body("vertexai", false, "gemini-2.0-flash",
                ",\"vertexai_region\":\"europe-west4\""));
        assertEquals("{\"choices\":[{\"message\":{\"content\":\"Hi.\"}}],\"responseContent\":{\"role\":\"model\","
                + "\"parts\":[{\"text\":\"Hi.\"}]}}", r.bodyAsString());
        assertEquals("key=vx-key", mock.lastCall().query());
        assertTrue(mock.lastCall().body().contains("HARM_CATEGORY_JAILBREAK"));

        mock.route("/global/v1/publishers/google/models/gemini-2.0-flash:streamGenerateContent",
                request -> request.response().end("data: {}\r\n\r\n"));
        assertEquals("data: {}\r\n\r\n", streamed(body("vertexai", true, "gemini-2.0-flash",
                ",\"vertexai_region\":\"global\"")));
        assertEquals("key=vx-key&alt=sse", mock.lastCall().query());

        mock.route("/global/v1/projects/p-7/locations/us-central1/publishers/google/models/gemini-2.0-flash:"
                + "generateContent", request -> request.response().end("{\"candidates\":[]}"));
        HttpResponse<Buffer> none = generate(body("vertexai", false, "gemini-2.0-flash",
                ",\"vertexai_express_project_id\":\"p-7\""));
        assertEquals("{\"error\":{\"message\":\"Google Vertex AI API returned no candidate\"}}", none.bodyAsString());
    }

    @Test
    void vertexFullModeSignsAJwtAndUsesTheAccessToken() throws Exception {
        KeyPair keys = KeyPairGenerator.getInstance("RSA").generateKeyPair();
        String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.UTF_8))
                .encodeToString(keys.getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n";
        secret("vertexai_service_account_json", JsJson.compact(JsJson.object().put("type", "service_account")
                .put("project_id", "proj-1").put("client_email", "bot@proj-1.iam.gserviceaccount.com")
                .put("private_key", pem)));
        mock.route("/token", request -> request.response().end("{\"access_token\":\"ya29.t\",\"token_type\":\"Bearer\"}"));
        String path = "/region-us-central1/v1/projects/proj-1/locations/us-central1/publishers/google/models/"
                + "gemini-2.5-pro:streamGenerateContent";
        mock.route(path, request -> request.response().end("data: {}\r\n\r\n"));

        long before = System.currentTimeMillis() / 1000;
        assertEquals("data: {}\r\n\r\n", streamed(body("vertexai", true, "gemini-2.5-pro",
                ",\"vertexai_auth_mode\":\"full\"")));
        MockCompletionServer.Call call = mock.lastCall(path);
        assertEquals("alt=sse", call.query());
        assertEquals("Bearer ya29.t", call.headers().get("Authorization"));

        MockCompletionServer.Call token = mock.lastCall("/token");
        assertEquals("application/x-www-form-urlencoded", token.headers().get("Content-Type"));
        Map<String, String> form = new HashMap<>();
        for (String pair : token.body().split("&")) {
            String[] kv = pair.split("=", 2);
            form.put(kv[0], URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
        }
        assertEquals("urn:ietf:params:oauth:grant-type:jwt-bearer", form.get("grant_type"));
        String[] jwt = form.get("assertion").split("\\.");
        assertEquals("{\"alg\":\"RS256\",\"typ\":\"JWT\"}", decode(jwt[0]));
        JsonNode claims = JsJson.parse(decode(jwt[1]));
        assertEquals("bot@proj-1.iam.gserviceaccount.com", claims.get("iss").asText());
        assertEquals("https://www.googleapis.com/auth/cloud-platform", claims.get("scope").asText());
        assertEquals("https://oauth2.googleapis.com/token", claims.get("aud").asText());
        long iat = claims.get("iat").asLong();
        assertTrue(iat >= before && iat <= before + 60, "issued now: " + iat);
        assertEquals(iat + 3600, claims.get("exp").asLong());
        Signature verifier = Signature.getInstance("SHA256withRSA");
        verifier.initVerify(keys.getPublic());
        verifier.update((jwt[0] + "." + jwt[1]).getBytes(StandardCharsets.UTF_8));
        assertTrue(verifier.verify(Base64.getUrlDecoder().decode(jwt[2])), "signed with the account's key");
    }

    @Test
    void vertexFullModeFailuresAnswerStsShapes() throws Exception {
        KeyPair keys = KeyPairGenerator.getInstance("RSA").generateKeyPair();
        String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getEncoder().encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        secret("vertexai_service_account_json", JsJson.compact(JsJson.object().put("client_email", "a@b")
                .put("private_key", pem)));
        mock.route("/token", request -> request.response().setStatusCode(400).end("invalid_grant"));
        HttpResponse<Buffer> refused = generate(body("vertexai", false, "gemini-2.5-pro",
                ",\"vertexai_auth_mode\":\"full\""));
        assertEquals(400, refused.statusCode());
        assertEquals("{\"error\":true,\"message\":\"Service account authentication failed: Failed to get access "
                + "token: invalid_grant\"}", refused.bodyAsString());

        mock.route("/token", request -> request.response().end("{\"access_token\":\"ya29.t\"}"));
        HttpResponse<Buffer> noProject = generate(body("vertexai", false, "gemini-2.5-pro",
                ",\"vertexai_auth_mode\":\"full\""));
        assertEquals(400, noProject.statusCode());
        assertEquals("{\"error\":true}", noProject.bodyAsString());
    }

    private static String decode(String base64Url) {
        return new String(Base64.getUrlDecoder().decode(base64Url), StandardCharsets.UTF_8);
    }
}
