package tankard.compat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tankard.character.CardCodec;
import tankard.json.JsJson;
import tankard.testing.Fixtures;
import tankard.testing.ServerTest;
import tankard.testing.Spelling;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every route that reads or writes chats and cards, fed the same data in other JSON spellings ({@link Spelling}):
 * ST parses files and bodies with {@code JSON.parse}, so it answers and writes for each spelling exactly what it does
 * for that value's {@code JSON.stringify} text. Each spelling's answers are compared, byte for byte, with those of a
 * server holding that text; the only parts that may differ are those ST takes from the file itself: a card's
 * {@code json_data} (its text as stored, checked apart), file sizes and a raw JSONL export.
 */
class AnySpellingHttpTest extends ServerTest {
    private static final String[] CHATS = {"chats/bramble-first-meeting.jsonl", "chats/summarized-with-extensions.jsonl",
            "chats/legacy-header.jsonl"};
    private static final String[] CARDS = {"characters/bramble-v2.json", "characters/juniper-v3.json", "characters/osric-v1.json"};
    private static final String GROUP = "{\"id\":\"g1\",\"name\":\"Hive\",\"members\":[\"Bramble.png\"],\"chat_id\":\"g1-chat\","
            + "\"chats\":[\"g1-chat\"],\"disabled_members\":[],\"fav\":false}";
    private static final double MODIFIED_MS = 1735812000000.0;
    private static final String BRAMBLE = "\"avatar_url\":\"Bramble.png\",\"ch_name\":\"Bramble\"";

    @ParameterizedTest
    @EnumSource(value = Spelling.class, names = "AS_ST", mode = EnumSource.Mode.EXCLUDE)
    void eachRouteAnswersAndWritesWhatItDoesForTheTextStWouldWrite(Spelling spelling) {
        Map<String, String> expected = answers(text -> spelling.asSt(JsJson.parse(text)), spelling::asStLines);
        Map<String, String> actual = answers(spelling::spell, spelling::spellLines);
        assertEquals(expected.keySet(), actual.keySet());
        for (String route : expected.keySet()) {
            assertEquals(expected.get(route), actual.get(route), spelling + ": " + route);
        }
    }

    /**
     * The answers of a server whose chats, group chat and cards are the fixtures written with {@code card} (a card's
     * JSON) and {@code lines} (a JSONL chat), each under a name; what the writing routes stored is among them.
     */
    private Map<String, String> answers(Function<String, String> card, Function<String, String> lines) {
        start(null);
        Map<String, String> answers = new LinkedHashMap<>();
        try {
            Map<String, String> cardTexts = new LinkedHashMap<>();
            for (String fixture : CARDS) {
                String text = card.apply(Fixtures.text(fixture));
                putFile("characters/" + name(fixture) + ".png", Fixtures.card(text, text));
                cardTexts.put(fixture, text);
            }
            for (String fixture : CHATS) {
                putFile("chats/Bramble/" + name(fixture) + ".jsonl", bytes(lines.apply(Fixtures.text(fixture))));
            }
            put("groups/g1.json", bytes(GROUP));
            putFile("group chats/g1-chat.jsonl", bytes(lines.apply(Fixtures.text(CHATS[1]))));

            answers.put("characters/all", withoutStoredText(post("/api/characters/all", "{}")));
            for (String fixture : CARDS) {
                String avatar = "\"avatar_url\":\"" + name(fixture) + ".png\"";
                String character = post("/api/characters/get", "{" + avatar + "}");
                assertEquals(cardTexts.get(fixture), JsJson.parse(character).get("json_data").asText(), "the text as stored");
                answers.put("characters/get " + fixture, withoutStoredText(character));
                answers.put("characters/export json " + fixture, post("/api/characters/export", "{\"format\":\"json\"," + avatar + "}"));
            }
            answers.put("characters/chats", withoutSizes(post("/api/characters/chats", "{" + BRAMBLE + ",\"metadata\":true}")));
            answers.put("chats/recent", withoutSizes(post("/api/chats/recent", "{}")));
            answers.put("chats/search", withoutSizes(post("/api/chats/search", "{\"query\":\"honey\"," + BRAMBLE + "}")));
            for (String fixture : CHATS) {
                String chat = BRAMBLE + ",\"file_name\":\"" + name(fixture) + "\"";
                answers.put("chats/get " + fixture, post("/api/chats/get", "{" + chat + "}"));
                answers.put("chats/export txt " + fixture, post("/api/chats/export", "{\"is_group\":false," + BRAMBLE
                        + ",\"file\":\"" + name(fixture) + ".jsonl\",\"format\":\"txt\"}"));
                answers.put("tankard/chats/tail " + fixture, withoutCursor(post("/api/tankard/chats/tail", "{" + chat + ",\"count\":3}")));
            }
            answers.put("chats/group/get", post("/api/chats/group/get", "{\"id\":\"g1-chat\"}"));

            // the writing routes, with bodies in the spelling: what they store
            String chat = lines.apply(Fixtures.text(CHATS[0]));
            post("/api/chats/save", "{" + BRAMBLE + ",\"file_name\":\"saved\",\"chat\":[" + chat.replace("\n", ",") + "]}");
            answers.put("chats/save stored", document("chats/Bramble/saved.jsonl"));
            String groupChat = lines.apply(Fixtures.text(CHATS[1]));
            post("/api/chats/group/save", "{\"id\":\"g1-chat\",\"chat\":[" + groupChat.replace("\n", ",") + "]}");
            answers.put("chats/group/save stored", document("group chats/g1-chat.jsonl"));
            post("/api/characters/edit-attribute", "{\"avatar_url\":\"bramble-v2.png\",\"ch_name\":\"Bramble\","
                    + "\"field\":\"scenario\",\"value\":\"A boat.\"}");
            answers.put("characters/edit-attribute stored", new String(CardCodec.readPngText(documentBytes("characters/bramble-v2.png")),
                    StandardCharsets.UTF_8));
            answers.put("characters/get after the edit", withoutStoredText(post("/api/characters/get", "{\"avatar_url\":\"bramble-v2.png\"}")));
        } finally {
            server.close();
            server = null;
        }
        return answers;
    }

    /** Stores a file of the default user with the same modification time in every server, as ST reads it into dates. */
    private void putFile(String relative, byte[] bytes) {
        put(relative, bytes);
        server.files().setModified(relative, MODIFIED_MS);
    }

    private String post(String path, String body) {
        HttpResponse<Buffer> response = client.post(path, body);
        assertEquals(200, response.statusCode(), path + ": " + response.bodyAsString());
        return response.bodyAsString();
    }

    private static String name(String fixture) {
        return fixture.substring(fixture.indexOf('/') + 1, fixture.lastIndexOf('.'));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The answer with each card's {@code json_data}, the text as stored (ST sends the file's own), taken out, and
     * what ST takes from the clock and the file's change time, which no test can set, where a card has none of its
     * own: {@code date_added}, {@code create_date}, and the default {@code chat} name.
     */
    private static String withoutStoredText(String answer) {
        JsonNode json = JsJson.parse(answer);
        for (JsonNode character : json.isArray() ? json : JsJson.array().add(json)) {
            ((ObjectNode) character).remove(List.of("json_data", "date_added", "create_date", "chat"));
        }
        return JsJson.compact(json);
    }

    /** The answer with the chats' file sizes taken out: the same chat takes other bytes in another spelling. */
    private static String withoutSizes(String answer) {
        ArrayNode chats = (ArrayNode) JsJson.parse(answer);
        chats.forEach(chat -> ((ObjectNode) chat).remove("file_size"));
        return JsJson.compact(chats);
    }

    /** The window with its cursor (the file's size and time) and the messages' byte offsets in the file taken out. */
    private static String withoutCursor(String answer) {
        ObjectNode window = (ObjectNode) JsJson.parse(answer);
        window.remove(List.of("cursor", "offsets"));
        return JsJson.compact(window);
    }
}
