package tankard.datamaid;

import tankard.chat.ChatFile;
import tankard.chat.ChatFiles;
import tankard.chat.ChatFolder;
import tankard.chat.ChatStore;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;
import tankard.store.BlobStore;
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Folder;
import tankard.store.FileTimes;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A loose file of a report: a blob (an image, a Data Bank file), a chat or chat backup, a document, each reached
 * only through the store that keeps it, or a thumbnail, a file of this node. Each is listed, viewed and deleted where
 * it lives.
 */
interface Loose {
    /** What the report's hash is made of, unique among the user's files. */
    String key();

    String name();

    /** The name of the folder it is in, for the records that name one. */
    String parent();

    /** Its size and mtime (as listed, for a chat); empty when it is gone. */
    Optional<Stat> stat();

    /** It opened for viewing; empty when it is gone. */
    Optional<View> view() throws IOException;

    /** Deletes it, if it is still there. */
    void delete() throws IOException;

    /** Where it is, as a report kept for other requests holds it (DataMaid.resolve finds it again from this). */
    ObjectNode reference();

    /** A size in bytes and an mtime in ms, as Node's stat gives it. */
    record Stat(long size, double modifiedMs) {
    }

    /** An open file to send: its name, length and bytes (which {@link Content#writeTo} closes). */
    record View(String name, long size, Content content) {
    }

    @FunctionalInterface
    interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** A regular file (not a link) of the user's folder on this node (a thumbnail), never outside {@code root}. */
    record NodeFile(Path path, Path root) implements Loose {
        @Override
        public String key() {
            return path.toString();
        }

        @Override
        public String name() {
            return path.getFileName().toString();
        }

        @Override
        public String parent() {
            return path.getParent().getFileName().toString();
        }

        @Override
        public Optional<Stat> stat() {
            try {
                FileTimes.Stat stat = FileTimes.stat(path);
                return Optional.of(new Stat(stat.size(), stat.modifiedMs()));
            } catch (IOException e) {
                return Optional.empty(); // gone between the scan and the report
            }
        }

        @Override
        public Optional<View> view() throws IOException {
            return isThere() ? Optional.of(new View(name(), Files.size(path), out -> Files.copy(path, out)))
                    : Optional.empty();
        }

        @Override
        public void delete() throws IOException {
            if (isThere()) {
                Files.deleteIfExists(path);
            }
        }

        @Override
        public ObjectNode reference() {
            return JsJson.object().put("kind", "thumbnail").put("path", root.relativize(path).toString());
        }

        private boolean isThere() {
            return path.startsWith(root) && !path.equals(root) && Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS);
        }
    }

    /** A blob of the user's, as it was listed. */
    record Blob(BlobStore store, String user, BlobStore.Entry entry) implements Loose {
        @Override
        public String key() {
            return entry.path();
        }

        @Override
        public String name() {
            return entry.name();
        }

        @Override
        public String parent() {
            String folder = entry.path().substring(0, entry.path().lastIndexOf('/'));
            return folder.substring(folder.lastIndexOf('/') + 1);
        }

        @Override
        public Optional<Stat> stat() {
            return Optional.of(new Stat(entry.size(), entry.modifiedMs()));
        }

        @Override
        public Optional<View> view() {
            return store.open(user, entry.path(), 0).map(opened -> new View(entry.name(), opened.entry().size(),
                    out -> {
                        try (opened) {
                            opened.content().transferTo(out);
                        }
                    }));
        }

        @Override
        public void delete() {
            store.delete(user, entry.path());
        }

        @Override
        public ObjectNode reference() {
            return JsJson.object().put("kind", "blob").put("path", entry.path());
        }
    }

    /** A chat, as it was listed; deleted as a chat is (ChatFiles), after any save under way. */
    record Chat(ChatStore store, ChatFiles files, String user, ChatFolder folder, ChatFile file) implements Loose {
        @Override
        public String key() {
            return folder + "/" + file.name();
        }

        @Override
        public String name() {
            return file.name();
        }

        @Override
        public String parent() {
            return folder.group() ? "group chats" : folder.character();
        }

        @Override
        public Optional<Stat> stat() {
            return Optional.of(new Stat(file.size(), file.modifiedMs()));
        }

        @Override
        public Optional<View> view() throws IOException {
            return opened(file.name(), store.channel(user, folder, file.name()));
        }

        @Override
        public void delete() throws IOException {
            files.delete(user, folder, file.name());
        }

        @Override
        public ObjectNode reference() {
            return JsJson.object().put("kind", "chat").put("group", folder.group()).put("character", folder.character())
                    .put("name", file.name());
        }
    }

    /** A chat backup, as it was listed. */
    record Backup(ChatStore store, String user, ChatFile file) implements Loose {
        @Override
        public String key() {
            return "backups/" + file.name();
        }

        @Override
        public String name() {
            return file.name();
        }

        @Override
        public String parent() {
            return "backups";
        }

        @Override
        public Optional<Stat> stat() {
            return Optional.of(new Stat(file.size(), file.modifiedMs()));
        }

        @Override
        public Optional<View> view() throws IOException {
            return opened(file.name(), store.backupChannel(user, file.name()));
        }

        @Override
        public void delete() throws IOException {
            store.deleteBackup(user, file.name());
        }

        @Override
        public ObjectNode reference() {
            return JsJson.object().put("kind", "backup").put("name", file.name());
        }
    }

    /** A document of the user's (a settings snapshot), as it was listed. */
    record Document(DocumentStore store, String user, Folder folder, DocumentStore.Entry entry) implements Loose {
        @Override
        public String key() {
            return folder.stName() + "/" + entry.name();
        }

        @Override
        public String name() {
            return entry.name();
        }

        @Override
        public String parent() {
            return folder.stName();
        }

        @Override
        public Optional<Stat> stat() {
            return Optional.of(new Stat(entry.size(), entry.modifiedMs()));
        }

        @Override
        public Optional<View> view() {
            return store.read(user, folder, entry.name())
                    .map(bytes -> new View(entry.name(), bytes.length, out -> out.write(bytes)));
        }

        @Override
        public void delete() {
            store.delete(user, folder, entry.name());
        }

        @Override
        public ObjectNode reference() {
            return JsJson.object().put("kind", "document").put("folder", folder.name()).put("name", entry.name());
        }
    }

    /** A view of an opened chat or backup: the length and bytes of what was opened. */
    private static Optional<View> opened(String name, Optional<SeekableByteChannel> channel) throws IOException {
        if (channel.isEmpty()) {
            return Optional.empty();
        }
        long size;
        try {
            size = channel.get().size();
        } catch (IOException | RuntimeException e) {
            channel.get().close();
            throw e;
        }
        return Optional.of(new View(name, size, out -> {
            try (InputStream in = Channels.newInputStream(channel.get())) {
                in.transferTo(out);
            }
        }));
    }
}
