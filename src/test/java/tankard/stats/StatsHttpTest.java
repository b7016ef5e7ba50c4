package tankard.stats;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatsHttpTest extends ServerTest {
    private Path stats;

    @BeforeEach
    void start() {
        start(null);
        stats = server.userDir().resolve("stats.json");
    }

    @Test
    void getIsEmptyWithoutAFile() {
        HttpResponse<Buffer> r = client.post("/api/stats/get", "{}");
        assertEquals(200, r.statusCode());
        assertEquals("{}", r.bodyAsString());
    }

    @Test
    void updateStoresCompactJsonWithATimestamp() throws IOException {
        long before = System.currentTimeMillis();
        HttpResponse<Buffer> r = client.post("/api/stats/update",
                "{\"a.png\":{\"total_gen_time\":1500.5,\"user_word_count\":3,\"date_first_chat\":253402300799999},\"timestamp\":1}");
        assertEquals(200, r.statusCode());
        String file = Files.readString(stats);
        assertTrue(file.startsWith("{\"a.png\":{\"total_gen_time\":1500.5,\"user_word_count\":3,\"date_first_chat\":253402300799999},\"timestamp\":"), file);
        JsonObject read = client.post("/api/stats/get", "{}").bodyAsJsonObject();
        assertTrue(read.getLong("timestamp") >= before);
        assertEquals(3, read.getJsonObject("a.png").getInteger("user_word_count"));
    }

    @Test
    void badUpdatesAre400() throws IOException {
        Files.writeString(stats, "{\"timestamp\":1}");
        assertEquals(400, client.post("/api/stats/update", "[1]").statusCode());
        assertEquals(400, client.post("/api/stats/update", "{\"a\":").statusCode());
        assertEquals("{\"timestamp\":1}", Files.readString(stats));
    }
}
