package tankard.store;

import tankard.util.FileNames;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Documents as ST keeps them: {@code <data root>/<handle>/<folder>/<name>}, the bytes as written. Writes are atomic
 * ({@link AtomicFiles}); updates of one document are serialized within this process by striped locks.
 */
public final class FileDocumentStore implements DocumentStore {
    private final Path dataRoot;
    private final StripedLocks locks = new StripedLocks(64);

    public FileDocumentStore(Path dataRoot) {
        this.dataRoot = dataRoot;
    }

    @Override
    public Optional<byte[]> read(String user, Folder folder, String name) {
        Path file = file(user, folder, name);
        try {
            return Optional.of(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + name, e);
        }
    }

    @Override
    public void write(String user, Folder folder, String name, byte[] content) {
        AtomicFiles.write(file(user, folder, name), content);
    }

    @Override
    public void restore(String user, Folder folder, Entry entry, byte[] content) {
        Path file = file(user, folder, entry.name());
        try {
            Files.createDirectories(file.getParent());
            AtomicFiles.write(file, content);
            Files.setLastModifiedTime(file, FileTime.from(Math.round(entry.modifiedMs() * 1000), TimeUnit.MICROSECONDS));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + entry.name(), e);
        }
    }

    @Override
    public boolean delete(String user, Folder folder, String name) {
        try {
            return Files.deleteIfExists(file(user, folder, name));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + name, e);
        }
    }

    @Override
    public void deleteAll(String user) {
        for (Folder folder : Folder.values()) {
            for (Entry entry : list(user, folder)) {
                delete(user, folder, entry.name());
            }
        }
    }

    @Override
    public List<Entry> list(String user, Folder folder) {
        Path dir = folder(user, folder);
        List<Entry> entries = new ArrayList<>();
        for (String name : FileNames.list(dir)) {
            if (AtomicFiles.isOwnTemp(name) || !DocumentStore.isDocument(DocumentStore.path(folder, name))) {
                continue; // a write under way, or one a crash cut short; or a file of another store (chat backups)
            }
            try {
                FileTimes.Stat stat = FileTimes.stat(dir.resolve(name));
                if (stat.regularFile()) {
                    entries.add(new Entry(name, stat.size(), stat.modifiedMs(), stat.changedMs()));
                }
            } catch (NoSuchFileException gone) {
                // deleted since the folder was read
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read " + name, e);
            }
        }
        return entries;
    }

    @Override
    public <T> T update(String user, Folder folder, String name, Change<T> change) {
        ReentrantLock lock = locks.lock(file(user, folder, name).toString());
        try {
            Outcome<T> outcome = change.apply(read(user, folder, name));
            if (outcome.content() != null) {
                write(user, folder, name, outcome.content());
            }
            return outcome.answer();
        } finally {
            lock.unlock();
        }
    }

    private Path folder(String user, Folder folder) {
        Path home = dataRoot.resolve(DocumentStore.checkSegment(user));
        return folder == Folder.ROOT ? home : home.resolve(folder.stName());
    }

    private Path file(String user, Folder folder, String name) {
        return folder(user, folder).resolve(DocumentStore.checkSegment(name));
    }
}
