package tankard.vector.store;

import tankard.core.Refusal;
import tankard.util.Sanitize;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Where one index lives: {@code <vectors>/<source>/<collection>/<model scope>/}, each name cleaned as ST cleans it
 * (ST: src/endpoints/vectors.js, getIndex, with sanitize-filename). An empty model scope puts the index in the
 * collection's folder itself, as on ST.
 */
public record CollectionKey(String source, String collection, String scope) {
    public CollectionKey {
        source = folderName("source", source);
        collection = folderName("collection id", collection);
        scope = Sanitize.filename(scope);
    }

    /**
     * A source or collection name cleaned as ST cleans it. One that cleans to nothing ({@code ..}, {@code con}) is
     * refused: ST would take the folder above for it, and its purge of {@code ..} deletes every source.
     */
    public static String folderName(String what, String name) {
        String cleaned = Sanitize.filename(name);
        if (cleaned.isEmpty()) {
            throw Refusal.badRequest("The " + what + " \"" + name + "\" is not usable as a folder name");
        }
        return cleaned;
    }

    /** The name of an index's file in its folder. */
    public static final String INDEX_FILE = "index.json";
    /** A user's folder of vector indexes. */
    public static final String VECTORS_FOLDER = "vectors";

    /** The path of the index's file from the user's folder, with {@code /}. */
    public String indexPath() {
        return folderPath() + "/" + INDEX_FILE;
    }

    /** The path of the index's folder from the user's folder, with {@code /}. */
    public String folderPath() {
        return VECTORS_FOLDER + "/" + source + "/" + collection + (scope.isEmpty() ? "" : "/" + scope);
    }

    /**
     * The index whose file (or one of whose journal segments) this path of a user's folder is
     * ({@code vectors/<source>/<collection>[/<scope>]/index.json}), each name one that ST's cleaning leaves as it is;
     * empty for any other path.
     */
    public static Optional<CollectionKey> ofIndexPath(String pathInUser) {
        String[] parts = pathInUser.split("/", -1);
        if (parts.length < 4 || parts.length > 5 || !parts[0].equals(VECTORS_FOLDER)) {
            return Optional.empty();
        }
        String file = parts[parts.length - 1];
        if (!file.equals(INDEX_FILE) && !LoadedIndex.isSegmentName(file)) {
            return Optional.empty();
        }
        for (int i = 1; i < parts.length - 1; i++) {
            if (parts[i].isEmpty() || !Sanitize.filename(parts[i]).equals(parts[i])) {
                return Optional.empty();
            }
        }
        return Optional.of(new CollectionKey(parts[1], parts[2], parts.length == 5 ? parts[3] : ""));
    }

    /** The index's folder under a user's vectors folder. */
    public Path folder(Path vectors) {
        Path collectionFolder = vectors.resolve(source).resolve(collection);
        return scope.isEmpty() ? collectionFolder : collectionFolder.resolve(scope);
    }
}
