package tankard.json;

/** UTF-8 checked without decoding it. */
public final class Utf8 {
    private Utf8() {
    }

    /**
     * Whether the bytes are well-formed UTF-8 (the Unicode standard's table 3-7: no overlong forms, surrogates or
     * code points past U+10FFFF): exactly the bytes that {@code new String(bytes, UTF_8)} decodes without a
     * replacement character, so that they can be used as the text they encode. ASCII runs are skipped eight bytes
     * at a time.
     */
    public static boolean isWellFormed(byte[] b) {
        for (int i = ByteScan.asciiEnd(b, 0, b.length); i < b.length; i = ByteScan.asciiEnd(b, i, b.length)) {
            i = sequenceEnd(b, i, b.length);
            if (i < 0) {
                return false;
            }
        }
        return true;
    }

    /** Where the well-formed sequence of two to four bytes at {@code i} ends before {@code end}; else -1. */
    static int sequenceEnd(byte[] b, int i, int end) {
        int lead = b[i] & 0xFF;
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
            return -1;
        }
        if (i + length > end) {
            return -1;
        }
        int second = b[i + 1] & 0xFF;
        if (second < low || second > high) {
            return -1;
        }
        for (int k = i + 2; k < i + length; k++) {
            if ((b[k] & 0xC0) != 0x80) {
                return -1;
            }
        }
        return i + length;
    }
}
