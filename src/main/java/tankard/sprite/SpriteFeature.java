package tankard.sprite;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.Router;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.store.BlobStore;
import tankard.util.FileNames;
import tankard.util.MimeTypes;
import tankard.util.Sanitize;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code /api/sprites/*} (ST: src/endpoints/sprites.js): the expression images of a character's sprite folder. */
public record SpriteFeature(BlobStore blobs) implements Feature {
    /** The folder of the characters' sprite folders, from the user's folder. */
    private static final String CHARACTERS = "characters";
    /** A label is the name up to the first {@code -}, {@code .} or {@code \} after at least one character. */
    private static final Pattern LABEL = Pattern.compile("^(.+?)(?:[-\\\\.].*?)?$");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

    @Override
    public void mount(Router router, Routes routes) {
        router.get("/api/sprites/get").handler(routes.blocking(request -> {
            String name = request.query("name");
            return Reply.json(list(request.user().handle(), name == null ? "undefined" : name));
        }));
        router.post("/api/sprites/upload").handler(routes.blocking(request -> {
            FileUpload upload = request.upload();
            String label = request.formField("label");
            String name = request.formField("name");
            if (upload == null || label == null || label.isEmpty() || name == null || name.isEmpty()) {
                throw Refusal.badRequest("A sprite upload needs an image file, a label and a character folder name");
            }
            String spriteName = request.formField("spriteName");
            SpriteUploads.upload(blobs, request.user().handle(), name,
                    spriteName == null || spriteName.isEmpty() ? label : spriteName, upload);
            return Reply.json(JsJson.object().put("ok", true));
        }));
        router.post("/api/sprites/upload-zip").handler(routes.blocking(request -> {
            FileUpload upload = request.upload();
            String name = request.formField("name");
            if (upload == null || name == null || name.isEmpty()) {
                throw Refusal.badRequest("A sprite pack upload needs a zip file and a character folder name");
            }
            int count = SpriteUploads.uploadZip(blobs, request.user().handle(), name, upload);
            return Reply.json(JsJson.object().put("ok", true).put("count", count));
        }));
        router.post("/api/sprites/delete").handler(routes.blocking(request -> {
            JsonNode body = request.body();
            JsonNode spriteName = Js.truthy(body.get("spriteName")) ? body.get("spriteName") : body.get("label");
            if (!Js.truthy(spriteName) || !spriteName.isTextual()) {
                throw Refusal.badRequest("No sprite to delete: give its spriteName or label");
            }
            SpriteUploads.delete(blobs, request.user().handle(), Js.string(body.get("name")), spriteName.textValue());
            return Reply.ok();
        }));
    }

    /** {@code [{label, path}]} for the image files of the folder; a missing folder lists as empty. Blocking. */
    private ArrayNode list(String user, String name) {
        ArrayNode out = JsJson.array();
        for (BlobStore.Entry file : blobs.list(user, folder(name))) {
            if (!MimeTypes.isImage(file.name())) {
                continue;
            }
            String base = FileNames.base(file.name()).toLowerCase(Locale.ROOT);
            Matcher label = LABEL.matcher(base);
            Instant modified = Instant.ofEpochMilli((long) Math.floor(file.modifiedMs()));
            out.addObject()
                    .put("label", label.matches() ? label.group(1) : base)
                    .put("path", "/characters/" + name + "/" + file.name() + "?t=" + STAMP.format(modified));
        }
        return out;
    }

    /**
     * {@code characters/<name>} or {@code characters/<name>/<subfolder>}, each part sanitized as ST does.
     * A part that sanitizes to nothing is refused (ST: src/endpoints/sprites.js, getSpritesPath); so is deeper
     * nesting, whose extra parts ST ignores.
     */
    static String folder(String name) {
        String[] parts = name.split("/", -1);
        if (parts.length > 2) {
            throw Refusal.badRequest("Invalid sprite folder name");
        }
        String folder = CHARACTERS;
        for (String part : parts) {
            String clean = Sanitize.filename(part);
            if (clean.isEmpty()) {
                throw Refusal.badRequest("Invalid sprite folder name");
            }
            folder = folder + "/" + clean;
        }
        return folder;
    }
}
