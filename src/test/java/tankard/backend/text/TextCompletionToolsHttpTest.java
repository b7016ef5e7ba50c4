package tankard.backend.text;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.MockBackendTest;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TextCompletionToolsHttpTest extends MockBackendTest {
    private static final String BASE = "/api/backends/text-completions";


    private String answer(String route, String body) {
        HttpResponse<Buffer> r = client.post(BASE + route, body);
        return r.statusCode() + " " + r.bodyAsString();
    }

    private MockCompletionServer.Call last() {
        return mock.lastCall();
    }

    @Test
    void ollamaPullsAModel() {
        assertEquals("200 {\"ok\":true}", answer("/ollama/download",
                "{\"name\":\"llava:7b\",\"api_server\":\"" + mock.origin() + "/\"}"));
        assertEquals("POST /api/pull", last().method() + " " + last().path());
        assertEquals("{\"name\":\"llava:7b\",\"stream\":false}", last().body());
        assertEquals(400, client.post(BASE + "/ollama/download", "{\"name\":\"llava:7b\"}").statusCode());
        mock.route("/api/pull", request -> request.response().setStatusCode(500).end("{\"error\":\"offline\"}"));
        assertEquals("500 {\"error\":true}", answer("/ollama/download",
                "{\"name\":\"llava:7b\",\"api_server\":\"" + mock.origin() + "\"}"));
        assertEquals(502, client.post(BASE + "/ollama/download",
                "{\"name\":\"llava:7b\",\"api_server\":\"http://127.0.0.1:1\"}").statusCode(), "unreachable");
    }

    @Test
    void ollamaCaptionsAnImage() {
        mock.route("/api/generate", request -> request.response().end("{\"response\":\"A cat.\",\"done\":true}"));
        assertEquals("200 {\"caption\":\"A cat.\"}", answer("/ollama/caption-image",
                "{\"server_url\":\"" + mock.baseUrl() + "\",\"model\":\"llava\",\"prompt\":\"What is it?\",\"image\":\"aGk=\"}"));
        assertEquals("{\"model\":\"llava\",\"prompt\":\"What is it?\",\"images\":[\"aGk=\"],\"stream\":false}", last().body());
        mock.route("/api/generate", request -> request.response().end("{\"response\":\"\"}"));
        assertEquals("500 {\"error\":true}", answer("/ollama/caption-image",
                "{\"server_url\":\"" + mock.origin() + "\",\"model\":\"llava\",\"image\":\"aGk=\"}"));
        assertEquals(400, client.post(BASE + "/ollama/caption-image", "{\"server_url\":\"" + mock.origin() + "\"}").statusCode());
    }

    @Test
    void llamaCppPropsArePassedThrough() {
        assertEquals("200 {\"chat_template\":\"{{ messages }}\\u0000\",\"default_generation_settings\":{\"n_ctx\":4096},"
                + "\"total_slots\":1}", answer("/llamacpp/props", "{\"server_url\":\"" + mock.baseUrl() + "/\"}"));
        assertEquals("GET /props", last().method() + " " + last().path());
        assertEquals(400, client.post(BASE + "/llamacpp/props", "{}").statusCode());
        mock.route("/props", request -> request.response().setStatusCode(503).end());
        assertEquals("500 {\"error\":true}", answer("/llamacpp/props", "{\"server_url\":\"" + mock.origin() + "\"}"));
    }

    @Test
    void llamaCppSlotsAreListedSavedRestoredAndErased() {
        String server = "\"server_url\":\"" + mock.origin() + "\"";
        assertEquals("200 [{\"id\":0,\"is_processing\":false}]", answer("/llamacpp/slots", "{" + server + ",\"action\":\"info\"}"));
        assertEquals("GET /slots", last().method() + " " + last().path());
        assertEquals("200 {\"id_slot\":0,\"n_saved\":12}", answer("/llamacpp/slots",
                "{" + server + ",\"action\":\"save\",\"id_slot\":0,\"filename\":\"chat.bin\"}"));
        assertEquals("POST /slots/0 action=save {\"filename\":\"chat.bin\"}",
                last().method() + " " + last().path() + " " + last().query() + " " + last().body());
        answer("/llamacpp/slots", "{" + server + ",\"action\":\"erase\",\"id_slot\":\"0\"}");
        assertEquals("action=erase {}", last().query() + " " + last().body());
        int calls = mock.calls().size();
        for (String bad : new String[] {"\"action\":\"drop\"", "\"action\":\"save\",\"id_slot\":\"../0\",\"filename\":\"x\"",
                "\"action\":\"restore\",\"id_slot\":0"}) {
            assertEquals(400, client.post(BASE + "/llamacpp/slots", "{" + server + "," + bad + "}").statusCode(), bad);
        }
        assertEquals(calls, mock.calls().size(), "bad requests reach no backend");
    }

    @Test
    void tabbyDownloadsWithAnAdminKeyOnly() {
        client.post("/api/secrets/write", "{\"key\":\"api_key_tabby\",\"value\":\"sk-admin\"}");
        String body = "{\"repo_id\":\"org/model\",\"include\":[\"*.safetensors\"],\"api_server\":\"" + mock.origin()
                + "/\",\"api_type\":\"tabby\"}";
        assertEquals("200 {\"ok\":true}", answer("/tabby/download", body));
        MockCompletionServer.Call download = last();
        assertEquals("POST /v1/download", download.method() + " " + download.path());
        assertEquals(body, download.body());
        assertEquals("sk-admin", download.headers().get("X-API-KEY"));
        assertEquals("Bearer sk-admin", mock.calls().get(mock.calls().size() - 2).headers().get("Authorization"));

        mock.route("/v1/auth/permission", request -> request.response().end("{\"permission\":\"api\"}"));
        assertEquals("403 {\"error\":true}", answer("/tabby/download", body));
        mock.route("/v1/auth/permission", request -> request.response().setStatusCode(401).end());
        assertEquals("500 {\"error\":true}", answer("/tabby/download", body));
        mock.route("/v1/auth/permission", request -> request.response().end("{\"permission\":\"admin\"}"));
        mock.route("/v1/download", request -> request.response().setStatusCode(500).end());
        assertEquals("500 {\"error\":true}", answer("/tabby/download", body));
    }
}
