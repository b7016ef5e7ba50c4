package tankard.caption;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.TestServer;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ST's local captioning route over HTTP on the tiny captioner of src/test/resources/caption/make-tiny-captioner.py,
 * laid out in the data root as a downloaded model is, with downloads off.
 */
class LocalCaptionHttpTest {
    static final Path TINY = Path.of("src/test/resources/caption/tiny-captioner");
    static final String REPO = "Tankard/tiny-captioner";

    /** A working folder whose data root holds the tiny model as {@code REPO}, config.yaml naming {@code model}. */
    static Path work(String model) throws Exception {
        Path work = TestServer.tempDir();
        Path folder = work.resolve("data/_models").resolve(REPO);
        try (Stream<Path> files = Files.walk(TINY)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path target = folder.resolve(TINY.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.copy(file, target);
            }
        }
        Files.createDirectories(work.resolve("public"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html><title>Tankard test</title>");
        Files.writeString(work.resolve("config.yaml"), "extensions:\n  models:\n    captioning: " + model
                + "\n    autoDownload: false\n");
        return work;
    }

    static JsonNode expected() throws Exception {
        return JsJson.parse(Files.readString(TINY.resolve("expected.json")));
    }

    /** A solid image of the colour, 300x200 (so it is resized), in the format. */
    static String base64(JsonNode rgb, String format) throws Exception {
        BufferedImage image = new BufferedImage(300, 200, BufferedImage.TYPE_INT_RGB);
        Graphics2D graphics = image.createGraphics();
        graphics.setColor(new Color(rgb.get(0).asInt(), rgb.get(1).asInt(), rgb.get(2).asInt()));
        graphics.fillRect(0, 0, 300, 200);
        graphics.dispose();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertTrue(ImageIO.write(image, format, out));
        return Base64.getEncoder().encodeToString(out.toByteArray());
    }

    static HttpResponse<Buffer> caption(TestServer.Client client, String path, String image) {
        return client.post(path, JsJson.object().put("image", image).toString());
    }

    /** The first request starts the load and is told so with a 503; then the model answers. */
    static void awaitModel(TestServer.Client client, String path, String image) throws Exception {
        HttpResponse<Buffer> first = caption(client, path, image);
        assertEquals(503, first.statusCode(), first.bodyAsString());
        assertTrue(first.bodyAsString().contains("is loading"), first.bodyAsString());
        for (int i = 0; i < 300; i++) {
            HttpResponse<Buffer> reply = caption(client, path, image);
            if (reply.statusCode() == 200) {
                return;
            }
            assertEquals(503, reply.statusCode(), reply.bodyAsString());
            Thread.sleep(50);
        }
        throw new AssertionError("the captioner never loaded");
    }

    @Test
    void eachImageGetsTheReferenceCaptionAsRawBase64OrADataUrl() throws Exception {
        try (TestServer server = TestServer.startIn(work(REPO))) {
            TestServer.Client client = server.client();
            JsonNode expected = expected();
            awaitModel(client, "/api/extra/caption", base64(expected.get("red").get("rgb"), "png"));
            for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> image = it.next();
                String want = image.getValue().get("caption").asText();
                for (String format : List.of("png", "jpeg")) {
                    String base64 = base64(image.getValue().get("rgb"), format);
                    for (String sent : List.of(base64, "data:image/" + format + ";base64," + base64)) {
                        HttpResponse<Buffer> reply = caption(client, "/api/extra/caption", sent);
                        assertEquals(200, reply.statusCode(), reply.bodyAsString());
                        assertEquals(JsJson.object().put("caption", want), JsJson.parse(reply.bodyAsString()),
                                image.getKey() + " " + format);
                    }
                }
            }
            assertEquals("a red square", expected.get("red").get("caption").asText());
            assertEquals("a green circle", expected.get("green").get("caption").asText());
        }
    }

    @Test
    void anUnreadableOrMissingImageIs400() throws Exception {
        try (TestServer server = TestServer.startIn(work(REPO))) {
            TestServer.Client client = server.client();
            String notAnImage = Base64.getEncoder().encodeToString("hello, no picture here".getBytes());
            for (String body : List.of("{}", "{\"image\": null}", "{\"image\": 5}", "{\"image\": \"\"}",
                    "{\"image\": \"" + notAnImage + "\"}", "{\"image\": \"%%%\"}")) {
                HttpResponse<Buffer> reply = client.post("/api/extra/caption", body);
                assertEquals(400, reply.statusCode(), body + " " + reply.bodyAsString());
            }
        }
    }

    @Test
    void withoutTheModelAndDownloadsOffItAnswers503WithTheReason() throws Exception {
        try (TestServer server = TestServer.startIn(work("Nobody/missing-captioner"))) {
            HttpResponse<Buffer> reply = caption(server.client(), "/api/extra/caption",
                    base64(expected().get("blue").get("rgb"), "png"));
            assertEquals(503, reply.statusCode(), reply.bodyAsString());
            String message = JsJson.parse(reply.bodyAsString()).path("error").asText();
            assertTrue(message.contains("Nobody/missing-captioner is not in") && message.contains("autoDownload is false")
                    && message.contains("preprocessor_config.json"), reply.bodyAsString());
        }
    }
}
