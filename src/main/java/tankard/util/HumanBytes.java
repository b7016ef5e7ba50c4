package tankard.util;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Sizes as ST shows them (npm {@code bytes}): 1024-based, up to two decimals, no space: 236B, 2KB, 3.05KB. */
public final class HumanBytes {
    private static final String[] UNITS = {"B", "KB", "MB", "GB", "TB", "PB"};

    private HumanBytes() {
    }

    public static String format(long bytes) {
        int unit = 0;
        double scale = 1;
        while (unit < UNITS.length - 1 && Math.abs((double) bytes) >= scale * 1024) {
            scale *= 1024;
            unit++;
        }
        // toFixed(2) rounds the exact binary value half up, which BigDecimal(double) reproduces
        BigDecimal value = new BigDecimal(bytes / scale).setScale(2, RoundingMode.HALF_UP);
        String text = value.toPlainString();
        if (text.endsWith(".00")) {
            text = text.substring(0, text.length() - 3);
        } else if (text.endsWith("0")) {
            text = text.substring(0, text.length() - 1);
        }
        return text + UNITS[unit];
    }
}
