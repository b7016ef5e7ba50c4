package tankard.avatars;

import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.image.AvatarImages;
import tankard.image.ImageFiles;
import tankard.json.JsJson;
import tankard.store.BlobStore;
import tankard.thumbnail.ThumbnailType;
import tankard.thumbnail.Thumbnails;
import tankard.util.SafeNames;
import tankard.util.Sanitize;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Persona images (ST: src/endpoints/avatars.js), the blobs of {@code User Avatars/}: list, upload (crop/resize,
 * overwrite) and delete.
 */
public record AvatarsFeature(TankardConfig config, BlobStore blobs) implements Feature {
    private static final String FOLDER = "User Avatars";

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/avatars/get").handler(routes.blocking(request -> {
            request.body(); // malformed JSON is a 400, as with ST's body parser
            return Reply.json(ImageFiles.list(blobs, request.user().handle(), FOLDER));
        }));
        router.post("/api/avatars/upload").handler(routes.blocking(request -> {
            FileUpload file = request.upload();
            if (file == null) {
                return Reply.status(400);
            }
            String overwrite = request.formField("overwrite_name");
            if (overwrite != null && (overwrite.indexOf('/') >= 0 || overwrite.indexOf('\0') >= 0)) {
                return Reply.status(400);
            }
            String name = SafeNames.sanitizedName(overwrite == null || overwrite.isEmpty()
                    ? System.currentTimeMillis() + ".png" : overwrite, "overwrite_name");
            byte[] png = AvatarImages.toPng(Files.readAllBytes(Path.of(file.uploadedFileName())),
                    AvatarImages.Crop.parse(request.query("crop")));
            if (png == null) {
                return new Reply.Body(400, "text/html; charset=utf-8", "Is not a valid image".getBytes(StandardCharsets.UTF_8));
            }
            String user = request.user().handle();
            blobs.write(user, FOLDER + "/" + name, new ByteArrayInputStream(png));
            if (overwrite != null && !overwrite.isEmpty()) {
                invalidateThumbnail(user, name);
            }
            return Reply.json(JsJson.object().put("path", name));
        }));
        router.post("/api/avatars/delete").handler(routes.blocking(request -> {
            String avatar = request.text("avatar");
            if (avatar == null) {
                return Reply.status(400);
            }
            if (Sanitize.hasForbiddenChars(avatar)) {
                return Reply.status(400);
            }
            if (!avatar.equals(Sanitize.filename(avatar)) || avatar.isEmpty()) {
                return Reply.status(403);
            }
            String user = request.user().handle();
            if (!blobs.delete(user, FOLDER + "/" + avatar)) {
                return Reply.status(404);
            }
            invalidateThumbnail(user, avatar);
            return Reply.json(JsJson.object().put("result", "ok"));
        }));
    }

    private void invalidateThumbnail(String user, String name) {
        Thumbnails.invalidate(config.dataRoot(), user, ThumbnailType.PERSONA, name);
    }
}
