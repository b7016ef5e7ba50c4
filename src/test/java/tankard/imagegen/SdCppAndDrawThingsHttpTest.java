package tankard.imagegen;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tankard.testing.MockCompletionServer;
import tankard.testing.ConfiguredMockTest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code /api/sd/sdcpp/*} and {@code /api/sd/drawthings/*} against mocks of stable-diffusion.cpp's server and Draw
 * Things' API (ST: src/endpoints/stable-diffusion.js).
 */
@Timeout(60)
class SdCppAndDrawThingsHttpTest extends ConfiguredMockTest {
    private static void json(HttpServerRequest request, String json) {
        request.response().putHeader("Content-Type", "application/json").end(json);
    }

    @Test
    void sdCppPingIsAnOptionsRequestOnTheGenerationsEndpoint() {
        startWith("");
        mock.route("/sd/v1/images/generations", request -> request.response().end());
        HttpResponse<Buffer> r = client.post("/api/sd/sdcpp/ping", "{\"url\":\"" + mock.origin() + "/sd\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("OPTIONS", mock.lastCall("/sd/v1/images/generations").method());
    }

    @Test
    void sdCppModelsArePassedOn() {
        startWith("");
        String models = "{\"object\":\"list\",\"data\":[{\"id\":\"sd-turbo\",\"object\":\"model\"}]}";
        mock.route("/v1/models", request -> json(request, models));
        HttpResponse<Buffer> r = client.post("/api/sd/sdcpp/models", "{\"url\":\"" + mock.origin() + "\"}");
        assertEquals(models, r.bodyAsString());
        assertEquals("GET", mock.lastCall("/v1/models").method());
    }

    @Test
    void sdCppGenerateSendsTheFieldsWithAValueAndClipSkipOnlyAboveOne() {
        startWith("");
        String images = "{\"images\":[\"iVBORw0KGgo=\"]}";
        mock.route("/sdapi/v1/txt2img", request -> json(request, images));
        HttpResponse<Buffer> r = client.post("/api/sd/sdcpp/generate", "{\"url\":\"" + mock.origin() + "\",\"prompt\":\"a cat\","
                + "\"negative_prompt\":\"\",\"width\":512,\"steps\":null,\"seed\":-1,\"clip_skip\":1,\"extra\":true}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals(images, r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall("/sdapi/v1/txt2img");
        assertEquals("POST", call.method());
        assertEquals("application/json", call.headers().get("Content-Type"));
        assertEquals("{\"prompt\":\"a cat\",\"width\":512,\"seed\":-1}", call.body());

        client.post("/api/sd/sdcpp/generate", "{\"url\":\"" + mock.origin() + "\",\"prompt\":\"a cat\",\"clip_skip\":2}");
        assertEquals("{\"prompt\":\"a cat\",\"clip_skip\":2}", mock.lastCall("/sdapi/v1/txt2img").body());
    }

    @Test
    void sdCppErrorsAre500s() {
        startWith("");
        mock.route("/sdapi/v1/txt2img", request -> request.response().setStatusCode(400).end("invalid prompt"));
        HttpResponse<Buffer> r = client.post("/api/sd/sdcpp/generate", "{\"url\":\"" + mock.origin() + "\",\"prompt\":\"x\"}");
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsString().contains("stable-diffusion.cpp server answered 400"), r.bodyAsString());
    }

    @Test
    void drawThingsPingIsAHeadRequestOnTheRoot() {
        startWith("");
        mock.route("/", request -> request.response().end());
        HttpResponse<Buffer> r = client.post("/api/sd/drawthings/ping", "{\"url\":\"" + mock.origin() + "/ignored\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("HEAD", mock.lastCall("/").method());
    }

    @Test
    void drawThingsModelAndUpscalerComeFromItsSettings() {
        startWith("");
        mock.route("/", request -> json(request, "{\"model\":\"flux_1_schnell_q5p.ckpt\",\"upscaler\":\"realesrgan_x2plus_f16.ckpt\"}"));
        String body = "{\"url\":\"" + mock.origin() + "\"}";
        HttpResponse<Buffer> model = client.post("/api/sd/drawthings/get-model", body);
        assertEquals("flux_1_schnell_q5p.ckpt", model.bodyAsString());
        assertEquals("GET", mock.lastCall("/").method());
        assertEquals("realesrgan_x2plus_f16.ckpt", client.post("/api/sd/drawthings/get-upscaler", body).bodyAsString());
    }

    @Test
    void drawThingsGenerateSendsTheBodyButUrlAndAuthWithTheCredentials() {
        startWith("");
        String images = "{\"images\":[\"AAAA\"]}";
        mock.route("/sdapi/v1/txt2img", request -> json(request, images));
        HttpResponse<Buffer> r = client.post("/api/sd/drawthings/generate", "{\"url\":\"" + mock.origin() + "\","
                + "\"auth\":\"user:pass\",\"prompt\":\"a cat\",\"steps\":8}");
        assertEquals(images, r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall("/sdapi/v1/txt2img");
        assertEquals("{\"prompt\":\"a cat\",\"steps\":8}", call.body());
        assertEquals("Basic dXNlcjpwYXNz", call.headers().get("Authorization"));

        client.post("/api/sd/drawthings/generate", "{\"url\":\"" + mock.origin() + "\",\"prompt\":\"a cat\"}");
        assertFalse(mock.lastCall("/sdapi/v1/txt2img").headers().contains("Authorization"));
    }

    @Test
    void withThePrivateAddressFilterOnALoopbackServerIsRefusedAndNoUrlIs400() {
        startWith("privateAddressWhitelist:\n  enabled: true\n  allowedRanges: ['10.99.0.0/16']\n");
        String body = "{\"url\":\"" + mock.origin() + "\",\"prompt\":\"x\"}";
        for (String path : new String[]{"/api/sd/sdcpp/generate", "/api/sd/drawthings/generate", "/api/sd/drawthings/get-model"}) {
            assertEquals(403, client.post(path, body).statusCode(), path);
            assertEquals(400, client.post(path, "{}").statusCode(), path);
        }
        assertTrue(mock.calls().isEmpty(), mock.calls().toString());
    }
}
