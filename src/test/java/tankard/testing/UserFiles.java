package tankard.testing;

import tankard.Tankard;
import tankard.character.CardFile;
import tankard.character.CardStore;
import tankard.character.FileCardStore;
import tankard.chat.ChatFile;
import tankard.chat.ChatFolder;
import tankard.chat.ChatStore;
import tankard.chat.FileChatStore;
import tankard.group.FileGroupStore;
import tankard.group.GroupStore;
import tankard.store.AtomicFiles;
import tankard.store.BlobStore;
import tankard.store.DocumentStore;
import tankard.store.FileDocumentStore;
import tankard.store.FileTimes;
import tankard.vector.store.CollectionKey;
import tankard.vector.store.VectorStore;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A user's files by their path in ST's layout ({@code settings.json}, {@code chats/Alice/x.jsonl},
 * {@code backups/chat_x.jsonl}, {@code groups/1.json}, {@code characters/a.png}, {@code backgrounds/b.jpg},
 * {@code vectors/webllm/chat/model/index.json}), read and written through the store
 * that keeps each kind (images and other files through the blob store), so that a test seeds and checks the same
 * data on files and on PostgreSQL. What stays on the node (thumbnails, extensions) is a file of the user's folder.
 */
public final class UserFiles {
    private static final String CHATS = "chats/";
    private static final String GROUP_CHATS = "group chats/";
    private static final String BACKUPS = "backups/";
    private static final String GROUPS = "groups/";
    private static final String CHARACTERS = "characters/";

    private final DocumentStore documents;
    private final ChatStore chats;
    private final GroupStore groups;
    private final CardStore cards;
    /** Null where vector indexes are the data root's files themselves (an ST server's). */
    private final VectorStore vectors;
    /** Null where blobs are the data root's files themselves (an ST server's). */
    private final BlobStore blobs;
    private final Path root;
    private final String user;

    private UserFiles(DocumentStore documents, ChatStore chats, GroupStore groups, CardStore cards, VectorStore vectors,
                      BlobStore blobs, Path dataRoot, String user) {
        this.documents = documents;
        this.chats = chats;
        this.groups = groups;
        this.cards = cards;
        this.vectors = vectors;
        this.blobs = blobs;
        this.root = dataRoot.resolve(user);
        this.user = user;
    }

    /** The user's files through the stores of a running Tankard. */
    static UserFiles of(Tankard tankard, String user) {
        return new UserFiles(tankard.documents(), tankard.chats(), tankard.groups(), tankard.cards(), tankard.vectors(),
                tankard.blobs(), tankard.config().dataRoot(), user);
    }

    /** The user's files in an ST data root on disk (an ST server's, or a Tankard's on files). */
    public static UserFiles onDisk(Path dataRoot, String user) {
        return new UserFiles(new FileDocumentStore(dataRoot), new FileChatStore(dataRoot), new FileGroupStore(dataRoot),
                new FileCardStore(dataRoot), null, null, dataRoot, user);
    }

    private record ChatPlace(ChatFolder folder, String name) {
    }

    /** Where a chat of this path is: its folder and name; empty when the path is not a chat's. */
    private static Optional<ChatPlace> chat(String path) {
        String[] parts = path.split("/");
        if (!path.endsWith(".jsonl")) {
            return Optional.empty();
        }
        if (path.startsWith(GROUP_CHATS) && parts.length == 2) {
            return Optional.of(new ChatPlace(ChatFolder.groups(), parts[1]));
        }
        if (path.startsWith(CHATS) && parts.length == 3) {
            return Optional.of(new ChatPlace(ChatFolder.character(parts[1]), parts[2]));
        }
        if (path.startsWith(CHATS) && parts.length == 2) {
            return Optional.of(new ChatPlace(ChatFolder.character(""), parts[1]));
        }
        return Optional.empty();
    }

    private static boolean isChatBackup(String path) {
        return path.startsWith(BACKUPS) && path.indexOf('/', BACKUPS.length()) < 0 && !path.endsWith(".json");
    }

    private static boolean isCard(String path) {
        return path.startsWith(CHARACTERS) && path.endsWith(".png") && path.indexOf('/', CHARACTERS.length()) < 0;
    }

    /** The vector index whose {@code index.json} the path is. */
    private static Optional<CollectionKey> vectorIndex(String path) {
        return path.endsWith("/" + CollectionKey.INDEX_FILE) ? CollectionKey.ofIndexPath(path) : Optional.empty();
    }

    /** The paths of the user's vector indexes ({@code vectors/webllm/chat/model/index.json}), sorted. */
    public List<String> vectorIndexes() {
        return vectors == null ? List.of() : vectors.indexes(user).stream().map(VectorStore.StoredIndex::key).map(CollectionKey::indexPath)
                .toList();
    }

    /** Whether the path is a blob's, kept by the blob store (on files too: the same files, through that store). */
    private boolean isBlob(String path) {
        return blobs != null && blobs.keeps(path);
    }

    private static boolean isGroup(String path) {
        return path.startsWith(GROUPS) && path.endsWith(".json") && path.indexOf('/', GROUPS.length()) < 0;
    }

    private static DocumentStore.Folder folder(String path) {
        int slash = path.indexOf('/');
        return documentFolder(slash < 0 ? "" : path.substring(0, slash));
    }

    /** The folder of documents of that name in ST's layout ("" for the user's folder itself). */
    static DocumentStore.Folder documentFolder(String stName) {
        return Arrays.stream(DocumentStore.Folder.values()).filter(f -> f.stName().equals(stName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Not a folder of documents: " + stName));
    }

    private static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    public void write(String path, String content) {
        write(path, content.getBytes(StandardCharsets.UTF_8));
    }

    /** Stores the bytes under the path, replacing what was there. */
    public void write(String path, byte[] content) {
        try {
            Optional<ChatPlace> chat = chat(path);
            if (DocumentStore.isDocument(path)) {
                documents.write(user, folder(path), name(path), content);
            } else if (chat.isPresent()) {
                chats.write(user, chat.get().folder(), chat.get().name(), content);
            } else if (isChatBackup(path)) {
                chats.writeBackup(user, name(path), new ByteArrayInputStream(content));
            } else if (isGroup(path)) {
                groups.putFile(user, new GroupStore.GroupFile(name(path), content));
            } else if (isCard(path)) {
                cards.write(user, name(path), content);
            } else if (vectors != null && vectorIndex(path).isPresent()) {
                vectors.restore(user, vectorIndex(path).get(), () -> new ByteArrayInputStream(content),
                        System.currentTimeMillis());
            } else if (isBlob(path)) {
                blobs.write(user, path, new ByteArrayInputStream(content));
            } else {
                Path file = root.resolve(path);
                Files.createDirectories(file.getParent());
                AtomicFiles.write(file, content);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bytes under the path, or empty when there is nothing. */
    public Optional<byte[]> find(String path) {
        try {
            Optional<ChatPlace> chat = chat(path);
            if (DocumentStore.isDocument(path)) {
                return documents.read(user, folder(path), name(path));
            } else if (chat.isPresent()) {
                Optional<InputStream> in = chats.open(user, chat.get().folder(), chat.get().name());
                return in.isEmpty() ? Optional.empty() : Optional.of(readAll(in.get()));
            } else if (isChatBackup(path)) {
                var channel = chats.backupChannel(user, name(path));
                return channel.isEmpty() ? Optional.empty()
                        : Optional.of(readAll(java.nio.channels.Channels.newInputStream(channel.get())));
            } else if (isGroup(path)) {
                return groups.files(user).stream().filter(file -> file.name().equals(name(path)))
                        .map(GroupStore.GroupFile::content).findFirst();
            } else if (isCard(path)) {
                return Optional.of(cards.read(user, name(path)));
            } else if (vectors != null && vectorIndex(path).isPresent()) {
                Optional<InputStream> in = vectors.open(user, vectorIndex(path).get());
                return in.isEmpty() ? Optional.empty() : Optional.of(readAll(in.get()));
            } else if (isBlob(path)) {
                Optional<InputStream> in = blobs.open(user, path);
                return in.isEmpty() ? Optional.empty() : Optional.of(readAll(in.get()));
            }
            return Optional.of(Files.readAllBytes(root.resolve(path)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }

    /** The bytes under the path; the test fails when there is nothing. */
    public byte[] bytes(String path) {
        return find(path).orElseThrow(() -> new AssertionError("Nothing at " + path));
    }

    /** The text under the path (UTF-8); the test fails when there is nothing. */
    public String read(String path) {
        return new String(bytes(path), StandardCharsets.UTF_8);
    }

    public boolean exists(String path) {
        return find(path).isPresent();
    }

    /** The modification time (Node's {@code mtimeMs}) of what is under the path, as its listing reports it. */
    public double modifiedMs(String path) {
        try {
            Optional<ChatPlace> chat = chat(path);
            if (DocumentStore.isDocument(path)) {
                return documents.list(user, folder(path)).stream().filter(e -> e.name().equals(name(path)))
                        .findFirst().orElseThrow(() -> new AssertionError("Nothing at " + path)).modifiedMs();
            } else if (chat.isPresent()) {
                return chats.find(user, chat.get().folder(), chat.get().name())
                        .orElseThrow(() -> new AssertionError("Nothing at " + path)).modifiedMs();
            } else if (isChatBackup(path)) {
                return chats.findBackup(user, name(path))
                        .orElseThrow(() -> new AssertionError("Nothing at " + path)).modifiedMs();
            } else if (isCard(path)) {
                return cards.find(user, name(path))
                        .orElseThrow(() -> new AssertionError("Nothing at " + path)).modifiedMs();
            } else if (isBlob(path)) {
                return blobs.stat(user, path).orElseThrow(() -> new AssertionError("Nothing at " + path)).modifiedMs();
            }
            return FileTimes.stat(root.resolve(path)).modifiedMs();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sets the modification time of what is under the path (a document is written again with it). */
    public void setModified(String path, double modifiedMs) {
        try {
            Optional<ChatPlace> chat = chat(path);
            if (DocumentStore.isDocument(path)) {
                documents.restore(user, folder(path), new DocumentStore.Entry(name(path), 0, modifiedMs,
                        modifiedMs), bytes(path));
            } else if (chat.isPresent()) {
                assertFound(chats.setModified(user, chat.get().folder(), chat.get().name(), modifiedMs), path);
            } else if (isChatBackup(path)) {
                assertFound(chats.setBackupModified(user, name(path), modifiedMs), path);
            } else if (isCard(path)) {
                CardFile card = cards.find(user, name(path)).orElseThrow(() -> new AssertionError("Nothing at " + path));
                cards.restore(user, new CardFile(card.name(), card.size(), modifiedMs, card.changedMs()), bytes(path));
            } else if (isBlob(path)) {
                byte[] content = bytes(path);
                blobs.restore(user, new BlobStore.Entry(path, content.length, modifiedMs), new ByteArrayInputStream(content));
            } else {
                Files.setLastModifiedTime(root.resolve(path), FileTime.from(Math.round(modifiedMs * 1000), TimeUnit.MICROSECONDS));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void assertFound(boolean found, String path) {
        if (!found) {
            throw new AssertionError("Nothing at " + path);
        }
    }

    /** Deletes what is under the path; false when there was nothing. */
    public boolean delete(String path) {
        try {
            Optional<ChatPlace> chat = chat(path);
            if (DocumentStore.isDocument(path)) {
                return documents.delete(user, folder(path), name(path));
            } else if (chat.isPresent()) {
                return chats.delete(user, chat.get().folder(), chat.get().name());
            } else if (isChatBackup(path)) {
                return chats.deleteBackup(user, name(path));
            } else if (isCard(path)) {
                return cards.delete(user, name(path));
            } else if (isBlob(path)) {
                return blobs.delete(user, path);
            }
            return Files.deleteIfExists(root.resolve(path));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ChatFolder chatFolder(String folder) {
        return folder.equals("group chats") ? ChatFolder.groups()
                : ChatFolder.character(folder.equals("chats") ? "" : folder.substring(CHATS.length()));
    }

    /** The names of the chats of a chat folder ({@code chats/Alice} or {@code group chats}), in listing order. */
    public List<String> chatNames(String folder) {
        try {
            return chats.list(user, chatFolder(folder)).stream().map(ChatFile::name).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The paths of all the user's chats ({@code chats/x.jsonl}, {@code group chats/g.jsonl}, {@code chats/Alice/y.jsonl}), folder by folder. */
    public List<String> chatPaths() {
        try {
            List<String> paths = new ArrayList<>();
            for (ChatFolder folder : chats.folders(user)) {
                String prefix = folder.group() || !folder.character().isEmpty() ? folder + "/" : CHATS;
                chats.list(user, folder).forEach(chat -> paths.add(prefix + chat.name()));
            }
            return paths;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether the chat folder ({@code chats/Alice}) exists, with chats in it or none. */
    public boolean chatFolderExists(String folder) {
        try {
            return chats.exists(user, chatFolder(folder));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The names of the user's chat backups that start with the prefix. */
    public List<String> backupNames(String prefix) {
        try {
            return chats.backups(user, prefix).stream().map(ChatFile::name).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Creates a folder: a chat folder ({@code chats/Alice}) in the chat store, any other on disk. */
    public void createFolder(String folder) {
        try {
            if (isCharacterChatFolder(folder)) {
                chats.create(user, chatFolder(folder));
            } else {
                Files.createDirectories(root.resolve(folder));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Whether the folder exists: a chat folder ({@code chats/Alice}) in the chat store, a folder of blobs in the blob
     * store (on PostgreSQL, while a blob is under it), any other on disk.
     */
    public boolean hasFolder(String folder) {
        if (isCharacterChatFolder(folder)) {
            return chatFolderExists(folder);
        }
        int slash = folder.lastIndexOf('/');
        return Files.isDirectory(root.resolve(folder)) || blobs != null
                && blobs.folders(user, slash < 0 ? "" : folder.substring(0, slash)).contains(folder.substring(slash + 1));
    }

    private static boolean isCharacterChatFolder(String folder) {
        return folder.startsWith(CHATS) && folder.indexOf('/', CHATS.length()) < 0 && folder.length() > CHATS.length();
    }

    /**
     * The names in a folder, sorted: the cards of {@code characters}, the chat folders and chats of {@code chats},
     * the chats of a chat folder ({@code chats/Alice}, {@code group chats}), else the folder's entries on disk.
     */
    public List<String> list(String folder) {
        try {
            if (folder.equals("characters")) {
                return cards.list(user).stream().map(CardFile::name).sorted().toList();
            } else if (folder.equals("chats")) {
                TreeSet<String> names = new TreeSet<>(chats.characterFolders(user));
                names.addAll(chatNames("chats"));
                return List.copyOf(names);
            } else if (isCharacterChatFolder(folder) || folder.equals("group chats")) {
                return chatNames(folder).stream().sorted().toList();
            }
            TreeSet<String> names = new TreeSet<>();
            if (blobs != null) {
                blobs.list(user, folder).forEach(blob -> names.add(blob.name()));
                names.addAll(blobs.folders(user, folder));
            }
            Path dir = root.resolve(folder);
            if (Files.isDirectory(dir)) {
                try (Stream<Path> entries = Files.list(dir)) {
                    entries.forEach(p -> names.add(p.getFileName().toString()));
                }
            }
            return List.copyOf(names);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every file of the user as paths in ST's layout, from each store and the user's folder on disk, sorted. */
    public List<String> paths() {
        try {
            TreeSet<String> paths = new TreeSet<>();
            if (Files.isDirectory(root)) {
                try (Stream<Path> files = Files.walk(root)) {
                    files.filter(Files::isRegularFile).forEach(file -> paths.add(root.relativize(file).toString()));
                }
            }
            for (DocumentStore.Folder folder : DocumentStore.Folder.values()) {
                documents.list(user, folder).forEach(e -> paths.add(DocumentStore.path(folder, e.name())));
            }
            paths.addAll(chatPaths());
            chats.backups(user, "").forEach(backup -> paths.add(BACKUPS + backup.name()));
            groups.files(user).forEach(group -> paths.add(GROUPS + group.name()));
            cards.list(user).forEach(card -> paths.add(CHARACTERS + card.name()));
            paths.addAll(vectorIndexes());
            if (blobs != null) {
                blobs.walk(user, "").forEach(blob -> paths.add(blob.path()));
            }
            return List.copyOf(paths);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
