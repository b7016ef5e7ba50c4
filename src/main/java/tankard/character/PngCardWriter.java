package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * Puts card JSON into a PNG as ST does (st-data.md §3.4 steps 2–5) without touching the image data: every
 * {@code tEXt} {@code chara}/{@code ccv3} chunk is dropped, then {@code chara} (the JSON as given) and
 * {@code ccv3} (with {@code spec}/{@code spec_version} set to V3) are inserted before {@code IEND}. Other
 * chunks keep their bytes and order; bytes after IEND are dropped.
 */
public final class PngCardWriter {
    private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    private PngCardWriter() {
    }

    /**
     * @param png      a valid PNG (checked as when reading; {@link CardFormatException} otherwise)
     * @param cardJson the card JSON in compact layout
     */
    public static byte[] write(byte[] png, String cardJson) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(png.length + cardJson.length() * 3);
        out.writeBytes(SIGNATURE);
        for (PngChunks.Chunk chunk : PngChunks.read(png)) {
            if (chunk.type().equals("IEND")) {
                writeText(out, "chara", cardJson);
                String v3 = asV3(cardJson);
                if (v3 != null) {
                    writeText(out, "ccv3", v3);
                }
                writeChunk(out, "IEND", new byte[0]);
            } else if (!isCardText(png, chunk)) {
                out.write(png, chunk.offset() - 8, chunk.length() + 12);
            }
        }
        return out.toByteArray();
    }

    /** The JSON with {@code spec} and {@code spec_version} of V3 (set in place or appended); null if not an object. */
    static String asV3(String cardJson) {
        JsonNode json = JsJson.tryParse(cardJson.getBytes(StandardCharsets.UTF_8));
        if (!(json instanceof ObjectNode card)) {
            return null;
        }
        card.put("spec", "chara_card_v3");
        card.put("spec_version", "3.0");
        return JsJson.compact(card);
    }

    private static boolean isCardText(byte[] png, PngChunks.Chunk chunk) {
        if (!chunk.type().equals("tEXt")) {
            return false;
        }
        int end = chunk.offset() + chunk.length();
        int nul = chunk.offset();
        while (nul < end && png[nul] != 0) {
            nul++;
        }
        String keyword = new String(png, chunk.offset(), nul - chunk.offset(), StandardCharsets.ISO_8859_1)
                .toLowerCase(Locale.ROOT);
        return keyword.equals("chara") || keyword.equals("ccv3");
    }

    private static void writeText(ByteArrayOutputStream out, String keyword, String json) {
        byte[] text = Base64.getEncoder().encode(json.getBytes(StandardCharsets.UTF_8));
        byte[] data = new byte[keyword.length() + 1 + text.length];
        System.arraycopy(keyword.getBytes(StandardCharsets.ISO_8859_1), 0, data, 0, keyword.length());
        System.arraycopy(text, 0, data, keyword.length() + 1, text.length);
        writeChunk(out, "tEXt", data);
    }

    private static void writeChunk(ByteArrayOutputStream out, String type, byte[] data) {
        byte[] typeBytes = type.getBytes(StandardCharsets.ISO_8859_1);
        writeInt(out, data.length);
        out.writeBytes(typeBytes);
        out.writeBytes(data);
        CRC32 crc = new CRC32();
        crc.update(typeBytes);
        crc.update(data);
        writeInt(out, (int) crc.getValue());
    }

    private static void writeInt(ByteArrayOutputStream out, int value) {
        out.write(value >>> 24);
        out.write(value >>> 16);
        out.write(value >>> 8);
        out.write(value);
    }
}
