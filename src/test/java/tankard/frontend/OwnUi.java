package tankard.frontend;

import tankard.testing.TestServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** A working folder for tests of Tankard's own UI: this repository's {@code public/} and a config.yaml. */
final class OwnUi {
    private OwnUi() {
    }

    /** The folder, with the config given and the default content seeded, as bin/tankard does. */
    static Path work(String config) throws IOException {
        Path work = TestServer.tempDir();
        copyTree(Path.of(System.getProperty("user.dir"), "public"), work.resolve("public"));
        Files.writeString(work.resolve("config.yaml"), config + "skipContentCheck: false\n");
        return work;
    }

    private static void copyTree(Path from, Path to) {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path source : (Iterable<Path>) walk::iterator) {
                Files.copy(source, to.resolve(from.relativize(source).toString()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
