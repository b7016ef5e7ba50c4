package tankard.util;

import tankard.core.Refusal;

import java.nio.file.Path;

/**
 * Guards for names that arrive in requests and become file names. A bad name is a 400 before anything is
 * touched, and a resolved file always lies directly inside its folder.
 */
public final class SafeNames {
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

    /** {@code folder/sanitize(fileName)}; 400 when sanitizing leaves nothing. */
    public static Path sanitizedFile(Path folder, String fileName, String what) {
        return fileIn(folder, Sanitize.filename(fileName), what);
    }

    /** {@code folder/fileName} for a name that must already be a plain file name. */
    public static Path fileIn(Path folder, String fileName, String what) {
        if (fileName == null || fileName.isEmpty() || fileName.equals(".") || fileName.equals("..")) {
            throw Refusal.badRequest("Invalid " + what);
        }
        Path file = folder.resolve(fileName).normalize();
        if (!folder.normalize().equals(file.getParent())) {
            throw Refusal.badRequest("Invalid " + what);
        }
        return file;
    }
}
