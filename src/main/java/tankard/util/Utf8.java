package tankard.util;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** UTF-8 checked without decoding it. */
public final class Utf8 {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGHS = 0x8080808080808080L;

    private Utf8() {
    }

    /**
     * Whether the bytes are well-formed UTF-8 (the Unicode standard's table 3-7: no overlong forms, surrogates or
     * code points past U+10FFFF): exactly the bytes that {@code new String(bytes, UTF_8)} decodes without a
     * replacement character, so that they can be used as the text they encode. ASCII runs are skipped eight bytes
     * at a time.
     */
    public static boolean isWellFormed(byte[] b) {
        int i = 0;
        int end = b.length;
        while (i < end) {
            if (i + 8 <= end && ((long) LONGS.get(b, i) & HIGHS) == 0) {
                i += 8;
                continue;
            }
            int lead = b[i] & 0xFF;
            if (lead < 0x80) {
                i++;
                continue;
            }
            int length;
            int low = 0x80;
            int high = 0xBF; // the range of the second byte
            if (lead >= 0xC2 && lead <= 0xDF) {
                length = 2;
            } else if (lead >= 0xE0 && lead <= 0xEF) {
                length = 3;
                low = lead == 0xE0 ? 0xA0 : 0x80;
                high = lead == 0xED ? 0x9F : 0xBF;
            } else if (lead >= 0xF0 && lead <= 0xF4) {
                length = 4;
                low = lead == 0xF0 ? 0x90 : 0x80;
                high = lead == 0xF4 ? 0x8F : 0xBF;
            } else {
                return false;
            }
            if (i + length > end) {
                return false;
            }
            int second = b[i + 1] & 0xFF;
            if (second < low || second > high) {
                return false;
            }
            for (int k = 2; k < length; k++) {
                if ((b[i + k] & 0xC0) != 0x80) {
                    return false;
                }
            }
            i += length;
        }
        return true;
    }
}
