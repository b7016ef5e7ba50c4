package tankard.util;

import io.vertx.core.http.MimeMapping;

import java.util.Locale;
import java.util.Map;

/** Content types by file extension, as ST's {@code mime-types} lookup gives them (case-insensitive). */
public final class MimeTypes {
    public static final String OCTET_STREAM = "application/octet-stream";

    /** Image types mime-types knows that Vert.x's table lacks. */
    private static final Map<String, String> EXTRA = Map.of(
            "avif", "image/avif",
            "apng", "image/apng",
            "jxl", "image/jxl",
            "heic", "image/heic",
            "heif", "image/heif",
            "jfif", "image/jpeg");

    /** Where the {@code mime} table of Express's file sending differs from Vert.x's (or knows more). */
    private static final Map<String, String> SENT_AS = Map.ofEntries(
            Map.entry("js", "application/javascript"),
            Map.entry("mjs", "application/javascript"),
            Map.entry("map", "application/json"),
            Map.entry("md", "text/markdown"),
            Map.entry("markdown", "text/markdown"),
            Map.entry("yaml", "text/yaml"),
            Map.entry("yml", "text/yaml"),
            Map.entry("woff", "font/woff"),
            Map.entry("ttf", "font/ttf"),
            Map.entry("otf", "font/otf"),
            Map.entry("wav", "audio/wav"),
            Map.entry("m4a", "audio/mp4"));

    /** mime-types' {@code extension} of the image types image services answer. */
    private static final Map<String, String> IMAGE_EXTENSIONS = Map.of("image/png", "png", "image/jpeg", "jpeg",
            "image/webp", "webp", "image/gif", "gif", "image/avif", "avif", "image/bmp", "bmp", "image/svg+xml", "svg");

    private MimeTypes() {
    }

    /** The extension of a common image content type (parameters ignored), null for any other. */
    public static String imageExtension(String contentType) {
        if (contentType == null) {
            return null;
        }
        return IMAGE_EXTENSIONS.get(contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT));
    }

    /** The type for a file name, or null when the extension is unknown. */
    public static String forFileName(String name) {
        String key = extension(name);
        if (key == null) {
            return null;
        }
        String type = MimeMapping.mimeTypeForExtension(key);
        return type != null ? type : EXTRA.get(key);
    }

    public static boolean isImage(String name) {
        String type = forFileName(name);
        return type != null && type.startsWith("image/");
    }

    /** The Content-Type header of a served file, as Express sends it: text types in UTF-8, unknown ones as bytes. */
    public static String contentType(String name) {
        String key = extension(name);
        String type = key == null ? null : SENT_AS.getOrDefault(key, forFileName(name));
        if (type == null) {
            return OCTET_STREAM;
        }
        boolean text = type.startsWith("text/") || type.equals("application/javascript") || type.equals("application/json");
        return text ? type + "; charset=UTF-8" : type;
    }

    /** The lower-case extension without its dot, or null when there is none. */
    private static String extension(String name) {
        String ext = FileNames.ext(name);
        return ext.length() < 2 ? null : ext.substring(1).toLowerCase(Locale.ROOT);
    }
}
