package tankard.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AtomicFilesTest {
    @TempDir
    Path dir;

    @Test
    void staleTempFilesOfATargetAreDeletedAndNothingElse() throws IOException {
        Path target = dir.resolve("user.idx");
        AtomicFiles.write(target, "live");
        Path stale = file("user.idx.123456", Duration.ofHours(1));
        Path fresh = file("user.idx.654321", Duration.ZERO);
        Path notATemp = file("user.idx.bak", Duration.ofHours(1));
        Path otherTarget = file("other.idx.123456", Duration.ofHours(1));

        AtomicFiles.deleteStaleTemps(target, Duration.ofMinutes(10));

        assertFalse(Files.exists(stale));
        assertTrue(Files.exists(target));
        assertTrue(Files.exists(fresh), "a write in progress keeps its temp file");
        assertTrue(Files.exists(notATemp));
        assertTrue(Files.exists(otherTarget));
    }

    private Path file(String name, Duration age) throws IOException {
        Path file = Files.writeString(dir.resolve(name), "x");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
        return file;
    }
}
