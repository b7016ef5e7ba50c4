package tankard.backend.openai;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code /api/openai/*generate-voice} routes against mocks of the speech services (ST: src/endpoints/openai.js). */
class OpenAiSpeechHttpTest extends PublicHostsMockTest {
    private static final byte[] MP3 = {'I', 'D', '3', 4, 0, 0, 1, 2};

    private void secret(String key, String value) {
        client.post("/api/secrets/write", "{\"key\":\"" + key + "\",\"value\":\"" + value + "\"}");
    }

    private void audio(String path, String type) {
        mock.route(path, request -> request.response().putHeader("Content-Type", type).end(Buffer.buffer(MP3)));
    }

    @Test
    void openAiGetsStsSpeechRequestAndTheMp3ComesBack() {
        secret("api_key_openai", "sk-test");
        audio("/openai/v1/audio/speech", "audio/mpeg");
        HttpResponse<Buffer> r = client.post("/api/openai/generate-voice",
                "{\"text\":\"Hello there\",\"voice\":\"nova\",\"instructions\":\"Cheerfully\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("audio/mpeg", r.getHeader("Content-Type"));
        assertArrayEquals(MP3, r.body().getBytes());
        MockCompletionServer.Call call = mock.lastCall("/openai/v1/audio/speech");
        assertEquals("Bearer sk-test", call.headers().get("Authorization"));
        assertEquals("{\"input\":\"Hello there\",\"response_format\":\"mp3\",\"voice\":\"nova\",\"speed\":1,\"model\":\"tts-1\","
                + "\"instructions\":\"Cheerfully\"}", call.body());
    }

    @Test
    void aCustomServerGetsItsDefaultsAndItsKeyEvenWhenEmpty() {
        audio("/my-tts/speech", "audio/ogg");
        HttpResponse<Buffer> r = client.post("/api/openai/custom/generate-voice",
                "{\"provider_endpoint\":\"" + mock.origin() + "/my-tts/speech\",\"input\":\"Hi\",\"voice\":\"v1\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("audio/mpeg", r.getHeader("Content-Type")); // ST types it as MP3 whatever came
        assertArrayEquals(MP3, r.body().getBytes());
        MockCompletionServer.Call call = mock.lastCall("/my-tts/speech");
        assertEquals("Bearer", call.headers().get("Authorization")); // "Bearer " with no key, its space dropped on the wire
        assertEquals("{\"input\":\"Hi\",\"response_format\":\"mp3\",\"voice\":\"v1\",\"speed\":1,\"model\":\"tts-1\"}", call.body());
        secret("api_key_custom_openai_tts", "tts-key");
        client.post("/api/openai/custom/generate-voice", "{\"provider_endpoint\":\"" + mock.origin() + "/my-tts/speech\"}");
        assertEquals("Bearer tts-key", mock.lastCall("/my-tts/speech").headers().get("Authorization"));
        HttpResponse<Buffer> none = client.post("/api/openai/custom/generate-voice", "{\"input\":\"Hi\"}");
        assertEquals(400, none.statusCode());
        assertTrue(none.bodyAsString().contains("provider_endpoint"), none.bodyAsString());
    }

    @Test
    void electronHubPassesTheFrontendsExtraParametersAndItsAudioType() {
        secret("api_key_electronhub", "eh-key");
        audio("/electronhub/v1/audio/speech", "audio/wav");
        HttpResponse<Buffer> r = client.post("/api/openai/electronhub/generate-voice", "{\"input\":\"Hi\",\"voice\":\"alloy\","
                + "\"model\":\"\",\"cfg_scale\":2,\"speech_rate\":\"fast\",\"seed\":7,\"emotional_style\":\"calm\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("audio/wav", r.getHeader("Content-Type"));
        assertArrayEquals(MP3, r.body().getBytes());
        MockCompletionServer.Call call = mock.lastCall("/electronhub/v1/audio/speech");
        assertEquals("Bearer eh-key", call.headers().get("Authorization"));
        assertEquals("{\"input\":\"Hi\",\"voice\":\"alloy\",\"speed\":1,\"model\":\"tts-1\",\"response_format\":\"mp3\","
                + "\"cfg_scale\":2,\"emotional_style\":\"calm\",\"speech_rate\":\"fast\",\"seed\":7}", call.body());
    }

    @Test
    void chutesKokoroGetsTextVoiceAndSpeed() {
        secret("api_key_chutes", "ch-key");
        audio("/chutes-kokoro/speak", "audio/wav");
        HttpResponse<Buffer> r = client.post("/api/openai/chutes/generate-voice", "{\"input\":\"Hi\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("audio/wav", r.getHeader("Content-Type"));
        MockCompletionServer.Call call = mock.lastCall("/chutes-kokoro/speak");
        assertEquals("Bearer ch-key", call.headers().get("Authorization"));
        assertEquals("{\"text\":\"Hi\",\"voice\":\"af_heart\",\"speed\":1}", call.body());
    }

    @Test
    void withoutAKeyItIs400AndAnUpstreamErrorIs500WithItsText() {
        for (String route : new String[]{"/api/openai/generate-voice", "/api/openai/electronhub/generate-voice",
                "/api/openai/chutes/generate-voice"}) {
            assertEquals(400, client.post(route, "{\"text\":\"Hi\",\"input\":\"Hi\"}").statusCode(), route);
        }
        assertTrue(mock.calls().isEmpty());
        secret("api_key_openai", "sk-test");
        mock.route("/openai/v1/audio/speech", request -> json(request, 429, "{\"error\":{\"message\":\"Rate limit reached\"}}"));
        HttpResponse<Buffer> r = client.post("/api/openai/generate-voice", "{\"text\":\"Hi\"}");
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsString().contains("Rate limit reached"), r.bodyAsString());
    }
}
