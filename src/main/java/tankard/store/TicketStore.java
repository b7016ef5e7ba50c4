package tankard.store;

import java.util.Optional;

/**
 * Short-lived values of a user's, one of each kind (a password recovery code, a Data Maid report), that a request
 * to any node may continue with: in memory on files (one node), in the database's {@code user_tickets} on
 * PostgreSQL. A value lapses after its lifetime. Blocking.
 */
public interface TicketStore {
    /** Keeps the value for the user and kind for that long, in place of the one there was. */
    void put(String user, String kind, String value, long lifetimeMs);

    /**
     * Keeps the value for that long only if the user has no live value of that kind; true when it did, and then
     * this caller holds the kind until the value lapses. Of two callers at once, on any node, one claims it.
     */
    boolean claim(String user, String kind, String value, long lifetimeMs);

    /** The user's value of that kind, unless it has lapsed. */
    Optional<String> find(String user, String kind);

    /**
     * Removes the user's value of that kind if it is still {@code value}; true when this call removed it, so a
     * value used by two requests at once is used by one.
     */
    boolean remove(String user, String kind, String value);
}
