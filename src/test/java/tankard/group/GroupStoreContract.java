package tankard.group;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import tankard.core.Refusal;
import tankard.json.JsJson;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every group store does, run on each of them by a subclass. */
abstract class GroupStoreContract {
    /** The store under test, made anew over the same place on each call (as a restart would). */
    abstract GroupStore open();

    static ObjectNode group(String id, String name) {
        ObjectNode group = JsJson.object();
        group.put("id", id).put("name", name).putArray("members").add("a.png");
        group.putArray("chats").add(id + "-chat");
        group.put("chat_id", id + "-chat").put("fav", false).put("weight", 1.5);
        return group;
    }

    @Test
    void aSavedGroupIsFoundAndListedAsSavedAfterAReopen() throws Exception {
        long before = System.currentTimeMillis();
        open().save("alice", "1700000000000", group("1700000000000", "Tävern \"crew\""));
        GroupStore store = open();
        String saved = JsJson.compact(group("1700000000000", "Tävern \"crew\""));
        assertEquals(saved, JsJson.compact(store.find("alice", "1700000000000").orElseThrow()));
        List<StoredGroup> listed = store.list("alice");
        assertEquals(1, listed.size());
        assertEquals(saved, JsJson.compact(listed.get(0).json()));
        assertTrue(listed.get(0).createdMs() >= before - 1000 && listed.get(0).createdMs() <= System.currentTimeMillis() + 1000,
                String.valueOf(listed.get(0).createdMs()));
        assertEquals(Optional.empty(), store.find("alice", "missing"));
    }

    @Test
    void creatingATakenIdWritesNothingAndSaysSo() throws Exception {
        GroupStore store = open();
        assertTrue(store.create("alice", "1", group("1", "first")));
        assertFalse(open().create("alice", "1", group("1", "second")));
        assertTrue(store.create("bob", "1", group("1", "bob's")));
        assertEquals("first", open().find("alice", "1").orElseThrow().get("name").asText());
        assertEquals(1, open().list("alice").size());
    }

    @Test
    void groupsAreListedInReaddirOrderOfTheirFileNames() throws Exception {
        GroupStore store = open();
        for (String id : List.of("b", "a", "C", "é", "10", "9")) {
            store.save("alice", id, group(id, id));
        }
        assertEquals(List.of("10", "9", "C", "a", "b", "é"),
                open().list("alice").stream().map(g -> g.json().get("id").asText()).toList());
    }

    @Test
    void savingAgainReplacesAndDeletingRemovesOnlyThatGroup() throws Exception {
        GroupStore store = open();
        store.save("alice", "1", group("1", "first"));
        store.save("alice", "2", group("2", "second"));
        store.save("alice", "1", group("1", "renamed"));
        assertEquals(List.of("renamed", "second"), open().list("alice").stream().map(g -> g.json().get("name").asText()).toList());
        store.delete("alice", "1");
        store.delete("alice", "never");
        assertEquals(Optional.empty(), open().find("alice", "1"));
        assertEquals(List.of("2"), open().list("alice").stream().map(g -> g.json().get("id").asText()).toList());
    }

    @Test
    void idsAreCleanedAsStCleansFileNamesAndOnesThatCleanToNothingAreRefused() throws Exception {
        GroupStore store = open();
        store.save("alice", "../x", group("../x", "dots"));
        assertEquals("dots", store.find("alice", "..x").orElseThrow().get("name").asText(), "the same file name");
        store.save("alice", "", group("", "empty"));
        assertEquals("empty", store.find("alice", "").orElseThrow().get("name").asText(), "ST's file .json");
        for (String bad : List.of("con", "aux", "LPT1")) { // Windows' device names, which ST cleans to nothing
            Refusal refusal = assertThrows(Refusal.class, () -> store.save("alice", bad, group(bad, "bad")));
            assertEquals(Refusal.Kind.BAD_REQUEST, refusal.kind());
            assertThrows(Refusal.class, () -> store.find("alice", bad));
        }
    }

    @Test
    void eachUserHasTheirOwnGroups() throws Exception {
        GroupStore store = open();
        store.save("alice", "1", group("1", "alice's"));
        store.save("bob", "1", group("1", "bob's"));
        store.delete("bob", "1");
        assertEquals("alice's", open().find("alice", "1").orElseThrow().get("name").asText());
        assertEquals(List.of(), open().list("bob"));
    }

    @Test
    void deleteAllDeletesEveryGroupOfTheUserAndNoOtherUsers() throws Exception {
        GroupStore store = open();
        store.save("alice", "1", group("1", "one"));
        store.putFile("alice", new GroupStore.GroupFile("broken.json", new byte[]{'{'}));
        store.save("bob", "1", group("1", "bob's"));
        store.deleteAll("alice");
        assertEquals(List.of(), open().files("alice"));
        assertEquals(1, open().list("bob").size());
    }

    @Test
    void theChatsOfAGroupAreFoundByItsId() throws Exception {
        GroupStore store = open();
        store.save("alice", "7", group("7", "seven"));
        assertEquals(List.of("7-chat"), store.chats("alice", JsJson.parse("\"7\"")).stream().map(c -> c.asText()).toList());
        assertEquals(List.of(), store.chats("alice", JsJson.parse("7")), "=== does not take the number for the text");
    }

    @Test
    void eightWritersOfOneGroupLeaveOneWholeVersion() throws Exception {
        GroupStore store = open();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> saves = new ArrayList<>();
        StringBuilder longName = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            longName.append("x");
        }
        try {
            for (int i = 0; i < 8; i++) {
                String name = i + longName.toString();
                saves.add(pool.submit(() -> {
                    for (int n = 0; n < 10; n++) {
                        store.save("alice", "1", group("1", name));
                    }
                    return null;
                }));
            }
            for (Future<?> save : saves) {
                save.get();
            }
        } finally {
            pool.shutdown();
        }
        String name = open().find("alice", "1").orElseThrow().get("name").asText();
        assertEquals(JsJson.compact(group("1", name)), JsJson.compact(open().list("alice").get(0).json()));
        assertTrue(name.endsWith(longName.toString()) && name.length() == longName.length() + 1, name);
    }
}
