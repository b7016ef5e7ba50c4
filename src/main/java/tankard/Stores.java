package tankard;

import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.character.CardStore;
import tankard.character.FileCardStore;
import tankard.chat.ChatStore;
import tankard.chat.FileChatStore;
import tankard.config.TankardConfig;
import tankard.group.FileGroupStore;
import tankard.group.GroupStore;
import tankard.store.DocumentStore;
import tankard.store.FileDocumentStore;
import tankard.store.pg.PgDatabase;
import tankard.user.AccountStore;
import tankard.user.FileAccountStore;
import tankard.user.PgAccountStore;

import java.nio.file.Path;

/**
 * The stores of user data, chosen once from {@code tankard.storage}: the one place that knows which kind there is.
 * Features are handed these and never choose.
 *
 * @param database the PostgreSQL database behind the stores, or null on files
 */
record Stores(AccountStore accounts, DocumentStore documents, CardStore cards, ChatStore chats, GroupStore groups,
              PgDatabase database)
        implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Stores.class);
    /** ST's node-persist folder of accounts (ST: src/users.js). */
    private static final String ACCOUNTS_FOLDER = "_storage";

    /** Opens the configured stores; blocking (a database is migrated and checked first). */
    static Stores open(Vertx vertx, TankardConfig config) {
        if (config.storage().kind() == TankardConfig.Storage.Kind.FILES) {
            return files(config.dataRoot());
        }
        Stores stores = postgres(vertx, config.storage().postgres(), config.dataRoot());
        LOG.warn("storage: postgres keeps the accounts in {}; in this version every other kind of data is still "
                + "kept in {} (see docs/operations.md)", stores.database, config.dataRoot());
        return stores;
    }

    /** The stores of an ST data root. */
    static Stores files(Path dataRoot) {
        return new Stores(new FileAccountStore(dataRoot.resolve(ACCOUNTS_FOLDER)), new FileDocumentStore(dataRoot),
                new FileCardStore(dataRoot), new FileChatStore(dataRoot), new FileGroupStore(dataRoot), null);
    }

    /** The stores of a PostgreSQL database, with what is not in the database yet in the data root. */
    static Stores postgres(Vertx vertx, TankardConfig.Postgres settings, Path dataRoot) {
        PgDatabase database = PgDatabase.open(vertx, settings);
        // The documents stay in files until every reader of them takes the store (presets, lorebooks, themes, …
        // still read their folders): settings and secrets alone in the database would not see them.
        return new Stores(new PgAccountStore(database), new FileDocumentStore(dataRoot), new FileCardStore(dataRoot),
                new FileChatStore(dataRoot), new FileGroupStore(dataRoot), database);
    }

    /**
     * The data root's files and folders that this kind of store keeps elsewhere: what an import into the database
     * takes from the stores rather than copying as files.
     */
    java.util.Set<String> keptElsewhere() {
        return database == null ? java.util.Set.of() : java.util.Set.of(ACCOUNTS_FOLDER);
    }

    @Override
    public void close() {
        if (database != null) {
            database.close();
        }
    }
}
