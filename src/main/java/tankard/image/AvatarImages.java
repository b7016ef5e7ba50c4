package tankard.image;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.Js;
import tankard.json.JsJson;

import javax.imageio.ImageIO;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import java.awt.AlphaComposite;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * Card and persona images as ST prepares them (ST: src/endpoints/characters.js, applyAvatarCropResize): decoded,
 * optionally cropped, "covered" to the target size and re-encoded as an 8-bit RGBA PNG without ancillary chunks.
 */
public final class AvatarImages {
    public static final int AVATAR_WIDTH = 512;
    public static final int AVATAR_HEIGHT = 768;

    private AvatarImages() {
    }

    /** ST's crop object: a rectangle, and whether to scale the result to the standard avatar size. */
    public record Crop(int x, int y, int width, int height, boolean wantResize) {
        /** The {@code crop} query parameter (URL-decoded JSON); null when absent or not a usable crop, as in ST. */
        public static Crop parse(String query) {
            if (query == null) {
                return null;
            }
            JsonNode crop = JsJson.tryParse(query.getBytes(StandardCharsets.UTF_8));
            if (crop == null || !crop.isObject()) {
                return null;
            }
            for (String key : new String[]{"x", "y", "width", "height"}) {
                if (!crop.path(key).isNumber()) {
                    return null;
                }
            }
            // ST tests want_resize for JavaScript truthiness
            return new Crop(crop.get("x").asInt(), crop.get("y").asInt(), crop.get("width").asInt(),
                    crop.get("height").asInt(), Js.truthy(crop.get("want_resize")));
        }
    }

    /** The image re-encoded as PNG (cropped/resized when asked), or null when it cannot be decoded. Blocking. */
    public static byte[] toPng(byte[] source, Crop crop) {
        BufferedImage image = Images.decode(source);
        if (image == null) {
            return null;
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

    /**
     * The image of cards made without one, prepared once and handed out as copies. ST uses its
     * {@code public/img/ai4.png}: the frontend's copy is used when there is one (it is not shipped here),
     * else a plain 512×768 portrait placeholder drawn here.
     */
    public static Supplier<byte[]> defaultAvatar(Path frontendDir) {
        return new Supplier<>() {
            private volatile byte[] png;

            @Override
            public byte[] get() {
                byte[] prepared = png;
                if (prepared == null) {
                    prepared = prepareDefault(frontendDir);
                    png = prepared;
                }
                return prepared.clone();
            }
        };
    }

    private static byte[] prepareDefault(Path frontendDir) {
        Path ai4 = frontendDir == null ? null : frontendDir.resolve("img").resolve("ai4.png");
        if (ai4 != null && Files.isRegularFile(ai4)) {
            try {
                byte[] png = toPng(Files.readAllBytes(ai4), null);
                if (png != null) {
                    return png;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        BufferedImage image = new BufferedImage(AVATAR_WIDTH, AVATAR_HEIGHT, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setPaint(new GradientPaint(0, 0, new Color(0x4a5568), 0, AVATAR_HEIGHT, new Color(0x1a202c)));
            g.fillRect(0, 0, AVATAR_WIDTH, AVATAR_HEIGHT);
            g.setColor(new Color(0xa0aec0));
            g.fillOval(156, 170, 200, 200);
            g.fillRoundRect(96, 400, 320, 300, 160, 160);
        } finally {
            g.dispose();
        }
        return encode(image);
    }

    /** Jimp's crop clips the rectangle to the image. */
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
