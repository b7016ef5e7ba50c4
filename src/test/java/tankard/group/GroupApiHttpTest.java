package tankard.group;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Groups through their routes alone, so that the test holds on every store (the postgres execution runs it on
 * PostgreSQL); GroupHttpTest checks ST's files.
 */
class GroupApiHttpTest extends ServerTest {
    @Test
    void aGroupIsCreatedListedEditedAndDeletedAndBadIdsChangeNothing() {
        TestServer.Client client = start(null);
        HttpResponse<Buffer> created = client.post("/api/groups/create",
                "{\"name\":\"Tea party\",\"members\":[\"a.png\"],\"fav\":false}");
        assertEquals(200, created.statusCode(), created.bodyAsString());
        String id = created.bodyAsJsonObject().getString("id");

        JsonArray all = client.post("/api/groups/all", null).bodyAsJsonArray();
        assertEquals(1, all.size());
        JsonObject listed = all.getJsonObject(0);
        assertEquals("Tea party", listed.getString("name"));
        assertEquals(id, listed.getString("chat_id"));
        assertTrue(listed.getDouble("date_added") > 0, listed.encode());

        String edited = "{\"id\":\"" + id + "\",\"name\":\"Renamed\",\"chats\":[\"" + id + "\"],\"extra\":{\"kept\":[1.5]},"
                + "\"chat_metadata\":{\"dropped\":true}}";
        assertEquals(200, client.post("/api/groups/edit", edited).statusCode());
        for (String bad : new String[]{"{\"name\":\"no id\"}", "{\"id\":\"con\"}", "{\"id\":\"" + "x".repeat(300) + "\"}"}) {
            assertEquals(400, client.post("/api/groups/edit", bad).statusCode(), bad);
            assertEquals(400, client.post("/api/groups/delete", bad).statusCode(), bad);
        }
        all = client.post("/api/groups/all", null).bodyAsJsonArray();
        assertEquals(1, all.size(), "a refused edit writes nothing");
        assertEquals("Renamed", all.getJsonObject(0).getString("name"));
        assertEquals(new JsonObject("{\"kept\":[1.5]}"), all.getJsonObject(0).getJsonObject("extra"));

        assertEquals(200, client.post("/api/groups/delete", "{\"id\":\"" + id + "\"}").statusCode());
        assertEquals(new JsonArray(), client.post("/api/groups/all", null).bodyAsJsonArray());
    }
}
