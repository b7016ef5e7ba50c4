package tankard.secrets;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.store.DocumentStore;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;
import tankard.user.User;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SecretsHttpTest extends ServerTest {

    private JsonObject read(TestServer.Client client) {
        HttpResponse<Buffer> r = client.post("/api/secrets/read", null);
        assertEquals(200, r.statusCode());
        return r.bodyAsJsonObject();
    }

    private String write(TestServer.Client client, String key, String value) {
        HttpResponse<Buffer> r = client.post("/api/secrets/write",
                new JsonObject().put("key", key).put("value", value).encode());
        assertEquals(200, r.statusCode());
        return r.bodyAsJsonObject().getString("id");
    }

    @Test
    void readListsEveryKnownKeyAndWritesNothing() throws IOException {
        server = TestServer.start();
        JsonObject state = read(server.client());
        assertFalse(hasDocument("secrets.json"), "a read never creates files (ST writes {} here)");
        assertEquals(SecretKeys.ALL, List.copyOf(state.fieldNames()));
        assertEquals(62, state.size());
        assertTrue(state.stream().allMatch(e -> e.getValue() == null));
        assertFalse(state.containsKey("_migrated"));
    }

    @Test
    void writeMasksAndKeepsOneActiveSecret() throws IOException {
        server = TestServer.start();
        TestServer.Client client = server.client();
        String first = write(client, "api_key_openai", "sk-1234567890abcdef");
        String second = write(client, "api_key_openai", "short");
        write(client, "libre_url", "http://localhost:5000");
        assertTrue(first.matches("[0-9a-f-]{36}"));

        JsonArray openai = read(client).getJsonArray("api_key_openai");
        assertEquals(2, openai.size());
        assertEquals(new JsonObject().put("id", first).put("value", "*******def").put("label", "Unlabeled")
                .put("active", false), openai.getJsonObject(0));
        assertEquals(new JsonObject().put("id", second).put("value", "**********").put("label", "Unlabeled")
                .put("active", true), openai.getJsonObject(1));
        assertEquals("http://localhost:5000", read(client).getJsonArray("libre_url").getJsonObject(0).getString("value"));

        String file = document("secrets.json");
        assertTrue(file.startsWith("{\n    \"api_key_openai\": [\n        {\n            \"id\": \""), file);
        assertTrue(file.contains("\"value\": \"sk-1234567890abcdef\""));
    }

    @Test
    void rotateRenameAndDelete() throws IOException {
        server = TestServer.start();
        TestServer.Client client = server.client();
        String a = write(client, "api_key_claude", "aaaaaaaaaaaa1");
        String b = write(client, "api_key_claude", "bbbbbbbbbbbb2");

        assertEquals(204, client.post("/api/secrets/rotate", json("api_key_claude", a, null)).statusCode());
        JsonArray claude = read(client).getJsonArray("api_key_claude");
        assertTrue(claude.getJsonObject(0).getBoolean("active"));
        assertFalse(claude.getJsonObject(1).getBoolean("active"));
        assertEquals(204, client.post("/api/secrets/rotate", json("api_key_claude", "no-such-id", null)).statusCode());

        assertEquals(204, client.post("/api/secrets/rename", json("api_key_claude", b, "Work")).statusCode());
        assertEquals("Work", read(client).getJsonArray("api_key_claude").getJsonObject(1).getString("label"));

        // Deleting the active one makes the first remaining one active.
        assertEquals(204, client.post("/api/secrets/delete", json("api_key_claude", null, null)).statusCode());
        claude = read(client).getJsonArray("api_key_claude");
        assertEquals(1, claude.size());
        assertEquals(b, claude.getJsonObject(0).getString("id"));
        assertTrue(claude.getJsonObject(0).getBoolean("active"));

        assertEquals(204, client.post("/api/secrets/delete", json("api_key_claude", b, null)).statusCode());
        assertNull(read(client).getValue("api_key_claude"));
        assertFalse(document("secrets.json").contains("api_key_claude"));
    }

    @Test
    void badRequestsAre400() {
        server = TestServer.start();
        TestServer.Client client = server.client();
        assertEquals(400, client.post("/api/secrets/write", "{\"key\":\"api_key_openai\"}").statusCode());
        assertEquals(400, client.post("/api/secrets/write", "{\"key\":\"api_key_openai\",\"value\":5}").statusCode());
        assertEquals(400, client.post("/api/secrets/write", "{\"value\":\"x\"}").statusCode());
        assertEquals(400, client.post("/api/secrets/write", "{\"key\":").statusCode());
        assertEquals(400, client.post("/api/secrets/delete", "{}").statusCode());
        assertEquals(400, client.post("/api/secrets/rotate", "{\"key\":\"api_key_openai\"}").statusCode());
        assertEquals(400, client.post("/api/secrets/rename", "{\"key\":\"k\",\"id\":\"i\"}").statusCode());
        assertEquals(400, client.post("/api/secrets/find", "{}").statusCode());
        assertEquals(200, client.post("/api/secrets/write", "{\"key\":\"api_key_openai\",\"value\":\"\"}").statusCode());
    }

    @Test
    void findAndViewNeedKeyExposure() {
        server = TestServer.start();
        TestServer.Client client = server.client();
        write(client, "api_key_openai", "sk-secret-value");
        write(client, "deeplx_url", "http://127.0.0.1:1188");
        assertEquals(403, client.post("/api/secrets/find", "{\"key\":\"api_key_openai\"}").statusCode());
        assertEquals(403, client.post("/api/secrets/view", null).statusCode());
        HttpResponse<Buffer> url = client.post("/api/secrets/find", "{\"key\":\"deeplx_url\"}");
        assertEquals("http://127.0.0.1:1188", url.bodyAsJsonObject().getString("value"));
        assertEquals(404, client.post("/api/secrets/find", "{\"key\":\"libre_url\"}").statusCode());
        assertEquals(new JsonObject().put("allowKeysExposure", false),
                client.post("/api/secrets/settings", null).bodyAsJsonObject());
    }

    @Test
    void exposureShowsClearValues() {
        server = TestServer.start("allowKeysExposure: true\n");
        TestServer.Client client = server.client();
        String old = write(client, "api_key_openai", "sk-old-value-1");
        write(client, "api_key_openai", "sk-new-value-2");
        assertEquals("sk-new-value-2", read(client).getJsonArray("api_key_openai").getJsonObject(1).getString("value"));
        assertEquals("sk-new-value-2", client.post("/api/secrets/find", "{\"key\":\"api_key_openai\"}")
                .bodyAsJsonObject().getString("value"));
        assertEquals("sk-old-value-1", client.post("/api/secrets/find",
                "{\"key\":\"api_key_openai\",\"id\":\"" + old + "\"}").bodyAsJsonObject().getString("value"));
        assertEquals(new JsonObject().put("api_key_openai", "sk-new-value-2"),
                client.post("/api/secrets/view", null).bodyAsJsonObject());
    }

    @Test
    void legacyFlatFileIsMigratedWithABackup() throws IOException {
        server = TestServer.start();
        String legacy = "{\"api_key_openai\":\"sk-legacy-123456\",\"blank\":\"  \",\"custom_ext\":\"v\"}";
        put("secrets.json", legacy.getBytes(StandardCharsets.UTF_8));
        JsonObject state = read(server.client());
        JsonObject openai = state.getJsonArray("api_key_openai").getJsonObject(0);
        assertEquals("*******456", openai.getString("value"));
        assertEquals("api_key_openai", openai.getString("label"));
        assertTrue(openai.getBoolean("active"));

        JsonObject stored = new JsonObject(document("secrets.json"));
        assertEquals(List.of("api_key_openai", "custom_ext", "_migrated"), List.copyOf(stored.fieldNames()));
        assertEquals(new JsonArray(), stored.getJsonArray("_migrated"));
        List<String> copies = server.documents().list(User.DEFAULT_HANDLE, DocumentStore.Folder.BACKUPS).stream()
                .map(DocumentStore.Entry::name).filter(name -> name.matches("secrets_migration_\\d+\\.json")).toList();
        assertEquals(1, copies.size());
        assertEquals(legacy, document("backups/" + copies.get(0)));
    }

    @Test
    void corruptFileReadsAsEmptyAsInStAndIsLeftAlone() throws IOException {
        server = TestServer.start();
        put("secrets.json", "{oops".getBytes(StandardCharsets.UTF_8));
        TestServer.Client client = server.client();
        HttpResponse<Buffer> read = client.post("/api/secrets/read", null);
        assertEquals(200, read.statusCode());
        assertEquals(new JsonObject(), read.bodyAsJsonObject());
        assertEquals(500, client.post("/api/secrets/write", "{\"key\":\"api_key_openai\",\"value\":\"x\"}")
                .statusCode());
        assertEquals("{oops", document("secrets.json"));
    }

    /** A secrets.json laid out as ST 1.18.0 writes it (JSON.stringify with 4 spaces, no final newline). */
    private static final String ST_FILE = """
            {
                "api_key_openai": [
                    {
                        "id": "3f2a6c1e-0b7d-4c55-9a41-2e8f0d6b7a10",
                        "value": "sk-ünïcode-🍺-\\"quoted\\"-0001",
                        "label": "Personal",
                        "active": true
                    },
                    {
                        "id": "9d0e4b7a-5c21-4f3e-8b6d-71a2c3e4f5a6",
                        "value": "sk-work-key-0002",
                        "label": "Work",
                        "active": false,
                        "note": "kept by Tankard"
                    }
                ],
                "api_key_custom_extension": [
                    {
                        "id": "c0ffee00-1111-4222-8333-444455556666",
                        "value": "",
                        "label": null,
                        "active": true
                    }
                ],
                "_migrated": []
            }""";

    @Test
    void stWrittenFileIsReadAndRewrittenWithoutLoss() throws IOException {
        TestServer.Client client = start(null);
        put("secrets.json", ST_FILE.getBytes(StandardCharsets.UTF_8));

        JsonArray openai = read(client).getJsonArray("api_key_openai");
        assertEquals(new JsonObject().put("id", "3f2a6c1e-0b7d-4c55-9a41-2e8f0d6b7a10").put("value", "*******001")
                .put("label", "Personal").put("active", true), openai.getJsonObject(0));
        assertEquals(ST_FILE, document("secrets.json"), "reading changes nothing");

        // Rotating flips the two flags and nothing else, byte for byte.
        assertEquals(204, client.post("/api/secrets/rotate",
                json("api_key_openai", "9d0e4b7a-5c21-4f3e-8b6d-71a2c3e4f5a6", null)).statusCode());
        String rotated = ST_FILE.replace("\"Personal\",\n            \"active\": true", "\"Personal\",\n            \"active\": false")
                .replace("\"active\": false,\n            \"note\"", "\"active\": true,\n            \"note\"");
        assertEquals(rotated, document("secrets.json"));

        // A new key goes last, after the migration marker, as JavaScript appends object members.
        String id = write(client, "api_key_claude", "sk-ant-0003");
        String added = rotated.substring(0, rotated.length() - 2) + ",\n    \"api_key_claude\": [\n        {\n"
                + "            \"id\": \"" + id + "\",\n            \"value\": \"sk-ant-0003\",\n"
                + "            \"label\": \"Unlabeled\",\n            \"active\": true\n        }\n    ]\n}";
        assertEquals(added, document("secrets.json"));

        // Deleting it gives back the rotated file exactly.
        assertEquals(204, client.post("/api/secrets/delete", json("api_key_claude", id, null)).statusCode());
        assertEquals(rotated, document("secrets.json"));
    }

    @Test
    void findAndViewFollowStsOrderOfChecks() throws IOException {
        TestServer.Client client = start("allowKeysExposure: true\n");
        assertEquals(200, client.post("/api/secrets/view", null).statusCode());
        assertEquals(new JsonObject(), client.post("/api/secrets/view", null).bodyAsJsonObject());
        put("secrets.json", ST_FILE.getBytes(StandardCharsets.UTF_8));
        // Unknown keys are not in the state map: 404 even though the file has them.
        assertEquals(404, client.post("/api/secrets/find", "{\"key\":\"api_key_custom_extension\"}").statusCode());
        assertEquals(404, client.post("/api/secrets/find", "{\"key\":\"api_key_claude\"}").statusCode());
        // An id that matches nothing finds the empty value, as ST.
        assertEquals(new JsonObject().put("value", ""), client.post("/api/secrets/find",
                "{\"key\":\"api_key_openai\",\"id\":\"nope\"}").bodyAsJsonObject());
        // An empty id means the active one.
        assertEquals("sk-ünïcode-🍺-\"quoted\"-0001", client.post("/api/secrets/find",
                "{\"key\":\"api_key_openai\",\"id\":\"\"}").bodyAsJsonObject().getString("value"));
        assertEquals(new JsonObject().put("api_key_openai", "sk-ünïcode-🍺-\"quoted\"-0001")
                .put("api_key_custom_extension", ""), client.post("/api/secrets/view", null).bodyAsJsonObject());
        assertEquals(400, client.post("/api/secrets/find", "{\"key\":\"\"}").statusCode());
    }

    @Test
    void unknownKeysAreStoredButNotListedAsSt() throws IOException {
        TestServer.Client client = start(null);
        HttpResponse<Buffer> written = client.post("/api/secrets/write",
                "{\"key\":\"custom_thing\",\"value\":\"v1234567890xyz\",\"label\":null}");
        assertEquals(200, written.statusCode());
        String id = written.bodyAsJsonObject().getString("id");
        // What ST 1.18.0 writes for the same request, byte for byte.
        assertEquals("{\n    \"custom_thing\": [\n        {\n            \"id\": \"" + id + "\",\n"
                + "            \"value\": \"v1234567890xyz\",\n            \"label\": null,\n"
                + "            \"active\": true\n        }\n    ]\n}", document("secrets.json"));
        assertFalse(read(client).containsKey("custom_thing"));
        assertEquals(204, client.post("/api/secrets/rotate", json("nope", "x", null)).statusCode());
        assertEquals(403, client.post("/api/secrets/find", "{\"key\":\"custom_thing\"}").statusCode());
    }

    @Test
    void exposureDisabledRefusesBeforeLookingForTheKey() {
        TestServer.Client client = start(null);
        assertEquals(403, client.post("/api/secrets/find", "{\"key\":\"api_key_nothing_here\"}").statusCode());
        assertEquals(404, client.post("/api/secrets/find", "{\"key\":\"lingva_url\"}").statusCode());
        assertFalse(hasDocument("secrets.json"));
    }

    @Test
    void backendsReadTheActiveValueThroughTheJavaApi() throws IOException {
        TestServer.Client client = start(null);
        SecretStore store = new SecretStore(server.documents(), false);
        String user = server.userDir().getFileName().toString();
        assertEquals("", store.read(user, SecretKeys.OPENAI));
        assertFalse(hasDocument("secrets.json"), "looking a key up creates nothing");
        put("secrets.json", ST_FILE.getBytes(StandardCharsets.UTF_8));
        assertEquals("sk-ünïcode-🍺-\"quoted\"-0001", store.read(user, SecretKeys.OPENAI));
        assertEquals("sk-work-key-0002", store.read(user, SecretKeys.OPENAI, "9d0e4b7a-5c21-4f3e-8b6d-71a2c3e4f5a6"));
        assertEquals("", store.read(user, SecretKeys.CLAUDE));
        write(client, SecretKeys.CLAUDE, "sk-ant-new");
        assertEquals("sk-ant-new", store.read(user, SecretKeys.CLAUDE));
    }

    @Test
    void deleteWithoutIdRemovesTheActiveOneAndUnknownIdsChangeNothing() throws IOException {
        TestServer.Client client = start(null);
        put("secrets.json", ST_FILE.getBytes(StandardCharsets.UTF_8));
        assertEquals(204, client.post("/api/secrets/delete", json("api_key_openai", "no-such-id", null)).statusCode());
        assertEquals(ST_FILE, document("secrets.json"));
        assertEquals(204, client.post("/api/secrets/rename", json("api_key_openai", "no-such-id", "X")).statusCode());
        assertEquals(ST_FILE, document("secrets.json"));
        assertEquals(204, client.post("/api/secrets/delete", "{\"key\":\"api_key_openai\",\"id\":\"\"}").statusCode());
        JsonArray openai = read(client).getJsonArray("api_key_openai");
        assertEquals(1, openai.size());
        assertEquals("Work", openai.getJsonObject(0).getString("label"));
        assertTrue(openai.getJsonObject(0).getBoolean("active"), "the first left becomes active");
    }

    private static String json(String key, String id, String label) {
        JsonObject body = new JsonObject().put("key", key);
        if (id != null) {
            body.put("id", id);
        }
        if (label != null) {
            body.put("label", label);
        }
        return body.encode();
    }
}
