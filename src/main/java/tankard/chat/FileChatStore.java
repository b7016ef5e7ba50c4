package tankard.chat;

import tankard.store.AtomicFiles;
import tankard.store.FileTimes;
import tankard.store.SpoolFile;
import tankard.store.StripedLocks;
import tankard.store.Writeback;
import tankard.user.UserDirs;
import tankard.util.FileNames;
import tankard.util.Sanitize;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Chats as ST stores them: {@code <user>/chats/<character>/<name>.jsonl}, {@code <user>/group chats/<id>.jsonl},
 * backups in {@code <user>/backups/}.
 * <p>
 * Every write replaces a chat by a rename, except {@link #replaceTail}, which changes it in place so that it costs
 * O(change): under the chat's journal lock it writes an undo journal (TailJournal), then, holding the chat's
 * inode write lock, hands the old end to the open views (ChatViews), truncates, appends, fsyncs, and deletes the
 * journal. A crash leaves a journal, which rolls the chat back when its folder is first used (the sweep, which
 * also deletes drafts left by a crash) or, for a write that failed in this process, when the chat is next found,
 * opened, listed or written. A save whose old end is too large to hold in memory is copied and renamed instead.
 */
public final class FileChatStore implements ChatStore {
    /** The most old bytes an in-place tail save keeps in memory (its journal, a view's copy). */
    static final long MAX_IN_PLACE = 16L * 1024 * 1024;
    private static final Duration STALE_TEMP = Duration.ofMinutes(10);
    private static final String DRAFT_PREFIX = ".tankard-draft.";
    /** A draft's name, never a chat's (chats end in .jsonl). */
    private static final Pattern DRAFT = Pattern.compile(Pattern.quote(DRAFT_PREFIX) + "[0-9]+");

    private final Path dataRoot;
    private final ChatViews views = new ChatViews();
    private final StripedLocks journalLocks = new StripedLocks(64);
    /** The folders swept of crash leftovers by this process. */
    private final Map<Path, Boolean> swept = new ConcurrentHashMap<>();

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
        Path path = folder(user, folder);
        List<ChatFile> files = new ArrayList<>();
        if (files(path, ChatFile::isChatName, files)) {
            sweep(path, false); // a tail save failed here and could not roll back: do it now, then list again
            files.clear();
            files(path, ChatFile::isChatName, files);
        }
        return files;
    }

    @Override
    public Optional<ChatFile> find(String user, ChatFolder folder, String name) throws IOException {
        Path chat = settled(folder(user, folder), name);
        return regularFile(chat, name);
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
        return channel(user, folder, name).map(Channels::newInputStream);
    }

    @Override
    public Optional<AtHand> openAtHand(String user, ChatFolder folder, String name) throws IOException {
        // the file's size and time before it is opened: a file written in between differs from it later
        Object version = version(user, folder, name).orElse(null);
        return open(user, folder, name).map(in -> new AtHand(in, version));
    }

    /** The chat's file, size and time: a save writes a new file, a tail save changes the size or the time. */
    @Override
    public Optional<Object> version(String user, ChatFolder folder, String name) throws IOException {
        return stat(settled(folder(user, folder), name)).filter(BasicFileAttributes::isRegularFile)
                .map(a -> new FileVersion(a.fileKey(), a.size(), FileTimes.modifiedMs(a)));
    }

    private record FileVersion(Object file, long size, double modifiedMs) {
    }

    @Override
    public ChatFile replaceTail(String user, ChatFolder folder, String name, ChatFile expected, long keep, byte[] tail)
            throws IOException {
        Path chat = file(folder(user, folder), name);
        Path journal = TailJournal.of(chat);
        ReentrantLock journalLock = journalLocks.lock(journal.toString());
        try {
            settle(journal);
            Object inode = ChatViews.inode(chat);
            boolean inPlace;
            Lock writing = views.writeLock(inode);
            writing.lock();
            try (FileChannel channel = FileChannel.open(chat, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                if (!regularFile(chat, name).equals(Optional.of(expected))) {
                    throw ChatStore.changed();
                }
                long size = channel.size();
                if (keep > size) {
                    throw new IOException("The chat is shorter than the part to keep");
                }
                inPlace = size - keep <= MAX_IN_PLACE && views.retainedAfter(inode, keep, size) <= MAX_IN_PLACE;
                if (inPlace) {
                    replaceInPlace(chat, channel, inode, keep, tail);
                }
            } finally {
                writing.unlock();
            }
            if (!inPlace) {
                copyReplace(chat, keep, tail);
            }
            return regularFile(chat, name).orElseThrow(() -> new NoSuchFileException(chat.toString()));
        } finally {
            journalLock.unlock();
        }
    }

    /** Journal, change, fsync, forget the journal (see the class comment). Holds the inode's write lock. */
    private void replaceInPlace(Path chat, FileChannel channel, Object inode, long keep, byte[] tail) throws IOException {
        Path journal = TailJournal.of(chat);
        FileTime modified = Files.getLastModifiedTime(chat);
        byte[] old = readRange(channel, keep, channel.size());
        try {
            TailJournal.write(journal, new TailJournal.Entry(chat.getFileName().toString(), keep, modified, old));
        } catch (IOException e) {
            AtomicFiles.deleteQuietly(journal); // the chat is untouched: nothing to roll back
            throw e;
        }
        try {
            views.changing(inode, keep, old);
            channel.truncate(keep);
            writeAt(channel, keep, tail);
            // strictly later than before, whatever the clock's grain: a cursor read before never matches again
            Instant now = Instant.now();
            Instant later = modified.toInstant().plusNanos(1000);
            Files.setLastModifiedTime(chat, FileTime.from(now.isAfter(later) ? now : later));
            channel.force(true);
        } catch (IOException | RuntimeException e) {
            try {
                restore(chat, channel, new TailJournal.Entry(chat.getFileName().toString(), keep, modified, old));
                TailJournal.delete(journal);
            } catch (IOException failed) {
                e.addSuppressed(failed); // the journal stays: the next use of the chat rolls it back
            }
            throw e;
        }
        TailJournal.delete(journal);
    }

    /** Puts the journaled end back: idempotent, so a crash while rolling back rolls back again. */
    private static void restore(Path chat, FileChannel channel, TailJournal.Entry entry) throws IOException {
        channel.truncate(entry.cut());
        writeAt(channel, entry.cut(), entry.old());
        Files.setLastModifiedTime(chat, entry.modified());
        channel.force(true);
    }

    /** Rolls back the chat of a journal left behind, if the journal is there; holds the journal's lock. */
    private void settle(Path journal) throws IOException {
        if (!Files.exists(journal, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        ReentrantLock journalLock = journalLocks.lock(journal.toString());
        try {
            Optional<TailJournal.Entry> entry = TailJournal.read(journal);
            Path chat = entry.map(e -> journal.resolveSibling(e.chat())).orElse(null);
            if (chat != null && Sanitize.isSafeSegment(entry.get().chat()) && Files.isRegularFile(chat)) {
                Object inode = ChatViews.inode(chat);
                Lock writing = views.writeLock(inode);
                writing.lock();
                try (FileChannel channel = FileChannel.open(chat, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    views.changing(inode, entry.get().cut(), readRange(channel, entry.get().cut(), channel.size()));
                    restore(chat, channel, entry.get());
                } finally {
                    writing.unlock();
                }
            }
            TailJournal.delete(journal); // rolled back, or damaged (the chat was not touched yet), or its chat gone
        } finally {
            journalLock.unlock();
        }
    }

    /** The chat's path, rolled back first if a tail save left a journal for it. */
    private Path settled(Path folder, String name) throws IOException {
        Path chat = file(folder, name);
        settle(TailJournal.of(chat));
        return chat;
    }

    /** A tail save by a copy of the kept bytes (in the kernel) and a rename: for ends too large to journal. */
    private static void copyReplace(Path chat, long keep, byte[] tail) throws IOException {
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
    public void write(String user, ChatFolder folder, String name, byte[] content) throws IOException {
        Path chat = settled(folder(user, folder), name);
        Optional<FileTime> before = Files.isRegularFile(chat) ? Optional.of(Files.getLastModifiedTime(chat)) : Optional.empty();
        AtomicFiles.write(chat, content);
        // The clock the file system stamps with moves in ticks of some ms: a chat written twice within one would
        // keep its size and time, and a cursor read before would match again. Never the same time twice.
        if (before.isPresent() && Files.getLastModifiedTime(chat).compareTo(before.get()) <= 0) {
            Files.setLastModifiedTime(chat, FileTime.from(before.get().toInstant().plusNanos(1000)));
        }
    }

    @Override
    public Optional<SeekableByteChannel> channel(String user, ChatFolder folder, String name) throws IOException {
        try {
            return Optional.of(views.open(settled(folder(user, folder), name)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public boolean rename(String user, ChatFolder folder, String from, String to) throws IOException {
        Path source = settled(folder(user, folder), from);
        if (!Files.isRegularFile(source)) {
            return false;
        }
        Path target = settled(folder(user, folder), to);
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
    public boolean setModified(String user, ChatFolder folder, String name, double modifiedMs) throws IOException {
        return touch(settled(folder(user, folder), name), modifiedMs);
    }

    @Override
    public boolean setBackupModified(String user, String name, double modifiedMs) throws IOException {
        return touch(file(backupFolder(user), name), modifiedMs);
    }

    private static boolean touch(Path file, double modifiedMs) throws IOException {
        if (!Files.isRegularFile(file)) {
            return false;
        }
        Files.setLastModifiedTime(file, FileTime.from(Math.round(modifiedMs * 1000), TimeUnit.MICROSECONDS));
        return true;
    }

    @Override
    public boolean delete(String user, ChatFolder folder, String name) throws IOException {
        Path path = settled(folder(user, folder), name);
        // Like ST, a link to a chat is removed itself; folders are never chats
        return Files.isRegularFile(path) && Files.deleteIfExists(path);
    }

    @Override
    public boolean create(String user, ChatFolder folder, String name, InputStream content) throws IOException {
        return AtomicFiles.create(settled(folder(user, folder), name), channel -> content.transferTo(Channels.newOutputStream(channel)));
    }

    @Override
    public List<ChatFile> backups(String user, String prefix) throws IOException {
        List<ChatFile> files = new ArrayList<>();
        files(backupFolder(user), name -> name.startsWith(prefix), files);
        return files;
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
        return new FileDraft(user, folder.resolve(DRAFT_PREFIX + Math.abs(ThreadLocalRandom.current().nextLong())));
    }

    private final class FileDraft extends SpooledDraft {
        private final String user;
        private boolean committed;

        FileDraft(String user, Path temp) throws IOException {
            super(new SpoolFile(temp, true, StandardOpenOption.CREATE_NEW));
            this.user = user;
        }

        @Override
        public void commit(ChatFolder folder, String name) throws IOException {
            spool.finish(true);
            Path temp = spool.path();
            Path target = settled(folder(user, folder), name);
            Files.createDirectories(target.getParent());
            // the chat replaced is freed by the last close of a handle on it, which the save need not wait for
            FileChannel replaced = openIfThere(target);
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
            } finally {
                if (replaced != null) {
                    Writeback.close(replaced);
                }
            }
            committed = true;
        }

        /** A read handle on the file, or null when there is none to open (the handle only defers work). */
        private static FileChannel openIfThere(Path file) {
            try {
                return FileChannel.open(file, StandardOpenOption.READ);
            } catch (IOException absentOrUnreadable) {
                return null;
            }
        }

        @Override
        public void close() {
            if (!committed) { // once committed, the temp file's name may be another draft's
                spool.close();
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

    /**
     * Lists the accepted files into {@code files}, never a file still being written (an {@link AtomicFiles} temp file
     * until its rename); true when the folder holds a tail save's journal.
     */
    private static boolean files(Path folder, Predicate<String> accept, List<ChatFile> files) throws IOException {
        boolean journal = false;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                journal |= TailJournal.isJournal(name);
                if (accept.test(name) && !AtomicFiles.isOwnTemp(name)) {
                    stat(entry).filter(BasicFileAttributes::isRegularFile)
                            .ifPresent(a -> files.add(new ChatFile(name, a.size(), FileTimes.modifiedMs(a))));
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            return false;
        }
        files.sort(Comparator.comparing(ChatFile::name, FileNames.BYTE_ORDER)); // Node's readdir order
        return journal;
    }

    /**
     * Rolls back the chats of the journals in the folder and, with {@code drafts}, deletes the drafts there.
     * Run with drafts once per folder and process, before anything else uses the folder: the drafts there
     * then are a crashed process's, never one of a save under way.
     */
    private void sweep(Path folder, boolean drafts) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (TailJournal.isJournal(name)) {
                    settle(entry);
                } else if (drafts && DRAFT.matcher(name).matches() && Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
                    Files.deleteIfExists(entry);
                } else if (drafts && AtomicFiles.isOwnTemp(name) && name.contains(".jsonl.")) {
                    // A whole-chat write killed midway; old enough to be no one's.
                    AtomicFiles.deleteStaleTemps(folder.resolve(name.substring(0, name.lastIndexOf('.'))), STALE_TEMP);
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            // nothing to sweep
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot recover the chat folder " + folder.getFileName(), e);
        }
    }

    private static Optional<ChatFile> regularFile(Path path, String name) throws IOException {
        return stat(path).filter(BasicFileAttributes::isRegularFile)
                .map(a -> new ChatFile(name, a.size(), FileTimes.modifiedMs(a)));
    }

    private static byte[] readRange(FileChannel channel, long from, long to) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(to - from));
        while (bytes.hasRemaining()) {
            if (channel.read(bytes, from + bytes.position()) < 0) {
                throw new IOException("The chat was cut short while it was read");
            }
        }
        return bytes.array();
    }

    private static void writeAt(FileChannel channel, long at, byte[] content) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(content);
        while (bytes.hasRemaining()) {
            channel.write(bytes, at + bytes.position());
        }
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
        Path path = folder.group() ? dirs.groupChats()
                : folder.character().isEmpty() ? dirs.chats() : dirs.chats().resolve(folder.character());
        swept.computeIfAbsent(path, p -> {
            sweep(p, true);
            return true;
        });
        return path;
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
