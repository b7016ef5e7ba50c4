package tankard.util;

import io.vertx.core.http.MimeMapping;

import java.util.Locale;
import java.util.Map;

/** Content types by file extension, as ST's {@code mime-types} lookup gives them (case-insensitive). */
public final class MimeTypes {
    /** Image types mime-types knows that Vert.x's table lacks. */
    private static final Map<String, String> EXTRA = Map.of(
            "avif", "image/avif",
            "apng", "image/apng",
            "jxl", "image/jxl",
            "heic", "image/heic",
            "heif", "image/heif",
            "jfif", "image/jpeg");

    private MimeTypes() {
    }

    /** The type for a file name, or null when the extension is unknown. */
    public static String forFileName(String name) {
        String ext = FileNames.ext(name);
        if (ext.length() < 2) {
            return null;
        }
        String key = ext.substring(1).toLowerCase(Locale.ROOT);
        String type = MimeMapping.mimeTypeForExtension(key);
        return type != null ? type : EXTRA.get(key);
    }

    public static boolean isImage(String name) {
        String type = forFileName(name);
        return type != null && type.startsWith("image/");
    }
}
