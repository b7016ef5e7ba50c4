package tankard.backend.openai;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/openai/caption-image} against mocks of the chat APIs it calls (ST: src/endpoints/openai.js). */
class OpenAiCaptionHttpTest extends PublicHostsMockTest {
    private static final String ROUTE = "/api/openai/caption-image";
    private static final String IMAGE = "data:image/png;base64,iVBORw0KGgo=";
    private static final String OPENAI = "/openai/v1/chat/completions";

    private void secret(String key, String value) {
        client.post("/api/secrets/write", "{\"key\":\"" + key + "\",\"value\":\"" + value + "\"}");
    }

    private static void answer(HttpServerRequest request, String caption) {
        json(request, 200, "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"" + caption + "\"}}]}");
    }

    private HttpResponse<Buffer> caption(String fields) {
        return client.post(ROUTE, "{\"image\":\"" + IMAGE + "\",\"prompt\":\"What is here?\",\"model\":\"gpt-4o\"," + fields + "}");
    }

    @Test
    void openAiGetsThePromptAndImageInOneMessageWithTheKey() {
        secret("api_key_openai", "sk-test");
        mock.route(OPENAI, request -> answer(request, "A cat."));
        HttpResponse<Buffer> r = caption("\"api\":\"openai\"");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"caption\":\"A cat.\"}", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(OPENAI);
        assertEquals("POST", call.method());
        assertEquals("Bearer sk-test", call.headers().get("Authorization"));
        assertEquals("application/json", call.headers().get("Content-Type"));
        assertEquals("{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":"
                + "\"What is here?\"},{\"type\":\"image_url\",\"image_url\":{\"url\":\"" + IMAGE + "\"}}]}]}", call.body());
    }

    @Test
    void openRouterCarriesStsAttributionHeaders() {
        secret("api_key_openrouter", "or-key");
        mock.route(OPENROUTER_API + "/chat/completions", request -> answer(request, "A dog."));
        assertEquals("{\"caption\":\"A dog.\"}", caption("\"api\":\"openrouter\"").bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(OPENROUTER_API + "/chat/completions");
        assertEquals("Bearer or-key", call.headers().get("Authorization"));
        assertEquals("https://sillytavern.app", call.headers().get("HTTP-Referer"));
        assertEquals("SillyTavern", call.headers().get("X-Title"));
    }

    @Test
    void aCustomServerNeedsNoKeyAndTakesTheYamlHeadersAndBody() {
        mock.route("/custom/v1/chat/completions", request -> answer(request, "Custom."));
        HttpResponse<Buffer> r = caption("\"api\":\"custom\",\"server_url\":\"" + mock.origin() + "/custom/v1\","
                + "\"custom_include_headers\":\"X-Extra: yes\",\"custom_include_body\":\"temperature: 0.5\","
                + "\"custom_exclude_body\":\"- model\"");
        assertEquals("{\"caption\":\"Custom.\"}", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall("/custom/v1/chat/completions");
        assertEquals("Bearer", call.headers().get("Authorization")); // "Bearer " with no key, its space dropped on the wire
        assertEquals("yes", call.headers().get("X-Extra"));
        JsonNode sent = call.json();
        assertEquals(0.5, sent.get("temperature").asDouble());
        assertTrue(!sent.has("model"), sent.toString());
    }

    @Test
    void aReverseProxyTakesOpenAisPlaceWithItsPassword() {
        mock.route("/proxy/v1/chat/completions", request -> answer(request, "Proxied."));
        HttpResponse<Buffer> r = caption("\"api\":\"openai\",\"reverse_proxy\":\"" + mock.origin() + "/proxy/v1\","
                + "\"proxy_password\":\"pw\"");
        assertEquals("{\"caption\":\"Proxied.\"}", r.bodyAsString());
        assertEquals("Bearer pw", mock.lastCall("/proxy/v1/chat/completions").headers().get("Authorization"));
    }

    @Test
    void zaiSendsAVideoAsVideoUrlToTheCodingEndpointWithMoreTokens() {
        secret("api_key_zai", "zai-key");
        String path = "/zai/api/coding/paas/v4/chat/completions";
        mock.route(path, request -> answer(request, "A clip."));
        String video = "data:video/mp4;base64,AAAA";
        HttpResponse<Buffer> r = client.post(ROUTE, "{\"api\":\"zai\",\"zai_endpoint\":\"coding\",\"image\":\"" + video
                + "\",\"prompt\":\"?\",\"model\":\"glm-4.5v\"}");
        assertEquals("{\"caption\":\"A clip.\"}", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(path);
        assertEquals("Bearer zai-key", call.headers().get("Authorization"));
        assertEquals("{\"model\":\"glm-4.5v\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"?\"},"
                + "{\"type\":\"video_url\",\"video_url\":{\"url\":\"" + video + "\"}}]}],\"max_tokens\":4096}", call.body());
    }

    @Test
    void oobaGetsThePromptAndImageAsTwoMessagesAtV1() {
        mock.route("/ooba/v1/chat/completions", request -> answer(request, "Ooba."));
        HttpResponse<Buffer> r = caption("\"api\":\"ooba\",\"server_url\":\"" + mock.origin() + "/ooba/v1/\"");
        assertEquals("{\"caption\":\"Ooba.\"}", r.bodyAsString());
        assertEquals("{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"What is here?\"},{\"role\":\"user\","
                + "\"content\":[],\"image_url\":\"" + IMAGE + "\"}],\"temperature\":0.1}", mock.lastCall("/ooba/v1/chat/completions").body());
    }

    @Test
    void workersAiCallsTheAccountsEndpointAndNeedsAnAccount() {
        secret("api_key_workers_ai", "cf-key");
        String path = "/cloudflare/client/v4/accounts/acc%201/ai/v1/chat/completions";
        mock.route(path, request -> answer(request, "Cloudflare."));
        HttpResponse<Buffer> none = caption("\"api\":\"workers_ai\"");
        assertEquals(400, none.statusCode());
        assertEquals("{\"error\":\"Cloudflare Workers AI Account ID is required\"}", none.bodyAsString());
        assertEquals("{\"caption\":\"Cloudflare.\"}", caption("\"api\":\"workers_ai\",\"workers_ai_account_id\":\" acc 1 \"").bodyAsString());
        assertEquals("Bearer cf-key", mock.lastCall(path).headers().get("Authorization"));
    }

    @Test
    void cohereShapedAnswersAreReadToo() {
        secret("api_key_xai", "xai-key");
        mock.route("/xai/v1/chat/completions", request -> json(request, 200, "{\"message\":{\"content\":[{\"text\":\"Cohere style.\"}]}}"));
        assertEquals("{\"caption\":\"Cohere style.\"}", caption("\"api\":\"xai\"").bodyAsString());
    }

    @Test
    void withoutAKeyOrAKnownApiItIs400AndNothingIsCalled() {
        HttpResponse<Buffer> noKey = caption("\"api\":\"openai\"");
        assertEquals(400, noKey.statusCode());
        assertTrue(noKey.bodyAsString().contains("No API key is set for openai"), noKey.bodyAsString());
        HttpResponse<Buffer> unknown = caption("\"api\":\"nowhere\"");
        assertEquals(400, unknown.statusCode());
        assertTrue(unknown.bodyAsString().contains("Unknown captioning API"), unknown.bodyAsString());
        assertEquals(400, caption("\"api\":\"custom\"").statusCode()); // no server_url
        assertTrue(mock.calls().isEmpty(), mock.calls().toString());
    }

    @Test
    void anUpstreamErrorAndAnAnswerWithoutACaptionAre500() {
        secret("api_key_openai", "sk-test");
        mock.route(OPENAI, request -> json(request, 401, "{\"error\":{\"message\":\"Incorrect API key\"}}"));
        HttpResponse<Buffer> failed = caption("\"api\":\"openai\"");
        assertEquals(500, failed.statusCode());
        assertTrue(failed.bodyAsString().contains("Incorrect API key"), failed.bodyAsString());
        mock.route(OPENAI, request -> json(request, 200, "{\"choices\":[]}"));
        HttpResponse<Buffer> empty = caption("\"api\":\"openai\"");
        assertEquals(500, empty.statusCode());
        assertTrue(empty.bodyAsString().contains("No caption found"), empty.bodyAsString());
    }
}
