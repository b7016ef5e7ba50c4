package tankard.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** Test data: the hand-written files under {@code compat-tests/} and PNG cards built around them. */
public final class Fixtures {
    private Fixtures() {
    }

    public static Path path(String relative) {
        return Path.of("compat-tests").resolve(relative);
    }

    public static String text(String relative) {
        try {
            return Files.readString(path(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static byte[] bytes(String relative) {
        try {
            return Files.readAllBytes(path(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A tiny real PNG image (ImageIO), without any text chunk. */
    public static byte[] plainPng() {
        return TestImages.argbPng(3, 2, 0, 0, 0, 0, 0xff336699, 0);
    }

    /** A PNG card whose {@code chara} chunk holds the JSON (a V2-era card). */
    public static byte[] card(String json) {
        return withText(plainPng(), "chara", base64(json));
    }

    /** A PNG card with both chunks, as ST writes them. */
    public static byte[] card(String charaJson, String ccv3Json) {
        return withText(card(charaJson), "ccv3", base64(ccv3Json));
    }

    public static String base64(String json) {
        return Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    /** Inserts a {@code tEXt} chunk right before {@code IEND}, with a correct CRC. */
    public static byte[] withText(byte[] png, String keyword, String text) {
        byte[] payload = (keyword + '\0' + text).getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer chunk = ByteBuffer.allocate(12 + payload.length);
        chunk.putInt(payload.length).put("tEXt".getBytes(StandardCharsets.ISO_8859_1)).put(payload);
        CRC32 crc = new CRC32();
        crc.update(chunk.array(), 4, 4 + payload.length);
        chunk.putInt((int) crc.getValue());
        int iend = png.length - 12; // ImageIO ends the file with the 12-byte IEND chunk
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(png, 0, iend);
        out.writeBytes(chunk.array());
        out.write(png, iend, 12);
        return out.toByteArray();
    }

    /** A zip archive of the entries, in order (CHARX and BYAF cards are zips). */
    public static byte[] zip(Map<String, byte[]> entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
                zip.putNextEntry(new ZipEntry(entry.getKey()));
                zip.write(entry.getValue());
                zip.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * A chat of Wren and Bramble in ST's JSONL: its header, then {@code messages} messages (Bramble's first) whose
     * texts {@code text} makes from their index.
     */
    public static byte[] brambleChat(int messages, java.util.function.IntFunction<String> text) {
        StringBuilder chat = new StringBuilder("{\"user_name\":\"Wren\",\"character_name\":\"Bramble\","
                + "\"create_date\":\"2026-01-01@10h00m00s\",\"chat_metadata\":{}}");
        for (int i = 0; i < messages; i++) {
            boolean user = i % 2 == 1;
            chat.append('\n').append(tankard.json.JsJson.compact(tankard.json.JsJson.object()
                    .put("name", user ? "Wren" : "Bramble").put("is_user", user).put("is_system", false)
                    .put("send_date", "2026-01-01T10:00:00.000Z").put("mes", text.apply(i))));
        }
        return chat.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
