package tankard.imagegen;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;

import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The image services that queue a task and are polled, Black Forest Labs, fal.ai and Z.AI, against mocks of their
 * APIs (ST: src/endpoints/stable-diffusion.js). They wait as ST does, seconds between checks.
 */
class PolledImageServicesHttpTest extends PublicHostsMockTest {
    private static final byte[] JPEG = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, 4, 5, 6};
    private static final String JPEG_BASE64 = Base64.getEncoder().encodeToString(JPEG);

    private void key(String name, String value) {
        client.post("/api/secrets/write", "{\"key\":\"" + name + "\",\"value\":\"" + value + "\"}");
    }

    private void jpeg(String path) {
        mock.route(path, request -> request.response().putHeader("Content-Type", "image/jpeg").end(Buffer.buffer(JPEG)));
    }

    @Test
    void bflQueuesAnUltraTaskWithTheClosestAspectRatioAndFetchesItsSample() {
        key("api_key_bfl", "bk");
        mock.route("/bfl/v1/flux-pro-1.1-ultra", request -> json(request, 200, "{\"id\":\"task 1\"}"));
        mock.route("/bfl/v1/get_result", request -> json(request, 200,
                "{\"id\":\"task 1\",\"status\":\"Ready\",\"result\":{\"sample\":\"" + mock.origin() + "/files/bfl.jpg\"}}"));
        jpeg("/files/bfl.jpg");
        HttpResponse<Buffer> r = client.post("/api/sd/bfl/generate", "{\"model\":\"flux-pro-1.1-ultra\",\"prompt\":\"a cat\","
                + "\"steps\":30,\"guidance\":3,\"width\":1024,\"height\":576,\"prompt_upsampling\":false}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"image\":\"" + JPEG_BASE64 + "\"}", r.bodyAsString());
        MockCompletionServer.Call task = mock.lastCall("/bfl/v1/flux-pro-1.1-ultra");
        assertEquals("{\"prompt\":\"a cat\",\"seed\":null,\"safety_tolerance\":6,\"output_format\":\"jpeg\",\"aspect_ratio\":\"16:9\"}",
                task.body());
        assertEquals("bk", task.headers().get("x-key"));
        assertEquals("id=task%201", mock.lastCall("/bfl/v1/get_result").query());
    }

    @Test
    void falListsItsTextToImageModelsAsStReadsThePages() {
        mock.route("/fal/api/models", request -> json(request, 200, "1".equals(request.getParam("page"))
                ? "{\"items\":[{\"title\":\"FLUX.1 [dev]\",\"modelUrl\":\"https://fal.run/fal-ai/flux/dev\"},"
                + "{\"title\":\"FLUX Inpainting\",\"modelUrl\":\"https://fal.run/fal-ai/flux/inpaint\"}],\"page\":1,\"pages\":3}"
                : "{\"items\":[{\"title\":\"AuraFlow\",\"modelUrl\":\"https://fal.run/fal-ai/aura-flow\"}],\"page\":2,\"pages\":3}"));
        HttpResponse<Buffer> r = client.post("/api/sd/falai/models", "{}");
        assertEquals("[{\"value\":\"aura-flow\",\"text\":\"AuraFlow (aura-flow)\"},{\"value\":\"flux/dev\",\"text\":\"FLUX.1 [dev] (flux/dev)\"}]",
                r.bodyAsString());
        assertEquals(2, mock.calls().size(), "pages 1 and 2: ST stops when the next page is not below pages");
        assertEquals("categories=text-to-image&page=2", mock.lastCall("/fal/api/models").query());
    }

    @Test
    void falQueuesTheRequestPollsItAndFetchesTheImageWithoutTheKey() {
        key("api_key_falai", "fk");
        String queue = "https://queue.fal.run/fal-ai/flux/requests/r1";
        mock.route("/fal-queue/fal-ai/flux/dev", request -> json(request, 200,
                "{\"request_id\":\"r1\",\"status_url\":\"" + queue + "/status\",\"response_url\":\"" + queue + "\"}"));
        mock.route("/fal-queue/fal-ai/flux/requests/r1/status", request -> json(request, 200,
                "{\"status\":\"COMPLETED\",\"response_url\":\"" + queue + "\"}"));
        mock.route("/fal-queue/fal-ai/flux/requests/r1", request -> json(request, 200,
                "{\"images\":[{\"url\":\"" + mock.origin() + "/files/fal.jpg\"}]}"));
        jpeg("/files/fal.jpg");
        HttpResponse<Buffer> r = client.post("/api/sd/falai/generate", "{\"model\":\"flux/dev\",\"prompt\":\"a cat\","
                + "\"width\":1024,\"height\":768,\"steps\":28,\"guidance\":3.5}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"image\":\"" + JPEG_BASE64 + "\"}", r.bodyAsString());
        MockCompletionServer.Call queued = mock.lastCall("/fal-queue/fal-ai/flux/dev");
        assertEquals("{\"prompt\":\"a cat\",\"image_size\":{\"width\":1024,\"height\":768},\"num_inference_steps\":28,"
                + "\"seed\":null,\"guidance_scale\":3.5,\"enable_safety_checker\":false,\"safety_tolerance\":6}", queued.body());
        assertEquals("Key fk", queued.headers().get("Authorization"));
        assertEquals("Key fk", mock.lastCall("/fal-queue/fal-ai/flux/requests/r1/status").headers().get("Authorization"));
        assertEquals("Key fk", mock.lastCall("/fal-queue/fal-ai/flux/requests/r1").headers().get("Authorization"));
        assertFalse(mock.lastCall("/files/fal.jpg").headers().contains("Authorization"));
    }

    @Test
    void falSendsTheKeyToNoStatusUrlOutsideItsQueueAndFailsAsText() {
        key("api_key_falai", "fk");
        mock.route("/fal-queue/fal-ai/flux/dev", request -> json(request, 200,
                "{\"status_url\":\"" + mock.origin() + "/elsewhere\"}"));
        HttpResponse<Buffer> r = client.post("/api/sd/falai/generate", "{\"model\":\"flux/dev\",\"prompt\":\"a cat\"}");
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsString().startsWith("FAL.AI answered a queue URL that is not fal's"), r.bodyAsString());
        assertTrue(r.getHeader("Content-Type").startsWith("text/html"));
        assertTrue(mock.calls().stream().noneMatch(c -> c.path().equals("/elsewhere")));
    }

    @Test
    void zaiFetchesTheImageFromItsHostRetryingWhileItIsNotThereYet() {
        key("api_key_zai", "zk");
        mock.route("/zai/api/paas/v4/images/generations", request -> json(request, 200,
                "{\"data\":[{\"url\":\"https://api.z.ai/files/cat.PNG\"}]}"));
        AtomicInteger tries = new AtomicInteger();
        mock.route("/zai/files/cat.PNG", request -> {
            if (tries.incrementAndGet() == 1) {
                request.response().setStatusCode(404).end();
            } else {
                request.response().putHeader("Content-Type", "image/png").end(Buffer.buffer(JPEG));
            }
        });
        HttpResponse<Buffer> r = client.post("/api/sd/zai/generate", "{\"prompt\":\"a cat\",\"model\":\"cogview-4\",\"size\":\"1024x1024\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"image\":\"" + JPEG_BASE64 + "\",\"format\":\"png\"}", r.bodyAsString());
        assertEquals(2, tries.get());
        MockCompletionServer.Call call = mock.lastCall("/zai/api/paas/v4/images/generations");
        assertEquals("{\"prompt\":\"a cat\",\"model\":\"cogview-4\",\"size\":\"1024x1024\"}", call.body());
        assertEquals("Bearer zk", call.headers().get("Authorization"));

        mock.route("/zai/api/paas/v4/images/generations", request -> json(request, 200,
                "{\"data\":[{\"url\":\"" + mock.origin() + "/files/cat.png\"}]}"));
        HttpResponse<Buffer> foreign = client.post("/api/sd/zai/generate", "{\"prompt\":\"a cat\"}");
        assertEquals(500, foreign.statusCode());
        assertTrue(foreign.bodyAsString().contains("unrecognized hostname"), foreign.bodyAsString());
    }

    @Test
    void zaiVideoJobsArePolledUntilTheyHaveSucceeded() {
        key("api_key_zai", "zk");
        mock.route("/zai/api/paas/v4/videos/generations", request -> json(request, 200, "{\"id\":\"v1\",\"task_status\":\"PROCESSING\"}"));
        mock.route("/zai/api/paas/v4/async-result/v1", request -> json(request, 200,
                "{\"task_status\":\"SUCCESS\",\"video_result\":[{\"url\":\"" + mock.origin() + "/files/v.mp4\"}]}"));
        jpeg("/files/v.mp4");
        HttpResponse<Buffer> r = client.post("/api/sd/zai/generate-video", "{\"prompt\":\"a cat\",\"model\":\"cogvideox-3\","
                + "\"aspect_ratio\":\"16:9\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"format\":\"mp4\",\"video\":\"" + JPEG_BASE64 + "\"}", r.bodyAsString());
        assertEquals("{\"prompt\":\"a cat\",\"model\":\"cogvideox-3\",\"aspect_ratio\":\"16:9\"}",
                mock.lastCall("/zai/api/paas/v4/videos/generations").body());
        assertEquals("Bearer zk", mock.lastCall("/zai/api/paas/v4/async-result/v1").headers().get("Authorization"));
    }

    @Test
    void withoutTheirKeysTheyAre400() {
        for (String path : new String[]{"/api/sd/bfl/generate", "/api/sd/falai/generate", "/api/sd/zai/generate",
                "/api/sd/zai/generate-video"}) {
            assertEquals(400, client.post(path, "{\"model\":\"m\",\"prompt\":\"p\"}").statusCode(), path);
        }
        assertTrue(mock.calls().isEmpty(), mock.calls().toString());
    }
}
