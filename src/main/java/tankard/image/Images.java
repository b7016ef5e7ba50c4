package tankard.image;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import java.awt.AlphaComposite;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Iterator;

/** Decoding with javax.imageio (PNG, JPEG, GIF, BMP, TIFF, WebP), refusing images too large to hold in memory. */
public final class Images {
    private static final Logger LOG = LoggerFactory.getLogger(Images.class);
    /** Larger images are not decoded (a 16k x 12k image, for scale). */
    public static final long MAX_PIXELS = 200_000_000L;

    private Images() {
    }

    /**
     * Width and height from the image header, or null when the format is unknown. PNG, GIF and WebP headers
     * are read directly (for an animated WebP that is the canvas size); other formats through their decoder.
     */
    public static int[] dimensions(byte[] data) {
        ByteBuffer header = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        if (data.length >= 24 && ImageSniff.hasAt(data, 1, "PNG") && ImageSniff.hasAt(data, 12, "IHDR")) {
            return new int[]{header.order(ByteOrder.BIG_ENDIAN).getInt(16), header.getInt(20)};
        }
        if (data.length >= 10 && ImageSniff.hasAt(data, 0, "GIF8")) {
            return new int[]{header.getShort(6) & 0xffff, header.getShort(8) & 0xffff};
        }
        if (data.length >= 30 && ImageSniff.hasAt(data, 0, "RIFF") && ImageSniff.hasAt(data, 8, "WEBP")) {
            if (ImageSniff.hasAt(data, 12, "VP8X")) {
                return new int[]{1 + uint24(data, 24), 1 + uint24(data, 27)};
            }
            if (ImageSniff.hasAt(data, 12, "VP8L")) {
                int bits = header.getInt(21);
                return new int[]{1 + (bits & 0x3fff), 1 + ((bits >>> 14) & 0x3fff)};
            }
            if (ImageSniff.hasAt(data, 12, "VP8 ")) {
                return new int[]{header.getShort(26) & 0x3fff, header.getShort(28) & 0x3fff};
            }
        }
        return withReader(data, reader -> new int[]{reader.getWidth(0), reader.getHeight(0)});
    }

    private static int uint24(byte[] data, int offset) {
        return (data[offset] & 0xff) | (data[offset + 1] & 0xff) << 8 | (data[offset + 2] & 0xff) << 16;
    }

    /** The first frame, or null when it cannot be decoded or is too large. */
    public static BufferedImage decode(byte[] data) {
        return withReader(data, reader -> {
            long pixels = (long) reader.getWidth(0) * reader.getHeight(0);
            return pixels <= 0 || pixels > MAX_PIXELS ? null : reader.read(0);
        });
    }

    /**
     * A row strip of the image as non-premultiplied ARGB samples. Drawing copies samples as they are, whereas
     * {@code getRGB} on grey images applies a gamma curve that no browser or Node decoder applies.
     */
    public static int[] argbRows(BufferedImage image, int firstRow, int rows) {
        int width = image.getWidth();
        BufferedImage strip = new BufferedImage(width, rows, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = strip.createGraphics();
        try {
            g.setComposite(AlphaComposite.Src);
            g.drawImage(image, 0, -firstRow, null);
        } finally {
            g.dispose();
        }
        return strip.getRGB(0, 0, width, rows, null, 0, width);
    }

    /** Work done with a decoder that is set on an image's first frame. */
    public interface ReaderAction<T> {
        T apply(ImageReader reader) throws IOException;
    }

    /** Runs {@code action} with a decoder for the file's format; null when there is none or decoding fails. Blocking. */
    public static <T> T withReader(Path file, ReaderAction<T> action) {
        return withReader((Object) file.toFile(), action);
    }

    private static <T> T withReader(byte[] data, ReaderAction<T> action) {
        return withReader((Object) new ByteArrayInputStream(data), action);
    }

    private static <T> T withReader(Object input, ReaderAction<T> action) {
        try (ImageInputStream in = ImageIO.createImageInputStream(input)) {
            Iterator<ImageReader> readers = in == null ? null : ImageIO.getImageReaders(in);
            if (readers == null || !readers.hasNext()) {
                return null;
            }
            ImageReader reader = readers.next();
            try {
                reader.setInput(in, true, true);
                return action.apply(reader);
            } finally {
                reader.dispose();
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("Cannot decode an image: {}", e.toString());
            return null;
        }
    }
}
