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
    /**
     * Node's readdir order: libuv sorts entries by their bytes, i.e. by code point. UTF-16 units compare the
     * same way, except a surrogate (half of a code point above U+FFFF) against a unit from U+E000 up.
     */
    public static final Comparator<String> BYTE_ORDER = (a, b) -> {
        int length = Math.min(a.length(), b.length());
        for (int i = 0; i < length; i++) {
            char ca = a.charAt(i);
            char cb = b.charAt(i);
            if (ca != cb) {
                return ca >= 0xd800 && cb >= 0xd800 ? codePointRank(ca) - codePointRank(cb) : ca - cb;
            }
        }
        return a.length() - b.length();
    };

    /** For units from U+D800 up: surrogates moved above the others, as their code points are. */
    private static int codePointRank(char c) {
        return Character.isSurrogate(c) ? c + 0x2000 : c - 0x800;
    }

    private FileNames() {
    }

    /**
     * An upload's original file name as ST's multer hands it on (busboy's {@code basename}): what follows the last
     * {@code /} or {@code \}, and nothing for {@code .} or {@code ..}. So {@code ../up/c.json} is {@code c.json}.
     */
    public static String uploadName(String sent) {
        if (sent == null) {
            return "";
        }
        String last = sent.substring(Math.max(sent.lastIndexOf('/'), sent.lastIndexOf('\\')) + 1);
        return last.equals(".") || last.equals("..") ? "" : last;
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
