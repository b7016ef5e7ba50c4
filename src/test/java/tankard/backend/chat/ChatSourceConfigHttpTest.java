package tankard.backend.chat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.ServerTest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ST's {@code claude.*} and {@code gemini.apiVersion} settings in config.yaml reach the Claude and Google calls. */
class ChatSourceConfigHttpTest extends ServerTest {
    private static final String BASE = "/api/backends/chat-completions";

    private MockCompletionServer mock;

    @BeforeEach
    void startServers() {
        start("claude:\n  enableSystemPromptCache: true\n  extendedTTL: true\ngemini:\n  apiVersion: v1alpha\n");
        mock = MockCompletionServer.start(server.vertx);
    }

    @AfterEach
    void stopMock() {
        mock.close();
    }

    private String body(String source, String model) {
        return "{\"type\":\"normal\",\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},"
                + "{\"role\":\"user\",\"content\":\"Hi\"}],\"model\":\"" + model + "\",\"max_tokens\":30,"
                + "\"stream\":false,\"chat_completion_source\":\"" + source + "\",\"use_sysprompt\":true,"
                + "\"reverse_proxy\":\"" + (source.equals("claude") ? mock.baseUrl() : mock.origin() + "/")
                + "\",\"proxy_password\":\"pw\"}";
    }

    @Test
    void claudeCachesTheSystemPromptForAnHour() {
        mock.route("/v1/messages", request -> request.response().end("{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}"));
        assertEquals(200, client.post(BASE + "/generate", body("claude", "claude-3-5-sonnet-20241022")).statusCode());
        String sent = mock.lastCall().body();
        assertTrue(sent.startsWith("{\"system\":[{\"type\":\"text\",\"text\":\"Be brief.\",\"cache_control\":"
                + "{\"type\":\"ephemeral\",\"ttl\":\"1h\"}}]"), sent);
    }

    @Test
    void aiStudioUsesTheConfiguredApiVersion() {
        mock.route("/v1alpha/models/gemini-2.5-flash:generateContent", request -> request.response()
                .end("{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"ok\"}]}}]}"));
        assertEquals(200, client.post(BASE + "/generate", body("makersuite", "gemini-2.5-flash")).statusCode());
        assertEquals("/v1alpha/models/gemini-2.5-flash:generateContent", mock.lastCall().path());
    }
}
