package tankard.thumbnail;

import tankard.config.TankardConfig;
import tankard.image.ImageSniff;
import tankard.store.AtomicFiles;
import tankard.user.UserDirs;
import tankard.util.Sanitize;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Locale;
import java.util.Set;

/**
 * The thumbnail cache of ST's src/endpoints/thumbnails.js: {@code thumbnails/<type>/<file>}, a cache of this node in
 * every storage, made on first request and then served as it is until its original changes, or {@link #invalidate}
 * deletes it because its original changed here, was renamed or deleted.
 */
public final class Thumbnails {
    /** Served as originals, never thumbnailed (animated or video formats). */
    private static final Set<String> SKIPPED = Set.of("apng", "mp4", "webm", "avi", "mkv", "flv", "gif");

    private final TankardConfig.Thumbnails config;
    private final ThumbnailRenderer renderer;

    public Thumbnails(TankardConfig.Thumbnails config) {
        this.config = config;
        this.renderer = new ThumbnailRenderer(config);
    }

    /**
     * The file that answers a thumbnail request for the image {@code original} (a file of this node, {@link NodeImages},
     * named by a plain file name, already validated): the cached thumbnail, a newly made one, or the original when
     * there is to be no thumbnail. The returned file may not exist (then the original is missing). Blocking.
     * <p>
     * A thumbnail carries its original's modification time, so one whose original changed since, here or on another
     * node, is made again (ST: src/endpoints/thumbnails.js, generateThumbnail, compares the original's mtime with the
     * thumbnail's ctime). As in ST, a thumbnail is served while its original is missing.
     *
     * @param animated the client can show animated formats, which are then served as originals
     */
    public Path fileFor(Path original, UserDirs dirs, ThumbnailType type, boolean animated) throws IOException {
        String file = original.getFileName().toString();
        String extension = extension(file);
        if (!config.enabled() || extension.equals("gif") || (animated && SKIPPED.contains(extension))) {
            return original;
        }
        Path cached = type.cacheFolder(dirs).resolve(file);
        FileTime originalTime = modifiedTime(original);
        if (Files.isRegularFile(cached) && (originalTime == null || originalTime.equals(modifiedTime(cached)))) {
            return cached;
        }
        if (SKIPPED.contains(extension) || originalTime == null || isAnimated(original, extension)) {
            return original;
        }
        byte[] thumbnail = renderer.render(original, type);
        if (thumbnail == null) {
            return original;
        }
        // Concurrent requests may both render: each write is whole (temp file + rename), the last one stays.
        AtomicFiles.write(cached, thumbnail);
        Files.setLastModifiedTime(cached, originalTime);
        return cached;
    }

    /** The regular file's modification time; null when there is none. */
    private static FileTime modifiedTime(Path file) throws IOException {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return attributes.isRegularFile() ? attributes.lastModifiedTime() : null;
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * Deletes this node's cached thumbnail (under the data root) of a user's image that changed, was renamed or
     * deleted. Blocking.
     */
    public static void invalidate(Path dataRoot, String user, ThumbnailType type, String file) {
        String name = Sanitize.filename(file);
        if (!name.isEmpty()) {
            AtomicFiles.deleteQuietly(type.cacheFolder(UserDirs.of(dataRoot, user)).resolve(name));
        }
    }

    /** ST looks for animation chunks only in files named .png and .webp. */
    private static boolean isAnimated(Path original, String extension) throws IOException {
        return switch (extension) {
            case "png" -> ImageSniff.isAnimatedPng(ImageSniff.head(original));
            case "webp" -> ImageSniff.isAnimatedWebp(ImageSniff.head(original));
            default -> false;
        };
    }

    private static String extension(String file) {
        int dot = file.lastIndexOf('.');
        return dot < 0 ? "" : file.substring(dot + 1).toLowerCase(Locale.ROOT);
    }
}
