package tankard.image;

import java.awt.image.BufferedImage;

/**
 * The "dominant colour" of ST's image metadata: the image resized to one pixel by Jimp's default resizer,
 * reproduced to the bit. That resizer averages each row (float32 sums), then the row averages; fully
 * transparent pixels do not count towards the colour, and each pass that keeps its size is skipped.
 */
public final class AverageColor {
    private static final int STRIP_ROWS = 256;

    private AverageColor() {
    }

    /** {@code #rrggbb}. */
    public static String of(BufferedImage image) {
        int width = image.getWidth();
        int height = image.getHeight();
        // Width pass: one value per row and channel (r, g, b, a).
        float[][] rows = new float[height][];
        for (int y0 = 0; y0 < height; y0 += STRIP_ROWS) {
            int count = Math.min(STRIP_ROWS, height - y0);
            int[] argb = Images.argbRows(image, y0, count);
            for (int y = 0; y < count; y++) {
                rows[y0 + y] = width == 1 ? channels(argb[y * width]) : averageRow(argb, y * width, width);
            }
        }
        int[] rgb = new int[3];
        if (height == 1) {
            // No height pass: the float32 row is copied into a byte buffer, which truncates.
            for (int c = 0; c < 3; c++) {
                rgb[c] = ((int) rows[0][c]) & 0xff;
            }
        } else {
            float[] sum = new float[4];
            double opaque = 0;
            for (float[] row : rows) {
                boolean visible = row[3] != 0;
                for (int c = 0; c < 3; c++) {
                    sum[c] = (float) ((double) sum[c] + (visible ? row[c] : 0));
                }
                opaque += visible ? 1 : 0;
            }
            double multiplier = opaque != 0 ? 1 / opaque : 0;
            for (int c = 0; c < 3; c++) {
                rgb[c] = (int) Math.round(sum[c] * multiplier) & 0xff;
            }
        }
        return String.format("#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
    }

    private static float[] averageRow(int[] argb, int offset, int width) {
        float r = 0;
        float g = 0;
        float b = 0;
        float a = 0;
        double opaque = 0;
        for (int x = 0; x < width; x++) {
            int p = argb[offset + x];
            int alpha = p >>> 24;
            boolean visible = alpha != 0;
            r = (float) ((double) r + (visible ? (p >> 16) & 0xff : 0));
            g = (float) ((double) g + (visible ? (p >> 8) & 0xff : 0));
            b = (float) ((double) b + (visible ? p & 0xff : 0));
            a = (float) ((double) a + alpha);
            opaque += visible ? 1 : 0;
        }
        double multiplier = opaque != 0 ? 1 / opaque : 0;
        return new float[]{(float) (r * multiplier), (float) (g * multiplier), (float) (b * multiplier),
                (float) (a * (1.0 / width))};
    }

    private static float[] channels(int p) {
        return new float[]{(p >> 16) & 0xff, (p >> 8) & 0xff, p & 0xff, p >>> 24};
    }
}
