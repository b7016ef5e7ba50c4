package tankard.store;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Bytes on their way to a store (a chat draft's body), written to a file of their own that can start over. */
public final class SpoolFile implements Closeable {
    private final Path path;
    private final FileChannel channel;
    private final BufferedOutputStream out;

    /** Opens the file for writing, with the options (CREATE_NEW for a name of the caller's). */
    public SpoolFile(Path path, OpenOption... options) throws IOException {
        this.path = path;
        this.channel = FileChannel.open(path, union(options));
        this.out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 17);
    }

    private static Set<OpenOption> union(OpenOption[] options) {
        Set<OpenOption> all = new HashSet<>(List.of(options));
        all.add(StandardOpenOption.WRITE);
        return all;
    }

    public Path path() {
        return path;
    }

    public OutputStream out() {
        return out;
    }

    /** Drops everything written so far. */
    public void restart() throws IOException {
        out.flush();
        channel.truncate(0);
    }

    /** Writes out what is buffered and closes the file, durably with {@code force}: it is complete. */
    public void finish(boolean force) throws IOException {
        out.flush();
        if (force) {
            channel.force(true);
        }
        channel.close();
    }

    /** Closes the file and deletes it (a finished file moved away is not there to delete). */
    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // the file is deleted next
        }
        AtomicFiles.deleteQuietly(path);
    }
}
