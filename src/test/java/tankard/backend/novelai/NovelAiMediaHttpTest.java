package tankard.backend.novelai;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.PublicHostsMockTest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class NovelAiMediaHttpTest extends PublicHostsMockTest {
    private static final String BASE = "/api/novelai";
    private static final byte[] PNG = "\u0089PNG generated".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] UPSCALED = "\u0089PNG upscaled".getBytes(StandardCharsets.ISO_8859_1);

    @BeforeEach
    void writeKey() {
        client.post("/api/secrets/write", "{\"key\":\"api_key_novel\",\"value\":\"pst-novel\"}");
    }

    /** A ZIP as NovelAI answers: macOS metadata first, then the image. */
    private static Buffer zip(byte[] png) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            zip.putNextEntry(new ZipEntry("__MACOSX/._image_0.png"));
            zip.write(new byte[] {1, 2});
            zip.putNextEntry(new ZipEntry("image_0.png"));
            zip.write(png);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Buffer.buffer(bytes.toByteArray());
    }

    private static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    @Test
    void anImageComesBackAsBase64() {
        mock.route(NOVELAI_IMAGE + "/ai/generate-image", r -> r.response().end(zip(PNG)));
        HttpResponse<Buffer> answer = client.post(BASE + "/generate-image", "{\"prompt\":\"a cat\","
                + "\"negative_prompt\":\"blurry\",\"model\":\"nai-diffusion-4-5-full\",\"width\":832,\"height\":1216,"
                + "\"seed\":42,\"variety_boost\":true}");
        assertEquals(200, answer.statusCode());
        assertEquals(base64(PNG), answer.bodyAsString());
        JsonNode sent = mock.lastCall(NOVELAI_IMAGE + "/ai/generate-image").json();
        assertEquals("Bearer pst-novel", mock.lastCall().headers().get("Authorization"));
        assertEquals("a cat", sent.get("input").textValue());
        JsonNode parameters = sent.get("parameters");
        assertEquals(42, parameters.get("seed").intValue());
        assertEquals(28, parameters.get("steps").intValue());
        assertEquals("k_dpmpp_2m", parameters.get("sampler").textValue());
        assertEquals(58.0, parameters.get("skip_cfg_above_sigma").doubleValue(), 1e-9);
        assertEquals("blurry", parameters.path("v4_negative_prompt").path("caption").path("base_caption").textValue());
        assertEquals("a cat", parameters.path("v4_prompt").path("caption").path("base_caption").textValue());
    }

    @Test
    void anImageIsUpscaledWhenAskedAndKeptWhenUpscalingFails() {
        mock.route(NOVELAI_IMAGE + "/ai/generate-image", r -> r.response().end(zip(PNG)));
        mock.route(NOVELAI_API + "/ai/upscale", r -> r.response().end(zip(UPSCALED)));
        String body = "{\"prompt\":\"a cat\",\"width\":512,\"height\":512,\"upscale_ratio\":2}";
        assertEquals(base64(UPSCALED), client.post(BASE + "/generate-image", body).bodyAsString());
        assertEquals("{\"image\":\"" + base64(PNG) + "\",\"height\":512,\"width\":512,\"scale\":2}",
                mock.lastCall(NOVELAI_API + "/ai/upscale").body());
        mock.route(NOVELAI_API + "/ai/upscale", r -> r.response().setStatusCode(402).end("Not enough Anlas"));
        assertEquals(base64(PNG), client.post(BASE + "/generate-image", body).bodyAsString());
    }

    @Test
    void aFailedImageAnswers500AndAnUnreachableOne502() {
        mock.route(NOVELAI_IMAGE + "/ai/generate-image", r -> r.response().setStatusCode(400).end("{\"message\":\"bad\"}"));
        assertEquals(500, client.post(BASE + "/generate-image", "{\"prompt\":\"a cat\"}").statusCode());
        mock.route(NOVELAI_IMAGE + "/ai/generate-image", r -> r.response().end("not a zip"));
        assertEquals(500, client.post(BASE + "/generate-image", "{\"prompt\":\"a cat\"}").statusCode());
        takeUpstreamDown();
        assertEquals(502, client.post(BASE + "/generate-image", "{\"prompt\":\"a cat\"}").statusCode());
    }

    @Test
    void speechComesBackAsMpeg() {
        byte[] sound = {(byte) 0xFF, (byte) 0xFB, 0x10, 0x00};
        mock.route(NOVELAI_API + "/ai/generate-voice", r -> r.response().putHeader("Content-Type", "audio/mpeg")
                .end(Buffer.buffer(sound)));
        HttpResponse<Buffer> answer = client.post(BASE + "/generate-voice", "{\"text\":\"Hello there & bye\",\"voice\":\"Aini\"}");
        assertEquals(200, answer.statusCode());
        assertEquals("audio/mpeg", answer.getHeader("Content-Type"));
        assertEquals(Buffer.buffer(sound), answer.body());
        assertEquals("text=Hello%20there%20%26%20bye&voice=-1&seed=Aini&opus=false&version=v2",
                mock.lastCall(NOVELAI_API + "/ai/generate-voice").query());
        assertEquals("audio/mpeg", mock.lastCall().headers().get("Accept"));
        assertEquals(400, client.post(BASE + "/generate-voice", "{\"text\":\"Hi\"}").statusCode());
        mock.route(NOVELAI_API + "/ai/generate-voice", r -> r.response().setStatusCode(500).end("oops"));
        assertEquals(500, client.post(BASE + "/generate-voice", "{\"text\":\"Hi\",\"voice\":\"Aini\"}").statusCode());
    }
}
