package tankard.util;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** File-name rules as Node's {@code path} module applies them, and folder listings in Node's order. */
public final class FileNames {
    /** Node's readdir order: libuv sorts entries by their bytes, i.e. by code point. */
    public static final Comparator<String> BYTE_ORDER = (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    };

    private FileNames() {
    }

    /** {@code path.extname}: from the last dot, unless that dot starts the name ({@code .json} has none). */
    public static String ext(String name) {
        int dot = name.lastIndexOf('.');
        return dot <= 0 || name.equals("..") ? "" : name.substring(dot);
    }

    /** {@code path.parse(name).name}: the name without its extension. */
    public static String base(String name) {
        return name.substring(0, name.length() - ext(name).length());
    }

    /** The names in a folder in Node's readdir order; a missing folder lists as empty. Blocking. */
    public static List<String> list(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            List<String> names = new ArrayList<>(entries.map(p -> p.getFileName().toString()).toList());
            names.sort(BYTE_ORDER);
            return names;
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + dir.getFileName(), e);
        }
    }
}
