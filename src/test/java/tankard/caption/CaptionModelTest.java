package tankard.caption;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.TestServer;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The captioner on the tiny model: merged and separate decoders agree with the reference; the preprocessing. */
class CaptionModelTest {
    private static BufferedImage solid(int width, int height, Color colour) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
        Graphics2D graphics = image.createGraphics();
        graphics.setColor(colour);
        graphics.fillRect(0, 0, width, height);
        graphics.dispose();
        return image;
    }

    private static void assertReferenceCaptions(Path folder) throws Exception {
        try (CaptionModel model = CaptionModel.load(folder)) {
            for (Iterator<Map.Entry<String, JsonNode>> it = LocalCaptionHttpTest.expected().fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> image = it.next();
                JsonNode rgb = image.getValue().get("rgb");
                assertEquals(image.getValue().get("caption").asText(), model.caption(solid(50, 80,
                        new Color(rgb.get(0).asInt(), rgb.get(1).asInt(), rgb.get(2).asInt()))), image.getKey());
            }
        }
    }

    @Test
    void theMergedDecoderWithItsCacheGivesTheReferenceCaptions() throws Exception {
        assertReferenceCaptions(LocalCaptionHttpTest.TINY);
    }

    @Test
    void withoutAMergedDecoderTheCacheFreeDecoderGivesTheSame() throws Exception {
        Path folder = TestServer.tempDir().resolve("separate");
        try (Stream<Path> files = Files.walk(LocalCaptionHttpTest.TINY)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                if (!file.getFileName().toString().startsWith("decoder_model_merged")) {
                    Path target = folder.resolve(LocalCaptionHttpTest.TINY.relativize(file).toString());
                    Files.createDirectories(target.getParent());
                    Files.copy(file, target);
                }
            }
        }
        assertReferenceCaptions(folder);
    }

    @Test
    void preprocessingResizesTheShortestEdgeCropsTheCentreRescalesAndNormalizesChannelsFirst() {
        CaptionModel.Preprocessor preprocessor = CaptionModel.Preprocessor.read(JsJson.parse("""
                {"do_resize": true, "size": {"shortest_edge": 4}, "do_center_crop": true,
                 "crop_size": {"height": 4, "width": 4}, "do_rescale": true, "rescale_factor": 0.00392156862745098,
                 "do_normalize": true, "image_mean": [0.5, 0.5, 0.5], "image_std": [0.5, 0.25, 0.5]}"""));
        CaptionModel.Preprocessor.Pixels pixels = preprocessor.pixels(solid(12, 8, new Color(255, 0, 51, 128)));
        assertArrayEquals(new long[]{1, 3, 4, 4}, pixels.shape());
        float[] red = Arrays.copyOfRange(pixels.values(), 0, 16);
        float[] green = Arrays.copyOfRange(pixels.values(), 16, 32);
        float[] blue = Arrays.copyOfRange(pixels.values(), 32, 48);
        for (int i = 0; i < 16; i++) {
            // alpha dropped, not composited; Java 2D's scaling of a translucent pixel may round a channel by a level
            assertEquals(1f, red[i], 0.02);
            assertEquals(-2f, green[i], 0.02);
            assertEquals(-0.6f, blue[i], 0.02);
        }
    }
}
