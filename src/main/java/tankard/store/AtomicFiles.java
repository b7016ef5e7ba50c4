package tankard.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.LinkOption;
import java.util.Comparator;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * Whole-file writes that never leave a partial file: temp file in the same folder, fsync, atomic rename.
 * The temp name {@code <target>.<digits>} is the one ST uses, so either server ignores the other's leftovers.
 * Blocking: call from a worker thread.
 */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    public static void write(Path target, byte[] data) {
        write(target, ByteBuffer.wrap(data));
    }

    public static void write(Path target, String text) {
        write(target, text.getBytes(StandardCharsets.UTF_8));
    }

    public static void write(Path target, ByteBuffer data) {
        write(target, channel -> {
            while (data.hasRemaining()) {
                channel.write(data);
            }
        });
    }

    /** What streams a file's content into its temp file. */
    @FunctionalInterface
    public interface Content {
        void writeTo(FileChannel channel) throws IOException;
    }

    /** Streams the content into the temp file, so a large file never has to be held in memory whole. */
    public static void write(Path target, Content content) {
        Path temp = target.resolveSibling(target.getFileName() + "." + Math.abs(ThreadLocalRandom.current().nextLong()));
        try {
            Files.createDirectories(target.getParent());
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                content.writeTo(channel);
                channel.force(true);
            }
            move(temp, target);
        } catch (IOException e) {
            deleteQuietly(temp);
            throw new UncheckedIOException("Cannot write " + target.getFileName(), e);
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

    public static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // best effort: a stray temp file is ignored by readers
        }
    }

    /** Deletes a folder with everything in it (children first); nothing when it does not exist. */
    public static void deleteTree(Path root) {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + root, e);
        }
    }
}
