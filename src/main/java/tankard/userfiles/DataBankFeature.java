package tankard.userfiles;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.Router;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.store.BlobStore;
import tankard.util.AssetNames;
import tankard.util.SafeNames;
import tankard.util.LenientBase64;
import tankard.util.Sanitize;

import java.io.ByteArrayInputStream;

/**
 * {@code /api/files/*} (ST: src/endpoints/files.js): file-name sanitising, and the data bank files in
 * {@code user/files/} (served by {@link UserFilesFeature}). Refusals are ST's text replies; malformed fields are 400
 * where ST fails with 500.
 */
public record DataBankFeature(BlobStore blobs) implements Feature {
    /** The folder of the data bank's files, from the user's folder. */
    private static final String FOLDER = "user/files";

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/files/sanitize-filename").handler(routes.blocking(request -> {
            String fileName = Js.string(request.body().get("fileName"));
            if (fileName.isEmpty()) {
                throw Refusal.badRequest("No fileName specified");
            }
            return Reply.json(JsJson.object().put("fileName", Sanitize.filename(fileName)));
        }));
        router.post("/api/files/upload").handler(routes.blocking(request -> {
            JsonNode name = request.body().get("name");
            JsonNode data = request.body().get("data");
            if (!Js.truthy(name)) {
                throw Refusal.badRequest("No upload name specified");
            }
            if (!Js.truthy(data)) {
                throw Refusal.badRequest("No upload data specified");
            }
            if (!name.isTextual() || !data.isTextual()) {
                throw Refusal.badRequest("The upload name and data must be text");
            }
            String problem = AssetNames.problem(name.textValue());
            if (problem != null) {
                throw Refusal.badRequest(problem);
            }
            String file = FOLDER + "/" + SafeNames.segment(name.textValue(), "upload name");
            byte[] content = LenientBase64.decode(data.textValue());
            blobs.write(request.user().handle(), file, new ByteArrayInputStream(content));
            return Reply.json(JsJson.object().put("path", "/" + file));
        }));
        router.post("/api/files/delete").handler(routes.blocking(request -> {
            UserPaths.deleteInside(blobs, request.user().handle(), FOLDER, request.body().get("path"));
            return Reply.ok();
        }));
        router.post("/api/files/verify").handler(routes.blocking(request -> {
            if (!(request.body().get("urls") instanceof ArrayNode urls)) {
                throw Refusal.badRequest("No URLs specified");
            }
            ObjectNode verified = JsJson.object();
            for (JsonNode url : urls) {
                String file = url.isTextual() ? UserPaths.inside(FOLDER, url.textValue()) : null;
                if (file != null) {
                    verified.put(url.textValue(), UserPaths.exists(blobs, request.user().handle(), file));
                }
            }
            return Reply.json(verified);
        }));
    }
}
