package tankard.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Request names and the files ST's sanitize-filename makes of them, for the routes that clean names as ST does.
 * The expected names were taken from ST 1.18.0's sanitize-filename; null is a name that cleans to nothing or is
 * too long to store, which Tankard answers with a 400.
 */
public final class StNames {
    /**
     * One request name and its file: {@code withJson} is {@code sanitize(name + ".json")} (themes, lorebooks,
     * Quick Replies), {@code thenJson} is {@code sanitize(name) + ".json"} (presets).
     */
    public record Case(String name, String withJson, String thenJson) {
    }

    public static final List<Case> CASES = List.of(
            new Case("Night/Shift: v2?", "NightShift v2.json", "NightShift v2.json"),
            new Case("../Outside Atlas", "..Outside Atlas.json", "..Outside Atlas.json"),
            new Case("../../settings", "....settings.json", "....settings.json"),
            new Case("a/b", "ab.json", "ab.json"),
            new Case("c\\d", "cd.json", "cd.json"),
            new Case("q:*?\"<>|z", "qz.json", "qz.json"),
            new Case("ctl\u0001\u001f\u0085end", "ctlend.json", "ctlend.json"),
            new Case("  trail. ", "  trail. .json", "  trail.json"),
            new Case("..", "...json", null),
            new Case(".", "..json", null),
            new Case("con", null, null),
            new Case("CON", null, null),
            new Case("aux.json", null, null),
            new Case("COM1", null, null),
            new Case("lpt1.txt", null, null),
            new Case("y".repeat(230), "y".repeat(230) + ".json", "y".repeat(230) + ".json"),
            new Case("y".repeat(231), null, null),
            new Case("x".repeat(300), null, null),
            new Case("é".repeat(150), null, null));

    private StNames() {
    }

    /** The case's name as a JSON string literal. */
    public static String json(String name) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : name.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c >= 0x7f && c <= 0x9f) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    /** Every file under the folder, as paths relative to it. */
    public static Set<Path> files(Path root) {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(Files::isRegularFile).map(root::relativize).collect(Collectors.toSet());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The files under {@code root} are exactly {@code before} plus {@code added}: nothing else was written. */
    public static void assertOnlyAdded(Path root, Set<Path> before, Set<Path> added) {
        Set<Path> expected = new java.util.HashSet<>(before);
        added.forEach(file -> expected.add(root.relativize(file)));
        assertEquals(expected, files(root));
    }

    /**
     * {@link #assertOnlyAdded(Path, Set, Set)} over {@link UserDocuments#all}: the files on disk and the default user's
     * documents wherever the server's store keeps them, each at its path in ST's layout under the working folder.
     * {@code before} is what {@link UserDocuments#all} answered first; {@code added} are paths in the working folder.
     */
    public static void assertOnlyAdded(TestServer server, Set<Path> before, Set<Path> added) {
        Set<Path> expected = new java.util.HashSet<>(before);
        added.forEach(file -> expected.add(server.workDir.relativize(file)));
        assertEquals(expected, UserDocuments.all(server));
    }
}
