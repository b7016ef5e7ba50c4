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
record Stores(AccountStore accounts, CardStore cards, ChatStore chats, GroupStore groups, PgDatabase database)
        implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Stores.class);

    /** Opens the configured stores; blocking (a database is migrated and checked first). */
    static Stores open(Vertx vertx, TankardConfig config) {
        Path dataRoot = config.dataRoot();
        CardStore cards = new FileCardStore(dataRoot);
        ChatStore chats = new FileChatStore(dataRoot);
        GroupStore groups = new FileGroupStore(dataRoot);
        if (config.storage().kind() == TankardConfig.Storage.Kind.FILES) {
            return new Stores(new FileAccountStore(dataRoot.resolve("_storage")), cards, chats, groups, null);
        }
        PgDatabase database = PgDatabase.open(vertx, config.storage().postgres());
        LOG.warn("storage: postgres keeps the accounts in {}; in this version every other kind of data is still "
                + "kept in {} (see docs/operations.md)", database, dataRoot);
        return new Stores(new PgAccountStore(database), cards, chats, groups, database);
    }

    @Override
    public void close() {
        if (database != null) {
            database.close();
        }
    }
}
