package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.chat.format.ChatLines;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * {@code /api/chats/export} (src/endpoints/chats.js, the /export route): {@code {"message": "Chat saved to
 * <name>", "result": <text>}} where the text is the raw file (jsonl) or its visible messages as {@code name: text}
 * paragraphs (txt). The answer is streamed from the file, so a chat of any size exports without being held in
 * memory.
 */
public final class ChatExport {
    private final ChatStore store;

    public ChatExport(ChatStore store) {
        this.store = store;
    }

    /** Why an export has no result: a refusal ST answers with {@code {"message": ...}}, not {@code {"error": ...}}. */
    public static final class Failure extends Refusal {
        Failure(Kind kind, String message) {
            super(kind, message);
        }
    }

    /** An export ready to stream: the chat is open, so what can fail cleanly has been checked. */
    public interface Prepared {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * What an export names: the chat ({@code is_group}'s, else the card's, and {@code file} sanitized), the
     * {@code exportfilename} its message tells ({@code String()} of it, as ST's template) and whether the
     * {@code format} is "jsonl".
     */
    public record Options(ChatFolder folder, String file, String exportName, boolean jsonl) {
        public static Options of(JsonNode body) {
            JsonNode file = body.get("file");
            if (!Js.truthy(file)) {
                throw Refusal.badRequest("Missing file");
            }
            ChatFolder folder = Js.truthy(body.get("is_group")) ? ChatFolder.groups() : ChatRef.characterFolder(body);
            return new Options(folder, ChatRef.fileName(file), Js.string(body.get("exportfilename")),
                    "jsonl".equals(body.path("format").textValue()));
        }
    }

    public Prepared prepare(String user, Options options) throws Failure {
        ChatFolder folder = options.folder();
        String name = options.file();
        String source = folder + "/" + name;
        Optional<InputStream> chat;
        try {
            chat = store.find(user, folder, name).isEmpty() ? Optional.empty() : store.open(user, folder, name);
        } catch (IOException e) {
            throw new Failure(Refusal.Kind.FAILED, "Could not read JSONL file to export. Source chat file: " + source + ".");
        }
        if (chat.isEmpty()) {
            throw new Failure(Refusal.Kind.NOT_FOUND, "Could not find JSONL file to export. Source chat file: " + source + ".");
        }
        String message = "Chat saved to " + options.exportName();
        boolean raw = options.jsonl();
        return out -> {
            try (InputStream in = chat.get(); Writer writer = new OutputStreamWriter(out, StandardCharsets.UTF_8)) {
                StringBuilder head = new StringBuilder("{\"message\":");
                JsJson.quote(message, head);
                writer.append(head).append(",\"result\":\"");
                JsonStringWriter result = new JsonStringWriter(writer);
                if (raw) {
                    new InputStreamReader(in, StandardCharsets.UTF_8).transferTo(result);
                } else {
                    writeText(in, result);
                }
                result.flushPending();
                writer.append("\"}");
            }
        };
    }

    /**
     * The plain-text export: {@code <name>: <extra.display_text || mes>} and a blank line for every message with
     * a truthy {@code mes} that is not {@code is_system}, CRLF made LF. ST crashes on a line that is not JSON;
     * here such lines are skipped, as when a chat is read.
     */
    private static void writeText(InputStream in, Writer out) throws IOException {
        ChatLines.readLines(in, (bytes, from, to) -> {
            JsonNode data = ChatLines.parse(bytes, from, to);
            if (data == null || !data.isObject() || Js.truthy(data.get("is_system")) || !Js.truthy(data.get("mes"))) {
                return true;
            }
            JsonNode text = Js.or(Js.get(data, "extra.display_text"), data.get("mes"));
            out.write(Js.string(data.get("name")) + ": " + Js.string(text).replace("\r\n", "\n") + "\n\n");
            return true;
        });
    }

    /**
     * Writes characters as the inside of a JSON string literal, escaped like JSON.stringify. A surrogate pair
     * split between two writes is held back until its second half arrives, so it is not escaped as two halves.
     */
    private static final class JsonStringWriter extends Writer {
        private final Writer out;
        private final StringBuilder escaped = new StringBuilder();
        private char pendingHigh;

        JsonStringWriter(Writer out) {
            this.out = out;
        }

        @Override
        public void write(char[] chars, int offset, int length) throws IOException {
            if (length == 0) {
                return;
            }
            StringBuilder text = new StringBuilder(length + 1);
            if (pendingHigh != 0) {
                text.append(pendingHigh);
                pendingHigh = 0;
            }
            text.append(chars, offset, length);
            char lastChar = text.charAt(text.length() - 1);
            if (Character.isHighSurrogate(lastChar)) {
                pendingHigh = lastChar;
                text.setLength(text.length() - 1);
            }
            escape(text.toString());
        }

        void flushPending() throws IOException {
            if (pendingHigh != 0) {
                escape(String.valueOf(pendingHigh));
                pendingHigh = 0;
            }
        }

        private void escape(String text) throws IOException {
            escaped.setLength(0);
            JsJson.quote(text, escaped);
            out.append(escaped, 1, escaped.length() - 1);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() {
            // the enclosing document closes the stream
        }
    }
}
