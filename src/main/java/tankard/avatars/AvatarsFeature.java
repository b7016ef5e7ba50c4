package tankard.avatars;

import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.Router;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.image.AvatarImages;
import tankard.image.ImageFiles;
import tankard.json.JsJson;
import tankard.store.AtomicFiles;
import tankard.thumbnail.ThumbnailType;
import tankard.thumbnail.Thumbnails;
import tankard.util.SafeNames;
import tankard.util.Sanitize;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Persona images (ST: src/endpoints/avatars.js): list, upload (crop/resize, overwrite) and delete. */
public final class AvatarsFeature implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/avatars/get").handler(routes.blocking(request -> {
            request.body(); // malformed JSON is a 400, as with ST's body parser
            return Reply.json(ImageFiles.list(request.dirs().avatars()));
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
            Path target = SafeNames.sanitizedFile(request.dirs().avatars(), overwrite == null || overwrite.isEmpty()
                    ? System.currentTimeMillis() + ".png" : overwrite, "overwrite_name");
            String name = target.getFileName().toString();
            byte[] png = AvatarImages.toPng(Files.readAllBytes(Path.of(file.uploadedFileName())),
                    AvatarImages.Crop.parse(request.query("crop")));
            if (png == null) {
                return new Reply.Body(400, "text/html; charset=utf-8", "Is not a valid image".getBytes(StandardCharsets.UTF_8));
            }
            AtomicFiles.write(target, png);
            if (overwrite != null && !overwrite.isEmpty()) {
                Thumbnails.invalidate(request.dirs(), ThumbnailType.PERSONA, name);
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
            Path file = request.dirs().avatars().resolve(avatar);
            if (!Files.isRegularFile(file)) {
                return Reply.status(404);
            }
            Files.delete(file);
            Thumbnails.invalidate(request.dirs(), ThumbnailType.PERSONA, avatar);
            return Reply.json(JsJson.object().put("result", "ok"));
        }));
    }
}
