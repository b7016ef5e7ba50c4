package tankard.util;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * Base64 decoding as Node's {@code Buffer.from(text, "base64")} does it: characters outside the alphabet
 * (whitespace, line breaks) are skipped, the URL-safe {@code -} and {@code _} are accepted, padding is
 * optional and the first {@code =} ends the data. Java's strict decoder rejects inputs ST reads fine.
 */
public final class LenientBase64 {
    private static final int[] VALUES = new int[128];

    static {
        Arrays.fill(VALUES, -1);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < alphabet.length(); i++) {
            VALUES[alphabet.charAt(i)] = i;
        }
        VALUES['-'] = 62;
        VALUES['_'] = 63;
    }

    private LenientBase64() {
    }

    public static byte[] decode(CharSequence text) {
        // Strict base64 (what ST writes) decodes to the same bytes with the JDK's much faster decoder.
        if (text instanceof String s) {
            try {
                return Base64.getDecoder().decode(s);
            } catch (IllegalArgumentException notStrict) {
                // decoded leniently below
            }
        }
        return lenient(text);
    }

    /** Base64 text given as its Latin-1 bytes (a PNG text chunk's), read as {@link #decode(CharSequence)} does. */
    public static byte[] decode(ByteBuffer latin1) {
        try {
            ByteBuffer decoded = Base64.getDecoder().decode(latin1.duplicate());
            return decoded.remaining() == decoded.array().length ? decoded.array()
                    : Arrays.copyOfRange(decoded.array(), decoded.position(), decoded.limit());
        } catch (IllegalArgumentException notStrict) {
            byte[] bytes = new byte[latin1.remaining()];
            latin1.duplicate().get(bytes);
            return lenient(new String(bytes, StandardCharsets.ISO_8859_1));
        }
    }

    private static byte[] lenient(CharSequence text) {
        byte[] out = new byte[text.length() * 3 / 4 + 3];
        int length = 0;
        int buffer = 0;
        int bits = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '=') {
                break;
            }
            int value = c < 128 ? VALUES[c] : -1;
            if (value < 0) {
                continue;
            }
            buffer = (buffer << 6) | value;
            bits += 6;
            if (bits >= 8) {
                bits -= 8;
                out[length++] = (byte) (buffer >> bits);
            }
        }
        return Arrays.copyOf(out, length);
    }
}
