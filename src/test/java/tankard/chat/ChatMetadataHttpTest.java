package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.ServerTest;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A chat's metadata set on the server (the author's note of Tankard's UI): the header changes, the messages do not. */
class ChatMetadataHttpTest extends ServerTest {
    private static final String CHAT = "\"avatar_url\":\"Bramble.png\",\"file_name\":\"m\"";
    private static final String FILE = "chats/Bramble/m.jsonl";
    private static final String MESSAGES = "{\"name\":\"N\",\"mes\":\"first é\",\"n\":1.50},\n"
            + "{\"name\":\"U\",\"is_user\":true,\"mes\":\"second\" ,\"extra\":{}}";

    private HttpResponse<Buffer> setMetadata(String metadata) {
        return client.post("/api/tankard/chats/metadata", "{" + CHAT + ",\"chat_metadata\":" + metadata + "}");
    }

    /** The file after its first line. */
    private String messageLines() {
        String file = document(FILE);
        return file.substring(file.indexOf('\n'));
    }

    @Test
    void theKeysAreSetInTheHeaderAndEveryMessageLineStaysByteForByte() {
        start("backups:\n  chat:\n    enabled: false\n");
        assertEquals(200, client.post("/api/chats/save", "{" + CHAT + ",\"chat\":[{\"user_name\":\"unused\","
                + "\"chat_metadata\":{\"integrity\":\"m\",\"note_prompt\":\"old\"}}," + MESSAGES + "]}").statusCode());
        String messages = messageLines();
        JsonNode window = json(client.post("/api/tankard/chats/tail", "{" + CHAT + ",\"count\":5}"));

        HttpResponse<Buffer> set = setMetadata("{\"note_prompt\":\"[Keep it short.]\",\"note_depth\":2,\"note_role\":0}");
        assertEquals(200, set.statusCode(), set.bodyAsString());
        JsonNode header = JsJson.parse(document(FILE).lines().findFirst().orElseThrow());
        assertEquals(JsJson.parse("{\"user_name\":\"unused\",\"chat_metadata\":{\"integrity\":\"m\","
                + "\"note_prompt\":\"[Keep it short.]\",\"note_depth\":2,\"note_role\":0}}"), header);
        assertEquals(messages, messageLines(), "the messages as they were");
        assertEquals("[Keep it short.]", json(client.post("/api/tankard/chats/tail", "{" + CHAT + ",\"count\":5}"))
                .at("/header/chat_metadata/note_prompt").asText(), "a read has it");
        JsonNode whole = json(client.post("/api/chats/get", "{" + CHAT + "}"));
        assertEquals(3, whole.size(), "ST's read: the header and both messages");

        assertEquals(200, setMetadata("{\"world_info\":\"Sea Tales\"}").statusCode());
        assertEquals(200, setMetadata("{\"world_info\":null,\"note_role\":1}").statusCode());
        assertEquals(JsJson.parse("{\"integrity\":\"m\",\"note_prompt\":\"[Keep it short.]\",\"note_depth\":2,\"note_role\":1}"),
                JsJson.parse(document(FILE).lines().findFirst().orElseThrow()).get("chat_metadata"),
                "a null removes the key, as ST's frontend deletes chat_metadata.world_info to unlink a chat's lorebook");
        assertEquals(messages, messageLines(), "the messages as they were");

        HttpResponse<Buffer> stale = client.post("/api/tankard/chats/tail/save", "{" + CHAT + ",\"cursor\":"
                + JsJson.compact(window.get("cursor")) + ",\"messages\":[]}");
        assertEquals(409, stale.statusCode(), "a window read before is stale");
    }

    @Test
    void badInputIsRefusedAndWritesNothing() {
        start("backups:\n  chat:\n    enabled: false\n");
        assertEquals(404, setMetadata("{\"note_prompt\":\"x\"}").statusCode(), "no such chat");
        assertEquals(200, client.post("/api/chats/save", "{" + CHAT + ",\"chat\":[{\"chat_metadata\":{}}," + MESSAGES + "]}").statusCode());
        byte[] before = documentBytes(FILE);
        for (String metadata : new String[]{"\"x\"", "[1]", "null", "3", "{\"note_prompt\":\"x\",\"integrity\":\"forged\"}"}) {
            assertEquals(400, setMetadata(metadata).statusCode(), metadata);
        }
        assertEquals(400, client.post("/api/tankard/chats/metadata", "{\"chat_metadata\":{}}").statusCode(), "no chat named");
        assertEquals(400, client.post("/api/tankard/chats/metadata", "not json").statusCode());
        assertEquals(200, setMetadata("{}").statusCode(), "nothing to set: answered, the chat not written again");
        assertEquals(true, Arrays.equals(before, documentBytes(FILE)), new String(documentBytes(FILE), StandardCharsets.UTF_8));

        put(FILE, MESSAGES.getBytes(StandardCharsets.UTF_8)); // no header: a message first
        assertEquals(400, setMetadata("{\"note_prompt\":\"x\"}").statusCode(), "the first line is not a header");
    }
}
