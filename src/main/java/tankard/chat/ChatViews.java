package tankard.chat;

import tankard.store.ReadOnlyChannel;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Readers' views of chat files that stay what the file was when opened, although a tail save changes the
 * file in place (truncates it at a cut and appends). The bytes before the cut never change, so a view needs
 * only the old bytes from the cut on: the writer hands them over (it has them for its journal anyway) before
 * it changes the file, and the view serves them from memory from then on. Views are keyed by the file's
 * inode, which a rename keeps and a replacing rename does not; a view's reads and a writer's change exclude
 * each other by the inode's read/write lock, held for one read or one change (never while a slow client is
 * served). A replaced or deleted file is never changed in place again, so its views just read on.
 */
final class ChatViews {
    private final ReentrantReadWriteLock[] locks = new ReentrantReadWriteLock[64];
    private final Map<Object, Set<View>> open = new ConcurrentHashMap<>();

    ChatViews() {
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new ReentrantReadWriteLock();
        }
    }

    /** The inode of a file ({@code (dev, ino)} where the platform has one). */
    static Object inode(Path file) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        return attributes.fileKey() != null ? attributes.fileKey() : file.toAbsolutePath();
    }

    /** Opens a view of the file (NoSuchFileException when there is none). */
    SeekableByteChannel open(Path file) throws IOException {
        while (true) {
            Object inode = inode(file);
            Lock lock = lock(inode).readLock();
            lock.lock();
            try {
                FileChannel channel = FileChannel.open(file);
                Object opened;
                try {
                    opened = inode(file);
                } catch (IOException e) {
                    channel.close();
                    throw e;
                }
                if (opened.equals(inode)) { // else replaced between the stat and the open: try again
                    View view = new View(inode, channel);
                    open.compute(inode, (k, views) -> {
                        Set<View> all = views == null ? ConcurrentHashMap.newKeySet() : views;
                        all.add(view);
                        return all;
                    });
                    return view;
                }
                channel.close();
            } finally {
                lock.unlock();
            }
        }
    }

    /** The lock a change of the inode's content holds, excluding every view's reads. */
    Lock writeLock(Object inode) {
        return lock(inode).writeLock();
    }

    /** The most bytes one view of the inode would hold in memory after a change from {@code cut} on. */
    long retainedAfter(Object inode, long cut, long size) {
        long most = 0;
        for (View view : open.getOrDefault(inode, Set.of())) {
            most = Math.max(most, view.retainedAfter(cut, size));
        }
        return most;
    }

    /**
     * The file is about to change from {@code cut} on; {@code old} is its content from there to its end.
     * Call with the inode's write lock held.
     */
    void changing(Object inode, long cut, byte[] old) {
        for (View view : open.getOrDefault(inode, Set.of())) {
            view.keep(cut, old);
        }
    }

    private ReentrantReadWriteLock lock(Object inode) {
        return locks[Math.floorMod(inode.hashCode(), locks.length)];
    }

    /** The file from 0 to {@code frozenAt}, then {@code frozen} (once the file changed), else the file. */
    private final class View extends ReadOnlyChannel {
        private final Object inode;
        private final FileChannel file;
        private long frozenAt = -1;
        private byte[] frozen;

        View(Object inode, FileChannel file) {
            this.inode = inode;
            this.file = file;
        }

        long retainedAfter(long cut, long size) {
            if (frozenAt < 0) {
                return size - cut;
            }
            return cut < frozenAt ? frozenAt - cut + frozen.length : frozen.length;
        }

        void keep(long cut, byte[] old) {
            if (frozenAt < 0) {
                frozenAt = cut;
                frozen = old;
            } else if (cut < frozenAt) { // the file is still ours up to frozenAt
                byte[] joined = new byte[(int) (frozenAt - cut) + frozen.length];
                System.arraycopy(old, 0, joined, 0, (int) (frozenAt - cut));
                System.arraycopy(frozen, 0, joined, (int) (frozenAt - cut), frozen.length);
                frozen = joined;
                frozenAt = cut;
            }
        }

        @Override
        public int read(ByteBuffer target) throws IOException {
            Lock lock = lock(inode).readLock();
            lock.lock();
            try {
                int n = readAt(target, position);
                if (n > 0) {
                    position += n;
                }
                return n;
            } finally {
                lock.unlock();
            }
        }

        private int readAt(ByteBuffer target, long at) throws IOException {
            if (frozenAt < 0) {
                return file.read(target, at);
            }
            if (at >= frozenAt) {
                long from = at - frozenAt;
                if (from >= frozen.length) {
                    return -1;
                }
                int n = (int) Math.min(target.remaining(), frozen.length - from);
                target.put(frozen, (int) from, n);
                return n;
            }
            int limit = target.limit();
            target.limit(target.position() + (int) Math.min(target.remaining(), frozenAt - at));
            try {
                return file.read(target, at);
            } finally {
                target.limit(limit);
            }
        }

        @Override
        public long size() throws IOException {
            Lock lock = lock(inode).readLock();
            lock.lock();
            try {
                return frozenAt < 0 ? file.size() : frozenAt + frozen.length;
            } finally {
                lock.unlock();
            }
        }

        @Override
        public boolean isOpen() {
            return file.isOpen();
        }

        @Override
        public void close() throws IOException {
            open.computeIfPresent(inode, (k, views) -> {
                views.remove(this);
                return views.isEmpty() ? null : views;
            });
            file.close();
        }
    }
}
