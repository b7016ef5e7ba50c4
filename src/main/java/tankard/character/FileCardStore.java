package tankard.character;

import tankard.store.AtomicFiles;
import tankard.store.FileTimes;
import tankard.user.UserDirs;
import tankard.util.FileNames;
import tankard.util.Sanitize;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Cards as ST stores them: {@code <user>/characters/<name>.png}. */
public final class FileCardStore implements CardStore {
    private final Path dataRoot;

    public FileCardStore(Path dataRoot) {
        this.dataRoot = dataRoot;
    }

    @Override
    public List<CardFile> list(String user) throws IOException {
        Path folder = folder(user);
        List<CardFile> cards = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
            for (Path file : files) {
                if (CardFile.isCardName(file.getFileName().toString())) {
                    stat(file).ifPresent(cards::add);
                }
            }
        } catch (NoSuchFileException e) {
            return List.of();
        }
        // Node's readdir order, which is the order ST lists characters in.
        cards.sort(Comparator.comparing(CardFile::name, FileNames.BYTE_ORDER));
        return cards;
    }

    @Override
    public Optional<CardFile> find(String user, String name) throws IOException {
        return stat(file(user, name));
    }

    @Override
    public byte[] read(String user, String name) throws IOException {
        return Files.readAllBytes(file(user, name));
    }

    @Override
    public void write(String user, String name, byte[] content) throws IOException {
        Path file = file(user, name);
        Files.createDirectories(file.getParent());
        AtomicFiles.write(file, content);
    }

    @Override
    public boolean create(String user, String name, byte[] content) throws IOException {
        Path file = file(user, name);
        Files.createDirectories(file.getParent());
        return AtomicFiles.create(file, AtomicFiles.bytes(ByteBuffer.wrap(content)));
    }

    /** The file's modification time; its status change time is the file system's own (the time of this write). */
    @Override
    public void restore(String user, CardFile entry, byte[] content) throws IOException {
        write(user, entry.name(), content);
        Files.setLastModifiedTime(file(user, entry.name()),
                FileTime.from(Math.round(entry.modifiedMs() * 1000), TimeUnit.MICROSECONDS));
    }

    @Override
    public boolean delete(String user, String name) throws IOException {
        return Files.deleteIfExists(file(user, name));
    }

    @Override
    public byte[] readCardText(String user, String name) throws IOException {
        return CardCodec.readPngText(file(user, name));
    }

    private Optional<CardFile> stat(Path file) throws IOException {
        try {
            FileTimes.Stat stat = FileTimes.stat(file);
            if (!stat.regularFile()) {
                return Optional.empty();
            }
            return Optional.of(new CardFile(file.getFileName().toString(), stat.size(), stat.modifiedMs(),
                    stat.changedMs()));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    private Path folder(String user) {
        return UserDirs.of(dataRoot, user).characters();
    }

    private Path file(String user, String name) {
        if (!Sanitize.isSafeSegment(name)) {
            throw new IllegalArgumentException("Not a card file name: " + name);
        }
        return folder(user).resolve(name);
    }
}
