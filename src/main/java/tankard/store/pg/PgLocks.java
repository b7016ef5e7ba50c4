package tankard.store.pg;

import io.vertx.sqlclient.Tuple;
import tankard.store.Locks;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * {@link Locks} that hold on every node of the database: each key is a transaction-scoped advisory lock
 * ({@code pg_advisory_xact_lock} on 64 bits of the key's SHA-256), taken in a transaction of a connection of the
 * lock pool that stays open, doing nothing else, while the unit of work runs on other connections, and ended
 * (rolled back) when the locks are released. A node that dies, or whose connection is cut, lets its locks go with
 * its transaction. Unrelated keys may share a number; that only costs a little waiting.
 */
public final class PgLocks implements Locks {
    private final PgDatabase db;

    public PgLocks(PgDatabase db) {
        this.db = db;
    }

    @Override
    public Held lockAll(String... keys) {
        long[] numbers = Arrays.stream(keys).mapToLong(PgLocks::number).distinct().sorted().toArray();
        PgDatabase.Session session = db.lockSession();
        try {
            for (long number : numbers) {
                session.call(c -> c.preparedQuery("SELECT pg_advisory_xact_lock($1)").execute(Tuple.of(number)));
            }
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
        return session::close;
    }

    /** The lock number of a key: the first 64 bits of its SHA-256. */
    static long number(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java runtime has SHA-256", e);
        }
    }
}
