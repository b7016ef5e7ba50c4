package tankard.sprite;

import io.vertx.ext.web.FileUpload;
import tankard.core.Refusal;
import tankard.image.MediaSniff;
import tankard.image.MediaUploads;
import tankard.store.AtomicFiles;
import tankard.store.BlobStore;
import tankard.util.FileNames;
import tankard.util.MimeTypes;
import tankard.util.SafeZip;
import tankard.util.SafeNames;
import tankard.util.Sanitize;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.zip.ZipEntry;

/**
 * Sprite uploads and deletion (ST: src/endpoints/sprites.js, /upload, /upload-zip, /delete). Beyond ST: uploads must
 * be images within size limits, a sprite pack is checked whole (entry paths, sizes, zip bombs, image content) before
 * any sprite is written, and a replaced sprite is only removed once its replacement is in place.
 */
final class SpriteUploads {
    static final long MAX_SPRITE_BYTES = 16L << 20;
    static final long MAX_PACK_BYTES = 256L << 20;
    static final SafeZip.Limits PACK_LIMITS = new SafeZip.Limits(2_000, 512L << 20, MAX_SPRITE_BYTES, 100, 1L << 20);
    private static final Set<MediaSniff.Kind> IMAGE = EnumSet.of(MediaSniff.Kind.IMAGE);

    private SpriteUploads() {
    }

    /** Stores the upload as {@code sanitize(spriteName + its extension)}, replacing the sprites of that name. Blocking. */
    static void upload(BlobStore blobs, String user, String name, String spriteName, FileUpload upload)
            throws IOException {
        String folder = SpriteFeature.folder(name);
        String fileName = SafeNames.sanitizedName(spriteName + FileNames.ext(upload.fileName()), "sprite name");
        Path source = MediaUploads.check(upload, MAX_SPRITE_BYTES, IMAGE);
        List<String> existing = existingFiles(blobs, user, folder);
        write(blobs, user, folder + "/" + fileName, source);
        for (String file : existing) {
            if (FileNames.base(file).equals(spriteName) && !file.equals(fileName)) {
                blobs.delete(user, folder + "/" + file);
            }
        }
    }

    /** A staged sprite of a pack: its file name, the entry's own base name (ST matches on it), and its bytes. */
    private record Staged(String fileName, String entryName, Path file) {
    }

    /**
     * Writes every image of the pack flat into the sprite folder, each replacing the first sprite with the same
     * base name (ST's rule); the count of images. The pack is unpacked into {@code staging} first, so a bad
     * archive is a 400 with nothing written. Blocking.
     */
    static int uploadZip(BlobStore blobs, String user, String name, FileUpload upload) throws IOException {
        String folder = SpriteFeature.folder(name);
        if (upload.size() > MAX_PACK_BYTES) {
            throw Refusal.tooLarge("The sprite pack is too large: at most " + (MAX_PACK_BYTES >> 20) + " MB");
        }
        Path pack = Path.of(upload.uploadedFileName());
        Path staging = Files.createTempDirectory(pack.getParent(), "sprites");
        try {
            List<Staged> sprites = unpack(pack, staging);
            List<String> existing = existingFiles(blobs, user, folder);
            for (Staged sprite : sprites) {
                String base = FileNames.base(sprite.entryName());
                // the new one in place before the old goes
                write(blobs, user, folder + "/" + sprite.fileName(), sprite.file());
                existing.stream().filter(file -> FileNames.base(file).equals(base)).findFirst().ifPresent(file -> {
                    existing.remove(file);
                    if (!file.equals(sprite.fileName())) {
                        blobs.delete(user, folder + "/" + file);
                    }
                });
            }
            return sprites.size();
        } finally {
            AtomicFiles.deleteTree(staging);
        }
    }

    /** The pack's images (by entry name, outside {@code __MACOSX}), each checked and written to {@code staging}. */
    private static List<Staged> unpack(Path pack, Path staging) throws IOException {
        List<Staged> sprites = new ArrayList<>();
        try (SafeZip zip = SafeZip.open(pack, PACK_LIMITS)) {
            for (ZipEntry entry : zip.files()) {
                String path = entry.getName();
                if (!MimeTypes.isImage(path) || path.startsWith("__MACOSX")) {
                    continue;
                }
                String entryName = path.substring(path.lastIndexOf('/') + 1);
                String fileName = Sanitize.filename(entryName);
                if (fileName.isEmpty()) {
                    throw Refusal.badRequest("The sprite pack has an entry with an invalid name: " + path);
                }
                SafeNames.requireFits(fileName, "sprite pack entry name");
                byte[] bytes = zip.read(entry);
                if (MediaSniff.of(bytes) != MediaSniff.Kind.IMAGE) {
                    throw Refusal.badRequest("The sprite pack entry " + path + " is not an image");
                }
                Path staged = staging.resolve(Integer.toString(sprites.size()));
                AtomicFiles.write(staged, bytes);
                sprites.add(new Staged(fileName, entryName, staged));
            }
        } catch (SafeZip.BadZipException e) {
            throw Refusal.badRequest(e.getMessage());
        }
        return sprites;
    }

    /**
     * Deletes the sprites whose name without extension is {@code spriteName}; 404 when there is no folder (on
     * PostgreSQL, none with a blob under it). Blocking.
     */
    static void delete(BlobStore blobs, String user, String name, String spriteName) {
        String folder;
        try {
            folder = SpriteFeature.folder(name);
        } catch (Refusal invalidName) {
            throw Refusal.notFound("No sprite folder " + name); // ST's status for a name it cannot use
        }
        int slash = folder.lastIndexOf('/');
        if (!blobs.folders(user, folder.substring(0, slash)).contains(folder.substring(slash + 1))) {
            throw Refusal.notFound("No sprite folder " + name);
        }
        for (BlobStore.Entry file : blobs.list(user, folder)) {
            if (FileNames.base(file.name()).equals(spriteName)) {
                blobs.delete(user, file.path());
            }
        }
    }

    /** The folder's file names; 404 when the path is taken by something that is not a folder. Blocking. */
    private static List<String> existingFiles(BlobStore blobs, String user, String folder) {
        if (blobs.keeps(folder) && blobs.stat(user, folder).isPresent()) {
            throw notAFolder();
        }
        return new ArrayList<>(blobs.list(user, folder).stream().map(BlobStore.Entry::name).toList());
    }

    /** Stores the file as the sprite; 404 when a file stands where one of its folders should be. */
    private static void write(BlobStore blobs, String user, String path, Path file) throws IOException {
        try (InputStream content = Files.newInputStream(file)) {
            blobs.write(user, path, content);
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof NotDirectoryException) {
                throw notAFolder();
            }
            throw e;
        }
    }

    private static Refusal notAFolder() {
        return Refusal.notFound("The sprite folder is not a folder");
    }
}
