package tankard.caption;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.outbound.UpstreamClient;
import tankard.summarize.onnx.HubDownloader;
import tankard.vector.local.OnDemandModel;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.regex.Pattern;

/**
 * The local image captioning of ST's Image Captioning extension (ST: src/endpoints/caption.js and src/transformers.js,
 * the image-to-text task) on the model of {@code extensions.models.captioning} (ST's default when empty), loaded when
 * first asked for (see {@link OnDemandModel}: 503 while it loads), images run behind a queue of
 * {@code tankard.caption.queueSize}.
 */
public final class LocalCaptioner implements AutoCloseable {
    /** ST's default (src/transformers.js, the image-to-text task). */
    public static final String DEFAULT_MODEL = "Xenova/vit-gpt2-image-captioning";
    private static final Pattern DATA_URL_PREFIX = Pattern.compile("^data:[^,]*;base64,");

    private final OnDemandModel<CaptionModel> model;

    public LocalCaptioner(TankardConfig config, UpstreamClient downloader) {
        String setting = config.models().captioning();
        model = new OnDemandModel<>("captioning", "extensions.models.captioning", "tankard.caption.queueSize",
                setting.isEmpty() ? DEFAULT_MODEL : setting, config.dataRoot().resolve("_models"),
                config.models().autoDownload(), new HubDownloader(downloader, CaptionModel.FILES,
                "it is not a transformers.js image-to-text model (an encoder, a decoder, tokenizer.json and"
                        + " preprocessor_config.json)"),
                config.models().captionQueue(), CaptionModel::load);
    }

    /**
     * The caption of the body's {@code image}, base64 as ST's client sends it (a data URL's prefix is let through
     * too). A 400 {@link Refusal} when it is no image this server reads (ST: getRawImage answers null); 503 while the
     * model is not ready.
     */
    public CompletionStage<String> caption(JsonNode body) {
        BufferedImage image;
        try {
            image = image(body.path("image"));
        } catch (Refusal refusal) {
            return CompletableFuture.failedFuture(refusal);
        }
        return model.submit(ready -> ready.caption(image));
    }

    /** The decoded image; a 400 when it is not a string of base64 of a PNG, JPEG, GIF or BMP. */
    static BufferedImage image(JsonNode image) {
        if (!image.isTextual()) {
            throw Refusal.badRequest("\"image\" must be a base64 image");
        }
        try {
            // as Node's Buffer.from(image, 'base64'): characters outside the alphabet (line breaks) are skipped
            byte[] bytes = Base64.getMimeDecoder().decode(DATA_URL_PREFIX.matcher(image.asText()).replaceFirst(""));
            BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(bytes));
            if (decoded != null && decoded.getWidth() > 0 && decoded.getHeight() > 0) {
                return decoded;
            }
        } catch (IllegalArgumentException | IOException e) {
            // an unreadable image, as below
        }
        throw Refusal.badRequest("\"image\" is not a readable image (PNG, JPEG, GIF or BMP, base64)");
    }

    @Override
    public void close() {
        model.close();
    }
}
