package tankard.thumbnail;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.config.TankardConfig;
import tankard.image.Images;

import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;
import java.awt.AlphaComposite;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Decodes an image and renders its thumbnail (ST: src/endpoints/thumbnails.js, generateThumbnail): avatars and
 * personas scaled to cover and centre-cropped to the configured size; backgrounds keep their aspect ratio at the
 * configured pixel area. Encoded as JPEG at the configured quality, or PNG. Blocking and CPU-heavy: worker threads
 * only.
 */
final class ThumbnailRenderer {
    private static final Logger LOG = LoggerFactory.getLogger(ThumbnailRenderer.class);

    private final TankardConfig.Thumbnails config;

    ThumbnailRenderer(TankardConfig.Thumbnails config) {
        this.config = config;
    }

    /** The encoded thumbnail, or null when the file cannot be decoded (then ST serves the original). Blocking. */
    byte[] render(Path source, ThumbnailType type) {
        BufferedImage thumbnail = Images.withReader(source, reader -> {
            int width = reader.getWidth(0);
            int height = reader.getHeight(0);
            if (width <= 0 || height <= 0 || (long) width * height > Images.MAX_PIXELS) {
                return null;
            }
            int[] target = targetSize(type, width, height);
            // Decoding every n-th pixel of a huge image is much faster; keep twice the target for a smooth result.
            int step = (int) Math.max(1, Math.min((double) width / target[0], (double) height / target[1]) / 2);
            ImageReadParam param = reader.getDefaultReadParam();
            param.setSourceSubsampling(step, step, 0, 0);
            BufferedImage image = reader.read(0, param);
            return scale(image, coverRegion(image, target), target[0], target[1]);
        });
        if (thumbnail == null) {
            LOG.warn("Cannot make a thumbnail of {}: not a decodable image", source.getFileName());
            return null;
        }
        try {
            return encode(thumbnail);
        } catch (IOException e) {
            LOG.warn("Cannot encode the thumbnail of {}", source.getFileName(), e);
            return null;
        }
    }

    /** Backgrounds: width = round(sqrt(area * ratio)), height = round(sqrt(area / ratio)); others: as configured. */
    private int[] targetSize(ThumbnailType type, int width, int height) {
        int[] dims = type.dimensions(config);
        if (type != ThumbnailType.BG) {
            return new int[]{dims[0], dims[1]};
        }
        double area = (double) dims[0] * dims[1];
        double ratio = (double) width / height;
        return new int[]{(int) Math.max(1, Math.round(Math.sqrt(area * ratio))),
                (int) Math.max(1, Math.round(Math.sqrt(area / ratio)))};
    }

    /** The centred part of the image with the target's aspect ratio (the whole image for backgrounds). */
    private static Rectangle coverRegion(BufferedImage image, int[] target) {
        int w = image.getWidth();
        int h = image.getHeight();
        double scale = Math.max((double) target[0] / w, (double) target[1] / h);
        int cropW = (int) Math.max(1, Math.min(w, Math.round(target[0] / scale)));
        int cropH = (int) Math.max(1, Math.min(h, Math.round(target[1] / scale)));
        return new Rectangle((w - cropW) / 2, (h - cropH) / 2, cropW, cropH);
    }

    /** Halves with bilinear filtering while that stays above the target, then a bicubic step to the exact size. */
    static BufferedImage scale(BufferedImage image, Rectangle region, int width, int height) {
        BufferedImage current = image;
        Rectangle from = region;
        while (from.width / 2 >= width && from.height / 2 >= height) {
            current = draw(current, from, from.width / 2, from.height / 2, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
            from = new Rectangle(0, 0, current.getWidth(), current.getHeight());
        }
        return draw(current, from, width, height, RenderingHints.VALUE_INTERPOLATION_BICUBIC);
    }

    private static BufferedImage draw(BufferedImage source, Rectangle from, int width, int height, Object interpolation) {
        int type = source.getColorModel().hasAlpha() ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB;
        BufferedImage out = new BufferedImage(width, height, type);
        Graphics2D g = out.createGraphics();
        try {
            g.setComposite(AlphaComposite.Src);
            g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, interpolation);
            g.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
            g.drawImage(source, 0, 0, width, height,
                    from.x, from.y, from.x + from.width, from.y + from.height, null);
        } finally {
            g.dispose();
        }
        return out;
    }

    private byte[] encode(BufferedImage image) throws IOException {
        return config.png() ? write(image, "png", null) : write(withoutAlpha(image), "jpeg", config.quality() / 100f);
    }

    /** JPEG has no alpha; like ST's encoder, keep the colour channels as they are and drop the alpha. */
    private static BufferedImage withoutAlpha(BufferedImage image) {
        if (image.getType() == BufferedImage.TYPE_INT_RGB) {
            return image;
        }
        int w = image.getWidth();
        int h = image.getHeight();
        BufferedImage rgb = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        rgb.setRGB(0, 0, w, h, image.getRGB(0, 0, w, h, null, 0, w), 0, w);
        return rgb;
    }

    private static byte[] write(BufferedImage image, String format, Float quality) throws IOException {
        ImageWriter writer = ImageIO.getImageWritersByFormatName(format).next();
        ImageWriteParam param = null;
        if (quality != null) {
            param = writer.getDefaultWriteParam();
            param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            param.setCompressionQuality(quality);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        // An in-memory stream: ImageIO would otherwise cache through temp files.
        try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
            writer.setOutput(out);
            writer.write(null, new IIOImage(image, null, null), param);
        } finally {
            writer.dispose();
        }
        return bytes.toByteArray();
    }
}
