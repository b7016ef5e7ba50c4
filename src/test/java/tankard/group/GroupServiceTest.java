package tankard.group;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tankard.json.JsJson;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

class GroupServiceTest {
    @TempDir
    Path root;

    @Test
    void groupsCreatedInTheSameMillisecondGetTheirOwnIds() throws IOException {
        FileGroupStore store = new FileGroupStore(root);
        GroupService service = new GroupService(store, null, null);
        String first = service.create("u", JsJson.parse("{\"name\":\"A\"}"), 1_700_000_000_000L).get("id").textValue();
        String second = service.create("u", JsJson.parse("{\"name\":\"B\"}"), 1_700_000_000_000L).get("id").textValue();

        assertEquals("1700000000000", first);
        assertEquals("1700000000001", second);
        assertEquals("A", store.find("u", first).orElseThrow().get("name").textValue());
        assertEquals("B", store.find("u", second).orElseThrow().get("name").textValue());
    }
}
