package tankard.util;

import io.vertx.core.http.MimeMapping;

import java.util.Locale;
import java.util.Map;

/**
 * Media types by file extension, as ST's Node modules answer them: Vert.x's table plus the entries where
 * Node's database differs or knows more (apng, avif, modern font types, ...).
 */
public final class MimeTypes {
    public static final String OCTET_STREAM = "application/octet-stream";

    private static final Map<String, String> OVERRIDES = Map.ofEntries(
            Map.entry("js", "application/javascript"),
            Map.entry("mjs", "application/javascript"),
            Map.entry("map", "application/json"),
            Map.entry("md", "text/markdown"),
            Map.entry("markdown", "text/markdown"),
            Map.entry("yaml", "text/yaml"),
            Map.entry("yml", "text/yaml"),
            Map.entry("apng", "image/apng"),
            Map.entry("avif", "image/avif"),
            Map.entry("heic", "image/heic"),
            Map.entry("heif", "image/heif"),
            Map.entry("jxl", "image/jxl"),
            Map.entry("jfif", "image/jpeg"),
            Map.entry("woff", "font/woff"),
            Map.entry("ttf", "font/ttf"),
            Map.entry("otf", "font/otf"),
            Map.entry("wav", "audio/wav"),
            Map.entry("m4a", "audio/mp4"));

    private MimeTypes() {
    }

    /** The media type of a file name, or null when the extension is unknown. */
    public static String lookup(String fileName) {
        int dot = fileName.lastIndexOf('.');
        if (dot < 0 || dot == fileName.length() - 1) {
            return null;
        }
        String ext = fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
        String override = OVERRIDES.get(ext);
        return override != null ? override : MimeMapping.mimeTypeForExtension(ext);
    }

    /** The Content-Type header for a served file: unknown types are octet streams, text gets UTF-8. */
    public static String contentType(String fileName) {
        String type = lookup(fileName);
        if (type == null) {
            return OCTET_STREAM;
        }
        return isText(type) ? type + "; charset=UTF-8" : type;
    }

    public static boolean isImage(String fileName) {
        String type = lookup(fileName);
        return type != null && type.startsWith("image/");
    }

    private static boolean isText(String type) {
        return type.startsWith("text/") || type.equals("application/javascript") || type.equals("application/json");
    }
}
