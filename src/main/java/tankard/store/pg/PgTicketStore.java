package tankard.store.pg;

import io.vertx.sqlclient.Tuple;
import tankard.store.TicketStore;

import java.util.Optional;
import java.util.function.LongSupplier;

/** The {@link TicketStore} of every node of a database: {@code user_tickets} (V14__shared_state.sql). */
public final class PgTicketStore implements TicketStore {
    private final PgDatabase db;
    private final LongSupplier clock;

    public PgTicketStore(PgDatabase db, LongSupplier clock) {
        this.db = db;
        this.clock = clock;
    }

    @Override
    public void put(String user, String kind, String value, long lifetimeMs) {
        long now = clock.getAsLong();
        db.transaction(c -> c.preparedQuery("DELETE FROM user_tickets WHERE handle = $1 AND expires_ms <= $2")
                .execute(Tuple.of(user, now))
                .compose(lapsed -> c.preparedQuery("INSERT INTO user_tickets (handle, kind, value, expires_ms)"
                                + " VALUES ($1, $2, $3, $4) ON CONFLICT (handle, kind)"
                                + " DO UPDATE SET value = excluded.value, expires_ms = excluded.expires_ms")
                        .execute(Tuple.of(user, kind, value, now + lifetimeMs))));
    }

    @Override
    public boolean claim(String user, String kind, String value, long lifetimeMs) {
        long now = clock.getAsLong();
        return db.call(c -> c.preparedQuery("INSERT INTO user_tickets (handle, kind, value, expires_ms)"
                        + " VALUES ($1, $2, $3, $4) ON CONFLICT (handle, kind)"
                        + " DO UPDATE SET value = excluded.value, expires_ms = excluded.expires_ms"
                        + " WHERE user_tickets.expires_ms <= $5")
                .execute(Tuple.of(user, kind, value, now + lifetimeMs, now)).map(rows -> rows.rowCount() == 1));
    }

    @Override
    public Optional<String> find(String user, String kind) {
        if (!PgDatabase.storable(user)) {
            return Optional.empty();
        }
        return db.call(c -> c.preparedQuery("SELECT value FROM user_tickets WHERE handle = $1 AND kind = $2"
                        + " AND expires_ms > $3").execute(Tuple.of(user, kind, clock.getAsLong()))
                .map(rows -> rows.size() == 0 ? Optional.<String>empty()
                        : Optional.of(rows.iterator().next().getString(0))));
    }

    @Override
    public boolean remove(String user, String kind, String value) {
        if (!PgDatabase.storable(user) || !PgDatabase.storable(value)) {
            return false;
        }
        return db.call(c -> c.preparedQuery("DELETE FROM user_tickets WHERE handle = $1 AND kind = $2 AND value = $3"
                        + " AND expires_ms > $4").execute(Tuple.of(user, kind, value, clock.getAsLong()))
                .map(rows -> rows.rowCount() == 1));
    }
}
