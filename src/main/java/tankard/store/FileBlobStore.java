package tankard.store;

import tankard.util.FileNames;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Blobs as ST keeps them: the blob at {@code path} is the file {@code <data root>/<handle>/<path>}, its bytes as
 * written, its times the file system's. Writes are atomic ({@link AtomicFiles}). The other stores' files in the same
 * folders (cards in characters/, settings.json in the user's folder) are never listed, moved or deleted here.
 */
public final class FileBlobStore implements BlobStore {
    private static final int COPY_BUFFER = 64 * 1024;

    private final Path dataRoot;
    private final Predicate<String> isBlob;

    /** @param isBlob which files of a user's folder are blobs (a path from that folder, with {@code /}) */
    public FileBlobStore(Path dataRoot, Predicate<String> isBlob) {
        this.dataRoot = dataRoot;
        this.isBlob = isBlob;
    }

    @Override
    public boolean keeps(String path) {
        return BlobStore.isPath(path) && isBlob.test(path);
    }

    @Override
    public Optional<Entry> stat(String user, String path) {
        try {
            FileTimes.Stat stat = FileTimes.stat(file(user, path));
            return stat.regularFile() ? Optional.of(new Entry(path, stat.size(), stat.modifiedMs())) : Optional.empty();
        } catch (IOException e) {
            return absent(e, path);
        }
    }

    /** Empty when the failure says there is no such file (none, or a file where a folder is needed); else throws it. */
    private static <T> Optional<T> absent(IOException failure, String path) {
        if (failure instanceof NoSuchFileException || notDirectory(failure)) {
            return Optional.empty();
        }
        throw new UncheckedIOException("Cannot read " + path, failure);
    }

    @Override
    public Optional<Opened> open(String user, String path, long offset) {
        BlobStore.checkOffset(offset);
        Path file = file(user, path);
        FileChannel channel;
        try {
            channel = FileChannel.open(file);
        } catch (IOException e) {
            return absent(e, path);
        }
        try {
            FileTimes.Stat stat = FileTimes.stat(file);
            if (!stat.regularFile()) {
                channel.close();
                return Optional.empty();
            }
            // the size of the file this channel has open, whatever replaced it since
            long size = channel.size();
            channel.position(offset);
            return Optional.of(new Opened(new Entry(path, size, stat.modifiedMs()), Channels.newInputStream(channel)));
        } catch (IOException e) {
            try {
                channel.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new UncheckedIOException("Cannot read " + path, e);
        }
    }

    @Override
    public Entry write(String user, String path, InputStream content) {
        Path file = file(user, path);
        createParents(file, path);
        long[] size = new long[1];
        AtomicFiles.write(file, channel -> {
            copy(content, channel);
            size[0] = channel.size();
        });
        // A delete by another request between the rename and the stat leaves the entry of what was written.
        return stat(user, path).orElseGet(() -> new Entry(path, size[0], System.currentTimeMillis()));
    }

    @Override
    public void restore(String user, Entry entry, InputStream content) {
        write(user, entry.path(), content);
        try {
            Files.setLastModifiedTime(file(user, entry.path()),
                    FileTime.from(Math.round(entry.modifiedMs() * 1000), TimeUnit.MICROSECONDS));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + entry.path(), e);
        }
    }

    @Override
    public boolean delete(String user, String path) {
        Path file = file(user, path);
        try {
            return Files.isRegularFile(file) && Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + path, e);
        }
    }

    @Override
    public boolean rename(String user, String from, String to) {
        Path source = file(user, from);
        Path target = file(user, to);
        if (!Files.isRegularFile(source)) {
            return false;
        }
        createParents(target, to);
        try {
            if (!AtomicFiles.moveNoReplace(source, target)) {
                throw new UncheckedIOException("Cannot rename " + from, new FileAlreadyExistsException(to));
            }
            return true;
        } catch (NoSuchFileException e) {
            return false; // deleted or renamed since the check
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot rename " + from, e);
        }
    }

    @Override
    public int deleteFolder(String user, String folder) {
        Path dir = folder(user, BlobStore.checkPath(folder));
        int deleted = 0;
        for (Entry entry : walk(user, folder)) {
            deleted += delete(user, entry.path()) ? 1 : 0;
        }
        if (!Files.isDirectory(dir)) {
            return deleted;
        }
        try (Stream<Path> tree = Files.walk(dir)) {
            for (Path sub : tree.filter(Files::isDirectory).sorted(Comparator.reverseOrder()).toList()) {
                try {
                    Files.delete(sub);
                } catch (DirectoryNotEmptyException keptFiles) {
                    // another store's files, or a write under way
                }
            }
        } catch (NoSuchFileException e) {
            // deleted meanwhile
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + folder, e);
        }
        return deleted;
    }

    @Override
    public void deleteAll(String user) {
        for (Entry entry : walk(user, "")) {
            delete(user, entry.path());
        }
    }

    @Override
    public List<Entry> list(String user, String folder) {
        List<Entry> entries = new ArrayList<>();
        for (String name : names(folder(user, folder))) {
            entry(user, BlobStore.child(folder, name)).ifPresent(entries::add);
        }
        return entries;
    }

    @Override
    public List<String> folders(String user, String folder) {
        Path dir = folder(user, folder);
        return names(dir).stream().filter(name -> Files.isDirectory(dir.resolve(name))).toList();
    }

    @Override
    public List<Entry> walk(String user, String folder) {
        Path home = dataRoot.resolve(DocumentStore.checkSegment(user));
        Path dir = folder(user, folder);
        if (!Files.isDirectory(dir)) {
            return List.of(); // no folder, or a file
        }
        List<Entry> entries = new ArrayList<>();
        try (Stream<Path> tree = Files.walk(dir)) {
            for (Path file : tree.filter(Files::isRegularFile).toList()) {
                entry(user, home.relativize(file).toString().replace('\\', '/')).ifPresent(entries::add);
            }
        } catch (NoSuchFileException e) {
            return List.of(); // deleted meanwhile
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + folder, e);
        }
        entries.sort(Comparator.comparing(Entry::path, FileNames.BYTE_ORDER));
        return entries;
    }

    /** The file's entry when it is a blob; not a write under way, nor another store's file, nor a folder. */
    private Optional<Entry> entry(String user, String path) {
        if (AtomicFiles.isOwnTemp(path.substring(path.lastIndexOf('/') + 1)) || !keeps(path)) {
            return Optional.empty();
        }
        return stat(user, path);
    }

    /** The folder's names; none when there is no such folder, or a file is where it would be. */
    private static List<String> names(Path dir) {
        try {
            return FileNames.list(dir);
        } catch (UncheckedIOException e) {
            if (notDirectory(e.getCause())) {
                return List.of();
            }
            throw e;
        }
    }

    /**
     * The folders on the way to a file; a file where one of them should be fails as a {@link NotDirectoryException}
     * (what tankard.http.FailureHandler answers 400, as a path that the request's names made).
     */
    private static void createParents(Path file, String path) {
        try {
            Files.createDirectories(file.getParent());
        } catch (IOException e) {
            boolean notDirectory = e instanceof FileAlreadyExistsException || notDirectory(e);
            throw new UncheckedIOException("Cannot write " + path, notDirectory ? new NotDirectoryException(path) : e);
        }
    }

    /** Whether the failure is ENOTDIR: a file where the path needs a folder (Java names it so only for listings). */
    private static boolean notDirectory(IOException e) {
        return e instanceof NotDirectoryException
                || e instanceof FileSystemException failure && "Not a directory".equals(failure.getReason());
    }

    private static void copy(InputStream content, FileChannel channel) throws IOException {
        byte[] buffer = new byte[COPY_BUFFER];
        for (int n; (n = content.read(buffer)) >= 0; ) {
            ByteBuffer bytes = ByteBuffer.wrap(buffer, 0, n);
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        }
    }

    private Path folder(String user, String folder) {
        Path home = dataRoot.resolve(DocumentStore.checkSegment(user));
        return BlobStore.checkFolder(folder).isEmpty() ? home : resolve(home, folder);
    }

    private Path file(String user, String path) {
        return resolve(dataRoot.resolve(DocumentStore.checkSegment(user)), BlobStore.checkBlob(path, isBlob));
    }

    private static Path resolve(Path home, String path) {
        Path file = home;
        for (String segment : path.split("/")) {
            file = file.resolve(segment);
        }
        return file;
    }
}
