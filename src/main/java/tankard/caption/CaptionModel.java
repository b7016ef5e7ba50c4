package tankard.caption;

import ai.onnxruntime.OrtException;
import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.JsonFiles;
import tankard.summarize.onnx.HubDownloader;
import tankard.vector.local.Seq2SeqExport;

import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * An image-to-text VisionEncoderDecoder model in the transformers.js layout, run as ST's image-to-text pipeline
 * runs it (sillytavern-transformers, src/pipelines.js, ImageToTextPipeline; src/processors.js,
 * ImageFeatureExtractor.preprocess; src/models.js, VisionEncoderDecoderModel): the image resized, centre-cropped,
 * rescaled and normalized as its {@code preprocessor_config.json} says, channels first; the encoder's
 * {@code last_hidden_state}; generation from the decoder start token with the model's generation settings (a merged
 * decoder, as transformers.js loads, else separate ones); the ids decoded without special tokens, trimmed. Quantized
 * graphs first, as ST asks for them. Thread-safe.
 */
final class CaptionModel implements AutoCloseable {
    /** The files of an export, as this class loads them. */
    static final List<HubDownloader.Wanted> FILES = Seq2SeqExport.FILES;

    private final Seq2SeqExport export;
    private final Preprocessor preprocessor;

    private CaptionModel(Path folder) throws IOException, OrtException {
        preprocessor = Preprocessor.read(JsonFiles.readObject(folder.resolve("preprocessor_config.json"), true));
        export = new Seq2SeqExport(folder);
    }

    /** Loads an export folder. Blocking: seconds, and the model's size in memory. */
    static CaptionModel load(Path folder) throws IOException, OrtException {
        try {
            return new CaptionModel(folder);
        } catch (RuntimeException e) { // the tokenizer binding's failures on a bad tokenizer.json
            throw new IOException("Cannot load the captioning model in " + folder + ": " + e.getMessage(), e);
        }
    }

    /** The caption of an image, as the pipeline's {@code generated_text}. */
    String caption(BufferedImage image) throws OrtException {
        Preprocessor.Pixels pixels = preprocessor.pixels(image);
        int[] ids = export.generate("pixel_values", pixels.values(), pixels.shape(), export.settings());
        return export.decode(Arrays.stream(ids).asLongStream().toArray()).strip();
    }

    @Override
    public void close() throws OrtException {
        export.close();
    }

    /** A {@code preprocessor_config.json}'s image processing (transformers.js's ImageFeatureExtractor). */
    record Preprocessor(int[] resize, boolean shortestEdge, int[] crop, double rescale, float[] mean, float[] std) {
        record Pixels(float[] values, long[] shape) {
        }

        static Preprocessor read(JsonNode config) {
            int[] resize = config.path("do_resize").asBoolean(false) ? size(config.path("size")) : null;
            boolean shortest = config.path("size").has("shortest_edge");
            int[] crop = config.path("do_center_crop").asBoolean(false) ? size(config.path("crop_size")) : null;
            double rescale = config.path("do_rescale").asBoolean(true) ? config.path("rescale_factor").asDouble(1 / 255.0) : 1;
            boolean normalize = config.path("do_normalize").asBoolean(false);
            return new Preprocessor(resize, shortest, crop, rescale,
                    normalize ? channels(config.path("image_mean"), 0.5f) : new float[]{0, 0, 0},
                    normalize ? channels(config.path("image_std"), 0.5f) : new float[]{1, 1, 1});
        }

        /** {@code {height, width}}, {@code {shortest_edge}} or a number: [width, height] (shortest edge twice). */
        private static int[] size(JsonNode size) {
            if (size.isNumber()) {
                return new int[]{size.asInt(), size.asInt()};
            }
            if (size.has("shortest_edge")) {
                return new int[]{size.path("shortest_edge").asInt(), size.path("shortest_edge").asInt()};
            }
            return new int[]{size.path("width").asInt(224), size.path("height").asInt(224)};
        }

        private static float[] channels(JsonNode values, float fallback) {
            float[] channels = new float[3];
            for (int c = 0; c < 3; c++) {
                channels[c] = (float) (values.isArray() ? values.path(c) : values).asDouble(fallback);
            }
            return channels;
        }

        /** {@code pixel_values}: {@code [1, 3, height, width]}, RGB (alpha dropped, as RawImage.rgb drops it). */
        Pixels pixels(BufferedImage image) {
            BufferedImage resized = image;
            if (resize != null) {
                int width = resize[0];
                int height = resize[1];
                if (shortestEdge) {
                    double scale = (double) resize[0] / Math.min(image.getWidth(), image.getHeight());
                    width = (int) Math.round(image.getWidth() * scale);
                    height = (int) Math.round(image.getHeight() * scale);
                }
                resized = scaled(image, width, height);
            }
            int left = 0;
            int top = 0;
            int width = resized.getWidth();
            int height = resized.getHeight();
            if (crop != null) {
                left = Math.max(0, (width - crop[0]) / 2);
                top = Math.max(0, (height - crop[1]) / 2);
                width = Math.min(width, crop[0]);
                height = Math.min(height, crop[1]);
            }
            float[] values = new float[3 * width * height];
            float factor = (float) rescale;
            for (int y = 0; y < height; y++) {
                for (int x = 0; x < width; x++) {
                    int rgb = resized.getRGB(left + x, top + y);
                    for (int c = 0; c < 3; c++) {
                        float channel = (rgb >> (16 - 8 * c)) & 0xff;
                        values[(c * height + y) * width + x] = (channel * factor - mean[c]) / std[c];
                    }
                }
            }
            return new Pixels(values, new long[]{1, 3, height, width});
        }

        private static BufferedImage scaled(BufferedImage image, int width, int height) {
            BufferedImage scaled = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
            Graphics2D graphics = scaled.createGraphics();
            graphics.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
            graphics.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
            graphics.drawImage(image, 0, 0, width, height, null);
            graphics.dispose();
            return scaled;
        }
    }
}
