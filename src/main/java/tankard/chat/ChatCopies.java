package tankard.chat;

import tankard.store.DocumentStore;
import tankard.store.ReadOnlyChannel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Whole chats of a store elsewhere (the database) as files of this node, under the data root's
 * {@code _cache/tankard-chats}, each named by the chat's row id and version. A copy never changes once made: a
 * save gives the chat a new version, so its next read takes no copy until a new one is made, and a copy needs no
 * lock. Whether a copy may be read is decided by the version the database gives, on any node.
 * <p>
 * A read from the database that goes through a chat from its start to its end in order (a {@code chats/get})
 * leaves the copy behind as it goes ({@link #recording}); the reads of that version that follow read the copy, at
 * the speed of the file store. A cache only: losing it loses nothing.
 */
public final class ChatCopies {
    /** The data root's folder of copies (a node's own scratch, never moved with the data). */
    public static final String CACHE_FOLDER = "_cache/tankard-chats";
    private static final String SUFFIX = ".jsonl";
    private static final String TEMP_SUFFIX = ".tmp";

    private final Path root;

    ChatCopies(Path dataRoot) {
        this.root = dataRoot.resolve(CACHE_FOLDER);
        sweepLeftovers();
    }

    /** Deletes the temp files that a crash left (copies and drafts being written), any an hour old. */
    private void sweepLeftovers() {
        long before = System.currentTimeMillis() - TimeUnit.HOURS.toMillis(1);
        try (Stream<Path> files = Files.walk(root, 2)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                if (file.getFileName().toString().endsWith(TEMP_SUFFIX)
                        && Files.getLastModifiedTime(file).toMillis() < before) {
                    Files.deleteIfExists(file);
                }
            }
        } catch (NoSuchFileException none) {
            // no copies yet
        } catch (IOException | UncheckedIOException e) {
            // a cache only: what is left stays until the next start
        }
    }

    private Path folder(String user) {
        return root.resolve(DocumentStore.checkSegment(user));
    }

    private Path copy(String user, long chatId, long version) {
        return folder(user).resolve(chatId + "-" + version + SUFFIX);
    }

    /** The copy of the chat at that version, when there is one of that size. */
    Optional<SeekableByteChannel> open(String user, long chatId, long version, long size) throws IOException {
        Path copy = copy(user, chatId, version);
        FileChannel channel;
        try {
            channel = FileChannel.open(copy, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        if (channel.size() != size) { // left by a crash that cut its writing short
            channel.close();
            Files.deleteIfExists(copy);
            return Optional.empty();
        }
        return Optional.of(channel);
    }

    /** A copy of a chat and the version it is of. */
    record Copy(long version, SeekableByteChannel channel) {
    }

    /** The copy of the chat at the latest version this node has one of, whatever that is. */
    Optional<Copy> latest(String user, long chatId) throws IOException {
        Path latest = null;
        long latestVersion = Long.MIN_VALUE;
        try (DirectoryStream<Path> copies = Files.newDirectoryStream(folder(user), chatId + "-*" + SUFFIX)) {
            for (Path copy : copies) {
                String name = copy.getFileName().toString();
                String version = name.substring(name.indexOf('-') + 1, name.length() - SUFFIX.length());
                if (version.chars().allMatch(Character::isDigit) && Long.parseLong(version) > latestVersion) {
                    latestVersion = Long.parseLong(version);
                    latest = copy;
                }
            }
        } catch (NoSuchFileException none) {
            return Optional.empty();
        }
        try {
            return latest == null ? Optional.empty()
                    : Optional.of(new Copy(latestVersion, FileChannel.open(latest, StandardOpenOption.READ)));
        } catch (NoSuchFileException deletedMeanwhile) {
            return Optional.empty();
        }
    }

    /**
     * The source, which reads the chat at that version, recording what it reads into a copy of it as long as it is
     * read in order from its start; a copy is made when it reaches the end.
     */
    SeekableByteChannel recording(String user, long chatId, long version, SeekableByteChannel source) {
        return new Recording(source, user, chatId, version);
    }

    /**
     * A new file in the user's folder of copies, for a chat on its way to the database: once saved, it is
     * {@link #keep kept} as the copy of the version it made, with a rename.
     */
    Path newSpool(String user) throws IOException {
        Files.createDirectories(folder(user));
        return Files.createTempFile(folder(user), "draft", TEMP_SUFFIX);
    }

    /**
     * Makes the file (of {@link #newSpool}, complete) the copy of the chat at that version, in place of its
     * copies of other versions; a file that cannot be moved stays where it is.
     */
    void keep(String user, long chatId, long version, Path file) {
        try {
            forget(user, chatId);
            Files.move(file, copy(user, chatId, version), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | UncheckedIOException e) {
            // a cache only: the next read of that version makes the copy
        }
    }

    /** Deletes the copies of a chat, every version. */
    void forget(String user, long chatId) {
        deleteVersions(folder(user), chatId + "-");
    }

    /** Deletes the copies of the user's chats. */
    void forgetAll(String user) {
        deleteVersions(folder(user), "");
    }

    private static void deleteVersions(Path folder, String prefix) {
        try (DirectoryStream<Path> copies = Files.newDirectoryStream(folder, prefix + "*")) {
            for (Path copy : copies) {
                Files.deleteIfExists(copy);
            }
        } catch (NoSuchFileException none) {
            // no copies yet
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete the copies in " + folder, e);
        }
    }

    /** A read of the source that writes what it reads to a temp file, renamed to the copy at the end. */
    private final class Recording extends ReadOnlyChannel {
        private final SeekableByteChannel source;
        private final String user;
        private final long chatId;
        private final long version;
        private FileChannel temp;
        private Path tempPath;
        /** False once the read left the order that a copy needs, or recording failed. */
        private boolean recording = true;

        Recording(SeekableByteChannel source, String user, long chatId, long version) {
            this.source = source;
            this.user = user;
            this.chatId = chatId;
            this.version = version;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            source.position(position);
            int start = dst.position();
            int n = source.read(dst);
            if (n > 0) {
                record(dst.duplicate().flip().position(start), n);
                position += n;
            }
            if (recording && position == source.size()) {
                finish();
            }
            return n;
        }

        private void record(ByteBuffer read, int n) {
            if (!recording) {
                return;
            }
            try {
                if (temp == null) {
                    if (position != 0) {
                        recording = false;
                        return;
                    }
                    Files.createDirectories(folder(user));
                    tempPath = Files.createTempFile(folder(user), "copy", TEMP_SUFFIX);
                    temp = FileChannel.open(tempPath, StandardOpenOption.WRITE);
                }
                if (temp.position() != position) {
                    abandon();
                    return;
                }
                while (read.hasRemaining()) {
                    temp.write(read);
                }
            } catch (IOException e) {
                abandon(); // the read goes on without a copy
            }
        }

        /** Renames the complete copy into place and deletes the chat's copies of other versions. */
        private void finish() {
            recording = false;
            if (temp == null) {
                return; // an empty chat: nothing worth copying
            }
            try {
                temp.close();
                forget(user, chatId);
                Files.move(tempPath, copy(user, chatId, version), StandardCopyOption.ATOMIC_MOVE);
                temp = null;
            } catch (IOException | UncheckedIOException e) {
                abandon();
            }
        }

        private void abandon() {
            recording = false;
            if (temp == null) {
                return;
            }
            try {
                temp.close();
                Files.deleteIfExists(tempPath);
            } catch (IOException ignored) {
                // a leftover temp file is swept at the next start
            }
            temp = null;
        }

        @Override
        public long size() throws IOException {
            return source.size();
        }

        @Override
        public boolean isOpen() {
            return source.isOpen();
        }

        @Override
        public void close() throws IOException {
            abandon();
            source.close();
        }
    }
}
