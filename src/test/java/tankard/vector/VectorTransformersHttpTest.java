package tankard.vector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.ServerTest;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The local source as ST's frontend uses it: {@code source: transformers}, nothing else, the embedded model. */
class VectorTransformersHttpTest extends ServerTest {
    private static final String[] TEXTS = {
            "The old lighthouse keeper polished his brass telescope every evening.",
            "Quarterly earnings beat expectations and the stock rose sharply.",
            "She baked a chocolate cake for her grandmother's birthday.",
    };

    @Test
    void theEmbeddedModelFindsTheMessageAboutTheQuery() {
        start(null);
        ObjectNode insert = JsJson.object().put("source", "transformers").put("collectionId", "chat-7");
        ArrayNode items = insert.putArray("items");
        for (int i = 0; i < TEXTS.length; i++) {
            items.addObject().put("hash", 100 + i).put("text", TEXTS[i]).put("index", i);
        }
        var inserted = client.post("/api/vector/insert", JsJson.compact(insert));
        assertEquals(200, inserted.statusCode(), inserted.bodyAsString());
        // no model configured: no model scope, the index sits in the collection's folder, as on ST
        assertTrue(hasDocument("vectors/transformers/chat-7/index.json"));

        String[][] queries = {
                {"Who looked through the telescope at the lighthouse?", "100"},
                {"How did the shares do on the market?", "101"},
                {"What dessert was made for grandma?", "102"},
        };
        for (String[] query : queries) {
            ObjectNode body = JsJson.object().put("source", "transformers").put("collectionId", "chat-7")
                    .put("searchText", query[0]).put("topK", 3).put("threshold", 0.25);
            JsonNode found = json(client.post("/api/vector/query", JsJson.compact(body)));
            assertEquals(query[1], found.get("hashes").get(0).asText(), query[0] + " → " + found);
            assertTrue(found.get("hashes").size() < 3, "the unrelated messages score under 0.25: " + found);
        }
    }
}
