package tankard.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
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

    /** {@code ctimeMs}: the inode change time where the platform has one, else the creation time. */
    public static double changedMs(Path file, BasicFileAttributes attributes) throws IOException {
        try {
            return millis((FileTime) Files.getAttribute(file, "unix:ctime"));
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return millis(attributes.creationTime());
        }
    }
}
