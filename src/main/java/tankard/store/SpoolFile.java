package tankard.store;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.FilterOutputStream;
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
import java.util.concurrent.atomic.AtomicBoolean;

/** Bytes on their way to a store (a chat draft's body), written to a file of their own that can start over. */
public final class SpoolFile implements Closeable {
    /** A durable file's data is sent to the disk in steps of this size while it is written ({@link Writeback}). */
    private static final long SEND_STEP = 4 << 20;

    private final Path path;
    private final FileChannel channel;
    private final BufferedOutputStream out;
    private final AtomicBoolean sending = new AtomicBoolean();

    /**
     * Opens the file for writing, with the options (CREATE_NEW for a name of the caller's); a {@code durable} file
     * is to be finished with {@code force}.
     */
    public SpoolFile(Path path, boolean durable, OpenOption... options) throws IOException {
        this.path = path;
        this.channel = FileChannel.open(path, union(options));
        OutputStream file = Channels.newOutputStream(channel);
        this.out = new BufferedOutputStream(durable ? sentInSteps(file) : file, 1 << 17);
    }

    private OutputStream sentInSteps(OutputStream file) {
        return new FilterOutputStream(file) {
            private long unsent;

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                unsent += len;
                if (unsent >= SEND_STEP) {
                    unsent = 0;
                    Writeback.send(channel, sending);
                }
            }
        };
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
