package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.Router;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.image.AvatarImages;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.util.Sanitize;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The card writing endpoints: {@code /api/characters/create|edit|edit-attribute|merge-attributes|edit-avatar|
 * rename|delete|duplicate|export} (ST: src/endpoints/characters.js).
 */
public record CharacterEditFeature(CharacterEditor editor) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/characters/create").handler(routes.blocking(request -> Reply.text(
                editor.create(handle(request), NewCard.of(fields(request)), image(request), crop(request)))));
        router.post("/api/characters/edit").handler(routes.blocking(request -> {
            editor.edit(handle(request), CardEdit.of(fields(request)), image(request), crop(request));
            return Reply.ok();
        }));
        router.post("/api/characters/edit-attribute").handler(routes.blocking(request -> {
            editor.editAttribute(handle(request), AttributeEdit.of(request.body()));
            return Reply.ok();
        }));
        router.post("/api/characters/merge-attributes").handler(routes.blocking(this::merge));
        router.post("/api/characters/edit-avatar").handler(routes.blocking(request -> {
            byte[] image = image(request);
            if (image == null) {
                throw Refusal.badRequest("Error: no file uploaded");
            }
            JsonNode avatarUrl = fields(request).get("avatar_url");
            String avatar = Js.string(avatarUrl);
            if (avatarUrl == null || avatarUrl.isNull() || avatar.isEmpty()) {
                throw Refusal.badRequest("Error: no avatar_url in request body");
            }
            editor.editAvatar(handle(request), avatar, image, crop(request));
            return Reply.ok();
        }));
        router.post("/api/characters/rename").handler(routes.blocking(request -> {
            String avatar = request.requireText("avatar_url");
            String newName = request.requireText("new_name");
            return Reply.json(JsJson.object().put("avatar", editor.rename(handle(request), avatar, newName)));
        }));
        router.post("/api/characters/delete").handler(routes.blocking(request -> {
            editor.delete(handle(request), request.requireText("avatar_url"),
                    Js.strictEquals(request.body().get("delete_chats"), BooleanNode.TRUE));
            return Reply.ok();
        }));
        router.post("/api/characters/duplicate").handler(routes.blocking(request -> {
            String avatar = request.requireText("avatar_url");
            CharacterEditor.requireSafe(avatar);
            try {
                return Reply.json(JsJson.object().put("path", editor.duplicate(handle(request), avatar)));
            } catch (IOException | RuntimeException e) {
                if (e instanceof Refusal) {
                    throw e;
                }
                return Reply.json(JsJson.object().put("error", true)); // ST's answer to any failure here
            }
        }));
        router.post("/api/characters/export").handler(routes.blocking(request -> {
            String format = request.requireText("format");
            String avatar = request.requireText("avatar_url");
            CharacterEditor.requireSafe(avatar);
            return switch (format) {
                case "png" -> Reply.attachment("image/png", Sanitize.filename(avatar),
                        editor.exportPng(handle(request), Sanitize.filename(avatar)));
                case "json" -> Reply.rawJson(editor.exportJson(handle(request), Sanitize.filename(avatar)));
                default -> throw Refusal.badRequest("Unknown export format: " + format);
            };
        }));
    }

    private Reply merge(Request request) throws IOException {
        JsonNode body = request.body();
        if (!body.isObject()) {
            throw Refusal.badRequest("The body must be an object");
        }
        JsonNode avatars = body.get("avatars");
        if (avatars != null && avatars.isArray()) {
            JsonNode data = body.get("data");
            if (data == null || !data.isObject()) {
                return Reply.json(400, JsJson.object().put("message", "No valid update data provided."));
            }
            List<String> names = new ArrayList<>();
            for (JsonNode avatar : avatars) {
                String name = Js.string(avatar);
                if (!avatar.isTextual() || !Sanitize.isSafeSegment(name) || !name.toLowerCase(Locale.ROOT).endsWith(".png")) {
                    return Reply.json(400, JsJson.object().put("message", "Invalid avatar filename: " + name));
                }
                names.add(name);
            }
            JsonNode path = Js.get(body, "filter.path");
            CharacterEditor.BulkResult result = editor.mergeBulk(handle(request), names, data,
                    path != null && path.isTextual() ? path.textValue() : null);
            return Reply.json(result);
        }
        String avatar = request.requireText("avatar");
        CharacterEditor.MergeResult result = editor.merge(handle(request), avatar, body);
        if (result.ok()) {
            return Reply.ok();
        }
        return Reply.json(400, JsJson.object().put("message", "Validation failed for " + avatar)
                .put("error", result.error()));
    }

    private static String handle(Request request) {
        return request.user().handle();
    }

    /**
     * The editor's fields: a multipart form as Multer hands it over (repeated fields become arrays), or the
     * JSON body of the slash commands.
     */
    private static JsonNode fields(Request request) {
        String type = request.ctx().request().getHeader("Content-Type");
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) {
            return request.body();
        }
        ObjectNode form = JsJson.object();
        for (String name : request.ctx().request().formAttributes().names()) {
            List<String> values = request.formFields(name);
            if (values.size() == 1) {
                form.put(name, values.get(0));
            } else {
                values.forEach(form.putArray(name)::add);
            }
        }
        return form;
    }

    /** The uploaded image's bytes, or null when the request has none. */
    private static byte[] image(Request request) throws IOException {
        FileUpload upload = request.upload();
        return upload == null ? null : Files.readAllBytes(Path.of(upload.uploadedFileName()));
    }

    private static AvatarImages.Crop crop(Request request) {
        return AvatarImages.Crop.parse(request.query("crop"));
    }
}
