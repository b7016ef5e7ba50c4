package tankard.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** File times as Node's {@code fs.Stats} reports them: epoch milliseconds with a fraction ({@code mtimeMs}). */
public final class FileTimes {
    private FileTimes() {
    }

    public static double millis(FileTime time) {
        long nanos = time.to(TimeUnit.NANOSECONDS);
        // Node's arithmetic, so the fraction rounds the same way: sec * 1e3 + nsec / 1e6
        return Math.floorDiv(nanos, 1_000_000_000L) * 1e3 + Math.floorMod(nanos, 1_000_000_000L) / 1e6;
    }

    public static double modifiedMs(BasicFileAttributes attributes) {
        return millis(attributes.lastModifiedTime());
    }

    /** What one {@code stat} tells about a file, in Node's units. */
    public record Stat(boolean regularFile, long size, double modifiedMs, double changedMs) {
    }

    /**
     * The file's stat with its ctime, in one system call where the platform has the unix view (a basic
     * read plus a ctime read would stat twice, which shows when listing thousands of files).
     */
    public static Stat stat(Path file) throws IOException {
        try {
            Map<String, Object> a = Files.readAttributes(file, "unix:isRegularFile,size,lastModifiedTime,ctime");
            return new Stat((Boolean) a.get("isRegularFile"), (Long) a.get("size"),
                    millis((FileTime) a.get("lastModifiedTime")), millis((FileTime) a.get("ctime")));
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return new Stat(a.isRegularFile(), a.size(), modifiedMs(a), millis(a.creationTime()));
        }
    }

    /** A time as a node's copy of stored bytes carries it: to the microsecond, which the file systems keep. */
    public static FileTime stamp(double modifiedMs) {
        return FileTime.from(Math.round(modifiedMs * 1000), TimeUnit.MICROSECONDS);
    }

    /**
     * Whether the file is a node's copy of stored bytes of that size and time ({@link #stamp}): what a copy is
     * checked by before it is used instead of the store's bytes.
     */
    public static boolean isCopy(Path copy, long size, double modifiedMs) throws IOException {
        try {
            BasicFileAttributes attributes = Files.readAttributes(copy, BasicFileAttributes.class);
            return attributes.size() == size && attributes.lastModifiedTime().equals(stamp(modifiedMs));
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    /** {@code ctimeMs}: the inode change time where the platform has one, else the creation time. */
    public static double changedMs(Path file, BasicFileAttributes attributes) throws IOException {
        try {
            return millis((FileTime) Files.getAttribute(file, "unix:ctime"));
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return millis(attributes.creationTime());
        }
    }
}
