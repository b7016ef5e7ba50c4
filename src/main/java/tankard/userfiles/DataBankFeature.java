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
import tankard.store.AtomicFiles;
import tankard.user.UserDirs;
import tankard.util.AssetNames;
import tankard.util.SafeNames;
import tankard.util.LenientBase64;
import tankard.util.Sanitize;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code /api/files/*} (ST: src/endpoints/files.js): file-name sanitising, and the data bank files in
 * {@code user/files/} (served by {@link UserFilesFeature}). Refusals are ST's text replies; malformed fields are 400
 * where ST fails with 500.
 */
public final class DataBankFeature implements Feature {
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
            Path file = SafeNames.fileIn(request.dirs().userFiles(), name.textValue(), "upload name");
            AtomicFiles.write(file, LenientBase64.decode(data.textValue()));
            return Reply.json(JsJson.object().put("path", "/user/files/" + name.textValue()));
        }));
        router.post("/api/files/delete").handler(routes.blocking(request -> {
            UserPaths.deleteInside(request.dirs(), request.dirs().userFiles(), request.body().get("path"));
            return Reply.ok();
        }));
        router.post("/api/files/verify").handler(routes.blocking(request -> {
            if (!(request.body().get("urls") instanceof ArrayNode urls)) {
                throw Refusal.badRequest("No URLs specified");
            }
            UserDirs dirs = request.dirs();
            ObjectNode verified = JsJson.object();
            for (JsonNode url : urls) {
                Path file = url.isTextual() ? UserPaths.inside(dirs.root(), dirs.userFiles(), url.textValue()) : null;
                if (file != null) {
                    verified.put(url.textValue(), Files.exists(file));
                }
            }
            return Reply.json(verified);
        }));
    }
}
