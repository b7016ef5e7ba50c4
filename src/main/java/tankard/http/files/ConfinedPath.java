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
        boolean hidden = check(relative);
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

    /**
     * The path of the blob {@code relative} names inside a folder of a user's blobs ({@code backgrounds}), normalised
     * as {@link #resolve} normalises a file's ({@code a//./b} is {@code a/b}), with the same refusals; the folder's
     * own path when {@code relative} names no file in it.
     */
    public static String blobPath(String folder, String relative) {
        StringBuilder path = new StringBuilder(folder);
        if (relative != null && check(relative)) {
            throw Refusal.notFound("Not found");
        }
        for (String segment : relative == null ? new String[0] : relative.split("/")) {
            if (!segment.isEmpty() && !segment.equals(".")) {
                path.append('/').append(segment);
            }
        }
        return path.toString();
    }

    /** Refuses a path that tries to leave its folder; whether it has a hidden segment. */
    private static boolean check(String relative) {
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
        return hidden;
    }
}
