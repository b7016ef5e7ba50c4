package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * Puts card JSON into a PNG (ST: src/character-card-parser.js, write) without touching the image: every chunk but the
 * old {@code chara}/{@code ccv3} text is copied byte for byte, the new {@code chara} and {@code ccv3} chunks go right
 * before {@code IEND}. Bytes after {@code IEND} are dropped, as ST does.
 */
public final class CardWriter {

    private CardWriter() {
    }

    /**
     * @param png  a valid PNG ({@link CardFormatException} otherwise)
     * @param card the card JSON text as it is to be stored in {@code chara}
     */
    public static byte[] write(byte[] png, String card) {
        return write(png, card, asV3(card));
    }

    /**
     * The PNG with its card chunks replaced by {@code chara} and, unless null, {@code ccv3} holding these texts as
     * they are (a tool that writes cards in another spelling does this).
     */
    public static byte[] write(byte[] png, String card, String v3) {
        List<PngChunks.Chunk> chunks = PngChunks.read(png);
        ByteArrayOutputStream out = new ByteArrayOutputStream(png.length + 2 * card.length() + 64);
        out.write(PngChunks.SIGNATURE, 0, PngChunks.SIGNATURE.length);
        for (PngChunks.Chunk chunk : chunks) {
            if (chunk.type().equals("IEND")) {
                break;
            }
            if (!isCardText(png, chunk)) {
                // length and type before the data, CRC after it
                out.write(png, chunk.offset() - 8, chunk.length() + 12);
            }
        }
        writeText(out, "chara", card);
        if (v3 != null) {
            writeText(out, "ccv3", v3);
        }
        writeChunk(out, "IEND", new byte[0]);
        return out.toByteArray();
    }

    /** The JSON of the {@code ccv3} chunk: {@code spec}/{@code spec_version} replaced in place or appended. */
    static String asV3(String card) {
        JsonNode json = JsJson.tryParse(card.getBytes(StandardCharsets.UTF_8));
        if (!(json instanceof ObjectNode object)) {
            return null;
        }
        object.put("spec", "chara_card_v3");
        object.put("spec_version", "3.0");
        return JsJson.compact(object);
    }

    private static boolean isCardText(byte[] png, PngChunks.Chunk chunk) {
        if (!chunk.type().equals("tEXt")) {
            return false;
        }
        int nul = chunk.offset();
        int end = chunk.offset() + chunk.length();
        while (nul < end && png[nul] != 0) {
            nul++;
        }
        String keyword = new String(png, chunk.offset(), nul - chunk.offset(), StandardCharsets.ISO_8859_1)
                .toLowerCase(Locale.ROOT);
        return keyword.equals("chara") || keyword.equals("ccv3");
    }

    private static void writeText(ByteArrayOutputStream out, String keyword, String json) {
        String base64 = Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
        byte[] data = (keyword + "\0" + base64).getBytes(StandardCharsets.ISO_8859_1);
        writeChunk(out, "tEXt", data);
    }

    private static void writeChunk(ByteArrayOutputStream out, String type, byte[] data) {
        byte[] typeBytes = type.getBytes(StandardCharsets.ISO_8859_1);
        writeUint32(out, data.length);
        out.write(typeBytes, 0, 4);
        out.write(data, 0, data.length);
        CRC32 crc = new CRC32();
        crc.update(typeBytes);
        crc.update(data);
        writeUint32(out, crc.getValue());
    }

    private static void writeUint32(ByteArrayOutputStream out, long value) {
        out.write((int) (value >>> 24) & 0xff);
        out.write((int) (value >>> 16) & 0xff);
        out.write((int) (value >>> 8) & 0xff);
        out.write((int) value & 0xff);
    }
}
