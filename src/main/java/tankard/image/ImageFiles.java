package tankard.image;

import tankard.util.FileNames;
import tankard.util.JsLocale;
import tankard.util.MimeTypes;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/** ST's image listings (persona images, backgrounds): plain files with an image/* type, in locale collation order. */
public final class ImageFiles {
    private ImageFiles() {
    }

    /** The image file names directly in {@code folder} (none when it does not exist). Blocking. */
    public static List<String> list(Path folder) {
        // Node's stable sort keeps readdir order for names the collator deems equal.
        return FileNames.list(folder).stream()
                .filter(MimeTypes::isImage)
                .filter(name -> Files.isRegularFile(folder.resolve(name), LinkOption.NOFOLLOW_LINKS))
                .sorted(JsLocale.comparator())
                .toList();
    }
}
