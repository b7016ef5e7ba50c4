package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.Fixtures;
import tankard.testing.ServerTest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tankard's paged character library, {@code /api/tankard/characters/page}, over real card files. */
class CharacterPageHttpTest extends ServerTest {
    private static final String PAGE = "/api/tankard/characters/page";
    private static final String LONG_NOTES = "Long notes. ".repeat(40);

    /** Writes a V2 PNG card; {@code fav} is data.extensions.fav's JSON, or null for none. */
    private void card(String avatar, String name, String creator, String notes, String fav, String... tags)
            throws IOException, InterruptedException {
        ObjectNode data = JsJson.object().put("name", name).put("description", name + "'s description")
                .put("creator", creator).put("creator_notes", notes);
        ArrayNode tagList = data.putArray("tags");
        for (String tag : tags) {
            tagList.add(tag);
        }
        ObjectNode extensions = data.putObject("extensions");
        if (fav != null) {
            extensions.set("fav", JsJson.parse(fav));
        }
        ObjectNode card = JsJson.object().put("spec", "chara_card_v2").put("spec_version", "2.0");
        card.set("data", data);
        put("characters/" + avatar, Fixtures.card(JsJson.compact(card)));
        Thread.sleep(20); // each card a later ctime (date_added) than the one before
    }

    /** A V1 card (no spec): its top-level fav, no creator notes. */
    private void v1Card(String avatar, String name, String description, String fav) throws IOException, InterruptedException {
        ObjectNode card = JsJson.object().put("name", name).put("description", description).put("fav", fav)
                .put("create_date", "2024-5-6 @07h08m09s010ms");
        card.putArray("tags").add("knight");
        put("characters/" + avatar, Fixtures.card(JsJson.compact(card)));
        Thread.sleep(20);
    }

    private void chat(String folder, String file, int bytes, long mtime) throws IOException {
        String chat = "chats/" + folder + "/" + file;
        put(chat, "x".repeat(bytes).getBytes());
        server.files().setModified(chat, mtime);
    }

    /**
     * The library of most tests, in the order written (date_added): Bramble (fav "true", forest+guide, 300 bytes of
     * chats, newest chat), juniper (fav true, forest, 100 bytes, older chat), Osric (V1, top-level fav "true",
     * knight), Twin-b (no fav) and Twin-a (fav "false"), both named Twin, tag twin, no chats.
     */
    private void library() throws IOException, InterruptedException {
        start(null);
        card("Bramble.png", "Bramble", "Ivy Green", "A forest guide.", "\"true\"", "forest", "guide");
        card("Juniper.png", "juniper", "Rowan", LONG_NOTES, "true", "forest");
        v1Card("Osric.png", "Osric", "A knight of the old road.", "true");
        card("Twin-b.png", "Twin", "Ivy Green", "The second twin.", null, "twin");
        card("Twin-a.png", "Twin", "Ash", "The first twin.", "\"false\"", "twin");
        chat("Bramble", "a.jsonl", 200, 1_700_000_002_000L);
        chat("Bramble", "b.jsonl", 100, 1_700_000_001_000L);
        chat("Juniper", "a.jsonl", 100, 1_600_000_000_000L);
    }

    private JsonNode page(String body) {
        HttpResponse<Buffer> response = client.post(PAGE, body);
        assertEquals(200, response.statusCode(), response.bodyAsString());
        assertTrue(response.getHeader("Content-Type").startsWith("application/json"));
        return json(response);
    }

    private static List<String> avatars(JsonNode page) {
        List<String> avatars = new ArrayList<>();
        page.get("items").forEach(item -> avatars.add(item.get("avatar").textValue()));
        return avatars;
    }

    private List<String> order(String sortAndOrder) {
        return avatars(page("{" + sortAndOrder + "}"));
    }

    private static List<String> keys(JsonNode object) {
        List<String> keys = new ArrayList<>();
        object.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    @Test
    void pagesSplitTheMatchingCardsWithTheirTotal() throws Exception {
        library();
        List<String> all = List.of("Bramble.png", "Juniper.png", "Osric.png", "Twin-a.png", "Twin-b.png");
        JsonNode whole = page("{}");
        assertEquals(5, whole.get("total").intValue());
        assertEquals(0, whole.get("offset").intValue());
        assertEquals(all, avatars(whole), "no body: the first 100 by name");
        List<String> paged = new ArrayList<>();
        for (int offset = 0; offset < 5; offset += 2) {
            JsonNode page = page("{\"offset\":" + offset + ",\"limit\":2}");
            assertEquals(5, page.get("total").intValue(), "the total counts every match, not the page");
            assertEquals(offset, page.get("offset").intValue());
            assertEquals(Math.min(2, 5 - offset), page.get("items").size());
            paged.addAll(avatars(page));
        }
        assertEquals(all, paged, "consecutive pages neither skip nor repeat a card");
        JsonNode past = page("{\"offset\":10,\"limit\":2}");
        assertEquals(5, past.get("total").intValue());
        assertEquals(0, past.get("items").size());
        assertEquals(List.of("Twin-a.png"), avatars(page("{\"offset\":3,\"limit\":1,\"search\":\"\"}")),
                "an empty search filters nothing");
    }

    @Test
    void itemsCarryTheGridFieldsWithCharactersAllsValues() throws Exception {
        library();
        Map<String, JsonNode> listed = new HashMap<>();
        json(client.post("/api/characters/all", "{}")).forEach(c -> listed.put(c.get("avatar").textValue(), c));
        Map<String, JsonNode> items = new HashMap<>();
        page("{}").get("items").forEach(item -> items.put(item.get("avatar").textValue(), item));
        assertEquals(listed.keySet(), items.keySet());
        for (JsonNode item : items.values()) {
            assertEquals(List.of("avatar", "name", "tags", "fav", "date_added", "date_last_chat", "chat_size",
                    "create_date", "description_preview"), keys(item));
            JsonNode full = listed.get(item.get("avatar").textValue());
            for (String field : List.of("name", "tags", "date_added", "date_last_chat", "chat_size", "create_date")) {
                assertEquals(full.get(field), item.get(field), field + " of " + item.get("avatar"));
            }
        }
        JsonNode bramble = items.get("Bramble.png");
        assertEquals(JsJson.parse("[\"forest\",\"guide\"]"), bramble.get("tags"));
        assertEquals(300, bramble.get("chat_size").intValue(), "every file of the chat folder counts");
        assertEquals(1_700_000_002_000L, bramble.get("date_last_chat").longValue(), "the newest chat");
        assertEquals(0, items.get("Twin-a.png").get("date_last_chat").intValue());
        assertEquals("2024-5-6 @07h08m09s010ms", items.get("Osric.png").get("create_date").textValue(), "the card's own");
        assertEquals("A forest guide.", bramble.get("description_preview").textValue(), "the creator notes");
        assertEquals("A knight of the old road.", items.get("Osric.png").get("description_preview").textValue(),
                "no creator notes: the description");
        String cut = items.get("Juniper.png").get("description_preview").textValue();
        assertTrue(cut.length() <= 201 && cut.length() > 190 && cut.endsWith("…") && LONG_NOTES.startsWith(cut.substring(0, 190)),
                "long notes are cut to about 200 characters: " + cut);
    }

    @Test
    void favouritesAreTrueOrTheStringTrue() throws Exception {
        library();
        Map<String, Boolean> fav = new HashMap<>();
        page("{}").get("items").forEach(item -> fav.put(item.get("avatar").textValue(), item.get("fav").booleanValue()));
        assertEquals(Map.of("Bramble.png", true, "Juniper.png", true, "Osric.png", true, "Twin-a.png", false,
                "Twin-b.png", false), fav, "\"true\", true and a V1 card's top-level \"true\" are favourites; \"false\" and none are not");
        assertEquals(List.of("Bramble.png", "Juniper.png", "Osric.png"), order("\"favorites\":true"));
        assertEquals(5, page("{\"favorites\":false}").get("total").intValue(), "false keeps every card");
    }

    @Test
    void eachSortHasItsDefaultOrderAndTheOther() throws Exception {
        library();
        List<String> byName = List.of("Bramble.png", "Juniper.png", "Osric.png", "Twin-a.png", "Twin-b.png");
        assertEquals(byName, order("\"sort\":\"name\""), "names compare ignoring case (juniper after Bramble)");
        assertEquals(byName, order("\"sort\":\"name\",\"order\":\"asc\""));
        assertEquals(List.of("Twin-a.png", "Twin-b.png", "Osric.png", "Juniper.png", "Bramble.png"),
                order("\"sort\":\"name\",\"order\":\"desc\""));

        List<String> newestFirst = List.of("Twin-a.png", "Twin-b.png", "Osric.png", "Juniper.png", "Bramble.png");
        assertEquals(newestFirst, order("\"sort\":\"date_added\""), "dates: newest first by default");
        assertEquals(List.of("Bramble.png", "Juniper.png", "Osric.png", "Twin-b.png", "Twin-a.png"),
                order("\"sort\":\"date_added\",\"order\":\"asc\""));

        assertEquals(List.of("Bramble.png", "Juniper.png", "Osric.png", "Twin-a.png", "Twin-b.png"),
                order("\"sort\":\"date_last_chat\""));
        assertEquals(List.of("Osric.png", "Twin-a.png", "Twin-b.png", "Juniper.png", "Bramble.png"),
                order("\"sort\":\"date_last_chat\",\"order\":\"asc\""));

        chat("Juniper", "c.jsonl", 500, 1_500_000_000_000L); // most bytes, not the newest chat
        assertEquals(List.of("Juniper.png", "Bramble.png", "Osric.png", "Twin-a.png", "Twin-b.png"),
                order("\"sort\":\"chat_size\""), "the largest chats first by default");
        assertEquals(List.of("Osric.png", "Twin-a.png", "Twin-b.png", "Bramble.png", "Juniper.png"),
                order("\"sort\":\"chat_size\",\"order\":\"asc\""));
        assertEquals(List.of("Bramble.png", "Juniper.png", "Osric.png", "Twin-a.png", "Twin-b.png"),
                order("\"sort\":\"date_last_chat\""), "date_last_chat is the newest chat, not the largest");
    }

    @Test
    void tiesAreBrokenByAvatarInBothOrders() throws Exception {
        library();
        assertEquals(List.of("Twin-a.png", "Twin-b.png"), order("\"search\":\"twin\",\"sort\":\"name\""),
                "Twin-a written last comes first");
        assertEquals(List.of("Twin-a.png", "Twin-b.png"), order("\"search\":\"twin\",\"sort\":\"name\",\"order\":\"desc\""));
        List<String> noChats = List.of("Osric.png", "Twin-a.png", "Twin-b.png");
        assertEquals(noChats, order("\"sort\":\"chat_size\"").subList(2, 5));
        assertEquals(noChats, order("\"sort\":\"chat_size\",\"order\":\"asc\"").subList(0, 3));
        List<String> paged = new ArrayList<>();
        for (int offset = 0; offset < 5; offset++) {
            paged.addAll(avatars(page("{\"sort\":\"chat_size\",\"offset\":" + offset + ",\"limit\":1}")));
        }
        assertEquals(order("\"sort\":\"chat_size\""), paged, "one card per page, the same order");
    }

    @Test
    void searchMatchesNameTagsAndCreatorIgnoringCase() throws Exception {
        library();
        assertEquals(List.of("Juniper.png"), order("\"search\":\"JUNI\""), "name");
        assertEquals(List.of("Bramble.png", "Juniper.png"), order("\"search\":\"Fore\""), "tag");
        assertEquals(List.of("Bramble.png", "Twin-b.png"), order("\"search\":\"ivy gr\""), "creator");
        assertEquals(List.of("Osric.png"), order("\"search\":\"  knight \""), "a V1 card's tags; the search is trimmed");
        JsonNode none = page("{\"search\":\"old road\"}");
        assertEquals(0, none.get("total").intValue(), "the description is not searched");
        assertEquals(4, none.get("tags").size(), "the tag summary stays the library's (forest, guide, knight, twin)");
    }

    @Test
    void tagFilterKeepsCardsWithEveryGivenTag() throws Exception {
        library();
        assertEquals(List.of("Bramble.png", "Juniper.png"), order("\"tags\":[\"forest\"]"));
        assertEquals(List.of("Bramble.png"), order("\"tags\":[\"forest\",\"guide\"]"));
        assertEquals(List.of(), order("\"tags\":[\"forest\",\"twin\"]"));
        assertEquals(5, page("{\"tags\":[]}").get("total").intValue(), "no tags: no filter");
        assertEquals(List.of("Bramble.png"), order("\"tags\":[\"forest\"],\"favorites\":true,\"search\":\"bram\""),
                "the filters combine");
    }

    @Test
    void tagSummaryCountsEveryTagOfTheLibraryByName() throws Exception {
        library();
        card("Zed.png", "Zed", "", "", null, "Forest", "alpha", "alpha");
        JsonNode expected = JsJson.parse("[{\"name\":\"alpha\",\"count\":1},{\"name\":\"Forest\",\"count\":1},"
                + "{\"name\":\"forest\",\"count\":2},{\"name\":\"guide\",\"count\":1},{\"name\":\"knight\",\"count\":1},"
                + "{\"name\":\"twin\",\"count\":2}]");
        assertEquals(expected, page("{}").get("tags"), "sorted by name ignoring case; a card's repeated tag counts once");
        assertEquals(expected, page("{\"tags\":[\"twin\"],\"limit\":1,\"offset\":1}").get("tags"),
                "filters and paging do not change it");
        assertEquals(List.of("Zed.png"), order("\"tags\":[\"Forest\"]"), "tags match exactly");
    }

    @Test
    void aChangedOrRemovedCardIsSeenByTheNextPage() throws Exception {
        library();
        assertEquals(5, page("{}").get("total").intValue());
        assertTrue(server.files().delete("characters/Twin-b.png"));
        card("Juniper.png", "Juniper Berry", "Rowan", "Rewritten.", "false", "berry");
        JsonNode page = page("{}");
        assertEquals(List.of("Bramble.png", "Juniper.png", "Osric.png", "Twin-a.png"), avatars(page));
        JsonNode juniper = page.get("items").get(1);
        assertEquals("Juniper Berry", juniper.get("name").textValue());
        assertFalse(juniper.get("fav").booleanValue());
        assertEquals(JsJson.parse("[\"berry\"]"), juniper.get("tags"));
        assertEquals("Rewritten.", juniper.get("description_preview").textValue());
        assertEquals(JsJson.parse("[{\"name\":\"berry\",\"count\":1},{\"name\":\"forest\",\"count\":1},"
                + "{\"name\":\"guide\",\"count\":1},{\"name\":\"knight\",\"count\":1},{\"name\":\"twin\",\"count\":1}]"),
                page.get("tags"));
    }

    @Test
    void anEmptyLibraryHasAnEmptyPage() {
        start(null);
        assertEquals(JsJson.parse("{\"total\":0,\"offset\":0,\"items\":[],\"tags\":[]}"), page("{}"));
    }

    @Test
    void badRequestsAre400WithAMessage() throws Exception {
        library();
        for (String body : List.of("{\"offset\":-1}", "{\"offset\":\"2\"}", "{\"offset\":1.5}", "{\"limit\":0}",
                "{\"limit\":501}", "{\"limit\":true}", "{\"limit\":10000000000}", "{\"search\":3}", "{\"tags\":\"forest\"}",
                "{\"tags\":[\"forest\",1]}", "{\"favorites\":\"true\"}", "{\"sort\":\"size\"}", "{\"sort\":1}",
                "{\"order\":\"up\"}", "[]", "{")) {
            HttpResponse<Buffer> response = client.post(PAGE, body);
            assertEquals(400, response.statusCode(), body + " → " + response.bodyAsString());
            assertTrue(json(response).get("error").isTextual(), body + " → " + response.bodyAsString());
        }
        assertEquals(5, page("{\"limit\":500}").get("items").size(), "a limit of 500 is allowed");
        assertEquals(5, page("{\"limit\":1,\"offset\":null,\"search\":null,\"tags\":null,\"sort\":null}").get("total").intValue(),
                "null is absent");
    }
}
