package tankard.store;

/**
 * Locks that make a unit of work on a key (a chat's save, a name being allocated) the only one under way wherever
 * it runs: JVM locks on files ({@link StripedLocks}, one node), PostgreSQL advisory locks on a database
 * ({@code tankard.store.pg.PgLocks}, every node that shares it). Units must be short: never wait on a client while
 * holding one. Blocking.
 */
public interface Locks {
    /** Locks held together, released by {@link #close}. */
    interface Held extends AutoCloseable {
        @Override
        void close();
    }

    /** Takes the locks of all the keys, in one order, so that callers locking overlapping keys never deadlock. */
    Held lockAll(String... keys);
}
