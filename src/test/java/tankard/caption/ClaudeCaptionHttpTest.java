package tankard.caption;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/anthropic/caption-image} against a mock of Anthropic's API (ST: src/endpoints/anthropic.js). */
class ClaudeCaptionHttpTest extends PublicHostsMockTest {
    private static final String MESSAGES = "/anthropic/v1/messages";
    private static final String IMAGE = "data:image/png;base64,iVBORw0KGgo=";

    @Test
    void theImageAndPromptGoInOneMessageAndTheFirstTextIsTheCaption() {
        client.post("/api/secrets/write", "{\"key\":\"api_key_claude\",\"value\":\"sk-ant-test\"}");
        mock.route(MESSAGES, request -> request.response().putHeader("Content-Type", "application/json")
                .end("{\"content\":[{\"type\":\"text\",\"text\":\"A cat on a mat.\"}]}"));
        HttpResponse<Buffer> r = client.post("/api/anthropic/caption-image",
                "{\"image\":\"" + IMAGE + "\",\"prompt\":\"What is in this picture?\",\"model\":\"claude-3-5-sonnet\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"caption\":\"A cat on a mat.\"}", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(MESSAGES);
        assertEquals("sk-ant-test", call.headers().get("x-api-key"));
        assertEquals("2023-06-01", call.headers().get("anthropic-version"));
        JsonNode sent = call.json();
        assertEquals("{\"model\":\"claude-3-5-sonnet\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image\",\"source\":"
                + "{\"type\":\"base64\",\"media_type\":\"image/png\",\"data\":\"iVBORw0KGgo=\"}},{\"type\":\"text\",\"text\":"
                + "\"What is in this picture?\"}]}],\"max_tokens\":4096}", sent.toString());
    }

    @Test
    void aReverseProxyGetsTheCallWithItsPassword() {
        mock.route("/proxy/v1/messages", request -> request.response().putHeader("Content-Type", "application/json")
                .end("{\"content\":[{\"type\":\"text\",\"text\":\"Through the proxy.\"}]}"));
        HttpResponse<Buffer> r = client.post("/api/anthropic/caption-image", "{\"image\":\"" + IMAGE + "\",\"prompt\":\"?\","
                + "\"model\":\"m\",\"reverse_proxy\":\"" + mock.origin() + "/proxy/v1\",\"proxy_password\":\"pw\"}");
        assertEquals("{\"caption\":\"Through the proxy.\"}", r.bodyAsString());
        assertEquals("pw", mock.lastCall("/proxy/v1/messages").headers().get("x-api-key"));
    }

    @Test
    void aBadImageIs400AndAnAnswerWithoutTextIsA500ThatSaysSo() {
        HttpResponse<Buffer> bad = client.post("/api/anthropic/caption-image", "{\"image\":\"not a data url\",\"prompt\":\"?\"}");
        assertEquals(400, bad.statusCode());
        assertTrue(mock.calls().isEmpty());
        mock.route(MESSAGES, request -> request.response().putHeader("Content-Type", "application/json").end("{\"content\":[]}"));
        HttpResponse<Buffer> empty = client.post("/api/anthropic/caption-image", "{\"image\":\"" + IMAGE + "\",\"prompt\":\"?\",\"model\":\"m\"}");
        assertEquals(500, empty.statusCode());
        assertTrue(empty.bodyAsString().contains("Claude answered without a caption"), empty.bodyAsString());
    }
}
