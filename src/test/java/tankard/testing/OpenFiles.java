package tankard.testing;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The files this JVM holds open, as Linux lists them in /proc/self/fd (the machines the tests run on). */
public final class OpenFiles {
    private static final Path FDS = Path.of("/proc/self/fd");
    private static final String DELETED = " (deleted)";

    private OpenFiles() {
    }

    /**
     * Waits until no handle of this JVM is on a deleted file (one a rename replaced, or removed) under the folder,
     * failing after a few seconds with the ones still open.
     */
    public static void awaitNoDeletedUnder(Path folder) throws IOException, InterruptedException {
        assertTrue(Files.isDirectory(FDS), "the tests run where /proc/self/fd lists open files");
        String prefix = folder.toRealPath().toString() + "/";
        long deadline = System.nanoTime() + 5_000_000_000L;
        List<String> open = deletedUnder(prefix);
        while (!open.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
            open = deletedUnder(prefix);
        }
        assertEquals(List.of(), open, "handles left open on deleted files");
    }

    private static List<String> deletedUnder(String prefix) throws IOException {
        List<String> found = new ArrayList<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(FDS)) {
            for (Path fd : fds) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException closedMeanwhile) {
                    continue;
                }
                if (target.startsWith(prefix) && target.endsWith(DELETED)) {
                    found.add(target);
                }
            }
        }
        return found;
    }
}
