package tankard.worldinfo;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WorldInfoHttpTest extends ServerTest {
    private Path worlds;

    @BeforeEach
    void start() {
        start(null);
        worlds = server.userDir().resolve("worlds");
    }

    @Test
    void getAnswersTheBookOrAnEmptyOne() throws IOException {
        Files.writeString(worlds.resolve("Eldoria.json"), "{\n    \"entries\": {\"0\": {\"uid\": 0, \"order\": 1e-7, \"gen\": 851234567890123400}}\n}");
        HttpResponse<Buffer> r = client.post("/api/worldinfo/get", "{\"name\":\"Eldoria\"}");
        assertEquals(200, r.statusCode());
        assertEquals("{\"entries\":{\"0\":{\"uid\":0,\"order\":1e-7,\"gen\":851234567890123400}}}", r.bodyAsString());
        assertEquals("{\"entries\":{}}", client.post("/api/worldinfo/get", "{\"name\":\"Missing\"}").bodyAsString());
    }

    @Test
    void badNamesAndBrokenFiles() throws IOException {
        Files.writeString(server.userDir().resolve("secrets.json"), "{}");
        Files.writeString(worlds.resolve("Broken.json"), "{");
        assertEquals(400, client.post("/api/worldinfo/get", "{}").statusCode());
        assertEquals(400, client.post("/api/worldinfo/get", "{\"name\":\"../secrets\"}").statusCode());
        assertEquals(500, client.post("/api/worldinfo/get", "{\"name\":\"Broken\"}").statusCode());
    }

    @Test
    void listNamesBooksByContentOrFileName() throws IOException {
        Files.writeString(worlds.resolve("b.json"), "{\"entries\":{},\"name\":\"Bee\",\"extensions\":{\"x\":1}}");
        Files.writeString(worlds.resolve("A.JSON"), "{\"entries\":{},\"name\":\"\"}");
        Files.writeString(worlds.resolve("c.json"), "not json");
        Files.writeString(worlds.resolve("d.txt"), "{}");
        HttpResponse<Buffer> r = client.post("/api/worldinfo/list", null);
        assertEquals(200, r.statusCode());
        assertEquals(new JsonArray()
                .add(new JsonObject().put("file_id", "A").put("name", "A").put("extensions", new JsonObject()))
                .add(new JsonObject().put("file_id", "b").put("name", "Bee").put("extensions", new JsonObject().put("x", 1)))
                .add(new JsonObject().put("file_id", "c").put("name", "c").put("extensions", new JsonObject())),
                r.bodyAsJsonArray());
    }
}
