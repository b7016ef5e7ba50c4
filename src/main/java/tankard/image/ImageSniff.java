package tankard.image;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What ST learns from the first bytes of an image file: its container format and whether it is animated
 * (ST: src/endpoints/image-metadata.js, isAnimatedApng, isAnimatedWebP: GIF always; PNG with an {@code acTL} chunk;
 * WebP with {@code ANIM}/{@code ANMF}, all looked for in the first 200 bytes only).
 */
public final class ImageSniff {
    public static final int HEAD_BYTES = 200;

    private ImageSniff() {
    }

    /** Up to the first 200 bytes of a file. Blocking. */
    public static byte[] head(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(HEAD_BYTES);
        }
    }

    /** Whether ST's image metadata calls this file animated, judged by its content. */
    public static boolean isAnimated(byte[] head) {
        if (hasAt(head, 0, "GIF8")) {
            return true;
        }
        if (hasAt(head, 1, "PNG")) {
            return isAnimatedPng(head);
        }
        if (hasAt(head, 0, "RIFF") && hasAt(head, 8, "WEBP")) {
            return isAnimatedWebp(head);
        }
        return false;
    }

    public static boolean isAnimatedPng(byte[] head) {
        return contains(head, "acTL");
    }

    public static boolean isAnimatedWebp(byte[] head) {
        return contains(head, "ANIM") || contains(head, "ANMF");
    }

    /** Whether {@code data} holds the ASCII text at {@code offset}. */
    static boolean hasAt(byte[] data, int offset, String ascii) {
        byte[] tag = ascii.getBytes(StandardCharsets.US_ASCII);
        if (data.length < offset + tag.length) {
            return false;
        }
        for (int i = 0; i < tag.length; i++) {
            if (data[offset + i] != tag[i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(byte[] data, String ascii) {
        int limit = Math.min(data.length, HEAD_BYTES) - ascii.length();
        for (int i = 0; i <= limit; i++) {
            if (hasAt(data, i, ascii)) {
                return true;
            }
        }
        return false;
    }
}
