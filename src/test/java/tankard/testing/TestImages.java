package tankard.testing;

import javax.imageio.ImageIO;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** Images made on the fly for tests: encoded with ImageIO, decoded back to check sizes. */
public final class TestImages {
    private TestImages() {
    }

    /** A {@code format} ("png", "jpeg", "gif", "bmp") image of the given size: a red left half, a blue right half. */
    public static byte[] image(String format, int width, int height) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setColor(Color.RED);
        g.fillRect(0, 0, width / 2, height);
        g.setColor(Color.BLUE);
        g.fillRect(width / 2, 0, width - width / 2, height);
        g.dispose();
        return encode(image, format);
    }

    /** The image encoded by ImageIO in the given format. */
    private static byte[] encode(BufferedImage image, String format) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            if (!ImageIO.write(image, format, out)) {
                throw new IllegalArgumentException("No ImageIO writer for " + format);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A PNG with an extra (empty) chunk of the given type right after IHDR, where APNG puts its acTL. */
    public static byte[] withChunkAfterHeader(byte[] png, String type) {
        int afterHeader = 8 + 8 + 13 + 4;
        byte[] chunk = new byte[12];
        System.arraycopy(type.getBytes(StandardCharsets.US_ASCII), 0, chunk, 4, 4);
        byte[] out = new byte[png.length + chunk.length];
        System.arraycopy(png, 0, out, 0, afterHeader);
        System.arraycopy(chunk, 0, out, afterHeader, chunk.length);
        System.arraycopy(png, afterHeader, out, afterHeader + chunk.length, png.length - afterHeader);
        return out;
    }

    /** The head of an animated WebP: a VP8X canvas of the given size with the animation flag and an ANIM chunk. */
    public static byte[] animatedWebpHead(int width, int height) {
        ByteBuffer b = ByteBuffer.allocate(12 + 18 + 14).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(4 + 18 + 14).put("WEBP".getBytes(StandardCharsets.US_ASCII));
        b.put("VP8X".getBytes(StandardCharsets.US_ASCII)).putInt(10).put((byte) 0x02).put(new byte[3]);
        b.put(uint24(width - 1)).put(uint24(height - 1));
        b.put("ANIM".getBytes(StandardCharsets.US_ASCII)).putInt(6).putInt(0).putShort((short) 0);
        return b.array();
    }

    private static byte[] uint24(int value) {
        return new byte[]{(byte) value, (byte) (value >> 8), (byte) (value >> 16)};
    }

    /** A PNG whose pixels are the given ARGB values, row by row. */
    public static byte[] argbPng(int width, int height, int... argb) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
        image.setRGB(0, 0, width, height, argb, 0, width);
        return encode(image, "png");
    }

    public static BufferedImage decode(byte[] bytes) {
        try {
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(bytes));
            if (image == null) {
                throw new IllegalArgumentException("Not an image ImageIO can read");
            }
            return image;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static boolean isJpeg(byte[] bytes) {
        return bytes.length > 2 && (bytes[0] & 0xff) == 0xff && (bytes[1] & 0xff) == 0xd8;
    }

    public static boolean isPng(byte[] bytes) {
        return bytes.length > 4 && (bytes[0] & 0xff) == 0x89 && bytes[1] == 'P' && bytes[2] == 'N' && bytes[3] == 'G';
    }
}
