package tankard.userfiles;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.vertx.ext.web.Router;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.image.MediaSniff;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.store.BlobStore;
import tankard.util.JsLocale;
import tankard.util.LenientBase64;
import tankard.util.MimeTypes;
import tankard.util.SafeNames;
import tankard.util.Sanitize;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * {@code /api/images/*} (ST: src/endpoints/images.js): images (and other media) attached to messages or used as chat
 * backgrounds, in {@code user/images/[<character>/]} (served by {@link UserFilesFeature}).
 */
public record ChatImagesFeature(BlobStore blobs) implements Feature {
    /** The folder of the chat images, from the user's folder. */
    private static final String FOLDER = "user/images";
    /** ST's accepted formats (MEDIA_EXTENSIONS). */
    private static final List<String> FORMATS = List.of("bmp", "png", "jpg", "webp", "jpeg", "jfif", "gif", "mp4",
            "avi", "mov", "wmv", "flv", "webm", "3gp", "mkv", "mpg", "mp3", "wav", "ogg", "flac", "aac", "m4a", "aiff");
    /** The formats whose data Tankard checks is an image; ST stores whatever it is sent. */
    private static final Set<String> IMAGE_FORMATS = Set.of("bmp", "png", "jpg", "webp", "jpeg", "jfif", "gif");
    private static final int IMAGES = 1;
    private static final int VIDEO = 2;
    private static final int AUDIO = 4;

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/images/upload").handler(routes.blocking(this::upload));
        router.post("/api/images/list").handler(routes.blocking(request -> list(request, null)));
        router.post("/api/images/list/:folder").handler(routes.blocking(
                request -> list(request, request.ctx().pathParam("folder"))));
        router.post("/api/images/folders").handler(routes.blocking(request -> {
            request.body();
            ArrayNode folders = JsJson.array();
            blobs.folders(request.user().handle(), FOLDER).forEach(folders::add);
            return Reply.json(folders);
        }));
        router.post("/api/images/delete").handler(routes.blocking(request -> {
            UserPaths.deleteInside(blobs, request.user().handle(), FOLDER, request.body().get("path"));
            return Reply.ok();
        }));
    }

    /**
     * Stores base64 media as {@code user/images/[sanitize(ch_name)/]sanitize(<file name>.<format>)}, the file
     * name being the given one without its extension or the current epoch milliseconds.
     */
    private Reply upload(Request request) {
        JsonNode body = request.body();
        JsonNode image = body.get("image");
        JsonNode format = body.get("format");
        if (!Js.truthy(image)) {
            throw Refusal.badRequest("No image data provided");
        }
        if (format == null || !format.isTextual() || !FORMATS.contains(format.textValue())) {
            throw Refusal.badRequest("Invalid image format");
        }
        JsonNode fileName = body.get("filename");
        JsonNode character = body.get("ch_name");
        if (!image.isTextual() || Js.truthy(fileName) && !fileName.isTextual() || Js.truthy(character) && !character.isTextual()) {
            throw Refusal.badRequest("The image, filename and ch_name must be text");
        }
        String base = Js.truthy(fileName) ? fileName.textValue().replaceFirst("\\.[^.]+$", "") : Long.toString(System.currentTimeMillis());
        String wanted = base + "." + format.textValue();
        byte[] data = LenientBase64.decode(image.textValue());
        if (IMAGE_FORMATS.contains(format.textValue()) && MediaSniff.of(data) != MediaSniff.Kind.IMAGE) {
            throw Refusal.badRequest("The image data is not an image");
        }
        String folder = Js.truthy(character) ? folder(character.textValue()) : FOLDER;
        String file = folder + "/" + SafeNames.sanitizedName(wanted, "file name");
        blobs.write(request.user().handle(), file, new ByteArrayInputStream(data));
        return Reply.json(JsJson.object().put("path", "/" + file));
    }

    /** The media file names of a folder, filtered by the type mask and sorted by date (default) or name. */
    private Reply list(Request request, String urlFolder) {
        JsonNode body = request.body();
        JsonNode folder = body.get("folder");
        if (urlFolder != null && Js.truthy(folder)) {
            throw Refusal.badRequest("Folder specified in both URL and body");
        }
        String name = urlFolder != null ? urlFolder : Js.truthy(folder) ? Js.string(folder) : null;
        if (name == null || name.isEmpty()) {
            throw Refusal.badRequest("No folder specified");
        }
        int type = typeMask(body.get("type"));
        // ST creates the folder it lists; a folder of blobs is there once an image is (docs/compatibility.md)
        List<BlobStore.Entry> files = new ArrayList<>(blobs.list(request.user().handle(), folder(name)).stream()
                .filter(file -> matches(MimeTypes.forFileName(file.name()), type))
                .toList());
        JsonNode sortField = body.get("sortField");
        String sort = Js.truthy(sortField) ? Js.string(sortField) : "date";
        if (sort.equals("name")) {
            files.sort(Comparator.comparing(BlobStore.Entry::name, JsLocale.comparator()));
        } else if (sort.equals("date")) {
            files.sort(Comparator.comparingDouble(BlobStore.Entry::modifiedMs));
        }
        JsonNode order = body.get("sortOrder");
        if (Js.truthy(order) && Js.string(order).equals("desc")) {
            Collections.reverse(files);
        }
        ArrayNode out = JsJson.array();
        files.forEach(file -> out.add(file.name()));
        return Reply.json(out);
    }

    /**
     * {@code user/images/sanitize(name)}, as ST joins it: a name that cleans to nothing ({@code ..}, {@code con}) is
     * the images folder itself.
     */
    private static String folder(String name) {
        String clean = Sanitize.filename(name);
        return clean.isEmpty() ? FOLDER : FOLDER + "/" + clean;
    }

    /** {@code Number(type ?? 1)} as a 32-bit mask: anything that is not a number selects nothing. */
    private static int typeMask(JsonNode type) {
        if (type == null || type.isNull()) {
            return IMAGES;
        }
        JsonNode number = Js.number(type);
        double value = number != null ? number.doubleValue() : Double.NaN;
        return Double.isFinite(value) ? (int) (long) value : 0;
    }

    private static boolean matches(String mime, int type) {
        return mime != null && ((type & IMAGES) != 0 && mime.startsWith("image/")
                || (type & VIDEO) != 0 && mime.startsWith("video/")
                || (type & AUDIO) != 0 && mime.startsWith("audio/"));
    }
}
