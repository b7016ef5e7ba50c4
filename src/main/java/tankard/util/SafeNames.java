package tankard.util;

import tankard.core.Refusal;

import java.nio.file.Path;

/**
 * Guards for names that arrive in requests and become file names. A bad name is a 400 before anything is
 * touched, and a resolved file always lies directly inside its folder.
 */
public final class SafeNames {
    /**
     * A file system's 255-byte name limit, less room for the atomic writer's temp suffix ({@code .} and up to 19
     * digits). ST's sanitize cuts names to 255 bytes, and its atomic write then fails (500) on the temp name.
     */
    public static final int MAX_NAME_BYTES = 255 - 20;

    private SafeNames() {
    }

    /**
     * ST's forbidden-character check on name fields (ST: src/middleware/validateFileName.js): no {@code /}, no NUL,
     * and (stricter than ST on Linux) no {@code \}, so a name can never point into another folder.
     */
    public static String noSeparators(String value, String what) {
        if (value == null || value.isEmpty()) {
            throw Refusal.badRequest("Missing " + what);
        }
        if (value.indexOf('/') >= 0 || value.indexOf('\\') >= 0 || value.indexOf('\0') >= 0) {
            throw Refusal.badRequest("Invalid " + what + ": it must not contain path separators");
        }
        return value;
    }

    /** A name the request must give: 400 when it is missing or empty (ST: {@code if (!request.body.name)}). */
    public static String required(String value, String what) {
        if (value == null || value.isEmpty()) {
            throw Refusal.badRequest("Missing " + what);
        }
        return value;
    }

    /**
     * ST's {@code path.join(folder, sanitize(fileName))}: separators, {@code :*?"<>|}, control characters and
     * trailing dots or spaces dropped, so {@code ../a} is {@code ..a}. 400 when cleaning leaves nothing (a Windows
     * reserved name such as {@code con.json}, or only dots), where ST would use the folder itself.
     */
    public static Path sanitizedFile(Path folder, String fileName, String what) {
        return fileIn(folder, Sanitize.filename(required(fileName, what)), what);
    }

    /** The file name, or a 400 when it is longer than {@link #MAX_NAME_BYTES} and so cannot be stored. */
    public static String requireFits(String fileName, String what) {
        if (Sanitize.utf8Length(fileName) > MAX_NAME_BYTES) {
            throw Refusal.badRequest("The " + what + " is too long");
        }
        return fileName;
    }

    /**
     * ST's {@code sanitize(fileName)} as a document name ({@link tankard.store.DocumentStore}): 400 when it is
     * missing, or cleaning leaves no storable name (see {@link #sanitizedFile}).
     */
    public static String sanitizedName(String fileName, String what) {
        return segment(Sanitize.filename(required(fileName, what)), what);
    }

    /** A name that must already be one plain path segment: 400 when it is not, or is too long to be stored. */
    public static String segment(String fileName, String what) {
        if (!Sanitize.isSafeSegment(fileName)) {
            throw Refusal.badRequest("Invalid " + what);
        }
        return requireFits(fileName, what);
    }

    /**
     * {@code folder/fileName} for a name that must already be a plain file name: 400 when it is empty, {@code .},
     * {@code ..}, leaves the folder or is longer than {@link #MAX_NAME_BYTES}.
     */
    public static Path fileIn(Path folder, String fileName, String what) {
        if (fileName == null || fileName.isEmpty() || fileName.equals(".") || fileName.equals("..")) {
            throw Refusal.badRequest("Invalid " + what);
        }
        requireFits(fileName, what);
        Path file = folder.resolve(fileName).normalize();
        if (!folder.normalize().equals(file.getParent())) {
            throw Refusal.badRequest("Invalid " + what);
        }
        return file;
    }
}
