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

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code /api/sd} routes against a mock of A1111 / Forge / SD.Next's API (ST: src/endpoints/stable-diffusion.js). */
@Timeout(60)
class SdWebUiHttpTest extends ConfiguredMockTest {
    /** "user:pass" as a Basic header. */
    private static final String BASIC = "Basic dXNlcjpwYXNz";

    /** A body naming the mock by a URL whose path and query ST's routes replace and keep. */
    private String body(String extra) {
        return "{\"url\":\"" + mock.origin() + "/ignored/path?token=t\",\"auth\":\"user:pass\"" + extra + "}";
    }

    private void answer(String path, String json) {
        mock.route(path, request -> json(request, 200, json));
    }

    private static void json(HttpServerRequest request, int status, String json) {
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(json);
    }

    private void assertGetWithAuth(String path) {
        MockCompletionServer.Call call = mock.lastCall(path);
        assertEquals("GET", call.method());
        assertEquals(BASIC, call.headers().get("Authorization"));
        assertEquals("token=t", call.query());
    }

    @Test
    void pingReadsTheOptionsWithTheBasicCredentials() {
        startWith("");
        answer("/sdapi/v1/options", "{\"sd_model_checkpoint\":\"a.safetensors\"}");
        HttpResponse<Buffer> r = client.post("/api/sd/ping", body(""));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("OK", r.bodyAsString());
        assertGetWithAuth("/sdapi/v1/options");
    }

    @Test
    void aServerErrorIsA500NamingTheServerAndWithoutAuthNoHeaderGoes() {
        startWith("");
        mock.route("/sdapi/v1/options", request -> request.response().setStatusCode(503).end("loading"));
        HttpResponse<Buffer> r = client.post("/api/sd/ping", "{\"url\":\"" + mock.origin() + "\"}");
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsString().contains("SD WebUI answered 503"), r.bodyAsString());
        assertFalse(mock.lastCall("/sdapi/v1/options").headers().contains("Authorization"));
    }

    @Test
    void upscalersAreNoneThenTheLatentModesThenTheRest() {
        startWith("");
        answer("/sdapi/v1/upscalers", "[{\"name\":\"None\"},{\"name\":\"Lanczos\"},{\"name\":\"R-ESRGAN 4x+\"}]");
        answer("/sdapi/v1/latent-upscale-modes", "[{\"name\":\"Latent\"},{\"name\":\"Latent (bicubic)\"}]");
        HttpResponse<Buffer> r = client.post("/api/sd/upscalers", body(""));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("[\"None\",\"Latent\",\"Latent (bicubic)\",\"Lanczos\",\"R-ESRGAN 4x+\"]", r.bodyAsString());
        assertGetWithAuth("/sdapi/v1/upscalers");
        assertGetWithAuth("/sdapi/v1/latent-upscale-modes");
    }

    @Test
    void sdNextUpscalersGetTheLatentModesSdNextDoesNotList() {
        startWith("");
        answer("/sdapi/v1/upscalers", "[{\"name\":\"None\"},{\"name\":\"Lanczos\"}]");
        HttpResponse<Buffer> r = client.post("/api/sd/sd-next/upscalers", body(""));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("[\"None\",\"Latent\",\"Latent (antialiased)\",\"Latent (bicubic)\",\"Latent (bicubic antialiased)\","
                + "\"Latent (nearest)\",\"Latent (nearest-exact)\",\"Lanczos\"]", r.bodyAsString());
        assertGetWithAuth("/sdapi/v1/upscalers");
    }

    @Test
    void vaesComeFromA1111OrElseFromForgesModules() {
        startWith("");
        answer("/sdapi/v1/sd-vae", "[{\"model_name\":\"vae-ft-mse\",\"filename\":\"/x\"}]");
        answer("/sdapi/v1/sd-modules", "[{\"model_name\":\"forge-module\"}]");
        assertEquals("[\"vae-ft-mse\"]", client.post("/api/sd/vaes", body("")).bodyAsString());
        assertGetWithAuth("/sdapi/v1/sd-vae");

        mock.route("/sdapi/v1/sd-vae", request -> json(request, 404, "{\"detail\":\"Not Found\"}"));
        HttpResponse<Buffer> forge = client.post("/api/sd/vaes", body(""));
        assertEquals(200, forge.statusCode(), forge.bodyAsString());
        assertEquals("[\"forge-module\"]", forge.bodyAsString());
        assertGetWithAuth("/sdapi/v1/sd-modules");
    }

    @Test
    void samplersAndSchedulersAreTheirNames() {
        startWith("");
        answer("/sdapi/v1/samplers", "[{\"name\":\"Euler a\",\"aliases\":[]},{\"name\":\"DPM++ 2M\"}]");
        answer("/sdapi/v1/schedulers", "[{\"name\":\"automatic\",\"label\":\"Automatic\"},{\"name\":\"karras\"}]");
        assertEquals("[\"Euler a\",\"DPM++ 2M\"]", client.post("/api/sd/samplers", body("")).bodyAsString());
        assertGetWithAuth("/sdapi/v1/samplers");
        assertEquals("[\"automatic\",\"karras\"]", client.post("/api/sd/schedulers", body("")).bodyAsString());
        assertGetWithAuth("/sdapi/v1/schedulers");
    }

    @Test
    void modelsAreValueAndTextBothTheTitle() {
        startWith("");
        answer("/sdapi/v1/sd-models", "[{\"title\":\"sdxl.safetensors [31e35c80fc]\",\"model_name\":\"sdxl\"}]");
        HttpResponse<Buffer> r = client.post("/api/sd/models", body(""));
        assertEquals("[{\"value\":\"sdxl.safetensors [31e35c80fc]\",\"text\":\"sdxl.safetensors [31e35c80fc]\"}]",
                r.bodyAsString());
        assertGetWithAuth("/sdapi/v1/sd-models");
    }

    @Test
    void getModelIsTheLoadedCheckpointAsABareString() {
        startWith("");
        answer("/sdapi/v1/options", "{\"sd_model_checkpoint\":\"sdxl.safetensors [31e35c80fc]\",\"CLIP_stop_at_last_layers\":1}");
        HttpResponse<Buffer> r = client.post("/api/sd/get-model", body(""));
        assertEquals(200, r.statusCode());
        assertEquals("sdxl.safetensors [31e35c80fc]", r.bodyAsString());
        assertTrue(r.getHeader("Content-Type").startsWith("text/html"));
        assertGetWithAuth("/sdapi/v1/options");
    }

    @Test
    void setModelPostsTheCheckpointAndWaitsUntilTheServerIsIdle() {
        startWith("");
        answer("/sdapi/v1/options", "null");
        AtomicInteger checks = new AtomicInteger();
        mock.route("/sdapi/v1/progress", request -> json(request, 200, checks.incrementAndGet() == 1
                ? "{\"progress\":0.5,\"state\":{\"job_count\":1}}" : "{\"progress\":0.0,\"state\":{\"job_count\":0}}"));
        HttpResponse<Buffer> r = client.post("/api/sd/set-model", body(",\"model\":\"sdxl.safetensors\""));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        MockCompletionServer.Call set = mock.lastCall("/sdapi/v1/options");
        assertEquals("POST", set.method());
        assertEquals("{\"sd_model_checkpoint\":\"sdxl.safetensors\"}", set.body());
        assertEquals("application/json", set.headers().get("Content-Type"));
        assertEquals(BASIC, set.headers().get("Authorization"));
        assertEquals(2, checks.get(), "checked once busy, once idle");
        assertGetWithAuth("/sdapi/v1/progress");
    }

    @Test
    void generateSendsTheFieldsToTxt2imgWithoutForgeModulesForA1111AndPassesTheAnswerOn() {
        startWith("");
        answer("/sdapi/v1/options", "{\"sd_model_checkpoint\":\"x\"}");
        String images = "{\"images\":[\"iVBORw0KGgo=\"],\"parameters\":{\"prompt\":\"a cat\"},\"info\":\"{}\"}";
        answer("/sdapi/v1/txt2img", images);
        HttpResponse<Buffer> r = client.post("/api/sd/generate", body(",\"prompt\":\"a cat\",\"steps\":20,"
                + "\"override_settings\":{\"CLIP_stop_at_last_layers\":2,\"forge_additional_modules\":[\"ae.safetensors\"]}"));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals(images, r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall("/sdapi/v1/txt2img");
        assertEquals("POST", call.method());
        assertEquals(BASIC, call.headers().get("Authorization"));
        assertEquals("application/json", call.headers().get("Content-Type"));
        assertEquals("{\"prompt\":\"a cat\",\"steps\":20,\"override_settings\":{\"CLIP_stop_at_last_layers\":2}}", call.body());
        assertGetWithAuth("/sdapi/v1/options");
    }

    @Test
    void generateKeepsForgeModulesForForge() {
        startWith("");
        answer("/sdapi/v1/options", "{\"forge_preset\":\"flux\"}");
        answer("/sdapi/v1/txt2img", "{\"images\":[\"AAAA\"]}");
        HttpResponse<Buffer> r = client.post("/api/sd/generate", body(",\"prompt\":\"a cat\","
                + "\"override_settings\":{\"forge_additional_modules\":[\"ae.safetensors\"]}"));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"prompt\":\"a cat\",\"override_settings\":{\"forge_additional_modules\":[\"ae.safetensors\"]}}",
                mock.lastCall("/sdapi/v1/txt2img").body());
    }

    @Test
    void aFailedGenerationIsA500QuotingTheServer() {
        startWith("");
        answer("/sdapi/v1/options", "{}");
        mock.route("/sdapi/v1/txt2img", request -> json(request, 500,
                "{\"error\":\"OutOfMemoryError\",\"detail\":\"CUDA out of memory\"}"));
        HttpResponse<Buffer> r = client.post("/api/sd/generate", body(",\"prompt\":\"a cat\""));
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsString().contains("SD WebUI answered 500"), r.bodyAsString());
        assertTrue(r.bodyAsString().contains("CUDA out of memory"), r.bodyAsString());
    }

    @Test
    void whenTheBrowserLeavesTheGenerationIsInterrupted() throws Exception {
        startWith("");
        answer("/sdapi/v1/options", "{}");
        Promise<Void> generating = Promise.promise();
        Promise<MockCompletionServer.Call> interrupted = Promise.promise();
        mock.route("/sdapi/v1/txt2img", request -> generating.tryComplete()); // never answers
        mock.route("/sdapi/v1/interrupt", request -> {
            interrupted.tryComplete(mock.lastCall("/sdapi/v1/interrupt"));
            request.response().end();
        });
        StreamingClient.leaveWhen(server, client, "/api/sd/generate", body(",\"prompt\":\"a cat\""), generating.future());
        MockCompletionServer.Call interrupt = StreamingClient.await(interrupted.future());
        assertEquals("POST", interrupt.method());
        assertEquals(BASIC, interrupt.headers().get("Authorization"));
        assertEquals("token=t", interrupt.query());
    }

    @Test
    void badInputIs400AndNothingIsCalled() {
        startWith("");
        for (String path : List.of("/api/sd/ping", "/api/sd/models", "/api/sd/generate", "/api/sd/upscalers")) {
            HttpResponse<Buffer> none = client.post(path, "{}");
            assertEquals(400, none.statusCode(), path);
            assertTrue(none.bodyAsString().contains("url is required"), none.bodyAsString());
            assertEquals(400, client.post(path, "{\"url\":\"ftp://example.com\"}").statusCode(), path);
            assertEquals(400, client.post(path, "{\"url\":\"127.0.0.1:7860\"}").statusCode(), path);
        }
        HttpResponse<Buffer> noModel = client.post("/api/sd/set-model", body(""));
        assertEquals(400, noModel.statusCode());
        assertTrue(noModel.bodyAsString().contains("model"), noModel.bodyAsString());
        assertTrue(mock.calls().isEmpty(), mock.calls().toString());
    }

    @Test
    void withThePrivateAddressFilterOnALoopbackServerIsRefused() {
        startWith("privateAddressWhitelist:\n  enabled: true\n  allowedRanges: ['10.99.0.0/16']\n");
        for (String path : List.of("/api/sd/ping", "/api/sd/generate", "/api/sd/set-model")) {
            HttpResponse<Buffer> r = client.post(path, body(",\"model\":\"m\",\"prompt\":\"p\""));
            assertEquals(403, r.statusCode(), path + " " + r.bodyAsString());
            assertTrue(r.bodyAsString().contains("Blocked request to private IP address"), r.bodyAsString());
        }
        assertTrue(mock.calls().isEmpty(), mock.calls().toString());
    }
}
