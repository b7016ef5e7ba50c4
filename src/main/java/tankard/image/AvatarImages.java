package tankard.image;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.JsJson;

import javax.imageio.ImageIO;
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

/**
 * Card and persona images as ST prepares them (st-api.md §7.1, st-data.md §3.4): decoded, optionally
 * cropped, "covered" to the target size and re-encoded as an 8-bit RGBA PNG without ancillary chunks.
 */
public final class AvatarImages {
    public static final int AVATAR_WIDTH = 512;
    public static final int AVATAR_HEIGHT = 768;

    private static volatile byte[] defaultAvatar;

    private AvatarImages() {
    }

    /** ST's crop object: a rectangle, and whether to scale the result to the standard avatar size. */
    public record Crop(int x, int y, int width, int height, boolean wantResize) {
        /** The {@code crop} query parameter (URL-decoded JSON); null when absent or not a usable crop. */
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
            return new Crop(crop.get("x").asInt(), crop.get("y").asInt(), crop.get("width").asInt(),
                    crop.get("height").asInt(), crop.path("want_resize").asBoolean(false));
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
     * The image of cards made without one (ST uses its {@code img/ai4.png}): a plain 512×768 portrait
     * placeholder drawn here, so that no ST asset is shipped.
     */
    public static byte[] defaultAvatar() {
        byte[] png = defaultAvatar;
        if (png == null) {
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
            png = encode(image);
            defaultAvatar = png;
        }
        return png.clone();
    }

    /** Jimp's crop clips the rectangle to the image. */
    private static BufferedImage crop(BufferedImage image, Crop crop) {
        int x = Math.max(0, Math.min(crop.x(), image.getWidth() - 1));
        int y = Math.max(0, Math.min(crop.y(), image.getHeight() - 1));
        int w = Math.max(1, Math.min(crop.width(), image.getWidth() - x));
        int h = Math.max(1, Math.min(crop.height(), image.getHeight() - y));
        return image.getSubimage(x, y, w, h);
    }

    /** Scales to cover {@code width × height} keeping the aspect ratio, then crops the centre. */
    private static BufferedImage cover(BufferedImage image, int width, int height) {
        double scale = Math.max((double) width / image.getWidth(), (double) height / image.getHeight());
        int scaledW = (int) Math.round(image.getWidth() * scale);
        int scaledH = (int) Math.round(image.getHeight() * scale);
        BufferedImage out = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = out.createGraphics();
        try {
            g.setComposite(AlphaComposite.Src);
            g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BICUBIC);
            g.drawImage(image, (width - scaledW) / 2, (height - scaledH) / 2, scaledW, scaledH, null);
        } finally {
            g.dispose();
        }
        return out;
    }

    private static byte[] encode(BufferedImage image) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ImageIO.write(image, "png", out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
