package tankard.theme;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.StNames;
import tankard.testing.UserDocuments;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UiPresetHttpTest extends ServerTest {
    @BeforeEach
    void start() {
        start(null);
    }

    @Test
    void themesAreSavedPrettyAndDeleted() throws IOException {
        HttpResponse<Buffer> r = client.post("/api/themes/save", "{\"name\":\"Dark: Blue\",\"blur_strength\":10,\"font_scale\":1.05}");
        assertEquals(200, r.statusCode());
        assertEquals("OK", r.bodyAsString());
        assertEquals("{\n    \"name\": \"Dark: Blue\",\n    \"blur_strength\": 10,\n    \"font_scale\": 1.05\n}",
                document("themes/Dark Blue.json"));
        assertEquals(404, client.post("/api/themes/delete", "{\"name\":\"Nope\"}").statusCode());
        assertEquals(200, client.post("/api/themes/delete", "{\"name\":\"Dark: Blue\"}").statusCode());
        assertFalse(hasDocument("themes/Dark Blue.json"));
    }

    @Test
    void movingUiAndQuickReplySetsAreSaved() throws IOException {
        assertEquals(200, client.post("/api/moving-ui/save", "{\"name\":\"Wide\",\"movingUIState\":{\"sheld\":{\"top\":0}}}").statusCode());
        assertTrue(document("movingUI/Wide.json").contains("\"movingUIState\": {\n        \"sheld\": {"));
        assertEquals(200, client.post("/api/quick-replies/save", "{\"version\":2,\"name\":\"Default\",\"qrList\":[]}").statusCode());
        assertEquals("{\n    \"version\": 2,\n    \"name\": \"Default\",\n    \"qrList\": []\n}",
                document("QuickReplies/Default.json"));
        assertEquals(200, client.post("/api/quick-replies/delete", "{\"name\":\"Default\"}").statusCode());
        assertFalse(hasDocument("QuickReplies/Default.json"));
        assertEquals(200, client.post("/api/quick-replies/delete", "{\"name\":\"Never existed\"}").statusCode());
    }

    @Test
    void namesAreCleanedAsStCleansThemAndNothingIsWrittenOutsideTheFolder() throws IOException {
        String[][] kinds = {{"themes", "themes"}, {"moving-ui", "movingUI"}, {"quick-replies", "QuickReplies"}};
        Set<Path> before = UserDocuments.all(server);
        Set<Path> written = new HashSet<>();
        for (String[] kind : kinds) {
            for (StNames.Case c : StNames.CASES) {
                HttpResponse<Buffer> r = client.post("/api/" + kind[0] + "/save", "{\"name\":" + StNames.json(c.name()) + "}");
                if (c.withJson() == null) {
                    assertEquals(400, r.statusCode(), kind[0] + " " + c.name());
                    assertTrue(json(r).path("error").isTextual(), r.bodyAsString());
                    continue;
                }
                assertEquals(200, r.statusCode(), kind[0] + " " + c.name());
                Path file = user(kind[1]).resolve(c.withJson());
                assertTrue(document(kind[1] + "/" + c.withJson()).startsWith("{\n    \"name\": "), c.name());
                written.add(file);
            }
        }
        StNames.assertOnlyAdded(server, before, written);
        for (String kind : new String[] {"themes", "quick-replies"}) {
            for (StNames.Case c : StNames.CASES) {
                int status = client.post("/api/" + kind + "/delete", "{\"name\":" + StNames.json(c.name()) + "}").statusCode();
                assertEquals(c.withJson() == null ? 400 : 200, status, kind + " " + c.name());
            }
        }
        written.removeIf(file -> !file.startsWith(user("movingUI")));
        StNames.assertOnlyAdded(server, before, written);
    }

    @Test
    void missingNamesAndBodiesAre400() {
        for (String path : new String[] {"/api/themes/save", "/api/moving-ui/save", "/api/quick-replies/save",
                "/api/themes/delete", "/api/quick-replies/delete"}) {
            for (String body : new String[] {"{}", "{\"name\":\"\"}", "{\"name\":null}", "[1]", "{\"name\":"}) {
                assertEquals(400, client.post(path, body).statusCode(), path + " " + body);
            }
        }
    }
}
