package tankard.json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;

/** Reading stored JSON files the way ST does: UTF-8 text (bad bytes become U+FFFD), then {@code JSON.parse}. */
public final class JsonFiles {
    private JsonFiles() {
    }

    /** The file as text, or null when it does not exist. Blocking. */
    public static String readText(Path file) {
        byte[] bytes = readBytes(file);
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** The file's bytes, or null when it does not exist. Blocking. */
    public static byte[] readBytes(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file.getFileName(), e);
        }
    }

    /**
     * Parses text as {@code JSON.parse} would, or returns null: unlike Jackson, JavaScript rejects a
     * leading byte-order mark, and a file the browser cannot parse must not be offered to it.
     */
    public static JsonNode tryParse(String text) {
        if (text == null || text.startsWith("\uFEFF")) {
            return null;
        }
        return JsJson.tryParse(text.getBytes(StandardCharsets.UTF_8));
    }

    /** A stored document's bytes parsed as ST parses the file (see {@link #tryParse(String)}); null: not JSON. */
    public static JsonNode tryParse(byte[] stored) {
        return tryParse(new String(stored, StandardCharsets.UTF_8));
    }

    /** The parsed file, or null when it is missing or not valid JSON. Blocking. */
    public static JsonNode tryRead(Path file) {
        return tryParse(readText(file));
    }

    /**
     * A model folder's JSON file (config.json and the like) as an object; a missing optional one reads as
     * {@code {}}. A file that is not a JSON object fails.
     */
    public static JsonNode readObject(Path file, boolean required) throws IOException {
        if (!required && !Files.isRegularFile(file)) {
            return JsJson.object();
        }
        JsonNode node = JsJson.tryParse(Files.readAllBytes(file));
        if (node == null || !node.isObject()) {
            throw new IOException(file + " is not a JSON object");
        }
        return node;
    }
}
