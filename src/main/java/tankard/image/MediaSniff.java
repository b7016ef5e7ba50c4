package tankard.image;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What kind of media a file holds, judged by its first bytes (not its name). ST stores uploaded backgrounds,
 * sprites and chat images whatever they contain; Tankard refuses what is not an image or video.
 */
public final class MediaSniff {
    /** The container formats told apart here. SVG is not among them: it can carry scripts. */
    public enum Kind { IMAGE, VIDEO }

    private static final int HEAD = 32;

    private MediaSniff() {
    }

    /** The kind of the file's content, or null when it is neither a known image nor video format. Blocking. */
    public static Kind of(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return of(in.readNBytes(HEAD));
        }
    }

    /** The kind of content starting with {@code head} (at least its first 32 bytes), or null. */
    public static Kind of(byte[] head) {
        if (startsWith(head, 0, 0x89, 'P', 'N', 'G') || startsWith(head, 0, 0xff, 0xd8, 0xff)
                || ImageSniff.hasAt(head, 0, "GIF8") || ImageSniff.hasAt(head, 0, "BM")
                || (ImageSniff.hasAt(head, 0, "RIFF") && ImageSniff.hasAt(head, 8, "WEBP"))
                || startsWith(head, 0, 'I', 'I', 0x2a, 0) || startsWith(head, 0, 'M', 'M', 0, 0x2a)
                || startsWith(head, 0, 0, 0, 1, 0) || startsWith(head, 0, 0xff, 0x0a)
                || ImageSniff.hasAt(head, 4, "JXL ")) {
            return Kind.IMAGE;
        }
        if (ImageSniff.hasAt(head, 4, "ftyp")) {
            String brand = head.length >= 12 ? new String(head, 8, 4, StandardCharsets.US_ASCII) : "";
            return switch (brand) {
                case "avif", "avis", "heic", "heix", "heim", "heis", "mif1", "msf1" -> Kind.IMAGE;
                default -> Kind.VIDEO;
            };
        }
        if (startsWith(head, 0, 0x1a, 0x45, 0xdf, 0xa3) || ImageSniff.hasAt(head, 0, "FLV")
                || (ImageSniff.hasAt(head, 0, "RIFF") && ImageSniff.hasAt(head, 8, "AVI "))
                || startsWith(head, 0, 0x30, 0x26, 0xb2, 0x75) || startsWith(head, 0, 0, 0, 1, 0xba)
                || startsWith(head, 0, 0, 0, 1, 0xb3)) {
            return Kind.VIDEO;
        }
        return null;
    }

    /** Whether the bytes start with the PNG signature. */
    public static boolean isPng(byte[] data) {
        return startsWith(data, 0, 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n');
    }

    private static boolean startsWith(byte[] data, int offset, int... bytes) {
        if (data.length < offset + bytes.length) {
            return false;
        }
        for (int i = 0; i < bytes.length; i++) {
            if ((data[offset + i] & 0xff) != bytes[i]) {
                return false;
            }
        }
        return true;
    }
}
