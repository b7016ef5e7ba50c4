package tankard.settings;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.store.DocumentStore;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;
import tankard.user.User;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SettingsHttpTest extends ServerTest {
    private static final String BROWSER_SETTINGS = "{\"firstRun\":false,\"amount_gen\":80,\"temp\":0.1,\"tiny\":1e-7,"
            + "\"gen_id\":851234567890123400,\"big\":9007199254740993,\"neg\":-0.5,\"text\":\"é \\\"q\\\" \\u0001 </b>\","
            + "\"empty\":{},\"list\":[],\"nested\":{\"a\":[1,{\"b\":null}],\"t\":true}}";
    private static final String BROWSER_SETTINGS_PRETTY = """
            {
                "firstRun": false,
                "amount_gen": 80,
                "temp": 0.1,
                "tiny": 1e-7,
                "gen_id": 851234567890123400,
                "big": 9007199254740993,
                "neg": -0.5,
                "text": "é \\"q\\" \\u0001 </b>",
                "empty": {},
                "list": [],
                "nested": {
                    "a": [
                        1,
                        {
                            "b": null
                        }
                    ],
                    "t": true
                }
            }""";


    private void write(String relative, String text) {
        put(relative, text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void getAnswersRawSettingsAndPresetListsInStOrder() throws IOException {
        server = TestServer.start();
        String settings = "{\n    \"firstRun\": true, \"x\": 1.50\n}";
        write("settings.json", settings);
        write("KoboldAI Settings/b.json", "{\"temp\": 1.0}");
        write("KoboldAI Settings/a b.json", "{\"temp\":2}");
        write("KoboldAI Settings/A.json", "[]");
        write("KoboldAI Settings/a-b.json", "{}");
        write("KoboldAI Settings/bad.json", "{nope");
        write("KoboldAI Settings/bom.json", "\uFEFF{}");
        write("KoboldAI Settings/notes.txt", "{}");
        write("KoboldAI Settings/upper.JSON", "{}");
        write("KoboldAI Settings/.json", "{}");
        write("themes/b.json", "{\"name\":\"b\"}");
        write("themes/C.json", "{\"name\":\"C\"}");
        write("themes/a.json", "{\"name\":\"a\"}");
        write("themes/broken.json", "{");
        write("worlds/zeta.json", "{}");
        write("worlds/Alpha.JSON", "{}");
        write("worlds/beta.json", "not even json");
        write("worlds/readme.md", "");

        HttpResponse<Buffer> r = server.client().post("/api/settings/get", "{}");
        assertEquals(200, r.statusCode());
        JsonObject body = r.bodyAsJsonObject();
        assertEquals(settings, body.getString("settings"));
        assertEquals(List.of("a b", "a-b", "A", "b"), body.getJsonArray("koboldai_setting_names").getList());
        assertEquals(List.of("{\"temp\":2}", "{}", "[]", "{\"temp\": 1.0}"), body.getJsonArray("koboldai_settings").getList());
        assertEquals(List.of("C", "a", "b"), body.getJsonArray("themes").stream()
                .map(t -> ((JsonObject) t).getString("name")).toList());
        assertEquals(List.of("Alpha", "beta", "zeta"), body.getJsonArray("world_names").getList());
        for (String key : List.of("novelai_settings", "novelai_setting_names", "openai_settings", "openai_setting_names",
                "textgenerationwebui_presets", "textgenerationwebui_preset_names", "movingUIPresets",
                "quickReplyPresets", "instruct", "context", "sysprompt", "reasoning")) {
            assertEquals(new JsonArray(), body.getJsonArray(key), key);
        }
        assertEquals(true, body.getBoolean("enable_extensions"));
        assertEquals(true, body.getBoolean("enable_extensions_auto_update"));
        assertEquals(false, body.getBoolean("enable_accounts"));
        JsonObject compression = body.getJsonObject("request_compression");
        assertEquals(false, compression.getBoolean("enabled"));
        assertEquals(262144L, compression.getLong("minPayloadSize"));
        assertTrue(compression.containsKey("maxPayloadSize") && compression.containsKey("timeout"));
    }

    @Test
    void getReportsConfigFlags() throws IOException {
        server = TestServer.start("extensions:\n  enabled: false\n  autoUpdate: false\n"
                + "performance:\n  requestCompression:\n    enabled: true\n");
        write("settings.json", "{}");
        JsonObject body = server.client().post("/api/settings/get", null).bodyAsJsonObject();
        assertEquals(false, body.getBoolean("enable_extensions"));
        assertEquals(false, body.getBoolean("enable_extensions_auto_update"));
        assertEquals(true, body.getJsonObject("request_compression").getBoolean("enabled"));
    }

    @Test
    void getWithoutSettingsFileIs500Json() {
        server = TestServer.start();
        HttpResponse<Buffer> r = server.client().post("/api/settings/get", "{}");
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsJsonObject().containsKey("error"));
    }

    @Test
    void saveWritesPrettyJsonKeepingNumberLexemes() throws IOException {
        server = TestServer.start();
        HttpResponse<Buffer> r = server.client().post("/api/settings/save", BROWSER_SETTINGS);
        assertEquals(200, r.statusCode());
        assertEquals("{\"result\":\"ok\"}", r.bodyAsString());
        assertEquals(BROWSER_SETTINGS_PRETTY, document("settings.json"));
        String readBack = server.client().post("/api/settings/get", "{}").bodyAsJsonObject().getString("settings");
        assertEquals(BROWSER_SETTINGS_PRETTY, readBack);
    }

    @Test
    void saveAcceptsGzipBodies() throws IOException {
        server = TestServer.start();
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
            gzip.write(BROWSER_SETTINGS.getBytes(StandardCharsets.UTF_8));
        }
        TestServer.Client client = server.client();
        var request = client.request(HttpMethod.POST, "/api/settings/save")
                .putHeader("Content-Type", "application/json")
                .putHeader("Content-Encoding", "gzip");
        HttpResponse<Buffer> r = TestServer.Client.send(request, Buffer.buffer(zipped.toByteArray()));
        assertEquals(200, r.statusCode());
        assertEquals(BROWSER_SETTINGS_PRETTY, document("settings.json"));
    }

    @Test
    void badSaveBodiesAre400AndChangeNothing() throws IOException {
        server = TestServer.start();
        write("settings.json", "{\"keep\": true}");
        TestServer.Client client = server.client();
        assertEquals(400, client.post("/api/settings/save", "{\"a\":").statusCode());
        assertEquals(400, client.post("/api/settings/save", "[1,2]").statusCode());
        assertEquals(400, client.post("/api/settings/save", null).statusCode());
        assertEquals(400, client.post("/api/settings/save", "{} {}").statusCode());
        assertEquals("{\"keep\": true}", document("settings.json"));
        assertEquals(List.of(), backups());
    }

    @Test
    void saveSnapshotsAtOnceThenThrottlesAndSkipsDuplicates() throws IOException {
        server = TestServer.start();
        TestServer.Client client = server.client();
        client.post("/api/settings/save", "{\"v\":1}");
        List<String> first = backups();
        assertEquals(1, first.size());
        assertTrue(first.get(0).matches("settings_default-user_\\d{8}-\\d{6}\\.json"));
        assertEquals("{\n    \"v\": 1\n}", document("backups/" + first.get(0)));
        client.post("/api/settings/save", "{\"v\":2}");
        assertEquals(first, backups(), "a second save within 10 minutes makes no snapshot right away");
    }

    @Test
    void automaticSnapshotIsSkippedWhenIdenticalToTheNewest() throws IOException {
        server = TestServer.start();
        write("backups/settings_default-user_20200101-000000.json", "{\n    \"v\": 1\n}");
        server.client().post("/api/settings/save", "{\"v\":1}");
        assertEquals(1, backups().size());
    }

    @Test
    void snapshotsAreListedLoadedMadeAndRestored() throws IOException {
        server = TestServer.start();
        write("settings.json", "{\"now\":1}");
        write("backups/settings_default-user_20200101-000000.json", "{\"old\":1}");
        write("backups/settings_other_20200101-000000.json", "{}");
        write("backups/chat_x_20200101-000000.jsonl", "");
        TestServer.Client client = server.client();

        JsonArray list = client.post("/api/settings/get-snapshots", null).bodyAsJsonArray();
        assertEquals(1, list.size());
        JsonObject snapshot = list.getJsonObject(0);
        assertEquals("settings_default-user_20200101-000000.json", snapshot.getString("name"));
        assertEquals(9, snapshot.getLong("size"));
        assertTrue(snapshot.getLong("date") > 0);

        HttpResponse<Buffer> load = client.post("/api/settings/load-snapshot",
                "{\"name\":\"settings_default-user_20200101-000000.json\"}");
        assertEquals(200, load.statusCode());
        assertEquals("{\"old\":1}", load.bodyAsString());

        assertEquals(204, client.post("/api/settings/make-snapshot", null).statusCode());
        assertEquals(2, backups().stream().filter(name -> name.startsWith("settings_default-user_")).count());

        assertEquals(204, client.post("/api/settings/restore-snapshot",
                "{\"name\":\"settings_default-user_20200101-000000.json\"}").statusCode());
        assertEquals("{\"old\":1}", document("settings.json"));
    }

    @Test
    void makeSnapshotIsNotDeduplicated() throws IOException {
        server = TestServer.start();
        write("settings.json", "{\"same\":1}");
        write("backups/settings_default-user_20200101-000000.json", "{\"same\":1}");
        server.client().post("/api/settings/make-snapshot", null);
        assertEquals(2, backups().size());
    }

    @Test
    void snapshotNamesAreValidated() throws IOException {
        server = TestServer.start();
        write("settings.json", "{\"now\":1}");
        write("secret.json", "{\"not\":\"a snapshot\"}");
        TestServer.Client client = server.client();
        for (String path : List.of("/api/settings/load-snapshot", "/api/settings/restore-snapshot")) {
            HttpResponse<Buffer> wrongPrefix = client.post(path, "{\"name\":\"secrets.json\"}");
            assertEquals(400, wrongPrefix.statusCode());
            assertEquals("Invalid snapshot name", wrongPrefix.bodyAsJsonObject().getString("error"));
            assertEquals(400, client.post(path, "{\"name\":\"../secret.json\"}").statusCode());
            assertEquals(400, client.post(path, "{\"name\":\"settings_default-user_/../../secret.json\"}").statusCode());
            assertEquals(400, client.post(path, "{\"name\":\"settings_default-user_..\\\\..\\\\secret.json\"}").statusCode());
            HttpResponse<Buffer> missing = client.post(path, "{}");
            assertEquals(400, missing.statusCode());
            assertEquals("Invalid snapshot name", missing.bodyAsJsonObject().getString("error"));
            assertEquals(400, client.post(path, "{\"name\":[\"settings_default-user_x.json\"]}").statusCode());
            assertEquals(400, client.post(path, "{\"name\":\"settings_default-user_\\u0000.json\"}").statusCode());
            assertEquals(404, client.post(path, "{\"name\":\"settings_default-user_missing.json\"}").statusCode());
        }
        assertEquals("{\"now\":1}", document("settings.json"));
    }

    @Test
    void retentionKeepsTheNewestSnapshotsOfTheUser() throws IOException {
        server = TestServer.start("backups:\n  common:\n    numberOfBackups: 2\n");
        write("settings.json", "{\"now\":1}");
        for (int i = 1; i <= 3; i++) {
            String name = "backups/settings_default-user_2020010" + i + "-000000.json";
            write(name, "{\"old\":" + i + "}");
            server.files().setModified(name, 1_000_000L * i);
        }
        write("backups/chat_default-user_20200101-000000.jsonl", "");
        server.client().post("/api/settings/make-snapshot", null);
        List<String> left = backups();
        assertEquals(3, left.size(), left.toString());
        assertTrue(left.contains("chat_default-user_20200101-000000.jsonl"));
        assertTrue(left.contains("settings_default-user_20200103-000000.json"));
        assertFalse(left.contains("settings_default-user_20200101-000000.json"));
    }

    /** The names in the backups folder, sorted: settings snapshots and chat backups, wherever each is kept. */
    private List<String> backups() {
        Set<String> names = new TreeSet<>(server.files().backupNames(""));
        server.documents().list(User.DEFAULT_HANDLE, DocumentStore.Folder.BACKUPS).forEach(entry -> names.add(entry.name()));
        return List.copyOf(names);
    }
}
