package tankard.user;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import io.vertx.core.Vertx;
import tankard.core.Refusal;
import tankard.store.pg.PgDatabase;
import tankard.testing.PgScratch;
import tankard.testing.ScratchDatabase;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PgAccountStoreTest extends AccountStoreContract {
    private final ScratchDatabase database = new ScratchDatabase();
    private final PgScratch scratch = database.scratch;

    @Override
    AccountStore open() {
        return new PgAccountStore(database.db);
    }

    @AfterEach
    void cleanUp() {
        database.close();
    }

    @Test
    void anotherNodesWriteIsSeenAtOnceByFindAndLookup() {
        Vertx vertx = Vertx.vertx();
        try (PgDatabase otherNode = PgDatabase.open(vertx, scratch.settings())) {
            AccountStore a = open();
            AccountStore b = new PgAccountStore(otherNode);
            assertEquals(Optional.empty(), b.lookup("alice").await());
            User alice = new User("alice", "Alice", 1, "", "", false, true);
            a.save(alice);
            assertEquals(Optional.of(alice), b.find("alice"));
            assertEquals(Optional.of(alice), b.lookup("alice").await());
            User disabled = a.update("alice", u -> new User(u.handle(), u.name(), u.created(), "p", "s", false, false))
                    .orElseThrow();
            assertEquals(Optional.of(disabled), b.lookup("alice").await());
        } finally {
            vertx.close().await();
        }
    }

    @Test
    void aSaveWhileTheDatabaseIsGoneIsUnavailableAndKeepsTheLastAcknowledgedAccount() {
        AccountStore store = open();
        User before = new User("alice", "Alice", 1, "", "", false, true);
        store.save(before);
        scratch.terminateConnections();
        User after = new User("alice", "Alice changed", 1, "", "", false, true);
        try {
            store.save(after);
        } catch (Refusal refusal) {
            assertEquals(Refusal.Kind.UNAVAILABLE, refusal.kind());
            assertEquals(Optional.of(before), findOnceAnswered("alice"));
            return;
        }
        // The pool noticed the cut before the save and took a new connection: then the save is acknowledged.
        assertEquals(Optional.of(after), findOnceAnswered("alice"));
    }

    /**
     * The account as read once the database answers again, as a client tries again in a moment: the cut leaves the
     * pool's other connections dead too, and the pool lets each go as a query finds it so.
     */
    private Optional<User> findOnceAnswered(String handle) {
        for (int attempt = 1; ; attempt++) {
            try {
                return open().find(handle);
            } catch (Refusal unavailable) {
                if (unavailable.kind() != Refusal.Kind.UNAVAILABLE || attempt == 10) {
                    throw unavailable;
                }
            }
        }
    }

    @Test
    void anAccountRecordIsStoredAsTheCompactJsonStWrites() {
        open().save(new User("alice", "Alice", 5, "p", "s", true, true));
        assertEquals("{\"handle\":\"alice\",\"name\":\"Alice\",\"created\":5,\"password\":\"p\",\"salt\":\"s\","
                + "\"admin\":true,\"enabled\":true}", recordOf("alice"));
    }

    private String recordOf(String handle) {
        try (var c = scratch.connect(); var s = c.prepareStatement("SELECT record FROM accounts WHERE handle = ?")) {
            s.setString(1, handle);
            try (var rows = s.executeQuery()) {
                rows.next();
                return rows.getString(1);
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
