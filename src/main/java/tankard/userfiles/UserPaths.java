package tankard.userfiles;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.user.UserDirs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
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

    /** Deletes the file a request's {@code path} names inside {@code folder}, answering ST's errors. Blocking. */
    static void deleteInside(UserDirs dirs, Path folder, JsonNode path) throws IOException {
        if (!Js.truthy(path)) {
            throw Refusal.badRequest("No path specified");
        }
        Path file = path.isTextual() ? inside(dirs.root(), folder, path.textValue()) : null;
        if (file == null) {
            throw Refusal.badRequest("Invalid path");
        }
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            throw Refusal.notFound("File not found");
        }
        if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
            throw Refusal.badRequest("Invalid path");
        }
        Files.delete(file);
    }
}
