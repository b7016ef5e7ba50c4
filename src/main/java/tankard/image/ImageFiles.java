package tankard.image;

import tankard.util.MimeTypes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.text.Collator;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** ST's image listings (persona images, backgrounds): plain files with an image/* type, in locale collation order. */
public final class ImageFiles {
    private ImageFiles() {
    }

    /** The image file names directly in {@code folder} (none when it does not exist). Blocking. */
    public static List<String> list(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        // Like Node's Intl.Collator().compare; ties (names the collator deems equal) by code units, for stable output.
        Comparator<String> order = Comparator.comparing((String name) -> name, Collator.getInstance())
                .thenComparing(Comparator.naturalOrder());
        try (Stream<Path> entries = Files.list(folder)) {
            return entries
                    .filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .map(p -> p.getFileName().toString())
                    .filter(MimeTypes::isImage)
                    .sorted(order)
                    .toList();
        }
    }
}
