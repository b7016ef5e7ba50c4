package tankard.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AtomicFilesTest {
    @TempDir
    Path dir;

    @Test
    void staleTempFilesOfATargetAreDeletedAndNothingElse() throws IOException {
        Path target = dir.resolve("user.idx");
        AtomicFiles.write(target, "live");
        Path stale = file("user.idx.tankard-1234567890", Duration.ofHours(1));
        Path fresh = file("user.idx.tankard-6543210987", Duration.ZERO);
        Path notATemp = file("user.idx.bak", Duration.ofHours(1));
        Path stsTemp = file("user.idx.123456", Duration.ofHours(1));
        Path otherTarget = file("other.idx.tankard-1234567890", Duration.ofHours(1));

        AtomicFiles.deleteStaleTemps(target, Duration.ofMinutes(10));

        assertFalse(Files.exists(stale));
        assertTrue(Files.exists(target));
        assertTrue(Files.exists(fresh), "a write in progress keeps its temp file");
        assertTrue(Files.exists(notATemp));
        assertTrue(Files.exists(stsTemp), "never a temp file that is not Tankard's");
        assertTrue(Files.exists(otherTarget));
    }

    @Test
    void aWriteLeavesNoTempFileAndItsTempNameIsTankardsOwn() throws IOException {
        Path target = dir.resolve("Name.png");
        AtomicFiles.write(target, "card");
        try (var files = Files.list(dir)) {
            assertEquals(List.of("Name.png"), files.map(p -> p.getFileName().toString()).toList());
        }
        assertTrue(AtomicFiles.isOwnTemp("Name.png.tankard-0123456789"));
        assertFalse(AtomicFiles.isOwnTemp("Name.png.0123456789"), "ST's temp name");
        assertFalse(AtomicFiles.isOwnTemp("Name.png.tankard-12"));
    }

    @Test
    void theStartUpSweepDeletesOnlyTankardsTempFilesFromBeforeTheStartInTheWholeTree() throws IOException {
        Files.createDirectories(dir.resolve("default-user/characters"));
        Files.createDirectories(dir.resolve("default-user/worlds"));
        Path cardLeftover = file("default-user/characters/Foo.png.tankard-1234567890", Duration.ofSeconds(5));
        Path worldLeftover = file("default-user/worlds/W.json.tankard-1234567890", Duration.ofDays(3));
        Path underWay = file("default-user/worlds/X.json.tankard-9876543210", Duration.ZERO);
        Path stsTemp = file("default-user/characters/Foo.png.123456", Duration.ofDays(3));
        Path card = file("default-user/characters/Foo.png", Duration.ofDays(3));
        long started = System.currentTimeMillis() - 1000;

        assertEquals(2, AtomicFiles.sweepTemps(dir, started));

        assertFalse(Files.exists(cardLeftover));
        assertFalse(Files.exists(worldLeftover));
        assertTrue(Files.exists(underWay), "written since the start: a write of this process");
        assertTrue(Files.exists(stsTemp));
        assertTrue(Files.exists(card));
    }

    private Path file(String name, Duration age) throws IOException {
        Path file = Files.writeString(dir.resolve(name), "x");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
        return file;
    }
}
