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
import tankard.group.PgGroupStore;
import tankard.store.DocumentStore;
import tankard.store.FileDocumentStore;
import tankard.store.pg.PgDatabase;
import tankard.user.AccountStore;
import tankard.user.FileAccountStore;
import tankard.user.PgAccountStore;

import java.nio.file.Path;
import java.util.Set;
import java.util.function.Predicate;

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
    /** A user's folder of groups (ST: src/constants.js, USER_DIRECTORY_TEMPLATE). */
    private static final String GROUPS_FOLDER = "groups";

    /** Opens the configured stores; blocking (a database is migrated and checked first). */
    static Stores open(Vertx vertx, TankardConfig config) {
        if (config.storage().kind() == TankardConfig.Storage.Kind.FILES) {
            return files(config.dataRoot());
        }
        Stores stores = postgres(vertx, config.storage().postgres(), config.dataRoot());
        LOG.warn("storage: postgres keeps the accounts and groups in {}; in this version every other kind of data is still "
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
                new FileChatStore(dataRoot), new PgGroupStore(database), database);
    }

    /**
     * Whether a file of the data root (its path from the root, with {@code /}) is one that these stores keep
     * elsewhere, for the users of these handles: what an import into the database takes through the stores
     * rather than copying as a file.
     */
    Predicate<String> keptElsewhere(Set<String> handles) {
        if (database == null) {
            return path -> false;
        }
        return path -> {
            String[] parts = path.split("/");
            return parts[0].equals(ACCOUNTS_FOLDER)
                    || parts.length == 3 && handles.contains(parts[0]) && parts[1].equals(GROUPS_FOLDER)
                    && parts[2].endsWith(".json");
        };
    }

    @Override
    public void close() {
        if (database != null) {
            database.close();
        }
    }
}
