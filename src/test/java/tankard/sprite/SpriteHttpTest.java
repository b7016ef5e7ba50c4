package tankard.sprite;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SpriteHttpTest extends ServerTest {
    @BeforeEach
    void start() {
        start(null);
    }

    private Path sprite(String relative) throws IOException {
        Path file = put("characters/" + relative, new byte[] {1});
        server.files().setModified("characters/" + relative, Instant.parse("2025-03-07T08:05:02.042Z").toEpochMilli());
        return file;
    }

    private HttpResponse<Buffer> get(String name) {
        return client.get("/api/sprites/get?name=" + URLEncoder.encode(name, StandardCharsets.UTF_8));
    }

    private static JsonObject entry(String label, String path) {
        return new JsonObject().put("label", label).put("path", path);
    }

    @Test
    void listsImagesWithLabelsAndTimestampedPaths() throws IOException {
        sprite("Bob/joy.png");
        sprite("Bob/Joy-2.PNG");
        sprite("Bob/anger.expressive.webp");
        sprite("Bob/notes.txt");
        sprite("Bob/outfit/joy.gif");
        HttpResponse<Buffer> r = get("Bob");
        assertEquals(200, r.statusCode());
        assertEquals(new JsonArray()
                .add(entry("joy", "/characters/Bob/Joy-2.PNG?t=20250307080502"))
                .add(entry("anger", "/characters/Bob/anger.expressive.webp?t=20250307080502"))
                .add(entry("joy", "/characters/Bob/joy.png?t=20250307080502")), r.bodyAsJsonArray());
        assertEquals(new JsonArray().add(entry("joy", "/characters/Bob/outfit/joy.gif?t=20250307080502")),
                get("Bob/outfit").bodyAsJsonArray());
    }

    @Test
    void missingFolderIsEmpty() {
        HttpResponse<Buffer> r = get("Nobody");
        assertEquals(200, r.statusCode());
        assertEquals(new JsonArray(), r.bodyAsJsonArray());
    }

    @Test
    void traversalNamesAre400() throws IOException {
        sprite("secret.png");
        for (String name : new String[] {"..", "../x", "Bob/..", "a/b/c", "con", "/Bob"}) {
            assertEquals(400, get(name).statusCode(), name);
        }
        // Like ST, a missing name is the folder "undefined", which does not exist.
        assertEquals(new JsonArray(), client.get("/api/sprites/get").bodyAsJsonArray());
    }
}
