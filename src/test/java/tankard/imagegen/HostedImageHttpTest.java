package tankard.imagegen;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;

import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hosted image services' {@code /api/sd/*} routes against mocks of their APIs, with the keys from the secrets
 * (ST: src/endpoints/stable-diffusion.js).
 */
class HostedImageHttpTest extends PublicHostsMockTest {
    private static final byte[] JPEG = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, 1, 2, 3};
    private static final String JPEG_BASE64 = Base64.getEncoder().encodeToString(JPEG);

    private void key(String name, String value) {
        HttpResponse<Buffer> r = client.post("/api/secrets/write", "{\"key\":\"" + name + "\",\"value\":\"" + value + "\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
    }

    private void jpeg(String path) {
        mock.route(path, request -> request.response().putHeader("Content-Type", "image/jpeg").end(Buffer.buffer(JPEG)));
    }

    private void assertBearer(String path, String key) {
        assertEquals("Bearer " + key, mock.lastCall(path).headers().get("Authorization"));
    }

    @Test
    void withoutItsKeyEachServiceIs400AndNothingIsCalled() {
        for (String path : List.of("/api/sd/together/models", "/api/sd/together/generate", "/api/sd/pollinations/generate",
                "/api/sd/huggingface/generate", "/api/sd/stability/generate", "/api/sd/electronhub/models",
                "/api/sd/electronhub/generate", "/api/sd/chutes/models", "/api/sd/chutes/generate",
                "/api/sd/nanogpt/models", "/api/sd/nanogpt/generate", "/api/sd/xai/generate", "/api/sd/aimlapi/models",
                "/api/sd/aimlapi/generate-image", "/api/sd/workersai/models", "/api/sd/workersai/generate")) {
            HttpResponse<Buffer> r = client.post(path, "{\"model\":\"m\",\"prompt\":\"p\"}");
            assertEquals(400, r.statusCode(), path);
            assertTrue(r.bodyAsString().contains("API key is not set"), r.bodyAsString());
        }
        assertTrue(mock.calls().isEmpty(), mock.calls().toString());
    }

    @Test
    void togetherListsItsImageModelsAndDrawsOne() {
        key("api_key_togetherai", "tg-key");
        mock.route("/together/api/models", request -> json(request, 200, "[{\"id\":\"black-forest-labs/FLUX.1-schnell\","
                + "\"type\":\"image\",\"display_name\":\"FLUX.1 Schnell\"},{\"id\":\"meta-llama/x\",\"type\":\"chat\"}]"));
        HttpResponse<Buffer> models = client.post("/api/sd/together/models", "{}");
        assertEquals("[{\"value\":\"black-forest-labs/FLUX.1-schnell\",\"text\":\"FLUX.1 Schnell\"}]", models.bodyAsString());
        assertBearer("/together/api/models", "tg-key");

        mock.route("/together/v1/images/generations", request -> json(request, 200,
                "{\"data\":[{\"index\":0,\"b64_json\":\"" + JPEG_BASE64 + "\"}]}"));
        HttpResponse<Buffer> r = client.post("/api/sd/together/generate", "{\"prompt\":\"a cat\",\"negative_prompt\":\"dogs\","
                + "\"width\":1024,\"height\":768,\"model\":\"black-forest-labs/FLUX.1-schnell\",\"steps\":4,\"seed\":42}");
        assertEquals("{\"format\":\"jpg\",\"data\":\"" + JPEG_BASE64 + "\"}", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall("/together/v1/images/generations");
        assertEquals("{\"prompt\":\"a cat\",\"negative_prompt\":\"dogs\",\"height\":768,\"width\":1024,"
                + "\"model\":\"black-forest-labs/FLUX.1-schnell\",\"steps\":4,\"n\":1,\"seed\":42}", call.body());
        assertBearer("/together/v1/images/generations", "tg-key");
    }

    @Test
    void togethersImageUrlIsDownloadedAndANegativeSeedBecomesARandomOne() {
        key("api_key_togetherai", "tg-key");
        jpeg("/files/image.jpg");
        mock.route("/together/v1/images/generations", request -> json(request, 200,
                "{\"data\":[{\"url\":\"" + mock.origin() + "/files/image.jpg\"}]}"));
        HttpResponse<Buffer> r = client.post("/api/sd/together/generate", "{\"prompt\":\"a cat\",\"seed\":-1}");
        assertEquals("{\"format\":\"jpg\",\"data\":\"" + JPEG_BASE64 + "\"}", r.bodyAsString());
        long seed = mock.lastCall("/together/v1/images/generations").json().path("seed").asLong(-1);
        assertTrue(seed >= 0 && seed < 10_000_000, "seed " + seed);
    }

    @Test
    void pollinationsListsModelsWithoutAKeyAndDrawsThePromptInThePath() {
        mock.route("/pollinations/image/models", request -> json(request, 200, "[{\"name\":\"flux\"},{\"name\":\"turbo\"}]"));
        assertEquals("[{\"value\":\"flux\",\"text\":\"flux\"},{\"value\":\"turbo\",\"text\":\"turbo\"}]",
                client.post("/api/sd/pollinations/models", "{}").bodyAsString());

        key("api_key_pollinations", "pk");
        mock.route("/pollinations/image/a%20cat%20%26%20a%20dog", request -> request.response().putHeader("Content-Type", "image/webp")
                .end(Buffer.buffer(JPEG)));
        HttpResponse<Buffer> r = client.post("/api/sd/pollinations/generate", "{\"prompt\":\"a cat & a dog\",\"model\":\"flux\","
                + "\"negative_prompt\":\"blur\",\"seed\":7,\"width\":512,\"enhance\":true}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"image\":\"" + JPEG_BASE64 + "\",\"format\":\"webp\"}", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall("/pollinations/image/a%20cat%20%26%20a%20dog");
        assertEquals("GET", call.method());
        assertEquals("model=flux&negative_prompt=blur&seed=7&width=512&height=1024&enhance=true", call.query());
        assertBearer("/pollinations/image/a%20cat%20%26%20a%20dog", "pk");
    }

    @Test
    void huggingFaceDrawsWithTheModelInThePath() {
        key("api_key_huggingface", "hf-key");
        jpeg("/huggingface/models/stabilityai/stable-diffusion-xl-base-1.0");
        HttpResponse<Buffer> r = client.post("/api/sd/huggingface/generate",
                "{\"model\":\"stabilityai/stable-diffusion-xl-base-1.0\",\"prompt\":\"a cat\"}");
        assertEquals("{\"image\":\"" + JPEG_BASE64 + "\"}", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall("/huggingface/models/stabilityai/stable-diffusion-xl-base-1.0");
        assertEquals("{\"inputs\":\"a cat\"}", call.body());
        assertBearer("/huggingface/models/stabilityai/stable-diffusion-xl-base-1.0", "hf-key");

        HttpResponse<Buffer> escape = client.post("/api/sd/huggingface/generate", "{\"model\":\"../../x\",\"prompt\":\"a\"}");
        assertEquals(400, escape.statusCode());
    }

    @Test
    void stabilitySendsThePayloadAsAFormAndAnswersBareBase64() {
        key("api_key_stability", "sk");
        jpeg("/stability/v2beta/stable-image/generate/core");
        HttpResponse<Buffer> r = client.post("/api/sd/stability/generate", "{\"model\":\"stable-image-core\","
                + "\"payload\":{\"prompt\":\"a cat\",\"seed\":0,\"output_format\":\"png\"}}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals(JPEG_BASE64, r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall("/stability/v2beta/stable-image/generate/core");
        assertEquals("image/*", call.headers().get("Accept"));
        assertBearer("/stability/v2beta/stable-image/generate/core", "sk");
        String type = call.headers().get("Content-Type");
        assertTrue(type.startsWith("multipart/form-data; boundary="), type);
        String boundary = type.substring(type.indexOf('=') + 1);
        assertEquals("--" + boundary + "\r\nContent-Disposition: form-data; name=\"prompt\"\r\n\r\na cat\r\n"
                + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"seed\"\r\n\r\n0\r\n"
                + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"output_format\"\r\n\r\npng\r\n"
                + "--" + boundary + "--\r\n", call.body());

        assertEquals(400, client.post("/api/sd/stability/generate", "{\"model\":\"dall-e\",\"payload\":{}}").statusCode());
    }

    @Test
    void electronHubListsImageModelsGivesSizesAndDraws() {
        key("api_key_electronhub", "eh");
        mock.route("/electronhub/v1/models", request -> json(request, 200, "{\"data\":[{\"id\":\"flux-pro\",\"name\":\"Flux Pro\","
                + "\"endpoints\":[\"/v1/images/generations\"]},{\"id\":\"gpt-4o\",\"name\":\"GPT-4o\",\"endpoints\":[\"/v1/chat/completions\"]}]}"));
        assertEquals("[{\"id\":\"flux-pro\",\"name\":\"Flux Pro\",\"endpoints\":[\"/v1/images/generations\"],"
                + "\"value\":\"flux-pro\",\"text\":\"Flux Pro\"}]", client.post("/api/sd/electronhub/models", "{}").bodyAsString());
        assertBearer("/electronhub/v1/models", "eh");

        mock.route("/electronhub/v1/models/flux-pro", request -> json(request, 200, "{\"id\":\"flux-pro\",\"sizes\":[\"1024x1024\"]}"));
        assertEquals("{\"sizes\":[\"1024x1024\"]}", client.post("/api/sd/electronhub/sizes", "{\"model\":\"flux-pro\"}").bodyAsString());

        mock.route("/electronhub/v1/images/generations", request -> json(request, 200,
                "{\"data\":[{\"b64_json\":\"" + JPEG_BASE64 + "\"}]}"));
        HttpResponse<Buffer> r = client.post("/api/sd/electronhub/generate",
                "{\"model\":\"flux-pro\",\"prompt\":\"a cat\",\"size\":\"1024x1024\",\"quality\":\"\"}");
        assertEquals("{\"image\":\"" + JPEG_BASE64 + "\"}", r.bodyAsString());
        assertEquals("{\"model\":\"flux-pro\",\"prompt\":\"a cat\",\"response_format\":\"b64_json\",\"size\":\"1024x1024\"}",
                mock.lastCall("/electronhub/v1/images/generations").body());
        assertBearer("/electronhub/v1/images/generations", "eh");
    }

    @Test
    void chutesListsDiffusionChutesSortedAndDrawsWithItsDefaults() {
        key("api_key_chutes", "ch");
        mock.route("/chutes-api/chutes/", request -> json(request, 200, "{\"items\":[{\"name\":\"sdxl\"},{\"name\":\"FLUX.1-dev\"}]}"));
        assertEquals("[{\"value\":\"FLUX.1-dev\",\"text\":\"FLUX.1-dev\"},{\"value\":\"sdxl\",\"text\":\"sdxl\"}]",
                client.post("/api/sd/chutes/models", "{}").bodyAsString());
        assertEquals("template=diffusion&include_public=true&limit=999", mock.lastCall("/chutes-api/chutes/").query());
        assertBearer("/chutes-api/chutes/", "ch");

        jpeg("/chutes-image/generate");
        HttpResponse<Buffer> r = client.post("/api/sd/chutes/generate", "{\"model\":\"sdxl\",\"prompt\":\"a cat\",\"width\":0}");
        assertEquals("{\"image\":\"" + JPEG_BASE64 + "\"}", r.bodyAsString());
        assertEquals("{\"model\":\"sdxl\",\"prompt\":\"a cat\",\"guidance_scale\":7,\"width\":1024,\"height\":1024,"
                + "\"num_inference_steps\":10}", mock.lastCall("/chutes-image/generate").body());
        assertBearer("/chutes-image/generate", "ch");
    }

    @Test
    void nanoGptListsImageModelsAndSendsTheBodyOn() {
        key("api_key_nanogpt", "ng");
        mock.route(NANOGPT_API + "/models", request -> json(request, 200,
                "{\"models\":{\"text\":{},\"image\":{\"recraft\":{\"model\":\"recraft-v3\",\"name\":\"Recraft V3\"}}}}"));
        assertEquals("[{\"value\":\"recraft-v3\",\"text\":\"Recraft V3\"}]", client.post("/api/sd/nanogpt/models", "{}").bodyAsString());
        assertEquals("ng", mock.lastCall(NANOGPT_API + "/models").headers().get("x-api-key"));

        mock.route(NANOGPT_API + "/generate-image", request -> json(request, 200, "{\"data\":[{\"b64_json\":\"" + JPEG_BASE64 + "\"}]}"));
        String body = "{\"model\":\"recraft-v3\",\"prompt\":\"a cat\",\"width\":1024}";
        assertEquals("{\"image\":\"" + JPEG_BASE64 + "\"}", client.post("/api/sd/nanogpt/generate", body).bodyAsString());
        assertEquals(body, mock.lastCall(NANOGPT_API + "/generate-image").body());
        assertEquals("ng", mock.lastCall(NANOGPT_API + "/generate-image").headers().get("x-api-key"));
    }

    @Test
    void xaiAnswersPlainBase64AsJpegAndADataUrlAsItsType() {
        key("api_key_xai", "xk");
        mock.route("/xai/v1/images/generations", request -> json(request, 200, "{\"data\":[{\"b64_json\":\"" + JPEG_BASE64 + "\"}]}"));
        HttpResponse<Buffer> r = client.post("/api/sd/xai/generate", "{\"prompt\":\"a cat\",\"model\":\"grok-2-image\"}");
        assertEquals("{\"image\":\"" + JPEG_BASE64 + "\",\"format\":\"jpeg\"}", r.bodyAsString());
        assertEquals("{\"prompt\":\"a cat\",\"model\":\"grok-2-image\",\"response_format\":\"b64_json\"}",
                mock.lastCall("/xai/v1/images/generations").body());
        assertBearer("/xai/v1/images/generations", "xk");

        mock.route("/xai/v1/images/generations", request -> json(request, 200,
                "{\"data\":[{\"b64_json\":\"data:image/png;base64,iVBORw0KGgo=\"}]}"));
        assertEquals("{\"image\":\"iVBORw0KGgo=\",\"format\":\"png\"}",
                client.post("/api/sd/xai/generate", "{\"prompt\":\"a cat\"}").bodyAsString());
    }

    @Test
    void aServiceErrorIsA500NamingTheService() {
        key("api_key_togetherai", "tg-key");
        mock.route("/together/v1/images/generations", request -> json(request, 402, "{\"error\":{\"message\":\"Credit limit\"}}"));
        HttpResponse<Buffer> r = client.post("/api/sd/together/generate", "{\"prompt\":\"a cat\"}");
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsString().contains("TogetherAI answered 402"), r.bodyAsString());
        assertTrue(r.bodyAsString().contains("Credit limit"), r.bodyAsString());
    }

    @Test
    void aimlApiListsImageModelsAndSendsTheBodyOnWithAttribution() {
        key("api_key_aimlapi", "am");
        mock.route("/aimlapi/v1/models", request -> json(request, 200, "{\"data\":[{\"id\":\"flux/schnell\",\"type\":\"image\","
                + "\"info\":{\"name\":\"FLUX Schnell\"}},{\"id\":\"triposr\",\"type\":\"image\"},{\"id\":\"dall-e-3\",\"type\":\"image\"},"
                + "{\"id\":\"gpt-4o\",\"type\":\"chat-completion\"}]}"));
        assertEquals("{\"data\":[{\"value\":\"flux/schnell\",\"text\":\"FLUX Schnell\"},{\"value\":\"dall-e-3\",\"text\":\"dall-e-3\"}]}",
                client.post("/api/sd/aimlapi/models", "{}").bodyAsString());
        assertBearer("/aimlapi/v1/models", "am");

        jpeg("/files/aiml.png");
        mock.route("/aimlapi/v1/images/generations", request -> json(request, 200,
                "{\"images\":[{\"url\":\"" + mock.origin() + "/files/aiml.png\"}]}"));
        String body = "{\"model\":\"flux/schnell\",\"prompt\":\"a cat\"}";
        HttpResponse<Buffer> r = client.post("/api/sd/aimlapi/generate-image", body);
        assertEquals("{\"format\":\"png\",\"data\":\"" + JPEG_BASE64 + "\"}", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall("/aimlapi/v1/images/generations");
        assertEquals(body, call.body());
        assertEquals("https://sillytavern.app", call.headers().get("HTTP-Referer"));
        assertEquals("SillyTavern", call.headers().get("X-Title"));
        assertBearer("/aimlapi/v1/images/generations", "am");
    }

    @Test
    void workersAiListsTheAccountsModelsAndRunsOne() {
        key("api_key_workers_ai", "cf");
        String account = "/cloudflare/client/v4/accounts/acc%201";
        mock.route(account + "/ai/models/search", request -> json(request, 200,
                "{\"success\":true,\"result\":[{\"name\":\"@cf/black-forest-labs/flux-1-schnell\"}]}"));
        assertEquals("[{\"value\":\"@cf/black-forest-labs/flux-1-schnell\",\"text\":\"@cf/black-forest-labs/flux-1-schnell\"}]",
                client.post("/api/sd/workersai/models", "{\"account_id\":\" acc 1 \"}").bodyAsString());
        assertEquals("task=Text-to-Image&per_page=1000", mock.lastCall(account + "/ai/models/search").query());
        assertBearer(account + "/ai/models/search", "cf");

        String run = account + "/ai/run/@cf/black-forest-labs/flux-1-schnell";
        mock.route(run, request -> json(request, 200, "{\"result\":{\"image\":\"" + JPEG_BASE64 + "\"},\"success\":true}"));
        HttpResponse<Buffer> r = client.post("/api/sd/workersai/generate", "{\"account_id\":\"acc 1\",\"model\":"
                + "\"@cf/black-forest-labs/flux-1-schnell\",\"prompt\":\"a cat\",\"negative_prompt\":\"\",\"width\":\"512\","
                + "\"steps\":4,\"scale\":0,\"seed\":-1}");
        assertEquals("{\"format\":\"png\",\"image\":\"" + JPEG_BASE64 + "\"}", r.bodyAsString());
        assertEquals("{\"prompt\":\"a cat\",\"width\":512,\"num_steps\":4}", mock.lastCall(run).body());
        assertEquals("application/json", mock.lastCall(run).headers().get("Content-Type"));
        assertBearer(run, "cf");

        String flux2 = account + "/ai/run/@cf/black-forest-labs/flux-2-dev";
        jpeg(flux2);
        HttpResponse<Buffer> raw = client.post("/api/sd/workersai/generate", "{\"account_id\":\"acc 1\",\"model\":"
                + "\"@cf/black-forest-labs/flux-2-dev\",\"prompt\":\"a cat\",\"seed\":3}");
        assertEquals("{\"format\":\"png\",\"image\":\"" + JPEG_BASE64 + "\"}", raw.bodyAsString());
        assertTrue(mock.lastCall(flux2).headers().get("Content-Type").startsWith("multipart/form-data; boundary="));
        assertTrue(mock.lastCall(flux2).body().contains("name=\"seed\"\r\n\r\n3\r\n"), mock.lastCall(flux2).body());

        assertEquals(400, client.post("/api/sd/workersai/generate", "{\"model\":\"@cf/x\"}").statusCode());
        assertEquals(400, client.post("/api/sd/workersai/generate", "{\"account_id\":\"a\",\"model\":\"../x?y\"}").statusCode());
    }
}
