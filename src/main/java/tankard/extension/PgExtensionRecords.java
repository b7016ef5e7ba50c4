package tankard.extension;

import io.vertx.sqlclient.Tuple;
import tankard.store.pg.PgDatabase;

import java.util.ArrayList;
import java.util.List;

/** {@link ExtensionRecords} in the {@code extensions} table (V12). */
public final class PgExtensionRecords implements ExtensionRecords {
    private final PgDatabase db;

    public PgExtensionRecords(PgDatabase db) {
        this.db = db;
    }

    @Override
    public List<Extension> extensions(String scope) {
        return db.call(c -> c.preparedQuery("SELECT name, url, branch, commit_hash, removed FROM extensions"
                + " WHERE scope = $1 ORDER BY name").execute(Tuple.of(scope)).map(rows -> {
                    List<Extension> out = new ArrayList<>(rows.size());
                    rows.forEach(row -> out.add(new Extension(row.getString(0), new Checkout(
                            row.getString(1), row.getString(2), row.getString(3)), row.getBoolean(4))));
                    return out;
                }));
    }

    @Override
    public void installed(String scope, String name, Checkout checkout) {
        db.call(c -> c.preparedQuery("INSERT INTO extensions (scope, name, url, branch, commit_hash) VALUES"
                        + " ($1, $2, $3, $4, $5) ON CONFLICT (scope, name) DO UPDATE SET url = $3, branch = $4,"
                        + " commit_hash = $5, removed = false")
                .execute(Tuple.of(scope, name, checkout.url(), checkout.branch(), checkout.commit())).mapEmpty());
    }

    @Override
    public void removed(String scope, String name) {
        db.call(c -> c.preparedQuery("UPDATE extensions SET removed = true WHERE scope = $1 AND name = $2")
                .execute(Tuple.of(scope, name)).mapEmpty());
    }

    @Override
    public void forgetAll(String scope) {
        db.call(c -> c.preparedQuery("DELETE FROM extensions WHERE scope = $1").execute(Tuple.of(scope)).mapEmpty());
    }
}
