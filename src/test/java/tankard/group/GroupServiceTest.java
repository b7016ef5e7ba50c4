package tankard.group;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tankard.json.JsJson;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

class GroupServiceTest {
    @TempDir
    Path root;

    @Test
    void groupsCreatedInTheSameMillisecondGetTheirOwnIds() throws IOException {
        FileGroupStore store = new FileGroupStore(root);
        GroupService service = new GroupService(store, null, null);
        String first = service.create("u", NewGroup.of(JsJson.parse("{\"name\":\"A\"}")), 1_700_000_000_000L).get("id").textValue();
        String second = service.create("u", NewGroup.of(JsJson.parse("{\"name\":\"B\"}")), 1_700_000_000_000L).get("id").textValue();

        assertEquals("1700000000000", first);
        assertEquals("1700000000001", second);
        assertEquals("A", store.find("u", first).orElseThrow().get("name").textValue());
        assertEquals("B", store.find("u", second).orElseThrow().get("name").textValue());
    }

    @Test
    void concurrentCreationsInOneMillisecondNeverShareAnId() throws Exception {
        FileGroupStore store = new FileGroupStore(root);
        GroupService service = new GroupService(store, null, null);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> ids = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                String user = "u" + (i % 2);
                ids.add(pool.submit(() -> service.create(user, NewGroup.of(JsJson.parse("{}")), 1_700_000_000_000L).get("id").textValue()));
            }
            Set<String> distinct = new HashSet<>();
            for (Future<String> id : ids) {
                distinct.add(id.get(30, TimeUnit.SECONDS));
            }
            assertEquals(20, distinct.size(), "each user's 20 groups have 20 ids (the two users share them)");
            assertEquals(20, store.list("u0").size());
            assertEquals(20, store.list("u1").size());
        } finally {
            pool.shutdownNow();
        }
    }
}
