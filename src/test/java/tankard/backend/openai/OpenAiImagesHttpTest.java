package tankard.backend.openai;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;

import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/openai/generate-image} and {@code /generate-video} against a mock of OpenAI (ST: src/endpoints/openai.js). */
@Timeout(60)
class OpenAiImagesHttpTest extends PublicHostsMockTest {
    private void key() {
        client.post("/api/secrets/write", "{\"key\":\"api_key_openai\",\"value\":\"sk-test\"}");
    }

    @Test
    void theImageRequestGoesAsItCameAndItsAnswerComesBack() {
        key();
        String answer = "{\"created\":1,\"data\":[{\"b64_json\":\"iVBORw0KGgo=\",\"revised_prompt\":\"A red fox\"}]}";
        mock.route("/openai/v1/images/generations", request -> json(request, 200, answer));
        String body = "{\"prompt\":\"A fox\",\"model\":\"gpt-image-1\",\"n\":1,\"size\":\"1024x1024\",\"response_format\":\"b64_json\"}";
        HttpResponse<Buffer> r = client.post("/api/openai/generate-image", body);
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals(answer, r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall("/openai/v1/images/generations");
        assertEquals("Bearer sk-test", call.headers().get("Authorization"));
        assertEquals(body, call.body());
    }

    @Test
    void anImageWithoutAKeyIs400AndAnOpenAiErrorIs500() {
        assertEquals(400, client.post("/api/openai/generate-image", "{\"prompt\":\"A fox\"}").statusCode());
        assertEquals(400, client.post("/api/openai/generate-video", "{\"prompt\":\"A fox\"}").statusCode());
        assertTrue(mock.calls().isEmpty());
        key();
        mock.route("/openai/v1/images/generations", request -> json(request, 400,
                "{\"error\":{\"message\":\"Your request was rejected by the safety system.\"}}"));
        HttpResponse<Buffer> r = client.post("/api/openai/generate-image", "{\"prompt\":\"A fox\"}");
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsString().contains("safety system"), r.bodyAsString());
    }

    @Test
    void aVideoJobIsPolledUntilDoneAndItsMp4ComesBackAsBase64() {
        key();
        byte[] mp4 = {0, 0, 0, 24, 'f', 't', 'y', 'p', 'm', 'p', '4', '2'};
        mock.route("/openai/v1/videos", request -> json(request, 200, "{\"id\":\"video_123\",\"status\":\"queued\"}"));
        AtomicInteger polls = new AtomicInteger();
        mock.route("/openai/v1/videos/video_123", request -> json(request, 200, polls.incrementAndGet() == 1
                ? "{\"id\":\"video_123\",\"status\":\"in_progress\",\"progress\":50}"
                : "{\"id\":\"video_123\",\"status\":\"completed\",\"progress\":100}"));
        mock.route("/openai/v1/videos/video_123/content", request -> request.response().putHeader("Content-Type", "video/mp4")
                .end(Buffer.buffer(mp4)));
        HttpResponse<Buffer> r = client.post("/api/openai/generate-video", "{\"prompt\":\"A fox running\",\"seconds\":\"4\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"format\":\"mp4\",\"data\":\"" + Base64.getEncoder().encodeToString(mp4) + "\"}", r.bodyAsString());
        MockCompletionServer.Call job = mock.lastCall("/openai/v1/videos");
        assertEquals("Bearer sk-test", job.headers().get("Authorization"));
        assertEquals("{\"prompt\":\"A fox running\",\"model\":\"sora-2\",\"size\":\"720x1280\",\"seconds\":\"4\"}", job.body());
        assertEquals(2, polls.get());
        assertEquals("GET", mock.lastCall("/openai/v1/videos/video_123").method());
        assertEquals("Bearer sk-test", mock.lastCall("/openai/v1/videos/video_123/content").headers().get("Authorization"));
    }

    @Test
    void aFailedVideoJobIs500() {
        key();
        mock.route("/openai/v1/videos", request -> json(request, 200, "{\"id\":\"video_9\"}"));
        mock.route("/openai/v1/videos/video_9", request -> json(request, 200, "{\"id\":\"video_9\",\"status\":\"failed\"}"));
        HttpResponse<Buffer> r = client.post("/api/openai/generate-video", "{\"prompt\":\"A fox\"}");
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsString().contains("Video generation failed"), r.bodyAsString());
    }
}
