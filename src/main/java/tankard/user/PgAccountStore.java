package tankard.user;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.store.pg.CacheVersions;
import tankard.store.pg.PgDatabase;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Accounts in PostgreSQL ({@code accounts}, {@code account_avatars}). An account is looked up in the database every
 * time ({@link #find}; {@link #lookup} for the security chain, which looks the signed-in account up on an event loop
 * for every request, without blocking), so that an account disabled or given a new password on one node is refused
 * on every other at once (while the database does not answer, the lookup answers from the snapshot below, so that
 * pages still load). The list of accounts ({@link #users}: the login page's and the admin's lists) is read from
 * a snapshot: loaded at start, loaded again after each write, and when another node's write moved the accounts'
 * version on ({@link CacheVersions}: at once when its notification arrives, else at the next check).
 */
public final class PgAccountStore implements AccountStore {
    private static final CacheVersions.Topic ACCOUNTS = new CacheVersions.Topic("", "accounts");
    private static final String BY_HANDLE = "SELECT record FROM accounts WHERE handle = $1";

    private final PgDatabase db;
    /** The snapshot's version: loaded again when another node's write moved it on. */
    private final CacheVersions.Cache cache;
    /** Every account by handle, oldest first. Replaced whole, never changed. */
    private volatile Map<String, User> snapshot;

    public PgAccountStore(PgDatabase db) {
        this.db = db;
        this.cache = db.versions().cache(ACCOUNTS, this::load);
        cache.reload();
    }

    /** Reads every account. Blocking. */
    private void load() {
        List<User> users = db.call(c -> c.preparedQuery("SELECT record FROM accounts ORDER BY created, handle")
                .execute().map(rows -> {
                    List<User> read = new ArrayList<>();
                    for (Row row : rows) {
                        read.add(AccountRecords.fromJson(JsJson.parse(row.getString(0))));
                    }
                    return read;
                }));
        Map<String, User> byHandle = new LinkedHashMap<>();
        users.stream().filter(AccountRecords::named).forEach(u -> byHandle.put(u.handle(), u));
        snapshot = byHandle;
    }

    @Override
    public List<User> users() {
        return List.copyOf(snapshot.values());
    }

    @Override
    public Optional<User> find(String handle) {
        if (!PgDatabase.storable(handle)) {
            return Optional.empty();
        }
        return db.call(c -> c.preparedQuery(BY_HANDLE).execute(Tuple.of(handle)).map(PgAccountStore::account));
    }

    @Override
    public Future<Optional<User>> lookup(String handle) {
        if (!PgDatabase.storable(handle)) {
            return Future.succeededFuture(Optional.empty());
        }
        // While the database does not answer, this node's snapshot stands in: a page still loads, and the data
        // routes answer 503 as they reach the database.
        return db.ask(c -> c.preparedQuery(BY_HANDLE).execute(Tuple.of(handle)).map(PgAccountStore::account))
                .recover(failure -> failure instanceof Refusal refusal && refusal.kind() == Refusal.Kind.UNAVAILABLE
                        ? Future.succeededFuture(Optional.ofNullable(snapshot.get(handle))) : Future.failedFuture(failure));
    }

    private static Optional<User> account(RowSet<Row> rows) {
        return rows.size() == 0 ? Optional.empty()
                : Optional.of(AccountRecords.fromJson(JsJson.parse(rows.iterator().next().getString(0))))
                .filter(AccountRecords::named);
    }

    @Override
    public void save(User user) {
        write(user, JsJson.compact(AccountRecords.toJson(user)));
    }

    @Override
    public boolean create(User user) {
        boolean created = db.transaction(c -> c.preparedQuery("INSERT INTO accounts (handle, created, record)"
                        + " VALUES ($1, $2, $3) ON CONFLICT (handle) DO NOTHING")
                .execute(Tuple.of(user.handle(), user.created(), JsJson.compact(AccountRecords.toJson(user))))
                .compose(rows -> CacheVersions.bump(c, ACCOUNTS).map(rows.rowCount() == 1)));
        cache.reload();
        return created;
    }

    @Override
    public Optional<User> update(String handle, UnaryOperator<User> change) {
        if (!PgDatabase.storable(handle)) {
            return Optional.empty();
        }
        Optional<User> changed = db.transaction(c -> c.preparedQuery("SELECT record FROM accounts WHERE handle = $1 FOR UPDATE")
                .execute(Tuple.of(handle)).compose(rows -> {
                    if (rows.size() == 0) {
                        return Future.succeededFuture(Optional.<User>empty());
                    }
                    User user = change.apply(AccountRecords.fromJson(JsJson.parse(rows.iterator().next().getString(0))));
                    return c.preparedQuery("UPDATE accounts SET created = $2, record = $3 WHERE handle = $1")
                            .execute(Tuple.of(handle, user.created(), JsJson.compact(AccountRecords.toJson(user))))
                            .compose(updated -> CacheVersions.bump(c, ACCOUNTS)).map(Optional.of(user));
                }));
        cache.reload();
        return changed;
    }

    @Override
    public List<ObjectNode> records() {
        return db.call(c -> c.preparedQuery("SELECT record FROM accounts ORDER BY handle").execute().map(rows -> {
            List<ObjectNode> records = new ArrayList<>();
            for (Row row : rows) {
                if (JsJson.parse(row.getString(0)) instanceof ObjectNode record) {
                    records.add(record);
                }
            }
            return records;
        }));
    }

    @Override
    public void putRecord(ObjectNode record) {
        write(AccountRecords.fromJson(record), JsJson.compact(record));
    }

    private void write(User user, String record) {
        db.transaction(c -> c.preparedQuery("INSERT INTO accounts (handle, created, record) VALUES ($1, $2, $3)"
                        + " ON CONFLICT (handle) DO UPDATE SET created = excluded.created, record = excluded.record")
                .execute(Tuple.of(user.handle(), user.created(), record))
                .compose(written -> CacheVersions.bump(c, ACCOUNTS)));
        cache.reload();
    }

    @Override
    public void delete(String handle) {
        if (!PgDatabase.storable(handle)) {
            return;
        }
        db.transaction(c -> c.preparedQuery("DELETE FROM accounts WHERE handle = $1").execute(Tuple.of(handle))
                .compose(v -> c.preparedQuery("DELETE FROM account_avatars WHERE handle = $1").execute(Tuple.of(handle)))
                .compose(v -> CacheVersions.bump(c, ACCOUNTS)));
        cache.reload();
    }

    @Override
    public Optional<String> avatar(String handle) {
        if (!PgDatabase.storable(handle)) {
            return Optional.empty();
        }
        return db.call(c -> c.preparedQuery("SELECT data_url FROM account_avatars WHERE handle = $1")
                .execute(Tuple.of(handle))
                .map(rows -> rows.size() == 0 ? Optional.<String>empty() : Optional.of(rows.iterator().next().getString(0))));
    }

    @Override
    public void saveAvatar(String handle, String dataUrl) {
        if (dataUrl == null || dataUrl.isEmpty()) {
            db.call(c -> c.preparedQuery("DELETE FROM account_avatars WHERE handle = $1").execute(Tuple.of(handle)));
        } else {
            db.call(c -> c.preparedQuery("INSERT INTO account_avatars (handle, data_url) VALUES ($1, $2)"
                    + " ON CONFLICT (handle) DO UPDATE SET data_url = excluded.data_url").execute(Tuple.of(handle, dataUrl)));
        }
    }
}
