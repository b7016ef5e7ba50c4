package tankard.imagemetadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.thumbnail.ThumbnailType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code /api/image-metadata/*} (ST: src/endpoints/image-metadata.js): the metadata index, metadata of given images,
 * clean-up of entries whose files are gone, and the virtual background folders. Errors are {@code {error}} JSON as in
 * ST; malformed fields are 400 where ST fails with 500.
 */
public record ImageMetadataFeature(TankardConfig config, ImageMetadataIndex metadata) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        post(router, routes, "/api/image-metadata/all", this::all);
        post(router, routes, "/api/image-metadata", this::metadata);
        post(router, routes, "/api/image-metadata/cleanup", request -> {
            List<String> removed = cleanup(request.user().handle());
            ObjectNode result = JsJson.object();
            removed.forEach(result.putArray("removed")::add);
            return Reply.json(result.put("count", removed.size()));
        });
        post(router, routes, "/api/image-metadata/folders/get",
                request -> Reply.json(ImageFolders.folders(readWithFolders(request.user().handle()))));
        post(router, routes, "/api/image-metadata/folders/create", request -> {
            JsonNode name = request.body().get("name");
            if (!Js.truthy(name) || !name.isTextual()) {
                throw Refusal.badRequest("\"name\" is required.");
            }
            return Reply.json(ImageFolders.create(metadata, request.user().handle(), Js.trim(name.textValue())));
        });
        post(router, routes, "/api/image-metadata/folders/update", request -> Reply.json(ImageFolders.update(metadata,
                request.user().handle(), id(request), optionalText(request, "name"),
                optionalText(request, "thumbnailFile"))));
        post(router, routes, "/api/image-metadata/folders/set-thumbnails", request -> {
            ImageFolders.setThumbnails(metadata, request.user().handle(),
                    thumbnailUpdates(request.body().get("updates")));
            return ok();
        });
        post(router, routes, "/api/image-metadata/folders/delete", request -> {
            ImageFolders.delete(metadata, request.user().handle(), id(request));
            return ok();
        });
        post(router, routes, "/api/image-metadata/folders/assign", request -> {
            String id = id(request);
            ImageFolders.assign(metadata, request.user().handle(), id, paths(request));
            return ok();
        });
        post(router, routes, "/api/image-metadata/folders/unassign", request -> {
            String id = id(request);
            ImageFolders.unassign(metadata, request.user().handle(), id, paths(request));
            return ok();
        });
    }

    private void post(Router router, Routes routes, String path, Routes.Action action) {
        router.post(path).handler(routes.blocking(action));
    }

    /** The whole index, or with a prefix only version and the matching images (without the folders), as ST. */
    private Reply all(Request request) {
        JsonNode prefixNode = request.body().path("prefix");
        if (!prefixNode.isMissingNode() && !prefixNode.isNull() && !prefixNode.isTextual()) {
            throw Refusal.badRequest("Field 'prefix' must be text");
        }
        String prefix = prefixNode.isTextual() ? prefixNode.textValue() : "";
        ObjectNode index = metadata.read(request.user().handle());
        if (prefix.isEmpty()) {
            return Reply.json(index);
        }
        ObjectNode images = JsJson.object();
        ImageMetadataIndex.images(index).properties().forEach(entry -> {
            if (entry.getKey().startsWith(prefix)) {
                images.set(entry.getKey(), entry.getValue());
            }
        });
        ObjectNode filtered = JsJson.object();
        if (index.has("version")) {
            filtered.set("version", index.get("version"));
        }
        filtered.set("images", images);
        return Reply.json(filtered);
    }

    /** {@code {path}}: that image's metadata; {@code {paths}}: each path's metadata or {@code {error}}. */
    private Reply metadata(Request request) {
        JsonNode body = request.body();
        JsonNode single = body.get("path");
        JsonNode many = body.get("paths");
        if (!Js.truthy(single) && !Js.truthy(many)) {
            throw Refusal.badRequest("Either \"path\" or \"paths\" is required.");
        }
        String user = request.user().handle();
        long resolution = resolution(body.get("type"));
        if (Js.truthy(single) && !Js.truthy(many)) {
            if (!single.isTextual()) {
                throw Refusal.badRequest("\"path\" must be text");
            }
            String path = single.textValue();
            if (!insideUserFolder(path)) {
                throw Refusal.badRequest("Path \"" + path + "\" is outside the user data directory.");
            }
            if (!metadata.exists(user, path)) {
                throw Refusal.notFound("File not found.");
            }
            JsonNode found = metadata.getOrGenerate(user, List.of(path), resolution).get(path);
            if (found == null) {
                throw Refusal.notFound("Could not generate metadata for file.");
            }
            return Reply.json(found);
        }
        if (!(many instanceof ArrayNode array)) {
            throw Refusal.badRequest("Invalid request format.");
        }
        Map<String, JsonNode> results = new LinkedHashMap<>();
        List<String> valid = new ArrayList<>();
        for (JsonNode item : array) {
            String path = Js.string(item);
            if (!item.isTextual() || !insideUserFolder(path)) {
                results.put(path, JsJson.object().put("error",
                        "Path \"" + path + "\" is outside the user data directory."));
            } else {
                valid.add(path);
            }
        }
        Map<String, JsonNode> generated = metadata.getOrGenerate(user, valid, resolution);
        for (String path : valid) {
            results.put(path, generated.containsKey(path) ? generated.get(path)
                    : JsJson.object().put("error", "File not found or could not process."));
        }
        return Reply.json(JsJson.tree(results));
    }

    /** The configured pixel count of the thumbnail type ({@code bg}, {@code avatar}, {@code persona}), else 0. */
    private long resolution(JsonNode type) {
        ThumbnailType thumbnail = type != null && type.isTextual() ? ThumbnailType.of(type.textValue()) : null;
        if (thumbnail == null) {
            return 0;
        }
        int[] dims = thumbnail.dimensions(config.thumbnails());
        return (long) dims[0] * dims[1];
    }

    /**
     * Removes the entries whose file is missing or lies outside the user folder; their keys. The files are looked
     * at before the update, which must not wait on the disk.
     */
    List<String> cleanup(String user) {
        Set<String> gone = new HashSet<>();
        for (String path : keys(ImageMetadataIndex.images(metadata.read(user)))) {
            if (!insideUserFolder(path) || !metadata.exists(user, path)) {
                gone.add(path);
            }
        }
        List<String> removed = new ArrayList<>();
        if (!gone.isEmpty()) {
            metadata.update(user, index -> {
                removed.clear();
                ObjectNode images = ImageMetadataIndex.images(index);
                for (String path : keys(images)) {
                    if (gone.contains(path)) {
                        images.remove(path);
                        removed.add(path);
                    }
                }
                return !removed.isEmpty();
            });
        }
        return removed;
    }

    private static List<String> keys(ObjectNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** ST's isPathUnderParent of the resolved path: inside the user folder (or the folder itself). */
    private static boolean insideUserFolder(String relative) {
        String normalized = ImageFolders.normalizePosix(relative);
        return relative.indexOf('\0') < 0 && !normalized.startsWith("/") && !normalized.equals("..")
                && !normalized.startsWith("../");
    }

    private ObjectNode readWithFolders(String user) {
        ObjectNode index = metadata.read(user);
        if (!(index.get("folders") instanceof ArrayNode)) {
            index.putArray("folders");
        }
        return index;
    }

    private static String id(Request request) {
        JsonNode id = request.body().get("id");
        if (!Js.truthy(id) || !id.isTextual()) {
            throw Refusal.badRequest("\"id\" is required.");
        }
        return id.textValue();
    }

    /** A member that is left unchanged when absent; ST would store any JSON value, Tankard only text. */
    private static String optionalText(Request request, String field) {
        JsonNode value = request.body().get(field);
        if (value == null) {
            return null;
        }
        if (!value.isTextual()) {
            throw Refusal.badRequest("\"" + field + "\" must be text.");
        }
        return value.textValue();
    }

    private static List<String> paths(Request request) {
        JsonNode paths = request.body().get("paths");
        if (!(paths instanceof ArrayNode array)) {
            throw Refusal.badRequest("\"paths\" array is required.");
        }
        List<String> list = new ArrayList<>();
        for (JsonNode path : array) {
            if (!path.isTextual()) {
                throw Refusal.badRequest("\"paths\" must hold text.");
            }
            list.add(path.textValue());
        }
        return list;
    }

    private static Map<String, String> thumbnailUpdates(JsonNode updates) {
        String error = "\"updates\" must be an array of {id, thumbnailFile}.";
        if (!(updates instanceof ArrayNode array)) {
            throw Refusal.badRequest(error);
        }
        Map<String, String> byId = new LinkedHashMap<>();
        for (JsonNode update : array) {
            if (!Js.truthy(update.get("id")) || !update.path("thumbnailFile").isTextual()) {
                throw Refusal.badRequest(error);
            }
            if (update.get("id").isTextual()) {
                byId.put(update.get("id").textValue(), update.get("thumbnailFile").textValue());
            }
        }
        return byId;
    }

    private static Reply ok() {
        return Reply.json(JsJson.object().put("ok", true));
    }
}
