package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.ServerTest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tankard's windowed chat API, page by page: earlier pages, per-message offsets, saves from any message. */
class ChatWindowPagesHttpTest extends ServerTest {
    private static final String CONFIG = "backups:\n  chat:\n    enabled: false\n";
    private static final String HEADER = "{\"chat_metadata\":{\"integrity\":\"p\"},\"user_name\":\"unused\"}";
    private static final long HEADER_END = HEADER.length() + 1;
    private static final String CHARACTER = "\"avatar_url\":\"Bramble.png\",\"file_name\":\"p\"";
    private static final String CHARACTER_FILE = "chats/Bramble/p.jsonl";
    private static final String GROUP = "\"id\":\"g\"";
    private static final String GROUP_FILE = "group chats/g.jsonl";

    /** Messages of differing lengths and multi-byte text, so that offsets are not a multiple of anything. */
    private static String message(int i) {
        return "{\"name\":\"N\",\"is_user\":" + (i % 2 == 0) + ",\"mes\":\"message " + i + " é " + "ü".repeat(i % 7) + "\"}";
    }

    private static List<String> messages(int from, int to) {
        List<String> list = new ArrayList<>();
        for (int i = from; i < to; i++) {
            list.add(message(i));
        }
        return list;
    }

    /** A chat as ST writes it: the header and the lines, LF between them, none at the end. */
    private String write(String file, List<String> lines) {
        List<String> all = new ArrayList<>(List.of(HEADER));
        all.addAll(lines);
        put(file, String.join("\n", all).getBytes(StandardCharsets.UTF_8));
        return file;
    }

    private HttpResponse<Buffer> tail(String chat, String fields) {
        return client.post("/api/tankard/chats/tail", "{" + chat + "," + fields + "}");
    }

    private JsonNode page(String chat, int count, Long before) {
        HttpResponse<Buffer> r = tail(chat, "\"count\":" + count + (before == null ? "" : ",\"before\":" + before));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        return json(r);
    }

    private HttpResponse<Buffer> save(String chat, JsonNode cursor, List<String> messages) {
        return client.post("/api/tankard/chats/tail/save", "{" + chat + ",\"cursor\":" + JsJson.compact(cursor)
                + ",\"messages\":[" + String.join(",", messages) + "]}");
    }

    /** The cursor of a read, moved to another offset (a message's, or the size). */
    private static ObjectNode from(JsonNode cursor, long offset) {
        return JsJson.object().put("offset", offset).put("size", cursor.get("size").longValue())
                .put("mtime", cursor.get("mtime").doubleValue());
    }

    /** Each offset is where a line starts in the file, and that line is the message served with it. */
    private static void assertOffsetsAreTheMessagesLines(byte[] bytes, JsonNode messages, JsonNode offsets) {
        assertEquals(messages.size(), offsets.size());
        for (int i = 0; i < offsets.size(); i++) {
            int start = offsets.get(i).intValue();
            assertEquals('\n', bytes[start - 1], "offset " + start + " starts a line");
            int end = start;
            while (end < bytes.length && bytes[end] != '\n') {
                end++;
            }
            assertEquals(messages.get(i), JsJson.parse(new String(bytes, start, end - start, StandardCharsets.UTF_8)));
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(message -> texts.add(JsJson.compact(message)));
        return texts;
    }

    /** Reads the whole chat page by page from the end; answers the pages' messages joined, in file order. */
    private List<JsonNode> pageBack(String chat, String file, int count) throws IOException {
        List<JsonNode> pages = new ArrayList<>();
        Long before = null;
        JsonNode page;
        do {
            page = page(chat, count, before);
            assertOffsetsAreTheMessagesLines(documentBytes(file), page.get("messages"), page.get("offsets"));
            assertEquals(documentBytes(file).length, page.at("/cursor/size").longValue(), "the cursor is of the file now");
            assertTrue(page.get("messages").size() <= count);
            pages.add(0, page);
            before = page.at("/cursor/offset").longValue();
        } while (page.get("more").booleanValue());
        assertEquals(HEADER_END, page.at("/cursor/offset").longValue(), "the top page starts after the header");
        return pages;
    }

    private static ArrayNode joined(List<JsonNode> pages, String field) {
        ArrayNode all = JsJson.array();
        pages.forEach(page -> all.addAll((ArrayNode) page.get(field)));
        return all;
    }

    @Test
    void pagingBackUntilNoMoreGivesTheWholeChatAsGetServesIt() throws IOException {
        start(CONFIG);
        List<String> lines = messages(0, 300);
        lines.add(150, ""); // lines ST's read drops take a place in a page but are not served
        lines.add(151, "not json");
        write(CHARACTER_FILE, lines);

        List<JsonNode> pages = pageBack(CHARACTER, CHARACTER_FILE, 37);
        assertEquals(9, pages.size(), "302 lines in pages of 37");
        ArrayNode whole = JsJson.array().add(JsJson.parse(HEADER)).addAll(joined(pages, "messages"));
        assertEquals(JsJson.parse(client.post("/api/chats/get", "{" + CHARACTER + "}").bodyAsString()), whole);
        assertEquals(301, whole.size());
        assertEquals(JsJson.parse(HEADER), pages.get(0).get("header"));

        JsonNode end = page(CHARACTER, 37, null);
        assertEquals(end, page(CHARACTER, 37, (long) documentBytes(CHARACTER_FILE).length), "before the size is the end");
        JsonNode top = page(CHARACTER, 37, HEADER_END);
        assertEquals(0, top.get("messages").size());
        assertEquals(0, top.get("offsets").size());
        assertFalse(top.get("more").booleanValue());
        assertEquals(HEADER_END, top.at("/cursor/offset").longValue());
        JsonNode topOffsets = pages.get(0).get("offsets");
        JsonNode second = page(CHARACTER, 1, topOffsets.get(2).longValue());
        assertEquals(JsJson.parse(message(1)), second.get("messages").get(0));
        assertTrue(second.get("more").booleanValue(), "message 0 comes before it");
        JsonNode first = page(CHARACTER, 1, topOffsets.get(1).longValue());
        assertEquals(JsJson.parse(message(0)), first.get("messages").get(0));
        assertFalse(first.get("more").booleanValue(), "nothing but the header before message 0");
    }

    @Test
    void anEditOfAnEarlierPagesMessageIsSavedFromItsOffset() throws IOException {
        start(CONFIG);
        String file = write(CHARACTER_FILE, messages(0, 300));
        JsonNode last = page(CHARACTER, 50, null);
        JsonNode earlier = page(CHARACTER, 50, last.at("/cursor/offset").longValue());
        List<JsonNode> window = List.of(earlier, last); // what the UI holds: messages 200 to 299
        List<String> shown = texts(joined(window, "messages"));
        ArrayNode offsets = joined(window, "offsets");
        assertEquals(messages(200, 300).stream().map(m -> JsJson.compact(JsJson.parse(m))).toList(), shown);

        // an edit of message 230: it and the window's messages after it
        List<String> sent = new ArrayList<>(List.of("{\"name\":\"N\",\"mes\":\"edited ü\"  , \"swipes\":[\"a\",\"b\"]}"));
        sent.addAll(shown.subList(31, shown.size()));
        HttpResponse<Buffer> saved = save(CHARACTER, from(last.get("cursor"), offsets.get(30).longValue()), sent);
        assertEquals(200, saved.statusCode(), saved.bodyAsString());
        List<String> expected = messages(0, 300);
        expected.set(230, "{\"name\":\"N\",\"mes\":\"edited ü\",\"swipes\":[\"a\",\"b\"]}");
        assertEquals(HEADER + "\n" + String.join("\n", expected), document(file));
        assertEquals(JsJson.parse("[" + HEADER + "," + String.join(",", expected) + "]"),
                JsJson.parse(client.post("/api/chats/get", "{" + CHARACTER + "}").bodyAsString()));

        JsonNode next = json(saved).get("cursor");
        assertEquals(offsets.get(30), next.get("offset"), "the saved lines start where the message did");
        assertEquals(documentBytes(file).length, next.get("size").longValue());
        ArrayNode sentArray = (ArrayNode) JsJson.parse("[" + String.join(",", sent) + "]");
        assertOffsetsAreTheMessagesLines(documentBytes(file), sentArray, next.get("offsets"));
        assertEquals(next.get("offsets"), page(CHARACTER, sent.size(), null).get("offsets"),
                "a new read finds the saved messages where the save said");

        // then a delete of message 240, from its offset in the answered cursor: the messages after it
        HttpResponse<Buffer> deleted = save(CHARACTER, from(next, next.get("offsets").get(10).longValue()), sent.subList(11, sent.size()));
        assertEquals(200, deleted.statusCode(), deleted.bodyAsString());
        expected.remove(240);
        assertEquals(HEADER + "\n" + String.join("\n", expected), document(file));
    }

    @Test
    void aMessageIsAppendedAtTheFileSize() throws IOException {
        start(CONFIG);
        String file = write(CHARACTER_FILE, messages(0, 120));
        JsonNode read = page(CHARACTER, 10, null);
        long size = documentBytes(file).length;
        HttpResponse<Buffer> saved = save(CHARACTER, from(read.get("cursor"), size), List.of(message(120)));
        assertEquals(200, saved.statusCode(), saved.bodyAsString());
        assertEquals(HEADER + "\n" + String.join("\n", messages(0, 121)), document(file));
        JsonNode next = json(saved).get("cursor");
        assertEquals(size + 1, next.get("offset").longValue(), "after the LF that ends the old last line");
        assertEquals(1, next.get("offsets").size());
        assertEquals(size + 1, next.get("offsets").get(0).longValue());
        JsonNode again = page(CHARACTER, 1, null);
        assertEquals(next.get("offsets"), again.get("offsets"));
        assertEquals(JsJson.parse(message(120)), again.get("messages").get(0));
    }

    @Test
    void aStaleCursorIsAConflictFromAnyOffsetAndChangesNothing() throws IOException {
        start(CONFIG);
        String file = write(CHARACTER_FILE, messages(0, 120));
        JsonNode last = page(CHARACTER, 20, null);
        JsonNode earlier = page(CHARACTER, 20, last.at("/cursor/offset").longValue());
        // another window appends meanwhile
        assertEquals(200, save(CHARACTER, from(last.get("cursor"), documentBytes(file).length), List.of(message(120))).statusCode());
        byte[] before = documentBytes(file);
        HttpResponse<Buffer> stale = save(CHARACTER, from(earlier.get("cursor"), earlier.get("offsets").get(3).longValue()),
                messages(500, 501));
        assertEquals(409, stale.statusCode());
        assertTrue(json(stale).get("error").asText().contains("read it again"));
        assertArrayEquals(before, documentBytes(file));
    }

    @Test
    void badBeforesAndOffsetsAreRefusedAndTheFileIsUnchanged() throws IOException {
        start(CONFIG);
        String file = write(CHARACTER_FILE, messages(0, 50));
        JsonNode read = page(CHARACTER, 10, null);
        long size = documentBytes(file).length;
        long inLine = read.get("offsets").get(2).longValue() + 1;
        byte[] bytes = documentBytes(file);
        for (String before : List.of("0", "5", String.valueOf(HEADER_END - 1), String.valueOf(inLine),
                String.valueOf(size + 1), "-1", "1.5", "\"" + HEADER_END + "\"", "{}", "[]", "true")) {
            HttpResponse<Buffer> r = tail(CHARACTER, "\"count\":5,\"before\":" + before);
            assertEquals(400, r.statusCode(), "before " + before);
            assertTrue(json(r).get("error").isTextual(), r.bodyAsString());
        }
        for (long offset : List.of(0L, 5L, HEADER_END - 1, inLine, size - 1, size + 1, -1L)) {
            HttpResponse<Buffer> r = save(CHARACTER, from(read.get("cursor"), offset), messages(900, 902));
            assertEquals(400, r.statusCode(), "offset " + offset);
            assertTrue(json(r).get("error").isTextual(), r.bodyAsString());
            assertArrayEquals(bytes, documentBytes(file), "offset " + offset);
        }
        assertEquals(read.get("cursor"), page(CHARACTER, 10, null).get("cursor"), "size and mtime as they were");
    }

    @Test
    void aGroupChatIsPagedAndSavedFromAMessagesOffset() throws IOException {
        start(CONFIG);
        String file = write(GROUP_FILE, messages(0, 130));
        List<JsonNode> pages = pageBack(GROUP, GROUP_FILE, 50);
        assertEquals(3, pages.size());
        ArrayNode whole = JsJson.array().add(JsJson.parse(HEADER)).addAll(joined(pages, "messages"));
        assertEquals(JsJson.parse(client.post("/api/chats/group/get", "{" + GROUP + "}").bodyAsString()), whole);

        JsonNode last = pages.get(2);
        List<String> sent = new ArrayList<>(List.of(message(1000)));
        sent.addAll(texts(last.get("messages")).subList(6, last.get("messages").size()));
        HttpResponse<Buffer> saved = save(GROUP, from(last.get("cursor"), last.get("offsets").get(5).longValue()), sent);
        assertEquals(200, saved.statusCode(), saved.bodyAsString());
        List<String> expected = messages(0, 130);
        expected.set(85, message(1000));
        assertEquals(HEADER + "\n" + String.join("\n", expected), document(file));
        assertOffsetsAreTheMessagesLines(documentBytes(file), JsJson.parse("[" + String.join(",", sent) + "]"),
                json(saved).at("/cursor/offsets"));
    }
}
