package tankard.store;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.LinkOption;
import java.nio.file.FileVisitResult;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Whole-file writes that never leave a partial file: temp file in the same folder, fsync, atomic rename.
 * The temp name {@code <target>.tankard-<digits>} is Tankard's own (ST's are {@code <target>.<digits>}), so that
 * crash leftovers can be swept without touching anyone else's files; neither server lists either kind, whose
 * extension is none they read. Blocking: call from a worker thread.
 */
public final class AtomicFiles {
    private static final String TEMP_MARK = ".tankard-";
    private static final Pattern OWN_TEMP = Pattern.compile(".+" + Pattern.quote(TEMP_MARK) + "\\d{10}");
    private static final Logger LOG = LoggerFactory.getLogger(AtomicFiles.class);

    private AtomicFiles() {
    }

    /** Whether the file name is one of this class's temp files (a write under way, or one a crash cut short). */
    public static boolean isOwnTemp(String name) {
        return OWN_TEMP.matcher(name).matches();
    }

    public static void write(Path target, byte[] data) {
        write(target, ByteBuffer.wrap(data));
    }

    public static void write(Path target, String text) {
        write(target, text.getBytes(StandardCharsets.UTF_8));
    }

    public static void write(Path target, ByteBuffer data) {
        write(target, bytes(data));
    }

    /** The content of these bytes. */
    public static Content bytes(ByteBuffer data) {
        return channel -> {
            while (data.hasRemaining()) {
                channel.write(data);
            }
        };
    }

    /** What streams a file's content into its temp file. */
    @FunctionalInterface
    public interface Content {
        void writeTo(FileChannel channel) throws IOException;
    }

    /** Streams the content into the temp file, so a large file never has to be held in memory whole. */
    public static void write(Path target, Content content) {
        Path temp = temp(target);
        try {
            writeTemp(temp, content);
            move(temp, target);
        } catch (IOException e) {
            deleteQuietly(temp);
            throw new UncheckedIOException("Cannot write " + target.getFileName(), e);
        }
    }

    /**
     * Like {@link #write(Path, Content)}, but only when the target does not exist yet: false (and nothing
     * written) when it does. The check and the move are one step, so no concurrent writer is overwritten.
     */
    public static boolean create(Path target, Content content) throws IOException {
        Path temp = temp(target);
        try {
            writeTemp(temp, content);
            return moveNoReplace(temp, target);
        } finally {
            deleteQuietly(temp);
        }
    }

    /**
     * Renames a file unless the target exists (false then, and the source stays). A hard link makes the
     * check and the move one atomic step; a crash between link and unlink leaves both names, never none.
     */
    public static boolean moveNoReplace(Path source, Path target) throws IOException {
        try {
            Files.createLink(target, source);
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (UnsupportedOperationException e) {
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                return false;
            }
            Files.move(source, target);
            return true;
        }
        Files.delete(source);
        return true;
    }

    /**
     * Makes a folder's entries durable (fsync of the folder), so a file created or deleted in it stays so after
     * a power loss. A no-op where folders cannot be opened (Windows).
     */
    public static void syncFolder(Path folder) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(folder, StandardOpenOption.READ);
        } catch (AccessDeniedException | UnsupportedOperationException e) {
            return;
        }
        try (channel) {
            channel.force(true);
        }
    }

    /** Ten digits: the suffix is no longer than ST's temp suffix, so the same names fit (see SafeNames). */
    private static Path temp(Path target) {
        return target.resolveSibling(target.getFileName() + TEMP_MARK
                + ThreadLocalRandom.current().nextLong(1_000_000_000L, 10_000_000_000L));
    }

    private static void writeTemp(Path temp, Content content) throws IOException {
        Files.createDirectories(temp.getParent());
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            content.writeTo(channel);
            channel.force(true);
        }
    }

    /** Copies the first {@code count} bytes of the source in the kernel (sendfile), without a buffer of ours. */
    public static void transfer(FileChannel source, long count, WritableByteChannel target) throws IOException {
        for (long at = 0; at < count; ) {
            long n = source.transferTo(at, count - at, target);
            if (n <= 0) {
                throw new IOException("The file is shorter than " + count + " bytes");
            }
            at += n;
        }
    }

    private static void move(Path temp, Path target) throws IOException {
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Deletes the temp files of {@code target} left by writes that were killed midway, once they are older than
     * {@code age}, so that a write still in progress (another process) keeps its file. Best effort.
     */
    public static void deleteStaleTemps(Path target, Duration age) {
        String prefix = target.getFileName() + TEMP_MARK;
        long before = System.currentTimeMillis() - age.toMillis();
        try (DirectoryStream<Path> siblings = Files.newDirectoryStream(target.getParent(), prefix + "*")) {
            for (Path sibling : siblings) {
                if (isOwnTemp(sibling.getFileName().toString()) && modifiedBefore(sibling, before)) {
                    deleteQuietly(sibling);
                }
            }
        } catch (IOException ignored) {
            // best effort, as deleteQuietly
        }
    }

    /**
     * Deletes every temp file of this class under the root that was last written before {@code beforeMs}: run at
     * start-up with the start time, it removes what a crash left and never a write of this process. Folders
     * and links are not followed out of the tree. Answers how many it deleted.
     */
    public static int sweepTemps(Path root, long beforeMs) {
        int[] deleted = {0};
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    if (attributes.isRegularFile() && isOwnTemp(file.getFileName().toString())
                            && attributes.lastModifiedTime().toMillis() < beforeMs) {
                        deleteQuietly(file);
                        deleted[0]++;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE; // a folder that went or cannot be read: nothing of ours to sweep
                }
            });
        } catch (IOException e) {
            LOG.warn("Sweeping {} of temp files stopped: {}", root, e.toString());
        }
        return deleted[0];
    }

    private static boolean modifiedBefore(Path file, long beforeMs) throws IOException {
        return Files.getLastModifiedTime(file, LinkOption.NOFOLLOW_LINKS).toMillis() < beforeMs;
    }

    public static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // best effort: a stray temp file is ignored by readers
        }
    }

    /**
     * Deletes a folder with everything in it (children first); nothing when it does not exist. Files that another
     * process adds or removes meanwhile (git's background housekeeping in an extension's {@code .git}) make it
     * walk the tree again, a few times.
     */
    public static void deleteTree(Path root) {
        for (int attempt = 1; ; attempt++) {
            if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
            try (Stream<Path> walk = Files.walk(root)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
                return;
            } catch (IOException | UncheckedIOException e) {
                boolean raced = e instanceof DirectoryNotEmptyException || e.getCause() instanceof NoSuchFileException
                        || e instanceof NoSuchFileException;
                if (!raced || attempt == 3) {
                    throw new UncheckedIOException("Cannot delete " + root,
                            e instanceof IOException io ? io : ((UncheckedIOException) e).getCause());
                }
            }
        }
    }
}
