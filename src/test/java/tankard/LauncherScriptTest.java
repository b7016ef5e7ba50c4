package tankard;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bin/tankard's class-data archive: made by the first run, mapped by the next, and made anew when the jar was
 * rebuilt, moved, or is run by another JVM (which would refuse it). A stand-in {@code java} records its arguments
 * and, asked to archive, writes the archive as the JVM does at exit.
 */
class LauncherScriptTest {
    private static final String FAKE_JAVA = """
            #!/bin/sh
            printf '%s\\n' "$*" >>"$TANKARD_TEST_LOG"
            for arg in "$@"; do
                case "$arg" in -XX:ArchiveClassesAtExit=*) : >"${arg#-XX:ArchiveClassesAtExit=}" ;; esac
            done
            """;

    @TempDir
    Path work;
    private Path root;
    private Path log;

    @BeforeEach
    void install() throws IOException {
        root = work.resolve("tankard");
        Files.createDirectories(root.resolve("bin"));
        Files.createDirectories(root.resolve("target"));
        for (String file : List.of("tankard", "jvm.options")) {
            Files.copy(Path.of("bin", file), root.resolve("bin").resolve(file));
        }
        Path jar = Files.write(root.resolve("target/tankard.jar"), new byte[]{1});
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(3600))); // built an hour ago
        log = work.resolve("java.log");
    }

    @Test
    void theFirstRunArchivesAndTheNextMapsTheArchive() throws Exception {
        Path jvm = fakeJvm("jdk");
        assertEquals("archive", run(root, jvm));
        assertTrue(Files.exists(root.resolve("target/tankard.jsa")));
        assertEquals("map", run(root, jvm));
        assertEquals("map", run(root, jvm));
    }

    @Test
    void aRebuiltJarIsArchivedAnew() throws Exception {
        Path jvm = fakeJvm("jdk");
        run(root, jvm);
        Files.setLastModifiedTime(root.resolve("target/tankard.jar"), FileTime.from(Instant.now().plusSeconds(60)));
        assertEquals("archive", run(root, jvm));
    }

    @Test
    void aMovedInstallationIsArchivedAnew() throws Exception {
        Path jvm = fakeJvm("jdk");
        run(root, jvm);
        Path moved = Files.move(root, work.resolve("moved"));
        assertEquals("archive", run(moved, jvm), "the archive names the jar's old path");
        assertEquals("map", run(moved, jvm));
    }

    @Test
    void anotherJvmIsArchivedAnew() throws Exception {
        run(root, fakeJvm("jdk"));
        assertEquals("archive", run(root, fakeJvm("other-jdk")));
    }

    @Test
    void aCommandRecordsNoArchiveButMapsOneThatIsThere() throws Exception {
        Path jvm = fakeJvm("jdk");
        assertEquals("none", run(root, jvm, "import-data", "--from", "st"));
        assertEquals("archive", run(root, jvm));
        assertEquals("map", run(root, jvm, "export-data", "--to", "out"));
    }

    private Path fakeJvm(String name) throws IOException {
        Path bin = Files.createDirectories(work.resolve(name).resolve("bin"));
        Path java = bin.resolve("java");
        if (!Files.exists(java)) {
            Files.writeString(java, FAKE_JAVA);
            Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return work.resolve(name);
    }

    private String run(Path installation, Path javaHome) throws Exception {
        return run(installation, javaHome, "--port", "0");
    }

    /** Runs the launcher with the JVM at {@code javaHome}; "archive", "map" or "none", by the option it gave the JVM. */
    private String run(Path installation, Path javaHome, String... arguments) throws Exception {
        Files.deleteIfExists(log);
        List<String> command = new ArrayList<>(List.of(installation.resolve("bin/tankard").toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder launcher = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true);
        launcher.environment().put("JAVA_HOME", javaHome.toString());
        launcher.environment().put("TANKARD_TEST_LOG", log.toString());
        launcher.environment().remove("JAVA_OPTS");
        launcher.environment().remove("TANKARD_JAVA_OPTS");
        Process process = launcher.start();
        String output = new String(process.getInputStream().readAllBytes());
        assertEquals(0, process.waitFor(), output);
        String args = Files.readString(log).strip();
        Path archive = installation.resolve("target/tankard.jsa");
        assertTrue(args.startsWith("@" + installation.resolve("bin/jvm.options")), args);
        assertTrue(args.endsWith("-jar " + installation.resolve("target/tankard.jar") + " " + String.join(" ", arguments)),
                args);
        if (args.contains(" -XX:ArchiveClassesAtExit=" + archive + " ")) {
            return "archive";
        }
        if (args.contains(" -XX:SharedArchiveFile=" + archive + " ")) {
            return "map";
        }
        assertFalse(args.contains("-XX:ArchiveClassesAtExit") || args.contains("-XX:SharedArchiveFile"), args);
        return "none";
    }
}
