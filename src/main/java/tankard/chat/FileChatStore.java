package tankard.chat;

import tankard.store.AtomicFiles;
import tankard.store.FileTimes;
import tankard.user.UserDirs;
import tankard.util.FileNames;
import tankard.util.Sanitize;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Chats as ST stores them: {@code <user>/chats/<character>/<name>.jsonl}, {@code <user>/group chats/<id>.jsonl},
 * backups in {@code <user>/backups/}.
 */
public final class FileChatStore implements ChatStore {
    private final Path dataRoot;

    public FileChatStore(Path dataRoot) {
        this.dataRoot = dataRoot;
    }

    @Override
    public boolean exists(String user, ChatFolder folder) {
        return Files.isDirectory(folder(user, folder));
    }

    @Override
    public void create(String user, ChatFolder folder) throws IOException {
        Files.createDirectories(folder(user, folder));
    }

    @Override
    public List<ChatFile> list(String user, ChatFolder folder) throws IOException {
        return files(folder(user, folder), ChatFile::isChatName);
    }

    @Override
    public Optional<ChatFile> find(String user, ChatFolder folder, String name) throws IOException {
        return regularFile(file(folder(user, folder), name), name);
    }

    @Override
    public Set<String> characterFolders(String user) throws IOException {
        Set<String> names = new HashSet<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder(user, ChatFolder.character("")))) {
            for (Path entry : entries) {
                if (Files.isDirectory(entry)) {
                    names.add(entry.getFileName().toString());
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            return Set.of();
        }
        return names;
    }

    @Override
    public FolderUsage usage(String user, ChatFolder folder) throws IOException {
        long size = 0;
        double newest = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder(user, folder))) {
            for (Path entry : entries) {
                Optional<BasicFileAttributes> attributes = stat(entry);
                if (attributes.isPresent()) {
                    size += attributes.get().size();
                    newest = Math.max(newest, FileTimes.modifiedMs(attributes.get()));
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            return FolderUsage.EMPTY;
        }
        return new FolderUsage(size, newest);
    }

    @Override
    public Optional<InputStream> open(String user, ChatFolder folder, String name) throws IOException {
        try {
            return Optional.of(Files.newInputStream(file(folder(user, folder), name)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public void replaceTail(String user, ChatFolder folder, String name, long keep, byte[] tail) throws IOException {
        Path chat = file(folder(user, folder), name);
        try (FileChannel source = FileChannel.open(chat)) {
            AtomicFiles.write(chat, channel -> {
                AtomicFiles.transfer(source, keep, channel);
                ByteBuffer bytes = ByteBuffer.wrap(tail);
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
            });
        }
    }

    @Override
    public void write(String user, ChatFolder folder, String name, byte[] content) {
        AtomicFiles.write(file(folder(user, folder), name), content);
    }

    @Override
    public Optional<SeekableByteChannel> channel(String user, ChatFolder folder, String name) throws IOException {
        return read(file(folder(user, folder), name));
    }

    @Override
    public boolean rename(String user, ChatFolder folder, String from, String to) throws IOException {
        Path source = file(folder(user, folder), from);
        if (!Files.isRegularFile(source)) {
            return false;
        }
        Path target = file(folder(user, folder), to);
        try {
            if (!AtomicFiles.moveNoReplace(source, target)) {
                return false;
            }
        } catch (NoSuchFileException e) {
            return false; // deleted meanwhile
        }
        // ST copies the file, so a renamed chat is as new as the rename (recent chats sort by mtime)
        Files.setLastModifiedTime(target, FileTime.from(Instant.now()));
        return true;
    }

    @Override
    public boolean delete(String user, ChatFolder folder, String name) throws IOException {
        Path path = file(folder(user, folder), name);
        // Like ST, a link to a chat is removed itself; folders are never chats
        return Files.isRegularFile(path) && Files.deleteIfExists(path);
    }

    @Override
    public boolean create(String user, ChatFolder folder, String name, InputStream content) throws IOException {
        return AtomicFiles.create(file(folder(user, folder), name), channel -> content.transferTo(Channels.newOutputStream(channel)));
    }

    @Override
    public List<ChatFile> backups(String user, String prefix) throws IOException {
        return files(backupFolder(user), name -> name.startsWith(prefix));
    }

    @Override
    public void writeBackup(String user, String name, InputStream content) {
        AtomicFiles.write(file(backupFolder(user), name), channel -> content.transferTo(Channels.newOutputStream(channel)));
    }

    /** Drafts are temp files in the user's chats folder, so that the commit is a rename within one file system. */
    @Override
    public Draft draft(String user) throws IOException {
        Path folder = folder(user, ChatFolder.character(""));
        Files.createDirectories(folder);
        return new FileDraft(user, folder.resolve(".tankard-draft." + Math.abs(ThreadLocalRandom.current().nextLong())));
    }

    private final class FileDraft implements Draft {
        private final String user;
        private final Path temp;
        private final FileChannel channel;
        private final BufferedOutputStream out;
        private boolean committed;

        FileDraft(String user, Path temp) throws IOException {
            this.user = user;
            this.temp = temp;
            this.channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            this.out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 20);
        }

        @Override
        public OutputStream out() {
            return out;
        }

        @Override
        public void restart() throws IOException {
            out.flush();
            channel.truncate(0);
        }

        @Override
        public void commit(ChatFolder folder, String name) throws IOException {
            out.flush();
            channel.force(true);
            channel.close();
            Path target = file(folder(user, folder), name);
            Files.createDirectories(target.getParent());
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                // the chat folder is on another file system (a link): copy next to it, then rename there
                AtomicFiles.write(target, channel -> {
                    try (FileChannel source = FileChannel.open(temp)) {
                        AtomicFiles.transfer(source, source.size(), channel);
                    }
                });
                Files.delete(temp);
            }
            committed = true;
        }

        @Override
        public void close() {
            if (!committed) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // the file is deleted next
                }
                AtomicFiles.deleteQuietly(temp);
            }
        }
    }

    @Override
    public Optional<ChatFile> findBackup(String user, String name) throws IOException {
        return regularFile(file(backupFolder(user), name), name);
    }

    @Override
    public Optional<SeekableByteChannel> backupChannel(String user, String name) throws IOException {
        return read(file(backupFolder(user), name));
    }

    @Override
    public boolean deleteBackup(String user, String name) throws IOException {
        Path path = file(backupFolder(user), name);
        return Files.isRegularFile(path) && Files.deleteIfExists(path);
    }

    @Override
    public boolean moveFolder(String user, ChatFolder from, ChatFolder to) throws IOException {
        Path source = characterFolder(user, from);
        Path target = characterFolder(user, to);
        if (!Files.isDirectory(source) || Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        // A rename within chats/ moves the whole folder at once, unlike ST's copy-then-delete
        Files.move(source, target);
        return true;
    }

    @Override
    public boolean deleteFolder(String user, ChatFolder folder) throws IOException {
        Path path = characterFolder(user, folder);
        if (!Files.isDirectory(path)) {
            return false;
        }
        AtomicFiles.deleteTree(path);
        return true;
    }

    /** A character's own chat folder: never the chats root or the group chats. */
    private Path characterFolder(String user, ChatFolder folder) {
        if (folder.group() || folder.character().isEmpty()) {
            throw new IllegalArgumentException("Not a character chat folder: " + folder);
        }
        return folder(user, folder);
    }

    private List<ChatFile> files(Path folder, Predicate<String> accept) throws IOException {
        List<ChatFile> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (accept.test(name)) {
                    stat(entry).filter(BasicFileAttributes::isRegularFile)
                            .ifPresent(a -> files.add(new ChatFile(name, a.size(), FileTimes.modifiedMs(a))));
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            return List.of();
        }
        files.sort(Comparator.comparing(ChatFile::name, FileNames.BYTE_ORDER)); // Node's readdir order
        return files;
    }

    private static Optional<ChatFile> regularFile(Path path, String name) throws IOException {
        return stat(path).filter(BasicFileAttributes::isRegularFile)
                .map(a -> new ChatFile(name, a.size(), FileTimes.modifiedMs(a)));
    }

    private static Optional<SeekableByteChannel> read(Path path) throws IOException {
        try {
            return Optional.of(FileChannel.open(path, StandardOpenOption.READ));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /** Attributes following links, as Node's stat; empty when the entry vanished or is a dangling link. */
    private static Optional<BasicFileAttributes> stat(Path path) throws IOException {
        try {
            return Optional.of(Files.readAttributes(path, BasicFileAttributes.class));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    private Path folder(String user, ChatFolder folder) {
        UserDirs dirs = UserDirs.of(dataRoot, user);
        if (folder.group()) {
            return dirs.groupChats();
        }
        return folder.character().isEmpty() ? dirs.chats() : dirs.chats().resolve(folder.character());
    }

    private Path backupFolder(String user) {
        return UserDirs.of(dataRoot, user).backups();
    }

    private static Path file(Path folder, String name) {
        if (!Sanitize.isSafeSegment(name)) {
            throw new IllegalArgumentException("Not a file name: " + name);
        }
        return folder.resolve(name);
    }
}
