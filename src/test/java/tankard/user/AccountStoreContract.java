package tankard.user;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every account store does, run on each of them by a subclass. */
abstract class AccountStoreContract {
    /** The store under test, made anew over the same place on each call (as a restart would). */
    abstract AccountStore open();

    private static User user(String handle, long created) {
        return new User(handle, "Name of " + handle, created, "hash==", "salt==", false, true);
    }

    @Test
    void aSavedAccountIsFoundWithEveryFieldAfterAReopen() {
        User alice = new User("alice", "Älice \"A\"", 1_700_000_000_123L, "c2NyeXB0", "c2FsdA==", true, false);
        open().save(alice);
        assertEquals(Optional.of(alice), open().find("alice"));
        assertEquals(Optional.empty(), open().find("bob"));
    }

    @Test
    void accountsAreListedOldestFirst() {
        AccountStore store = open();
        store.save(user("carol", 300));
        store.save(user("alice", 100));
        store.save(user("bob", 200));
        assertEquals(List.of("alice", "bob", "carol"), open().users().stream().map(User::handle).toList());
    }

    @Test
    void savingAnAccountAgainReplacesIt() {
        AccountStore store = open();
        store.save(user("alice", 100));
        User renamed = new User("alice", "Alice B.", 100, "", "", true, false);
        store.save(renamed);
        assertEquals(Optional.of(renamed), store.find("alice"));
        assertEquals(List.of(renamed), open().users());
    }

    @Test
    void deletingAnAccountRemovesItAndItsAvatarOnly() {
        AccountStore store = open();
        store.save(user("alice", 100));
        store.save(user("bob", 200));
        store.saveAvatar("alice", "data:image/png;base64,QUxJQ0U=");
        store.saveAvatar("bob", "data:image/png;base64,Qk9C");
        store.delete("alice");
        AccountStore reopened = open();
        assertEquals(Optional.empty(), reopened.find("alice"));
        assertEquals(Optional.empty(), reopened.avatar("alice"));
        assertEquals(List.of("bob"), reopened.users().stream().map(User::handle).toList());
        assertEquals(Optional.of("data:image/png;base64,Qk9C"), reopened.avatar("bob"));
    }

    @Test
    void anAvatarIsReplacedAndAnEmptyOneRemovesIt() {
        AccountStore store = open();
        store.save(user("alice", 100));
        assertEquals(Optional.empty(), store.avatar("alice"));
        store.saveAvatar("alice", "data:image/png;base64,b25l");
        store.saveAvatar("alice", "data:image/png;base64,dHdv");
        assertEquals(Optional.of("data:image/png;base64,dHdv"), open().avatar("alice"));
        store.saveAvatar("alice", "");
        assertEquals(Optional.empty(), open().avatar("alice"));
        store.saveAvatar("alice", "data:image/png;base64,dGhyZWU=");
        store.saveAvatar("alice", null);
        assertEquals(Optional.empty(), open().avatar("alice"));
    }

    @Test
    void aRecordPutAsItIsComesBackWithStsMembersInStsOrder() {
        String st = "{\"handle\":\"carol\",\"name\":\"Carol\",\"created\":1767261600000,\"password\":\"\","
                + "\"admin\":true,\"enabled\":true,\"salt\":\"\",\"extra\":[1,2.5]}";
        open().putRecord((ObjectNode) JsJson.parse(st));
        AccountStore reopened = open();
        assertEquals(List.of(st), reopened.records().stream().map(JsJson::compact).toList());
        assertEquals(Optional.of(new User("carol", "Carol", 1767261600000L, "", "", true, true)), reopened.find("carol"));
    }

    @Test
    void ofEightCreatorsOfOneHandleExactlyOneMakesIt() throws Exception {
        AccountStore store = open();
        List<Boolean> outcomes = inParallel(8, i -> store.create(new User("dana", "Dana " + i, i, "", "", false, true)));
        assertEquals(1, outcomes.stream().filter(created -> created).count(), outcomes.toString());
        String name = open().find("dana").orElseThrow().name();
        assertTrue(name.startsWith("Dana "), name);
        assertFalse(store.create(new User("dana", "Another", 9, "", "", false, true)));
        assertEquals(name, open().find("dana").orElseThrow().name());
    }

    @Test
    void updatesFromEightThreadsAreAllApplied() throws Exception {
        AccountStore store = open();
        store.save(user("erin", 1));
        inParallel(8, i -> {
            for (int n = 0; n < 10; n++) {
                store.update("erin", u -> new User(u.handle(), u.name() + "+", u.created(), u.password(), u.salt(),
                        u.admin(), u.enabled()));
            }
            return null;
        });
        assertEquals("Name of erin" + "+".repeat(80), open().find("erin").orElseThrow().name());
        assertEquals(Optional.empty(), store.update("nobody", u -> u));
        assertEquals(Optional.empty(), open().find("nobody"));
    }

    /** Runs the task on that many threads at once; the results in the threads' order. */
    private static <T> List<T> inParallel(int threads, java.util.function.IntFunction<T> task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
            List<Future<T>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int n = i;
                results.add(pool.submit(() -> {
                    start.await();
                    return task.apply(n);
                }));
            }
            start.countDown();
            List<T> out = new ArrayList<>();
            for (Future<T> result : results) {
                out.add(result.get());
            }
            return out;
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void concurrentSavesOfManyAccountsAreAllKept() throws Exception {
        AccountStore store = open();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> saves = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                int n = i;
                saves.add(pool.submit(() -> store.save(user("user" + n, 1000 + n))));
            }
            for (Future<?> save : saves) {
                save.get();
            }
        } finally {
            pool.shutdown();
        }
        List<User> users = open().users();
        assertEquals(40, users.size());
        for (int i = 0; i < 40; i++) {
            assertEquals("user" + i, users.get(i).handle());
        }
        assertTrue(store.find("user39").isPresent());
    }
}
