package tankard.image;

import tankard.store.BlobStore;
import tankard.util.JsLocale;
import tankard.util.MimeTypes;

import java.util.List;

/** ST's image listings (persona images, backgrounds): plain files with an image/* type, in locale collation order. */
public final class ImageFiles {
    private ImageFiles() {
    }

    /** The names of the user's image blobs directly in the folder (none when it does not exist). Blocking. */
    public static List<String> list(BlobStore blobs, String user, String folder) {
        // Node's stable sort keeps readdir order (the store's listing order) for names the collator deems equal.
        return blobs.list(user, folder).stream()
                .map(BlobStore.Entry::name)
                .filter(MimeTypes::isImage)
                .sorted(JsLocale.comparator())
                .toList();
    }
}
