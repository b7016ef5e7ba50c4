package tankard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.multipart.MultipartForm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.PgScratch;
import tankard.testing.TcpRelay;
import tankard.testing.TestImages;
import tankard.testing.TestServer;

import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Two Tankard nodes on one PostgreSQL database, each with its own data root (its caches), as two nodes behind a
 * proxy: what one node writes the other serves, also after it has read and cached the older state. Always on
 * PostgreSQL.
 */
class TwoNodesTest {
    private static final String ACCOUNTS = "enableUserAccounts: true\n";
    /** A poll interval no test waits for: only a notification, or a check after a reconnect, makes a change known. */
    private static final String NO_POLL = "3600";

    private final PgScratch database = PgScratch.create();
    private final Vertx vertx = Vertx.vertx();
    private final List<TestServer> servers = new ArrayList<>();
    private TestServer a;
    private TestServer b;

    @AfterEach
    void cleanUp() {
        for (int i = servers.size() - 1; i >= 0; i--) {
            servers.get(i).close();
        }
        database.close();
        vertx.close().await();
    }

    /** Node A, then node B on A's database; {@code bEnv} adds to B's environment. */
    private void start(String yaml, Map<String, String> bEnv) {
        a = TestServer.start(yaml, database.environment());
        servers.add(a);
        b = a.secondNode(bEnv);
        servers.add(b);
    }

    private void start(String yaml) {
        start(yaml, Map.of());
    }

    private static Map<String, String> checkEvery(String seconds) {
        return Map.of("SILLYTAVERN_TANKARD_POSTGRES_CACHECHECKSECONDS", seconds);
    }

    /** Asks again until the answer is as expected (another node's change arrives a moment later). */
    private static <T> void eventually(T expected, Supplier<T> actual, String what) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        T last = actual.get();
        while (!expected.equals(last) && System.nanoTime() < until) {
            Thread.sleep(25);
            last = actual.get();
        }
        assertEquals(expected, last, what);
    }

    private static JsonNode json(HttpResponse<Buffer> response) {
        assertEquals(200, response.statusCode(), response.bodyAsString());
        return JsJson.parse(response.body().getBytes());
    }

    // ---- data

    private static String chatSave(String... messages) {
        ArrayNode chat = JsJson.array();
        chat.addObject().put("user_name", "User").put("character_name", "Ren").putObject("chat_metadata");
        for (String message : messages) {
            chat.addObject().put("name", "User").put("is_user", true).put("mes", message);
        }
        ObjectNode body = JsJson.object().put("ch_name", "Ren").put("file_name", "c1").put("avatar_url", "Ren.png");
        body.set("chat", chat);
        return JsJson.compact(body);
    }

    private static List<String> chatMessages(TestServer.Client client) {
        List<String> messages = new ArrayList<>();
        json(client.post("/api/chats/get", "{\"ch_name\":\"Ren\",\"file_name\":\"c1\",\"avatar_url\":\"Ren.png\"}"))
                .forEach(line -> {
                    if (line.has("mes")) {
                        messages.add(line.get("mes").asText());
                    }
                });
        return messages;
    }

    @Test
    void aChatSavedOnOneNodeIsReadOnTheOther() throws InterruptedException {
        start(null);
        TestServer.Client onA = a.client();
        TestServer.Client onB = b.client();
        assertEquals(200, onA.post("/api/chats/save", chatSave("hello")).statusCode());
        assertEquals(List.of("hello"), chatMessages(onB));
        assertEquals(200, onA.post("/api/chats/save", chatSave("hello", "again")).statusCode());
        eventually(List.of("hello", "again"), () -> chatMessages(onB), "B reads the chat as A saved it last");
    }

    private static String description(TestServer.Client client, String avatar) {
        for (JsonNode character : json(client.post("/api/characters/all", "{}"))) {
            if (avatar.equals(character.path("avatar").asText())) {
                return character.path("description").asText();
            }
        }
        return null;
    }

    @Test
    void aCardEditedOnOneNodeIsListedSoOnTheOther() throws InterruptedException {
        start(null);
        TestServer.Client onA = a.client();
        TestServer.Client onB = b.client();
        assertEquals(200, onA.post("/api/characters/create", "{\"ch_name\":\"Ren\",\"description\":\"A ferryman.\"}")
                .statusCode());
        eventually("A ferryman.", () -> description(onB, "Ren.png"), "B lists the new card");
        assertEquals(200, onA.post("/api/characters/merge-attributes",
                "{\"avatar\":\"Ren.png\",\"description\":\"A retired ferryman.\",\"data\":{\"description\":"
                        + "\"A retired ferryman.\"}}").statusCode());
        eventually("A retired ferryman.", () -> description(onB, "Ren.png"), "B's card index has the edit");
    }

    /** Vector Storage's {@code webllm} source: the client sends each text's vector with it. */
    private static String vectorBody(String route, String text, float[] vector) {
        ObjectNode body = JsJson.object().put("source", "webllm").put("model", "test-model").put("collectionId", "c1");
        ArrayNode values = ((ObjectNode) body.putObject("embeddings")).putArray(text);
        for (float x : vector) {
            values.add(x);
        }
        if (route.equals("insert")) {
            body.putArray("items").addObject().put("hash", text.hashCode()).put("text", text).put("index", 0);
        } else {
            body.put("searchText", text).put("topK", 1).put("threshold", 0);
        }
        return JsJson.compact(body);
    }

    private static String nearest(TestServer.Client client, float[] vector) {
        JsonNode found = json(client.post("/api/vector/query", vectorBody("query", "question", vector)));
        return found.path("metadata").path(0).path("text").asText();
    }

    @Test
    void aVectorInsertedOnOneNodeIsFoundByAQueryOnTheOther() throws InterruptedException {
        start(null);
        TestServer.Client onA = a.client();
        TestServer.Client onB = b.client();
        float[] cat = {1, 0, 0, 0};
        float[] rain = {0, 0, 1, 0};
        assertEquals(200, onA.post("/api/vector/insert", vectorBody("insert", "the cat", cat)).statusCode());
        assertEquals("the cat", nearest(onB, rain), "B loads the index with its one item");
        assertEquals(200, onA.post("/api/vector/insert", vectorBody("insert", "the rain", rain)).statusCode());
        eventually("the rain", () -> nearest(onB, rain), "B's loaded index has A's new item");
    }

    private static String lorebook(TestServer.Client client) {
        return json(client.post("/api/worldinfo/get", "{\"name\":\"River lore\"}")).path("entries").path("0")
                .path("content").asText();
    }

    @Test
    void aLorebookSavedOnOneNodeIsServedByTheOther() throws InterruptedException {
        start(null);
        TestServer.Client onA = a.client();
        TestServer.Client onB = b.client();
        String book = "{\"name\":\"River lore\",\"data\":{\"entries\":{\"0\":{\"uid\":0,\"key\":[\"ferry\"],"
                + "\"content\":\"%s\"}}}}";
        assertEquals(200, onA.post("/api/worldinfo/edit", book.formatted("Silver only.")).statusCode());
        assertEquals("Silver only.", lorebook(onB));
        assertEquals(200, onA.post("/api/worldinfo/edit", book.formatted("Gold too.")).statusCode());
        eventually("Gold too.", () -> lorebook(onB), "B serves the lorebook as A saved it last");
    }

    private static String theme(TestServer.Client client) {
        JsonNode settings = JsJson.parse(json(client.post("/api/settings/get", "{}")).path("settings").asText("{}"));
        return settings.path("power_user").path("theme").asText();
    }

    @Test
    void settingsSavedOnOneNodeAreReadOnTheOther() throws InterruptedException {
        start(null);
        TestServer.Client onA = a.client();
        TestServer.Client onB = b.client();
        assertEquals(200, onA.post("/api/settings/save", "{\"power_user\":{\"theme\":\"Dark\"}}").statusCode());
        assertEquals("Dark", theme(onB));
        assertEquals(200, onA.post("/api/settings/save", "{\"power_user\":{\"theme\":\"Light\"}}").statusCode());
        eventually("Light", () -> theme(onB), "B reads the settings as A saved them last");
    }

    private static int secrets(TestServer.Client client) {
        return json(client.post("/api/secrets/read", null)).path("api_key_openai").size();
    }

    @Test
    void aSecretWrittenOnOneNodeIsSeenOnTheOther() throws InterruptedException {
        start(null);
        TestServer.Client onA = a.client();
        TestServer.Client onB = b.client();
        String write = "{\"key\":\"api_key_openai\",\"value\":\"%s\"}";
        assertEquals(200, onA.post("/api/secrets/write", write.formatted("sk-one")).statusCode());
        assertEquals(1, secrets(onB));
        assertEquals(200, onA.post("/api/secrets/write", write.formatted("sk-two")).statusCode());
        eventually(2, () -> secrets(onB), "B sees both of A's keys");
    }

    private static String uploadBackground(TestServer.Client client, int width, int height) {
        Buffer image = Buffer.buffer(TestImages.image("png", width, height));
        HttpResponse<Buffer> r = client.postForm("/api/backgrounds/upload",
                MultipartForm.create().binaryFileUpload("avatar", "sky.png", image, "image/png"));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        return r.bodyAsString();
    }

    private static String thumbnailSize(TestServer.Client client) {
        HttpResponse<Buffer> r = client.get("/thumbnail?type=bg&file=sky.png");
        assertEquals(200, r.statusCode());
        BufferedImage image = TestImages.decode(r.body().getBytes());
        return image.getWidth() + "x" + image.getHeight();
    }

    @Test
    void aThumbnailIsMadeAgainOnOneNodeWhenItsOriginalIsReplacedOnTheOther() throws InterruptedException {
        start(null);
        TestServer.Client onA = a.client();
        TestServer.Client onB = b.client();
        assertEquals("sky.png", uploadBackground(onA, 320, 180));
        assertEquals("160x90", thumbnailSize(onB), "B makes and keeps its thumbnail");
        assertEquals("sky.png", uploadBackground(onA, 200, 200));
        eventually("120x120", () -> thumbnailSize(onB), "B's thumbnail of the replaced image");
    }

    // ---- accounts: each node keeps a snapshot of them in memory

    private static TestServer.Client login(TestServer server, String handle, String password) {
        TestServer.Client client = server.client();
        HttpResponse<Buffer> r = client.post("/api/users/login",
                "{\"handle\":\"" + handle + "\",\"password\":\"" + password + "\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        return client;
    }

    private static String me(TestServer.Client client) {
        HttpResponse<Buffer> r = client.get("/api/users/me");
        return r.statusCode() == 200 ? r.bodyAsJsonObject().getString("handle") : "status " + r.statusCode();
    }

    /** Whether the node's login page lists the account (its list of accounts is a cache of each node's). */
    private static boolean lists(TestServer node, String handle) {
        HttpResponse<Buffer> r = node.client().post("/api/users/list", null);
        assertEquals(200, r.statusCode(), r.bodyAsString());
        return r.bodyAsJsonArray().stream().anyMatch(user -> handle.equals(((JsonObject) user).getString("handle")));
    }

    /** Bob, made on A and signed in on B (which knows him only from A's write). */
    private TestServer.Client bobOnB(TestServer.Client adminOnA) throws InterruptedException {
        assertEquals(200, adminOnA.post("/api/users/create",
                "{\"handle\":\"bob\",\"name\":\"Bob\",\"password\":\"pw\",\"admin\":false}").statusCode());
        eventually(200, () -> b.client().post("/api/users/login", "{\"handle\":\"bob\",\"password\":\"pw\"}")
                .statusCode(), "B knows the account A made");
        TestServer.Client bob = login(b, "bob", "pw");
        assertEquals("bob", me(bob));
        return bob;
    }

    @Test
    void anAccountMadeOrDisabledOnOneNodeIsSoOnTheOther() throws InterruptedException {
        start(ACCOUNTS, checkEvery(NO_POLL));
        TestServer.Client admin = login(a, "default-user", "");
        TestServer.Client bob = bobOnB(admin);
        assertEquals(204, admin.post("/api/users/disable", "{\"handle\":\"bob\"}").statusCode());
        eventually("status 403", () -> me(bob), "B refuses the account A disabled");
    }

    @Test
    void aChangeWhoseNotificationIsLostIsFoundByThePoll() throws InterruptedException {
        start(ACCOUNTS, checkEvery("1"));
        TestServer.Client bob = bobOnB(login(a, "default-user", ""));
        // what a lost notification leaves: the account and its version changed, and no node was told
        database.execute("UPDATE accounts SET record = replace(record, '\"enabled\":true', '\"enabled\":false')"
                + " WHERE handle = 'bob'");
        database.execute("UPDATE cache_versions SET version = version + 1 WHERE kind = 'accounts'");
        assertEquals("status 403", me(bob), "B looks the account up in the database at each request");
        eventually(false, () -> lists(b, "bob"), "B's poll finds the change for its list of accounts");
    }

    @Test
    void aNodeCutOffFromTheDatabaseListensAgainAndCatchesUpWithWhatItMissed() throws InterruptedException {
        try (TcpRelay relay = new TcpRelay(vertx, PgScratch.HOST, PgScratch.PORT)) {
            Map<String, String> bEnv = new HashMap<>(checkEvery(NO_POLL));
            bEnv.put("SILLYTAVERN_TANKARD_POSTGRES_PORT", String.valueOf(relay.port()));
            start(ACCOUNTS, bEnv);
            TestServer.Client admin = login(a, "default-user", "");
            TestServer.Client bob = bobOnB(admin);
            relay.down(); // B's connections, its listening one too, are cut and cannot come back yet
            assertEquals(204, admin.post("/api/users/disable", "{\"handle\":\"bob\"}").statusCode());
            relay.up();
            eventually(false, () -> lists(b, "bob"), "B checks what it holds once it listens again");
            assertEquals(204, admin.post("/api/users/enable", "{\"handle\":\"bob\"}").statusCode());
            eventually(true, () -> lists(b, "bob"), "and is notified of the next change");
        }
    }
}
