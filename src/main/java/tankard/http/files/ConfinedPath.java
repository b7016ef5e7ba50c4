package tankard.http.files;

import tankard.core.Refusal;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The file a request path names inside one folder. The path must already be URL-decoded exactly once
 * (Vert.x's wildcard parameter is); decoding again would let {@code %252e%252e} become {@code ..}.
 */
public final class ConfinedPath {
    private ConfinedPath() {
    }

    /**
     * Resolves {@code relative} inside {@code folder}.
     *
     * @throws Refusal 403 when the path tries to leave the folder (a {@code ..} segment, an absolute path,
     *                  a NUL byte), 404 for hidden segments ({@code .git}, {@code .env}), which Express never serves
     */
    public static Path resolve(Path folder, String relative) {
        if (relative == null) {
            return folder.toAbsolutePath().normalize();
        }
        if (relative.indexOf('\0') >= 0 || relative.startsWith("/") || relative.startsWith("\\")) {
            throw Refusal.forbidden("Path outside the folder");
        }
        boolean hidden = false;
        for (String segment : relative.split("[/\\\\]")) {
            if (segment.equals("..")) {
                throw Refusal.forbidden("Path outside the folder");
            }
            hidden |= segment.length() > 1 && segment.startsWith(".");
        }
        Path base = folder.toAbsolutePath().normalize();
        Path file;
        try {
            file = base.resolve(relative).normalize();
        } catch (InvalidPathException e) {
            throw Refusal.forbidden("Invalid path");
        }
        if (!file.startsWith(base)) {
            throw Refusal.forbidden("Path outside the folder");
        }
        if (hidden) {
            throw Refusal.notFound("Not found");
        }
        return file;
    }
}
