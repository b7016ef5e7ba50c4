package tankard.store;

import tankard.util.Threads;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Disk work a request need not wait for, done on a thread of its own. Measured with bench/curl.sh on a 27 MB chat
 * (ext4, 2 cores): the fsync before a save's rename took 28 ms when it sent the whole file, and closing the last
 * handle on the chat file a save replaced took 10-11 ms, the kernel freeing its blocks and cached pages.
 */
public final class Writeback {
    private static final ExecutorService THREAD = Threads.boundedPool("writeback", 1);

    private Writeback() {
    }

    /**
     * Sends what is written to the channel so far to the disk, unless a send of it is under way ({@code sending} is
     * then true); the force that makes the file durable then waits only for what was written after it. A channel
     * closed meanwhile ends the send quietly: the file is dropped or forced by its owner.
     */
    static void send(FileChannel channel, AtomicBoolean sending) {
        if (sending.compareAndSet(false, true)) {
            THREAD.execute(() -> {
                try {
                    channel.force(false);
                } catch (IOException closedOrFailed) {
                    // the owner's own force reports a failing disk
                } finally {
                    sending.set(false);
                }
            });
        }
    }

    /** Closes a handle on a file that a rename replaced or that was deleted, whose last close frees it. */
    public static void close(Closeable handle) {
        THREAD.execute(() -> {
            try {
                handle.close();
            } catch (IOException ignored) {
                // a read handle: nothing was left to write
            }
        });
    }
}
