package tankard.thumbnail;

import tankard.store.AtomicFiles;
import tankard.store.BlobStore;
import tankard.store.FileBlobStore;
import tankard.store.FileTimes;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * A user's images as files of this node, for what decodes, sniffs or sends files (thumbnails, image metadata): a card
 * (a {@code .png} directly in {@code characters/}) from wherever the cards are ({@link CardFiles}), any other image
 * from the blob store. On the file store that is the blob's file itself; on a store elsewhere (the database) a copy
 * under the data root's {@code _cache/tankard-blobs}, taken again whenever the blob's time or size is not the copy's.
 * A copy is a cache only: the blob store's version decides what is read. Blocking.
 */
public final class NodeImages {
    /** The data root's folder of copies (a node's own scratch, never moved with the data). */
    public static final String CACHE_FOLDER = "_cache/tankard-blobs";
    private static final String CHARACTERS = "characters/";

    private final BlobStore blobs;
    private final CardFiles cards;
    private final Path dataRoot;
    private final boolean blobsAreFiles;

    /** A file of {@code characters/}: a card from wherever cards are kept (character.CardImages#file); blocking. */
    @FunctionalInterface
    public interface CardFiles {
        Path file(String user, String name) throws IOException;
    }

    public NodeImages(BlobStore blobs, CardFiles cards, Path dataRoot) {
        this.blobs = blobs;
        this.cards = cards;
        this.dataRoot = dataRoot;
        this.blobsAreFiles = blobs instanceof FileBlobStore;
    }

    /**
     * The file of the user's image at the path (from the user's folder, with {@code /}): a missing file when there is
     * none. An {@link IllegalArgumentException} for a path that is neither a card's nor a blob's.
     */
    public Path file(String user, String path) throws IOException {
        if (isCard(path)) {
            return cards.file(user, path.substring(CHARACTERS.length()));
        }
        BlobStore.checkBlob(path, blobs::keeps);
        Path file = userFile(blobsAreFiles ? dataRoot : dataRoot.resolve(CACHE_FOLDER), user, path);
        if (blobsAreFiles) {
            return file;
        }
        Optional<BlobStore.Entry> blob = blobs.stat(user, path);
        if (blob.isEmpty()) {
            Files.deleteIfExists(file);
        } else if (!FileTimes.isCopy(file, blob.get().size(), blob.get().modifiedMs())) {
            copy(user, path, file);
        }
        return file;
    }

    /**
     * Node's {@code birthtimeMs} of an image's file from {@link #file}: on files its birth time (its mtime where the
     * file system keeps none); a copy was born when it was taken, so there the blob's time (the store keeps no birth).
     */
    public double addedMs(BasicFileAttributes attributes) {
        return FileTimes.millis(blobsAreFiles ? attributes.creationTime() : attributes.lastModifiedTime());
    }

    /** Whether the user has an image file (a card, or a blob) at the path; false for a path of neither. */
    public boolean isFile(String user, String path) throws IOException {
        try {
            return isCard(path) ? Files.isRegularFile(file(user, path)) : blobs.stat(user, path).isPresent();
        } catch (IllegalArgumentException notInTheStores) {
            return false;
        }
    }

    /**
     * Whether there is a file or folder at the path of the user's folder ({@code ""} for that folder), as ST's
     * {@code existsSync} tells: on files any of the folder's; elsewhere a card, a blob, or a folder with blobs.
     */
    public boolean exists(String user, String path) throws IOException {
        if (blobsAreFiles) {
            return Files.exists(dataRoot.resolve(user).resolve(path));
        }
        if (path.isEmpty() || isFile(user, path)) {
            return true;
        }
        int slash = path.lastIndexOf('/');
        try {
            return blobs.folders(user, slash < 0 ? "" : path.substring(0, slash)).contains(path.substring(slash + 1));
        } catch (IllegalArgumentException notAFolderPath) {
            return false;
        }
    }

    private boolean isCard(String path) {
        return path.startsWith(CHARACTERS) && path.indexOf('/', CHARACTERS.length()) < 0 && !blobs.keeps(path);
    }

    private static Path userFile(Path root, String user, String path) {
        Path file = root.resolve(user);
        for (String segment : path.split("/")) {
            file = file.resolve(segment);
        }
        return file;
    }

    /** Takes a copy of the blob, stamped with its time; a blob deleted meanwhile leaves no copy. */
    private void copy(String user, String path, Path file) throws IOException {
        Optional<BlobStore.Opened> opened = blobs.open(user, path, 0);
        if (opened.isEmpty()) {
            Files.deleteIfExists(file);
            return;
        }
        try (BlobStore.Opened blob = opened.get(); InputStream in = blob.content()) {
            Files.createDirectories(file.getParent());
            AtomicFiles.write(file, channel -> in.transferTo(Channels.newOutputStream(channel)));
            // A blob replaced between this open and the next look is copied again then, its time differing.
            Files.setLastModifiedTime(file, FileTimes.stamp(blob.entry().modifiedMs()));
        }
    }
}
