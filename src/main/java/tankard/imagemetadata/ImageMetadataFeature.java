package tankard.imagemetadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.ApiError;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.JsJson;

/** {@code POST /api/image-metadata/all} (st-api.md §14): the metadata index, optionally only under a path prefix. */
public final class ImageMetadataFeature implements Feature {
    private final TankardConfig config;

    public ImageMetadataFeature(TankardConfig config) {
        this.config = config;
    }

    @Override
    public void mount(Router router) {
        router.post("/api/image-metadata/all").handler(Routes.blocking(config, request -> {
            JsonNode prefixNode = request.body().path("prefix");
            if (!prefixNode.isMissingNode() && !prefixNode.isNull() && !prefixNode.isTextual()) {
                throw ApiError.badRequest("Field 'prefix' must be text");
            }
            String prefix = prefixNode.isTextual() ? prefixNode.textValue() : "";
            ObjectNode index = ImageMetadataIndex.read(request.dirs());
            if (prefix.isEmpty()) {
                return Reply.json(index);
            }
            // With a prefix ST answers only version and the matching images, without the folders.
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
        }));
    }
}
