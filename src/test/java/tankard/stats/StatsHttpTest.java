package tankard.stats;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.ServerTest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatsHttpTest extends ServerTest {
    /** Two chats of one character: swipes, swipe infos, a repeated text, unreadable lines and dates. */
    static final String CHAT_1 = String.join("\n",
            "{\"user_name\":\"You\",\"character_name\":\"Ann\",\"chat_metadata\":{}}",
            "{\"name\":\"Ann\",\"is_user\":false,\"mes\":\"Hello there, traveller!\",\"send_date\":\"2024-07-12@01h31m37s123ms\"}",
            "{\"name\":\"You\",\"is_user\":true,\"mes\":\"Hi Ann. It's 3 o'clock_now.\",\"send_date\":\"2024-07-12@01h32m00s000ms\"}",
            "{\"name\":\"Ann\",\"is_user\":false,\"mes\":\"Fine day\",\"gen_started\":\"2024-07-12T01:32:01.000Z\","
                    + "\"gen_finished\":\"2024-07-12T01:32:03.500Z\",\"swipes\":[\"Fine day\",\"Nice day today\",\"Ok\"]}",
            "{\"name\":\"Ann\",\"is_user\":false,\"mes\":\"Second\",\"gen_started\":\"2024-07-12T01:33:00.000Z\","
                    + "\"gen_finished\":\"2024-07-12T01:33:01.000Z\",\"swipes\":[\"Second\",\"Two words\"],"
                    + "\"swipe_info\":[{},{\"gen_started\":\"2024-07-12T01:34:00.000Z\",\"gen_finished\":\"2024-07-12T01:34:00.250Z\"}]}",
            "not json",
            "{\"name\":\"Ann\",\"is_user\":false,\"mes\":\"Broken swipes\",\"swipes\":[\"Broken swipes\",\"fine one\",7,\"never counted\"]}",
            "");
    static final String CHAT_2 = String.join("\n",
            "{\"user_name\":\"You\",\"character_name\":\"Ann\"}",
            "{\"name\":\"Ann\",\"is_user\":false,\"mes\":\"Hello there, traveller!\",\"gen_started\":\"2024-01-01T00:00:00.000Z\",\"gen_finished\":\"2024-01-01T00:00:09.000Z\"}",
            "{\"name\":\"You\",\"is_user\":true,\"mes\":\"Earlier\",\"send_date\":\"December 9, 2023 3:05pm\"}",
            "{\"name\":\"Ann\",\"is_user\":false,\"mes\":\"Bad time\",\"gen_started\":\"yesterday\",\"gen_finished\":\"2024-01-01T00:00:00.000Z\"}",
            "{\"name\":\"You\",\"is_user\":true,\"mes\":\"Numbers 12 34\",\"send_date\":1700000000000}");

    /** stats.json in the default user's folder, a document of the server's store. */
    private static final String STATS = "stats.json";

    @BeforeEach
    void start() {
        start(null);
    }

    @Test
    void getAnswersTheRebuiltStatsForAMissingFileWithoutWritingIt() {
        long before = System.currentTimeMillis();
        HttpResponse<Buffer> r = client.post("/api/stats/get", "{}");
        assertEquals(200, r.statusCode());
        JsonObject read = r.bodyAsJsonObject();
        assertEquals(1, read.size(), read.encode());
        assertTrue(read.getLong("timestamp") >= before);
        assertFalse(hasDocument(STATS), "reading writes nothing");
    }

    @Test
    void getAnswersTheRebuiltStatsForAnUnreadableFile() throws IOException {
        put("characters/Ann.png", new byte[] {1});
        put(STATS, "{broken".getBytes(StandardCharsets.UTF_8));
        JsonObject read = client.post("/api/stats/get", "{}").bodyAsJsonObject();
        assertEquals(0, read.getJsonObject("Ann.png").getInteger("chat_size"));
        assertEquals("{broken", document(STATS));
    }

    @Test
    void updateStoresCompactJsonWithATimestamp() throws IOException {
        long before = System.currentTimeMillis();
        HttpResponse<Buffer> r = client.post("/api/stats/update",
                "{\"a.png\":{\"total_gen_time\":1500.5,\"user_word_count\":3,\"date_first_chat\":253402300799999},\"timestamp\":1}");
        assertEquals(200, r.statusCode());
        assertEquals("OK", r.bodyAsString());
        String file = document(STATS);
        assertTrue(file.startsWith("{\"a.png\":{\"total_gen_time\":1500.5,\"user_word_count\":3,\"date_first_chat\":253402300799999},\"timestamp\":"), file);
        JsonObject read = client.post("/api/stats/get", "{}").bodyAsJsonObject();
        assertTrue(read.getLong("timestamp") >= before);
        assertEquals(3, read.getJsonObject("a.png").getInteger("user_word_count"));
    }

    @Test
    void badUpdatesAre400() throws IOException {
        put(STATS, "{\"timestamp\":1}".getBytes(StandardCharsets.UTF_8));
        assertEquals(400, client.post("/api/stats/update", "[1]").statusCode());
        assertEquals(400, client.post("/api/stats/update", "{\"a\":").statusCode());
        assertEquals(400, client.post("/api/stats/update", "\"text\"").statusCode());
        assertEquals("{\"timestamp\":1}", document(STATS));
    }

    @Test
    void recreateRebuildsEveryCharacterFromItsChatsAsSt() throws IOException {
        put("characters/Ann.png", new byte[] {1});
        put("characters/Bob.png", new byte[] {2});
        put("characters/notes.txt", new byte[] {3});
        put("chats/Ann/one.jsonl", CHAT_1.getBytes(StandardCharsets.UTF_8));
        put("chats/Ann/two.jsonl", CHAT_2.getBytes(StandardCharsets.UTF_8));
        put("chats/notes/x.jsonl", CHAT_2.getBytes(StandardCharsets.UTF_8));
        server.files().setModified("chats/Ann/one.jsonl", 1_720_000_000_123L);
        server.files().setModified("chats/Ann/two.jsonl", 1_710_000_000_000L);
        put(STATS, "{\"old\":true,\"timestamp\":5}".getBytes(StandardCharsets.UTF_8));

        long before = System.currentTimeMillis();
        HttpResponse<Buffer> r = client.post("/api/stats/recreate", "{}");
        assertEquals(200, r.statusCode());
        assertEquals("OK", r.bodyAsString());

        String file = document(STATS);
        // worked out by hand and checked against ST 1.18's recreateStats on the same files
        String ann = "{\"total_gen_time\":11250,\"user_word_count\":11,\"non_user_word_count\":18,\"user_msg_count\":3,"
                + "\"non_user_msg_count\":9,\"total_swipe_count\":6,\"chat_size\":" + (CHAT_1.length() + CHAT_2.length())
                + ",\"date_last_chat\":1720000000123,\"date_first_chat\":1700000000000}";
        String bob = "{\"total_gen_time\":0,\"user_word_count\":0,\"non_user_word_count\":0,\"user_msg_count\":0,"
                + "\"non_user_msg_count\":0,\"total_swipe_count\":0,\"chat_size\":0,\"date_last_chat\":0,"
                + "\"date_first_chat\":253402300799999}";
        assertTrue(file.startsWith("{\"Ann.png\":" + ann + ",\"Bob.png\":" + bob + ",\"timestamp\":"), file);
        JsonNode parsed = JsJson.parse(file);
        assertTrue(parsed.get("timestamp").asLong() >= before);
        assertEquals(3, parsed.size());
        assertEquals(file, client.post("/api/stats/get", "{}").bodyAsString());
    }

    @Test
    void aChatWithInvalidUtf8CountsItsLinesAsNodeReadsThem() throws IOException {
        put("characters/Ann.png", new byte[] {1});
        byte[] chat = "{\"user_name\":\"You\"}\n{\"is_user\":true,\"mes\":\"one X two\"}\r\n{\"is_user\":false,\"mes\":\"three\"}"
                .getBytes(StandardCharsets.UTF_8);
        chat[new String(chat, StandardCharsets.US_ASCII).indexOf('X')] = (byte) 0xff; // one U+FFFD between two words, as Node reads it
        put("chats/Ann/one.jsonl", chat);
        JsonObject ann = client.post("/api/stats/get", "{}").bodyAsJsonObject().getJsonObject("Ann.png");
        assertEquals(2, ann.getInteger("user_word_count"), ann.encode());
        assertEquals(1, ann.getInteger("non_user_word_count"), ann.encode());
        assertEquals(chat.length, ann.getInteger("chat_size"));
    }
}
