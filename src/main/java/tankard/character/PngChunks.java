package tankard.character;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Walks the chunks of a PNG file without decoding the image, with the checks of ST's chunk reader
 * (st-data.md §3.2): exact signature, IHDR first, every CRC verified, IEND required, bytes after IEND ignored.
 */
final class PngChunks {
    private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    /** One chunk: its type and where its data lies in the file. */
    record Chunk(String type, int offset, int length) {
    }

    /** A {@code tEXt} chunk's keyword and text, both Latin-1. */
    record Text(String keyword, String text) {
    }

    private PngChunks() {
    }

    static List<Chunk> read(byte[] png) {
        if (png.length < SIGNATURE.length) {
            throw new CardFormatException("Not a PNG file");
        }
        for (int i = 0; i < SIGNATURE.length; i++) {
            if (png[i] != SIGNATURE[i]) {
                throw new CardFormatException("Not a PNG file");
            }
        }
        List<Chunk> chunks = new ArrayList<>();
        int pos = SIGNATURE.length;
        while (pos + 8 <= png.length) {
            long length = readUint32(png, pos);
            String type = new String(png, pos + 4, 4, StandardCharsets.ISO_8859_1);
            if (chunks.isEmpty() && !type.equals("IHDR")) {
                throw new CardFormatException("IHDR chunk missing");
            }
            int data = pos + 8;
            if (type.equals("IEND")) {
                chunks.add(new Chunk(type, data, 0));
                return chunks;
            }
            if (length > png.length - data - 4L) {
                throw new CardFormatException("PNG chunk " + type + " is cut short");
            }
            int end = data + (int) length;
            CRC32 crc = new CRC32();
            crc.update(png, pos + 4, (int) length + 4);
            if (crc.getValue() != readUint32(png, end)) {
                throw new CardFormatException("CRC mismatch in PNG chunk " + type);
            }
            chunks.add(new Chunk(type, data, (int) length));
            pos = end + 4;
        }
        throw new CardFormatException("PNG file has no IEND chunk");
    }

    /** The {@code tEXt} chunks in file order. A NUL inside the text makes the file unreadable, as in ST. */
    static List<Text> texts(byte[] png) {
        List<Text> texts = new ArrayList<>();
        for (Chunk chunk : read(png)) {
            if (!chunk.type().equals("tEXt")) {
                continue;
            }
            int end = chunk.offset() + chunk.length();
            int nul = chunk.offset();
            while (nul < end && png[nul] != 0) {
                nul++;
            }
            String keyword = new String(png, chunk.offset(), nul - chunk.offset(), StandardCharsets.ISO_8859_1);
            int textStart = Math.min(nul + 1, end);
            for (int i = textStart; i < end; i++) {
                if (png[i] == 0) {
                    throw new CardFormatException("NUL character in tEXt chunk");
                }
            }
            texts.add(new Text(keyword, new String(png, textStart, end - textStart, StandardCharsets.ISO_8859_1)));
        }
        return texts;
    }

    private static long readUint32(byte[] b, int pos) {
        return ((b[pos] & 0xffL) << 24) | ((b[pos + 1] & 0xffL) << 16) | ((b[pos + 2] & 0xffL) << 8) | (b[pos + 3] & 0xffL);
    }
}
