package tankard.json;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Searches through JSON text eight bytes at a time (SWAR): the long stretches of plain text inside chat
 * messages are skipped without looking at each byte. A word with a candidate is handed back to the caller's
 * byte-wise loop, so false alarms only cost speed.
 */
public final class ByteScan {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long QUOTES = ONES * '"';
    private static final long BACKSLASHES = ONES * '\\';
    private static final long SPACES = ONES * 0x20;

    private ByteScan() {
    }

    /** Whether a byte of the word is zero (exact for the lowest such byte). */
    private static long zeroBytes(long word) {
        return (word - ONES) & ~word & HIGHS;
    }

    /** The first index from {@code i} whose byte is {@code "}, {@code \}, a control or non-ASCII; or {@code end}. */
    public static int plainTextEnd(byte[] b, int i, int end) {
        while (i + 8 <= end) {
            long word = (long) LONGS.get(b, i);
            long special = zeroBytes(word ^ QUOTES) | zeroBytes(word ^ BACKSLASHES) | ((word - SPACES) & ~word & HIGHS) | (word & HIGHS);
            if (special != 0) {
                break;
            }
            i += 8;
        }
        while (i < end) {
            int c = b[i];
            if (c == '"' || c == '\\' || c < 0x20) { // non-ASCII bytes are negative
                return i;
            }
            i++;
        }
        return end;
    }

    /** The first index from {@code i} whose byte is not ASCII; or {@code end}. */
    public static int asciiEnd(byte[] b, int i, int end) {
        while (i + 8 <= end && ((long) LONGS.get(b, i) & HIGHS) == 0) {
            i += 8;
        }
        while (i < end && b[i] >= 0) {
            i++;
        }
        return i;
    }

    /** The first index from {@code i} whose byte is {@code "} or {@code \}; or {@code end}. */
    public static int quoteOrBackslash(byte[] b, int i, int end) {
        while (i + 8 <= end) {
            long word = (long) LONGS.get(b, i);
            if ((zeroBytes(word ^ QUOTES) | zeroBytes(word ^ BACKSLASHES)) != 0) {
                break;
            }
            i += 8;
        }
        while (i < end && b[i] != '"' && b[i] != '\\') {
            i++;
        }
        return i;
    }

    /** The first index from {@code i} holding the byte; or {@code end}. */
    public static int indexOf(byte[] b, int i, int end, byte value) {
        long pattern = ONES * (value & 0xFF);
        while (i + 8 <= end) {
            if (zeroBytes((long) LONGS.get(b, i) ^ pattern) != 0) {
                break;
            }
            i += 8;
        }
        while (i < end && b[i] != value) {
            i++;
        }
        return i;
    }
}
