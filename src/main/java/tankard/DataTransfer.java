package tankard;

import com.fasterxml.jackson.databind.node.ObjectNode;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import tankard.json.JsJson;
import tankard.store.AtomicFiles;
import tankard.character.CardFile;
import tankard.character.CardImages;
import tankard.character.CardStore;
import tankard.chat.ChatCopies;
import tankard.chat.ChatFile;
import tankard.chat.ChatFolder;
import tankard.chat.ChatStore;
import tankard.group.GroupStore;
import tankard.store.BlobStore;
import tankard.store.DocumentStore;
import tankard.thumbnail.NodeImages;
import tankard.user.AccountStore;
import tankard.user.User;
import tankard.vector.store.CollectionKey;
import tankard.vector.store.VectorStore;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Moves a data root's data from one set of stores to another (bin/tankard import-data and export-data): each kind
 * that a store keeps through the stores, byte for byte, and every other file of the data root as a file, so that
 * files → database → files gives the same tree. Every step is idempotent and skips what the target already holds
 * the same, so a run that was cut short finishes when run again.
 */
final class DataTransfer {
    /** Folders of the data root that are a server's own scratch, never user data. */
    private static final Set<String> SCRATCH = Set.of("_uploads", "_cache/tankard-cards", "_cache/vector-scratch",
            CardImages.CACHE_FOLDER, ChatCopies.CACHE_FOLDER, NodeImages.CACHE_FOLDER);

    private final PrintStream out;

    DataTransfer(PrintStream out) {
        this.out = out;
    }

    /**
     * Copies everything of {@code fromRoot} (read through {@code from}) to {@code toRoot} (written through
     * {@code to}): what the {@code database}'s stores keep through the stores, the rest as files.
     */
    void copy(Stores from, Path fromRoot, Stores to, Path toRoot, Stores database) {
        Set<String> handles = copyAccounts(from.accounts(), to.accounts());
        copyGroups(from.groups(), to.groups(), handles);
        copyDocuments(from.documents(), to.documents(), handles);
        copyChats(from.chats(), to.chats(), handles);
        copyCards(from.cards(), to.cards(), handles);
        copyVectors(from.vectors(), to.vectors(), handles);
        copyBlobs(from.blobs(), to.blobs(), handles);
        copyFiles(fromRoot, toRoot, database.keptElsewhere(handles));
    }

    /** The accounts; their handles, and the default user's. */
    private Set<String> copyAccounts(AccountStore from, AccountStore to) {
        List<ObjectNode> records = from.records();
        List<String> stored = to.records().stream().map(JsJson::compact).toList();
        Set<String> handles = new TreeSet<>(Set.of(User.DEFAULT_HANDLE)); // there even before it has a record
        try (ProgressBar bar = bar("accounts", records.size())) {
            for (ObjectNode record : records) {
                String text = JsJson.compact(record);
                if (!stored.contains(text)) {
                    to.putRecord(record);
                }
                String handle = record.path("handle").asText();
                handles.add(handle);
                String avatar = from.avatar(handle).orElse("");
                if (!avatar.equals(to.avatar(handle).orElse(""))) {
                    to.saveAvatar(handle, avatar);
                }
                bar.step();
                bar.setExtraMessage(bytes(text.length() + avatar.length()));
            }
        }
        return handles;
    }

    private void copyGroups(GroupStore from, GroupStore to, Set<String> handles) {
        try (ProgressBar bar = bar("groups", handles.size())) {
            long copied = 0;
            for (String handle : handles) {
                Map<String, byte[]> stored = new HashMap<>();
                to.files(handle).forEach(file -> stored.put(file.name(), file.content()));
                for (GroupStore.GroupFile file : from.files(handle)) {
                    if (!Arrays.equals(file.content(), stored.get(file.name()))) {
                        to.putFile(handle, file);
                        copied += file.content().length;
                    }
                }
                bar.step();
                bar.setExtraMessage(bytes(copied));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot copy the groups", e);
        }
    }

    /** The documents, with their modification times. */
    private void copyDocuments(DocumentStore from, DocumentStore to, Set<String> handles) {
        try (ProgressBar bar = bar("documents", handles.size())) {
            long copied = 0;
            for (String handle : handles) {
                for (DocumentStore.Folder folder : DocumentStore.Folder.values()) {
                    for (DocumentStore.Entry entry : from.list(handle, folder)) {
                        byte[] content = from.read(handle, folder, entry.name()).orElse(null);
                        if (content != null && !Arrays.equals(content, to.read(handle, folder, entry.name()).orElse(null))) {
                            to.restore(handle, folder, entry, content);
                            copied += content.length;
                        }
                    }
                }
                bar.step();
                bar.setExtraMessage(bytes(copied));
            }
        }
    }

    /** The character cards, with their times. */
    private void copyCards(CardStore from, CardStore to, Set<String> handles) {
        try (ProgressBar bar = bar("cards", handles.size())) {
            long copied = 0;
            for (String handle : handles) {
                for (CardFile card : from.list(handle)) {
                    if (!card.equals(to.find(handle, card.name()).orElse(null))) {
                        to.restore(handle, card, from.read(handle, card.name()));
                        copied += card.size();
                        bar.setExtraMessage(bytes(copied));
                    }
                }
                bar.step();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot copy the cards", e);
        }
    }

    /** The chat folders, chats and chat backups, streamed, with their modification times. */
    private void copyChats(ChatStore from, ChatStore to, Set<String> handles) {
        try (ProgressBar bar = bar("chats", handles.size())) {
            long copied = 0;
            for (String handle : handles) {
                for (ChatFolder folder : from.folders(handle)) {
                    if (!from.exists(handle, folder)) {
                        continue;
                    }
                    to.create(handle, folder);
                    for (ChatFile chat : from.list(handle, folder)) {
                        if (!chat.equals(to.find(handle, folder, chat.name()).orElse(null))) {
                            try (InputStream in = from.open(handle, folder, chat.name()).orElseThrow();
                                 ChatStore.Draft draft = to.draft(handle)) {
                                in.transferTo(draft.out());
                                draft.commit(folder, chat.name());
                            }
                            to.setModified(handle, folder, chat.name(), chat.modifiedMs());
                            copied += chat.size();
                        }
                        bar.setExtraMessage(bytes(copied));
                    }
                }
                for (ChatFile backup : from.backups(handle, "")) {
                    if (ChatStore.isChatFile("backups/" + backup.name())
                            && !backup.equals(to.findBackup(handle, backup.name()).orElse(null))) {
                        try (InputStream in = Channels.newInputStream(from.backupChannel(handle, backup.name()).orElseThrow())) {
                            to.writeBackup(handle, backup.name(), in);
                        }
                        to.setBackupModified(handle, backup.name(), backup.modifiedMs());
                        copied += backup.size();
                    }
                }
                bar.step();
                bar.setExtraMessage(bytes(copied));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot copy the chats", e);
        }
    }

    /** The vector indexes, each as its index.json's bytes, with its modification time. */
    private void copyVectors(VectorStore from, VectorStore to, Set<String> handles) {
        try (ProgressBar bar = bar("vectors", handles.size())) {
            int copied = 0;
            for (String handle : handles) {
                Map<CollectionKey, Double> stored = new HashMap<>();
                to.indexes(handle).forEach(index -> stored.put(index.key(), index.modifiedMs()));
                for (VectorStore.StoredIndex index : from.indexes(handle)) {
                    if (!Double.valueOf(index.modifiedMs()).equals(stored.get(index.key()))) {
                        to.restore(handle, index.key(), () -> from.open(handle, index.key()).orElseThrow(
                                () -> new IOException("The vector index " + index.key().indexPath() + " of " + handle
                                        + " is gone")), index.modifiedMs());
                        copied++;
                    }
                }
                bar.step();
                bar.setExtraMessage(copied + " indexes");
            }
        }
    }

    /** The images and other files, streamed, with their modification times. */
    private void copyBlobs(BlobStore from, BlobStore to, Set<String> handles) {
        try (ProgressBar bar = bar("images and files", handles.size())) {
            long copied = 0;
            for (String handle : handles) {
                for (BlobStore.Entry blob : from.walk(handle, "")) {
                    if (!blob.equals(to.stat(handle, blob.path()).orElse(null))) {
                        Optional<InputStream> content = from.open(handle, blob.path());
                        if (content.isPresent()) { // else deleted since the walk
                            try (InputStream in = content.get()) {
                                to.restore(handle, blob, in);
                            }
                            copied += blob.size();
                            bar.setExtraMessage(bytes(copied));
                        }
                    }
                }
                bar.step();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot copy the images and files", e);
        }
    }

    /** Every file under the root but the scratch folders and what the stores keep, with its modification time. */
    private void copyFiles(Path fromRoot, Path toRoot, Predicate<String> storedApart) {
        List<Path> files = new ArrayList<>();
        long total = 0;
        try (Stream<Path> walk = Files.walk(fromRoot)) {
            for (Path file : (Iterable<Path>) walk::iterator) {
                String relative = fromRoot.relativize(file).toString().replace('\\', '/');
                if (Files.isRegularFile(file) && !excluded(relative, storedApart)
                        && !AtomicFiles.isOwnTemp(file.getFileName().toString())) {
                    files.add(file);
                    total += Files.size(file);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + fromRoot, e);
        }
        try (ProgressBar bar = bar("files", files.size())) {
            long copied = 0;
            for (Path file : files) {
                copied += copyFile(file, toRoot.resolve(fromRoot.relativize(file)));
                bar.step();
                bar.setExtraMessage(bytes(copied) + " of " + bytes(total));
            }
        }
    }

    private static boolean excluded(String relative, Predicate<String> storedApart) {
        return storedApart.test(relative)
                || SCRATCH.stream().anyMatch(folder -> relative.equals(folder) || relative.startsWith(folder + "/"));
    }

    /** Copies a file atomically unless the target has its size and time already; the bytes copied. */
    private static long copyFile(Path from, Path to) {
        try {
            BasicFileAttributes source = Files.readAttributes(from, BasicFileAttributes.class);
            if (Files.isRegularFile(to)) {
                BasicFileAttributes target = Files.readAttributes(to, BasicFileAttributes.class);
                if (target.size() == source.size() && target.lastModifiedTime().equals(source.lastModifiedTime())) {
                    return 0;
                }
            }
            Files.createDirectories(to.getParent());
            AtomicFiles.write(to, channel -> {
                try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ)) {
                    AtomicFiles.transfer(in, in.size(), channel);
                }
            });
            Files.setLastModifiedTime(to, FileTime.from(source.lastModifiedTime().toInstant()));
            return source.size();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot copy " + from, e);
        }
    }

    private ProgressBar bar(String task, long max) {
        return new ProgressBarBuilder().setTaskName(task).setInitialMax(max).setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(500).setConsumer(new ConsoleProgressBarConsumer(out)).build();
    }

    private static String bytes(long n) {
        return n < 1 << 20 ? (n >> 10) + " KB" : (n >> 20) + " MB";
    }
}
