package tankard.chat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import tankard.json.JsJson;
import tankard.json.JsonSyntaxException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A chat save request read in one streaming pass: the small members as trees, and each element of the
 * {@code chat} array as the exact bytes the client sent (re-laid out compactly only when it holds
 * whitespace), so stored lines keep the client's number lexemes and never cost a tree per message.
 *
 * @param fields top-level members other than {@code chat}
 * @param chat   the {@code chat} elements as compact JSON lines (views into the request body where it was
 *               compact already), or null when {@code chat} is not an array
 */
record ChatBody(Map<String, JsonNode> fields, List<ByteBuffer> chat) {
    /** Reads one member's value out of the running stream (the whole-document trailing check would refuse it). */
    private static final ObjectReader MEMBER = JsJson.MAPPER.reader()
            .without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    static ChatBody parse(byte[] json) {
        Map<String, JsonNode> fields = new HashMap<>();
        List<ByteBuffer> chat = null;
        if (json == null) {
            return new ChatBody(fields, null);
        }
        try (JsonParser parser = JsJson.MAPPER.getFactory().createParser(json)) {
            JsonToken root = parser.nextToken();
            if (root == JsonToken.START_OBJECT) {
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    JsonToken value = parser.nextToken();
                    if (name.equals("chat") && value == JsonToken.START_ARRAY) {
                        chat = elements(parser, json);
                    } else {
                        if (name.equals("chat")) {
                            chat = null;
                        }
                        fields.put(name, MEMBER.readTree(parser));
                    }
                }
            } else if (root != null) {
                parser.skipChildren();
            }
            if (root == null || parser.nextToken() != null) {
                throw new JsonSyntaxException("expected exactly one JSON value");
            }
        } catch (JsonProcessingException e) {
            throw new JsonSyntaxException(e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ChatBody(fields, chat);
    }

    private static List<ByteBuffer> elements(JsonParser parser, byte[] json) throws IOException {
        List<ByteBuffer> lines = new ArrayList<>();
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
            int start = (int) parser.currentTokenLocation().getByteOffset();
            if (token.isStructStart()) {
                parser.skipChildren();
            } else {
                parser.getText(); // completes a lazily read string so the location is after it
            }
            int end = (int) parser.currentLocation().getByteOffset();
            ByteBuffer element = ByteBuffer.wrap(json, start, end - start).slice();
            lines.add(isCompact(element) ? element
                    : ByteBuffer.wrap(JsJson.relayout(bytes(element), false).getBytes(StandardCharsets.UTF_8)));
        }
        return lines;
    }

    /** No whitespace outside strings: the layout JSON.stringify writes. */
    private static boolean isCompact(ByteBuffer json) {
        boolean inString = false;
        for (int i = 0; i < json.limit(); i++) {
            byte b = json.get(i);
            if (inString) {
                if (b == '\\') {
                    i++;
                } else if (b == '"') {
                    inString = false;
                }
            } else if (b == '"') {
                inString = true;
            } else if (b == ' ' || b == '\t' || b == '\n' || b == '\r') {
                return false;
            }
        }
        return true;
    }

    static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    JsonNode field(String name) {
        return fields.get(name);
    }

    /** The chat as a JSONL file: one line per element, LF between them, no trailing newline. */
    byte[] jsonl() {
        int size = Math.max(0, chat.size() - 1);
        for (ByteBuffer line : chat) {
            size += line.remaining();
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        for (int i = 0; i < chat.size(); i++) {
            if (i > 0) {
                out.put((byte) '\n');
            }
            out.put(chat.get(i).duplicate());
        }
        return out.array();
    }
}
