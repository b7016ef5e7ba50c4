package tankard.imagegen;

import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tankard.testing.MockCompletionServer;
import tankard.testing.ConfiguredMockTest;
import tankard.testing.StreamingClient;

import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code /api/sd/comfy} routes against a mock ComfyUI (ST: src/endpoints/stable-diffusion.js, the comfy router). */
@Timeout(60)
class ComfyUiHttpTest extends ConfiguredMockTest {
    /** ComfyUI behind a path prefix, which the calls are joined onto. */
    private static final String COMFY = "/comfy";
    private static final String OBJECT_INFO = "{\"KSampler\":{\"input\":{\"required\":{"
            + "\"sampler_name\":[[\"euler\",\"dpmpp_2m\"],{}],\"scheduler\":[[\"normal\",\"karras\"]]}}},"
            + "\"VAELoader\":{\"input\":{\"required\":{\"vae_name\":[[\"ae.safetensors\",\"sdxl_vae.safetensors\"]]}}},"
            + "\"CheckpointLoaderSimple\":{\"input\":{\"required\":{\"ckpt_name\":[[\"sd_xl_base_1.0.safetensors\"]]}}},"
            // newer ComfyUI's combo inputs: ["COMBO", {"options": [...]}]
            + "\"UNETLoader\":{\"input\":{\"required\":{\"unet_name\":[\"COMBO\",{\"options\":[\"flux1_dev.sft\"]}]}}},"
            + "\"UnetLoaderGGUF\":{\"input\":{\"required\":{\"unet_name\":[[\"flux1-dev-Q4_K_S.gguf\"]]}}}}";
    private static final String PROMPT = "{\n                \"prompt\": {\"3\":{\"class_type\":\"KSampler\"}}\n            }";

    private String url() {
        return mock.origin() + COMFY + "/";
    }

    private String generateBody() {
        StringBuilder prompt = new StringBuilder();
        tankard.json.JsJson.quote(PROMPT, prompt);
        return "{\"url\":\"" + url() + "\",\"prompt\":" + prompt + "}";
    }

    private static void json(HttpServerRequest request, int status, String json) {
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(json);
    }

    @Test
    void pingReadsTheSystemStatsUnderTheGivenPath() {
        startWith("");
        mock.route(COMFY + "/system_stats", request -> json(request, 200, "{\"system\":{\"os\":\"posix\"},\"devices\":[]}"));
        HttpResponse<Buffer> r = client.post("/api/sd/comfy/ping", "{\"url\":\"" + url() + "\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("GET", mock.lastCall(COMFY + "/system_stats").method());
    }

    @Test
    void samplersSchedulersAndVaesAreTheNodesChoices() {
        startWith("");
        mock.route(COMFY + "/object_info", request -> json(request, 200, OBJECT_INFO));
        String body = "{\"url\":\"" + url() + "\"}";
        assertEquals("[\"euler\",\"dpmpp_2m\"]", client.post("/api/sd/comfy/samplers", body).bodyAsString());
        assertEquals("[\"normal\",\"karras\"]", client.post("/api/sd/comfy/schedulers", body).bodyAsString());
        assertEquals("[\"ae.safetensors\",\"sdxl_vae.safetensors\"]", client.post("/api/sd/comfy/vaes", body).bodyAsString());
        assertEquals("GET", mock.lastCall(COMFY + "/object_info").method());
    }

    @Test
    void modelsAreCheckpointsUnetsAndGgufsWithPresentableNames() {
        startWith("");
        mock.route(COMFY + "/object_info", request -> json(request, 200, OBJECT_INFO));
        HttpResponse<Buffer> r = client.post("/api/sd/comfy/models", "{\"url\":\"" + url() + "\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("[{\"value\":\"sd_xl_base_1.0.safetensors\",\"text\":\"sd xl base 1.0\"},"
                + "{\"value\":\"flux1_dev.sft\",\"text\":\"UNet: flux1 dev\"},"
                + "{\"value\":\"flux1-dev-Q4_K_S.gguf\",\"text\":\"GGUF: flux1-dev-Q4 K S\"}]", r.bodyAsString());
    }

    @Test
    void aMissingNodeIsA500SayingSo() {
        startWith("");
        mock.route(COMFY + "/object_info", request -> json(request, 200, "{}"));
        HttpResponse<Buffer> r = client.post("/api/sd/comfy/vaes", "{\"url\":\"" + url() + "\"}");
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsString().contains("VAELoader"), r.bodyAsString());
    }

    @Test
    void generateQueuesTheWorkflowWaitsForItsHistoryAndAnswersTheImage() {
        startWith("");
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 1, 2, 3};
        mock.route(COMFY + "/prompt", request -> json(request, 200, "{\"prompt_id\":\"abc-123\",\"number\":1,\"node_errors\":{}}"));
        AtomicInteger polls = new AtomicInteger();
        mock.route(COMFY + "/history/abc-123", request -> json(request, 200, polls.incrementAndGet() < 3 ? "{}"
                : "{\"abc-123\":{\"status\":{\"status_str\":\"success\",\"completed\":true,\"messages\":[]},"
                + "\"outputs\":{\"8\":{\"text\":[\"x\"]},\"9\":{\"images\":[{\"filename\":\"ComfyUI 00001_.PNG\","
                + "\"subfolder\":\"st\",\"type\":\"output\"}]}}}}"));
        mock.route(COMFY + "/view", request -> request.response().putHeader("Content-Type", "image/png").end(Buffer.buffer(png)));
        HttpResponse<Buffer> r = client.post("/api/sd/comfy/generate", generateBody());
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"format\":\"png\",\"data\":\"" + Base64.getEncoder().encodeToString(png) + "\"}", r.bodyAsString());
        MockCompletionServer.Call queued = mock.lastCall(COMFY + "/prompt");
        assertEquals("POST", queued.method());
        assertEquals(PROMPT, queued.body());
        assertEquals(3, polls.get(), "polled until the run was in the history");
        MockCompletionServer.Call view = mock.lastCall(COMFY + "/view");
        assertEquals("GET", view.method());
        assertEquals("filename=ComfyUI%2000001_.PNG&subfolder=st&type=output", view.query());
    }

    @Test
    void anAnimationIsTakenWhenThereIsNoImage() {
        startWith("");
        mock.route(COMFY + "/prompt", request -> json(request, 200, "{\"prompt_id\":\"p1\"}"));
        mock.route(COMFY + "/history/p1", request -> json(request, 200, "{\"p1\":{\"status\":{\"status_str\":\"success\"},"
                + "\"outputs\":{\"5\":{\"gifs\":[{\"filename\":\"anim.webp\",\"subfolder\":\"\",\"type\":\"output\"}]}}}}"));
        mock.route(COMFY + "/view", request -> request.response().end("RIFF"));
        HttpResponse<Buffer> r = client.post("/api/sd/comfy/generate", generateBody());
        assertEquals("{\"format\":\"webp\",\"data\":\"UklGRg==\"}", r.bodyAsString());
        assertEquals("filename=anim.webp&subfolder=&type=output", mock.lastCall(COMFY + "/view").query());
    }

    @Test
    void aFailedRunIsA500TextWithTheNodesErrors() {
        startWith("");
        mock.route(COMFY + "/prompt", request -> json(request, 200, "{\"prompt_id\":\"p1\"}"));
        mock.route(COMFY + "/history/p1", request -> json(request, 200, "{\"p1\":{\"status\":{\"status_str\":\"error\","
                + "\"messages\":[[\"execution_start\",{}],[\"execution_error\",{\"node_id\":\"3\",\"node_type\":\"KSampler\","
                + "\"exception_type\":\"RuntimeError\",\"exception_message\":\"out of memory\"}]]},\"outputs\":{}}}"));
        HttpResponse<Buffer> r = client.post("/api/sd/comfy/generate", generateBody());
        assertEquals(500, r.statusCode());
        assertEquals("ComfyUI generation did not succeed.\n\nKSampler [3] RuntimeError: out of memory", r.bodyAsString());
        assertTrue(r.getHeader("Content-Type").startsWith("text/html"));
    }

    @Test
    void aRefusedWorkflowIsA500TextQuotingComfyUi() {
        startWith("");
        mock.route(COMFY + "/prompt", request -> json(request, 400,
                "{\"error\":{\"type\":\"prompt_outputs_failed_validation\"},\"node_errors\":{}}"));
        HttpResponse<Buffer> r = client.post("/api/sd/comfy/generate", generateBody());
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsString().startsWith("ComfyUI answered 400"), r.bodyAsString());
        assertTrue(r.bodyAsString().contains("prompt_outputs_failed_validation"), r.bodyAsString());
    }

    @Test
    void whenTheBrowserLeavesTheRunIsInterruptedAndThePollingStops() throws Exception {
        startWith("");
        mock.route(COMFY + "/prompt", request -> json(request, 200, "{\"prompt_id\":\"p1\"}"));
        Promise<Void> polling = Promise.promise();
        mock.route(COMFY + "/history/p1", request -> {
            polling.tryComplete();
            json(request, 200, "{}");
        });
        Promise<Void> interrupted = Promise.promise();
        mock.route(COMFY + "/interrupt", request -> {
            interrupted.tryComplete();
            request.response().end();
        });
        StreamingClient.leaveWhen(server, client, "/api/sd/comfy/generate", generateBody(), polling.future());
        StreamingClient.await(interrupted.future());
        assertEquals("POST", mock.lastCall(COMFY + "/interrupt").method());
        Thread.sleep(500);
        long polls = mock.calls().stream().filter(c -> c.path().equals(COMFY + "/history/p1")).count();
        Thread.sleep(500);
        assertEquals(polls, mock.calls().stream().filter(c -> c.path().equals(COMFY + "/history/p1")).count(),
                "no polling after the browser left");
    }

    @Test
    void badInputIs400AndNothingIsCalled() {
        startWith("");
        for (String path : List.of("/api/sd/comfy/ping", "/api/sd/comfy/models", "/api/sd/comfy/generate")) {
            assertEquals(400, client.post(path, "{}").statusCode(), path);
            assertEquals(400, client.post(path, "{\"url\":\"file:///etc/passwd\"}").statusCode(), path);
        }
        HttpResponse<Buffer> noPrompt = client.post("/api/sd/comfy/generate", "{\"url\":\"" + url() + "\",\"prompt\":{}}");
        assertEquals(400, noPrompt.statusCode());
        assertTrue(noPrompt.bodyAsString().contains("prompt"), noPrompt.bodyAsString());
        assertTrue(mock.calls().isEmpty(), mock.calls().toString());
    }

    @Test
    void withThePrivateAddressFilterOnALoopbackServerIsRefused() {
        startWith("privateAddressWhitelist:\n  enabled: true\n  allowedRanges: ['10.99.0.0/16']\n");
        assertEquals(403, client.post("/api/sd/comfy/ping", "{\"url\":\"" + url() + "\"}").statusCode());
        HttpResponse<Buffer> r = client.post("/api/sd/comfy/generate", generateBody());
        assertEquals(403, r.statusCode());
        assertTrue(r.bodyAsString().contains("Blocked request to private IP address"), r.bodyAsString());
        assertTrue(mock.calls().isEmpty(), mock.calls().toString());
    }
}
