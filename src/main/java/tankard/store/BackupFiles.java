package tankard.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** ST's backup-file conventions: local {@code YYYYMMDD-HHMMSS} stamps and prefix-based retention. */
public final class BackupFiles {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private BackupFiles() {
    }

    /** The server-local time as ST stamps backup names (ST: src/util.js, generateTimestamp). */
    public static String timestamp() {
        return LocalDateTime.now().format(STAMP);
    }

    /**
     * Keeps the newest {@code limit} files (by mtime) of {@code dir} whose names start with {@code prefix};
     * deletes the older ones. Blocking.
     */
    public static void prune(Path dir, String prefix, int limit) {
        List<Path> files;
        try (Stream<Path> entries = Files.list(dir)) {
            files = entries.filter(p -> p.getFileName().toString().startsWith(prefix)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + dir.getFileName(), e);
        }
        if (files.size() <= limit) {
            return;
        }
        List<Path> oldestFirst = files.stream().sorted(Comparator.comparing(BackupFiles::mtime)).toList();
        for (Path old : oldestFirst.subList(0, files.size() - limit)) {
            AtomicFiles.deleteQuietly(old);
        }
    }

    /** The inode change time ST reads as {@code ctimeMs} (the modification time where it is unavailable). */
    public static FileTime ctime(Path file) {
        try {
            return (FileTime) Files.getAttribute(file, "unix:ctime");
        } catch (UnsupportedOperationException | IllegalArgumentException | IOException e) {
            return mtime(file);
        }
    }

    private static FileTime mtime(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }
}
