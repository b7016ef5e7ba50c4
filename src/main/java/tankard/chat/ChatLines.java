package tankard.chat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.JsJson;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reading JSONL chats the way ST does: whole-file loads split on LF and keep every line that parses to a
 * truthy value; listings stream the file with Node's line reader (LF, CRLF and CR end a line).
 */
final class ChatLines {
    private ChatLines() {
    }

    /** Receives lines one by one; answers false to stop reading. */
    @FunctionalInterface
    interface LineVisitor {
        boolean visit(byte[] line) throws IOException;
    }

    /**
     * Streams through the chat line by line as Node's line reader does: LF, CRLF and CR end a line, empty lines
     * in between are lines, a break at the very end does not start another one.
     */
    static void forEachLine(InputStream in, LineVisitor visitor) throws IOException {
        ByteArrayOutputStream current = new ByteArrayOutputStream();
        boolean afterCr = false;
        byte[] buffer = new byte[64 * 1024];
        int n;
        while ((n = in.read(buffer)) > 0) {
            int start = 0;
            for (int i = 0; i < n; i++) {
                byte b = buffer[i];
                if (b != '\n' && b != '\r') {
                    afterCr = false;
                    continue;
                }
                boolean crlf = afterCr && b == '\n' && i == start;
                afterCr = b == '\r';
                if (crlf) {
                    start = i + 1;
                    continue;
                }
                current.write(buffer, start, i - start);
                start = i + 1;
                if (!visitor.visit(current.toByteArray())) {
                    return;
                }
                current.reset();
            }
            current.write(buffer, start, n - start);
        }
        if (current.size() > 0) {
            visitor.visit(current.toByteArray());
        }
    }

    /** The first line (up to LF or CR), for the integrity check; empty for an empty file. */
    static byte[] firstLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        byte[] buffer = new byte[8 * 1024];
        int n;
        while ((n = in.read(buffer)) > 0) {
            for (int i = 0; i < n; i++) {
                if (buffer[i] == '\n' || buffer[i] == '\r') {
                    line.write(buffer, 0, i);
                    return line.toByteArray();
                }
            }
            line.write(buffer, 0, n);
        }
        return line.toByteArray();
    }

    /** One line as JSON (invalid UTF-8 read as U+FFFD, like Node), or null when it does not parse. */
    static JsonNode parse(byte[] line) {
        return JsJson.tryParse(new String(line, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A whole chat file as the JSON array {@code /api/chats/get} answers: every LF-separated line that parses
     * to a truthy value, in order, as the line's own bytes (surrounding whitespace trimmed).
     */
    static byte[] toArray(byte[] file) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(file.length + 2);
        out.write('[');
        boolean first = true;
        int start = 0;
        for (int i = 0; i <= file.length; i++) {
            if (i < file.length && file[i] != '\n') {
                continue;
            }
            String line = trimJsonWhitespace(new String(file, start, i - start, StandardCharsets.UTF_8));
            start = i + 1;
            if (!line.isEmpty() && isTruthyJson(line)) {
                if (!first) {
                    out.write(',');
                }
                first = false;
                out.writeBytes(line.getBytes(StandardCharsets.UTF_8));
            }
        }
        out.write(']');
        return out.toByteArray();
    }

    private static String trimJsonWhitespace(String s) {
        int from = 0;
        int to = s.length();
        while (from < to && isJsonWhitespace(s.charAt(from))) {
            from++;
        }
        while (to > from && isJsonWhitespace(s.charAt(to - 1))) {
            to--;
        }
        return s.substring(from, to);
    }

    private static boolean isJsonWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    /** Whether the text is one complete JSON value that JavaScript would find truthy. */
    private static boolean isTruthyJson(String text) {
        try (JsonParser parser = JsJson.MAPPER.getFactory().createParser(text)) {
            JsonToken token = parser.nextToken();
            boolean truthy = switch (token) {
                case START_OBJECT, START_ARRAY -> {
                    parser.skipChildren();
                    yield true;
                }
                case VALUE_STRING -> !parser.getText().isEmpty();
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> parser.getDecimalValue().signum() != 0;
                case VALUE_TRUE -> true;
                default -> false;
            };
            return truthy && parser.nextToken() == null;
        } catch (IOException e) {
            return false;
        }
    }
}
