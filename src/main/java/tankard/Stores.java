package tankard;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.character.CardFile;
import tankard.character.CardImages;
import tankard.character.CardStore;
import tankard.character.FileCardStore;
import tankard.character.PgCardStore;
import tankard.chat.ChatFile;
import tankard.chat.ChatFolder;
import tankard.chat.ChatStore;
import tankard.chat.FileChatStore;
import tankard.chat.PgChatStore;
import tankard.config.TankardConfig;
import tankard.group.FileGroupStore;
import tankard.group.GroupStore;
import tankard.extension.ExtensionRecords;
import tankard.extension.PgExtensionRecords;
import tankard.group.PgGroupStore;
import tankard.store.BlobStore;
import tankard.store.DocumentStore;
import tankard.store.FileBlobStore;
import tankard.store.FileDocumentStore;
import tankard.store.pg.PgBlobStore;
import tankard.store.pg.PgDatabase;
import tankard.store.pg.PgDocumentStore;
import tankard.store.pg.PgLocks;
import tankard.store.pg.PgTicketStore;
import tankard.store.Locks;
import tankard.store.MemoryTicketStore;
import tankard.store.StripedLocks;
import tankard.store.TicketStore;
import tankard.http.security.SessionCookies;
import tankard.user.AccountStore;
import tankard.user.FileAccountStore;
import tankard.user.KeptData;
import tankard.user.PgAccountStore;
import tankard.vector.store.CollectionKey;
import tankard.vector.store.FileVectorStore;
import tankard.vector.store.PgVectorStore;
import tankard.vector.store.VectorStore;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The stores of user data, chosen once from {@code tankard.storage}: the one place that knows which kind there is.
 * Features are handed these and never choose.
 *
 * @param locks    what orders units of work on one key: this JVM's locks on files, advisory locks in the database
 *                 (which hold across nodes) on PostgreSQL
 * @param tickets  users' short-lived values (one-time codes, Data Maid reports): in memory on files, in the database
 *                 (so that any node continues with them) on PostgreSQL
 * @param database the PostgreSQL database behind the stores, or null on files
 */
record Stores(AccountStore accounts, DocumentStore documents, CardStore cards, ChatStore chats, GroupStore groups,
              BlobStore blobs, VectorStore vectors, Locks locks, TicketStore tickets, PgDatabase database)
        implements KeptData, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Stores.class);
    /** ST's node-persist folder of accounts (ST: src/users.js). */
    private static final String ACCOUNTS_FOLDER = "_storage";
    /** A user's folder of groups (ST: src/constants.js, USER_DIRECTORY_TEMPLATE). */
    private static final String GROUPS_FOLDER = "groups";
    /** A user's folder of character cards, the {@code *.png} files in it (ST: src/endpoints/characters.js). */
    private static final String CHARACTERS_FOLDER = "characters";
    /** A user's folder of settings snapshots and chat backups. */
    private static final String BACKUPS_FOLDER = "backups";
    /**
     * The folders of a user's folder whose files stay on the node in every storage: Vector Storage's indexes (a
     * store of their own), the extensions (code, run here) and the thumbnails (a cache, made again from the images).
     */
    private static final Set<String> NODE_FOLDERS = Set.of("vectors", "extensions", "thumbnails");

    /** The JVM locks of the file stores' units of work: unrelated keys rarely share one. */
    private static final int LOCK_STRIPES = 64;

    /** Where a node keeps what its loaded vector indexes do not hold in memory (see vector.store.Scratch). */
    private static final String VECTOR_SCRATCH = "_cache/vector-scratch";

    /** Opens the configured stores; blocking (a database is migrated and checked first). */
    static Stores open(Vertx vertx, TankardConfig config) {
        if (config.storage().kind() == TankardConfig.Storage.Kind.FILES) {
            return files(config.dataRoot(), config.vectors());
        }
        Stores stores = postgres(vertx, config.storage().postgres(), config.dataRoot(), config.vectors());
        LOG.info("storage: postgres keeps the users' data in {}; {} holds what stays on this node (extensions,"
                + " caches; see docs/operations.md)", stores.database, config.dataRoot());
        return stores;
    }

    /** The stores of an ST data root. */
    static Stores files(Path dataRoot, TankardConfig.Vectors vectors) {
        return new Stores(new FileAccountStore(dataRoot.resolve(ACCOUNTS_FOLDER)), new FileDocumentStore(dataRoot),
                new FileCardStore(dataRoot), new FileChatStore(dataRoot), new FileGroupStore(dataRoot),
                new FileBlobStore(dataRoot, Stores::isBlob),
                new FileVectorStore(dataRoot, vectors.memoryBytes(), vectors.foldIdleMillis(),
                        dataRoot.resolve(VECTOR_SCRATCH)), new StripedLocks(LOCK_STRIPES),
                new MemoryTicketStore(System::currentTimeMillis), null);
    }

    /** The stores of a PostgreSQL database, with what is not in the database yet in the data root. */
    static Stores postgres(Vertx vertx, TankardConfig.Postgres settings, Path dataRoot, TankardConfig.Vectors vectors) {
        PgDatabase database = PgDatabase.open(vertx, settings);
        return new Stores(new PgAccountStore(database), new PgDocumentStore(database), new PgCardStore(database),
                new PgChatStore(database, dataRoot), new PgGroupStore(database), new PgBlobStore(database, Stores::isBlob),
                new PgVectorStore(database, vectors.memoryBytes(), dataRoot.resolve(VECTOR_SCRATCH)),
                new PgLocks(database), new PgTicketStore(database, System::currentTimeMillis), database);
    }

    /**
     * The key session cookies are signed with: ST's {@code cookie-secret.txt} on files; on PostgreSQL the database's
     * one for every node, made by the first node that starts (from its {@code cookie-secret.txt} when it has one,
     * so that moving a node to the database keeps its sessions).
     */
    String cookieSecret(Path dataRoot) {
        if (database == null) {
            return SessionCookies.fileSecret(dataRoot);
        }
        return database.serverValue("cookie-secret",
                () -> SessionCookies.existingFileSecret(dataRoot).orElseGet(SessionCookies::newSecret));
    }

    /**
     * The session cookies' name: ST's, after this host's name, on files; on PostgreSQL the one the first node to
     * start gave them after its host, so that nodes on other hosts read the same cookies.
     */
    String cookieName() {
        return database == null ? SessionCookies.hostCookieName()
                : database.serverValue("cookie-name", SessionCookies::hostCookieName);
    }

    /** Where the extensions installed through any node are recorded: nowhere on files, where there is one node. */
    ExtensionRecords extensionRecords() {
        return database == null ? ExtensionRecords.NONE : new PgExtensionRecords(database);
    }

    /**
     * Whether a file of a user's folder (its path from that folder, with {@code /}) is a blob: one that none of the
     * other stores keeps (a document, a chat or chat backup, a group, a card) and that is not kept on the node
     * ({@link #NODE_FOLDERS}). Here, where every store is known: the blob store is below the stores of the features.
     */
    static boolean isBlob(String path) {
        String[] parts = path.split("/", -1);
        return !DocumentStore.isDocument(path) && !ChatStore.isChatFile(path)
                && !(parts.length == 2 && parts[0].equals(GROUPS_FOLDER) && parts[1].endsWith(".json"))
                && !(parts.length == 2 && parts[0].equals(CHARACTERS_FOLDER) && CardFile.isCardName(parts[1]))
                && !(parts.length > 1 && NODE_FOLDERS.contains(parts[0]));
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
            int slash = path.indexOf('/');
            if (parts[0].equals(ACCOUNTS_FOLDER)) {
                return true;
            }
            if (slash < 0 || !handles.contains(parts[0])) {
                return false;
            }
            String inUser = path.substring(slash + 1);
            return parts.length == 3 && parts[1].equals(GROUPS_FOLDER) && parts[2].endsWith(".json")
                    || parts.length == 3 && parts[1].equals(CHARACTERS_FOLDER) && CardFile.isCardName(parts[2])
                    || DocumentStore.isDocument(inUser) || ChatStore.isChatFile(inUser)
                    || CollectionKey.ofIndexPath(inUser).isPresent() || blobs.keeps(inUser);
        };
    }

    /** The cards' PNGs as files of this node (see {@link CardImages}). */
    CardImages cardImages(Path dataRoot) {
        return new CardImages(cards, dataRoot, database == null);
    }

    @Override
    public void forEach(String handle, Consumer<File> each) {
        if (database == null) {
            return; // on files the user's folder holds it all
        }
        for (DocumentStore.Folder folder : DocumentStore.Folder.values()) {
            for (DocumentStore.Entry entry : documents.list(handle, folder)) {
                each.accept(new File(DocumentStore.path(folder, entry.name()), entry.modifiedMs(), () -> new ByteArrayInputStream(
                        documents.read(handle, folder, entry.name()).orElse(new byte[0]))));
            }
        }
        for (BlobStore.Entry blob : blobs.walk(handle, "")) {
            each.accept(new File(blob.path(), blob.modifiedMs(),
                    () -> blobs.open(handle, blob.path()).orElseGet(InputStream::nullInputStream)));
        }
        double now = System.currentTimeMillis();
        try {
            for (GroupStore.GroupFile group : groups.files(handle)) {
                each.accept(new File(GROUPS_FOLDER + "/" + group.name(), now, () -> new ByteArrayInputStream(group.content())));
            }
            for (CardFile card : cards.list(handle)) {
                each.accept(new File(CHARACTERS_FOLDER + "/" + card.name(), card.modifiedMs(),
                        () -> new ByteArrayInputStream(cards.read(handle, card.name()))));
            }
            for (ChatFolder folder : chats.folders(handle)) {
                for (ChatFile chat : chats.list(handle, folder)) {
                    each.accept(new File(folder + "/" + chat.name(), chat.modifiedMs(),
                            () -> chats.open(handle, folder, chat.name()).orElseGet(InputStream::nullInputStream)));
                }
            }
            for (ChatFile backup : chats.backups(handle, "")) {
                if (ChatStore.isChatFile(BACKUPS_FOLDER + "/" + backup.name())) {
                    each.accept(new File(BACKUPS_FOLDER + "/" + backup.name(), backup.modifiedMs(), () -> chats
                            .backupChannel(handle, backup.name()).map(Channels::newInputStream)
                            .orElseGet(InputStream::nullInputStream)));
                }
            }
            for (VectorStore.StoredIndex index : vectors.indexes(handle)) {
                each.accept(new File(index.key().indexPath(), index.modifiedMs(),
                        () -> vectors.open(handle, index.key()).orElseGet(InputStream::nullInputStream)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the data of " + handle, e);
        }
    }

    @Override
    public void erase(String handle) {
        documents.deleteAll(handle);
        blobs.deleteAll(handle);
        extensionRecords().forgetAll(handle);
        try {
            groups.deleteAll(handle);
            chats.deleteAll(handle);
            cards.deleteAll(handle);
            vectors.purgeAll(handle, vectors.indexes(handle).stream().map(index -> index.key().source()).distinct()
                    .toList());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete the groups of " + handle, e);
        }
    }

    /**
     * Whether the stores can serve, for {@code /health/ready}: the data root is a folder this node may write (on
     * both kinds: caches, extensions, uploads), and on PostgreSQL the database answers a query. The folder is looked
     * at on {@code probes}, so that a hung disk holds none of the shared workers.
     */
    Future<Void> answer(WorkerExecutor probes, Path dataRoot) {
        Future<Void> root = probes.executeBlocking(() -> {
            if (!Files.isDirectory(dataRoot) || !Files.isWritable(dataRoot)) {
                throw new IOException("The data root is not a writable folder");
            }
            return null;
        }, false);
        return database == null ? root : root.compose(v -> database.ping());
    }

    @Override
    public void close() {
        vectors.close();
        if (database != null) {
            database.close();
        }
    }
}
