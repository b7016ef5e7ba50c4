package tankard.vector.store;

import tankard.core.Refusal;
import tankard.util.Sanitize;

import java.nio.file.Path;

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

    /** The index's folder under a user's vectors folder. */
    public Path folder(Path vectors) {
        Path collectionFolder = vectors.resolve(source).resolve(collection);
        return scope.isEmpty() ? collectionFolder : collectionFolder.resolve(scope);
    }
}
