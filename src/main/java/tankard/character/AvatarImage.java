package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.image.Images;
import tankard.json.Js;
import tankard.json.JsJson;

import javax.imageio.ImageIO;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import java.awt.AlphaComposite;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The image of a card written from an upload (st-api.md §7.1 "Image processing on write"): decoded, optionally
 * cropped, "covered" to the target size and encoded as an 8-bit RGBA PNG without ancillary chunks.
 */
public final class AvatarImage {
    static final int AVATAR_WIDTH = 512;
    static final int AVATAR_HEIGHT = 768;

    /** ST's crop request: a rectangle, and whether to scale the result to the standard avatar size. */
    public record Crop(int x, int y, int width, int height, boolean wantResize) {
        /** The {@code crop} query parameter (URL-decoded JSON); null when absent or unusable, as in ST. */
        public static Crop parse(String query) {
            if (query == null) {
                return null;
            }
            JsonNode json = JsJson.tryParse(query.getBytes(StandardCharsets.UTF_8));
            if (json == null || !json.isObject()) {
                return null;
            }
            for (String key : new String[]{"x", "y", "width", "height"}) {
                if (!json.path(key).isNumber()) {
                    return null;
                }
            }
            return new Crop(json.get("x").asInt(), json.get("y").asInt(), json.get("width").asInt(),
                    json.get("height").asInt(), Js.truthy(json.get("want_resize")));
        }
    }

    private AvatarImage() {
    }

    /** The uploaded image prepared as a card image; {@link CardFormatException} when it is not an image. */
    public static byte[] prepare(byte[] upload, Crop crop) {
        BufferedImage image = Images.decode(upload);
        if (image == null) {
            throw new CardFormatException("The uploaded file is not a supported image");
        }
        int width = image.getWidth();
        int height = image.getHeight();
        if (crop != null) {
            image = crop(image, crop);
            width = crop.wantResize() ? AVATAR_WIDTH : Math.max(1, crop.width());
            height = crop.wantResize() ? AVATAR_HEIGHT : Math.max(1, crop.height());
        }
        return encode(cover(image, width, height));
    }

    /** The built-in image of cards made without one: the frontend's {@code img/ai4.png} or a plain canvas. */
    public static byte[] defaultAvatar(Path frontendDir) {
        Path ai4 = frontendDir == null ? null : frontendDir.resolve("img").resolve("ai4.png");
        try {
            if (ai4 != null && Files.isRegularFile(ai4)) {
                return Files.readAllBytes(ai4);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        BufferedImage blank = new BufferedImage(AVATAR_WIDTH, AVATAR_HEIGHT, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = blank.createGraphics();
        g.setColor(new java.awt.Color(0x5a, 0x5a, 0x6e));
        g.fillRect(0, 0, AVATAR_WIDTH, AVATAR_HEIGHT);
        g.dispose();
        return encode(blank);
    }

    /** The crop rectangle clipped to the image (Jimp clips the same way). */
    private static BufferedImage crop(BufferedImage image, Crop crop) {
        int x = Math.max(0, Math.min(crop.x(), image.getWidth() - 1));
        int y = Math.max(0, Math.min(crop.y(), image.getHeight() - 1));
        int w = Math.max(1, Math.min(crop.width(), image.getWidth() - x));
        int h = Math.max(1, Math.min(crop.height(), image.getHeight() - y));
        return image.getSubimage(x, y, w, h);
    }

    /** Scales to cover {@code width × height} keeping the aspect ratio, then cuts out the centre. */
    private static BufferedImage cover(BufferedImage image, int width, int height) {
        double scale = Math.max((double) width / image.getWidth(), (double) height / image.getHeight());
        double scaledWidth = image.getWidth() * scale;
        double scaledHeight = image.getHeight() * scale;
        BufferedImage out = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = out.createGraphics();
        try {
            g.setComposite(AlphaComposite.Src);
            g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BICUBIC);
            g.drawImage(image, (int) Math.round((width - scaledWidth) / 2), (int) Math.round((height - scaledHeight) / 2),
                    (int) Math.round(scaledWidth), (int) Math.round(scaledHeight), null);
        } finally {
            g.dispose();
        }
        return out;
    }

    private static byte[] encode(BufferedImage image) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        // An in-memory stream: ImageIO would otherwise cache through temp files.
        try (MemoryCacheImageOutputStream stream = new MemoryCacheImageOutputStream(out)) {
            if (!ImageIO.write(image, "png", stream)) {
                throw new IllegalStateException("No PNG encoder");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
