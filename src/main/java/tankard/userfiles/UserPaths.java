package tankard.userfiles;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.store.BlobStore;
import tankard.util.Sanitize;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Paths that requests give relative to the user folder ({@code /user/files/a.txt}), as Node's {@code path.join}
 * reads them, turned into blob paths ({@code user/files/a.txt}).
 */
final class UserPaths {
    /** A stand-in for the user's folder: the path is resolved against it, so nothing on disk is touched. */
    private static final Path HOME = Path.of("/home");
    /** A file system's limit on a name, in UTF-8 bytes: a longer name names no file. */
    private static final int NAME_BYTES = 255;

    private UserPaths() {
    }

    /**
     * The blob path {@code relative} names under the user's folder, when it lies strictly inside {@code folder} (a
     * path from the user's folder, {@code user/files}); otherwise null. Unlike ST's string prefix check,
     * {@code /user/files_x/a} is not inside {@code user/files}; nor is a path that climbs out of the user's folder.
     */
    static String inside(String folder, String relative) {
        if (relative.indexOf('\0') >= 0) {
            return null;
        }
        Path base = HOME.resolve(folder);
        try {
            Path file = Path.of(HOME + "/" + relative).normalize();
            return file.startsWith(base) && !file.equals(base) ? HOME.relativize(file).toString() : null;
        } catch (InvalidPathException e) {
            return null;
        }
    }

    /** Whether there is a blob or a folder at a path {@link #inside} a folder (Node's {@code existsSync}). Blocking. */
    static boolean exists(BlobStore blobs, String user, String path) {
        return isPlain(path)
                && (blobs.keeps(path) && blobs.stat(user, path).isPresent() || isFolder(blobs, user, path));
    }

    /** Deletes the blob a request's {@code path} names inside {@code folder}, answering ST's errors. Blocking. */
    static void deleteInside(BlobStore blobs, String user, String folder, JsonNode path) {
        if (!Js.truthy(path)) {
            throw Refusal.badRequest("No path specified");
        }
        String file = path.isTextual() ? inside(folder, path.textValue()) : null;
        if (file == null) {
            throw Refusal.badRequest("Invalid path");
        }
        if (isPlain(file) && blobs.keeps(file) && blobs.delete(user, file)) {
            return;
        }
        if (isPlain(file) && isFolder(blobs, user, file)) {
            throw Refusal.badRequest("Invalid path"); // a folder, which ST's unlink cannot delete
        }
        throw Refusal.notFound("File not found");
    }

    /** Whether the plain path is a folder: on PostgreSQL one with a blob under it, on files any there is. */
    private static boolean isFolder(BlobStore blobs, String user, String path) {
        int slash = path.lastIndexOf('/');
        return blobs.folders(user, path.substring(0, slash)).contains(path.substring(slash + 1));
    }

    /**
     * Whether each segment of a path {@link #inside} a folder could be a file's name: one with a {@code \} or a
     * name over the file system's limit names nothing, as it named no file before.
     */
    private static boolean isPlain(String path) {
        for (String segment : path.split("/")) {
            if (!Sanitize.isSafeSegment(segment) || Sanitize.utf8Length(segment) > NAME_BYTES) {
                return false;
            }
        }
        return true;
    }
}
