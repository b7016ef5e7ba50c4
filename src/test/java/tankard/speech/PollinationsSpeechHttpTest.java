package tankard.speech;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;

import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/speech/pollinations/*} against a mock of Pollinations' API (ST: src/endpoints/speech.js). */
class PollinationsSpeechHttpTest extends PublicHostsMockTest {
    private static final String MODELS = POLLINATIONS + "/text/models";
    private static final String COMPLETIONS = POLLINATIONS + "/v1/chat/completions";

    @Test
    void theVoicesAreThoseOfTheModelAskedFor() {
        mock.route(MODELS, request -> json(request, 200, "[{\"name\":\"openai\"},{\"name\":\"openai-audio\","
                + "\"voices\":[\"alloy\",\"echo\"]},{\"name\":\"other-audio\",\"voices\":[\"nova\"]}]"));
        assertEquals("[\"alloy\",\"echo\"]", client.post("/api/speech/pollinations/voices", "{}").bodyAsString());
        assertEquals("[\"nova\"]", client.post("/api/speech/pollinations/voices", "{\"model\":\"other-audio\"}").bodyAsString());
        assertEquals("GET", mock.lastCall(MODELS).method());
        HttpResponse<Buffer> none = client.post("/api/speech/pollinations/voices", "{\"model\":\"openai\"}");
        assertEquals(500, none.statusCode());
        assertTrue(none.bodyAsString().contains("No voices found"), none.bodyAsString());
    }

    @Test
    void speechIsAnAudioCompletionAnsweredAsMp3() {
        client.post("/api/secrets/write", "{\"key\":\"api_key_pollinations\",\"value\":\"poll-key\"}");
        byte[] mp3 = {'I', 'D', '3', 1, 2};
        mock.route(COMPLETIONS, request -> json(request, 200, "{\"choices\":[{\"message\":{\"audio\":{\"data\":\""
                + Base64.getEncoder().encodeToString(mp3) + "\"}}}]}"));
        HttpResponse<Buffer> r = client.post("/api/speech/pollinations/generate", "{\"text\":\"Hi there\",\"voice\":\"echo\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("audio/mpeg", r.getHeader("Content-Type"));
        assertArrayEquals(mp3, r.body().getBytes());
        MockCompletionServer.Call call = mock.lastCall(COMPLETIONS);
        assertEquals("Bearer poll-key", call.headers().get("Authorization"));
        JsonNode sent = call.json();
        assertEquals("openai-audio", sent.get("model").asText());
        assertEquals(false, sent.get("stream").asBoolean());
        assertEquals("[\"text\",\"audio\"]", sent.get("modalities").toString());
        assertEquals("{\"format\":\"mp3\",\"voice\":\"echo\"}", sent.get("audio").toString());
        assertEquals("[{\"role\":\"user\",\"content\":\"Hi there\"}]", sent.get("messages").toString());
        assertTrue(sent.get("seed").canConvertToLong());
    }

    @Test
    void withoutAKeyItIs400AndAnAnswerWithoutAudioIs500() {
        assertEquals(400, client.post("/api/speech/pollinations/generate", "{\"text\":\"Hi\"}").statusCode());
        assertTrue(mock.calls().isEmpty());
        client.post("/api/secrets/write", "{\"key\":\"api_key_pollinations\",\"value\":\"poll-key\"}");
        mock.route(COMPLETIONS, request -> json(request, 200, "{\"choices\":[{\"message\":{\"content\":\"no audio\"}}]}"));
        HttpResponse<Buffer> r = client.post("/api/speech/pollinations/generate", "{\"text\":\"Hi\"}");
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsString().contains("audio data"), r.bodyAsString());
    }
}
