package tankard.userfiles;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/** Paths that requests give relative to the user folder ({@code /user/files/a.txt}), as Node's {@code path.join} reads them. */
final class UserPaths {
    private UserPaths() {
    }

    /**
     * The file {@code relative} names under {@code root}, when it lies strictly inside {@code folder}; otherwise
     * null. Unlike ST's string prefix check, {@code /user/files_x/a} is not inside {@code user/files}.
     */
    static Path inside(Path root, Path folder, String relative) {
        if (relative.indexOf('\0') >= 0) {
            return null;
        }
        Path base = folder.toAbsolutePath().normalize();
        try {
            Path file = Path.of(root.toAbsolutePath() + "/" + relative).normalize();
            return file.startsWith(base) && !file.equals(base) ? file : null;
        } catch (InvalidPathException e) {
            return null;
        }
    }
}
