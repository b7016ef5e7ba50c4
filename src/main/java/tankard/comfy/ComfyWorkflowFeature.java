package tankard.comfy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.vertx.ext.web.Router;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.JsJson;
import tankard.json.JsonFiles;
import tankard.store.AtomicFiles;
import tankard.util.FileNames;
import tankard.util.JsLocale;
import tankard.util.SafeNames;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * ComfyUI workflow files in {@code user/workflows/} (ST: src/endpoints/stable-diffusion.js, the {@code comfy}
 * router): list, read, save, delete, rename.
 */
public final class ComfyWorkflowFeature implements Feature {
    private static final String DEFAULT_WORKFLOW = "Default_Comfy_Workflow.json";


    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/sd/comfy/workflows").handler(routes.blocking(request ->
                Reply.json(list(request.dirs().comfyWorkflows()))));
        router.post("/api/sd/comfy/workflow").handler(routes.blocking(request -> {
            Path file = file(request, "file_name");
            if (!Files.exists(file)) {
                file = request.dirs().comfyWorkflows().resolve(DEFAULT_WORKFLOW);
            }
            String text = JsonFiles.readText(file);
            if (text == null) {
                throw Refusal.notFound("Workflow not found");
            }
            // The frontend reads this with response.json(): the file text as a JSON string.
            StringBuilder quoted = new StringBuilder();
            JsJson.quote(text, quoted);
            return Reply.text(quoted.toString());
        }));
        router.post("/api/sd/comfy/save-workflow").handler(routes.blocking(request -> {
            JsonNode workflow = request.body().get("workflow");
            if (workflow == null || !workflow.isTextual()) {
                throw Refusal.badRequest("The workflow must be a string");
            }
            Path file = file(request, "file_name");
            AtomicFiles.write(file, workflow.textValue());
            return Reply.json(list(file.getParent()));
        }));
        router.post("/api/sd/comfy/delete-workflow").handler(routes.blocking(request -> {
            Files.deleteIfExists(file(request, "file_name"));
            return Reply.ok();
        }));
        router.post("/api/sd/comfy/rename-workflow").handler(routes.blocking(request -> {
            // Only here does ST check the names for separators first (getFileNameValidationFunction).
            Path from = file(request, SafeNames.noSeparators(request.text("old_name"), "old_name"), "old_name");
            Path to = file(request, SafeNames.noSeparators(request.text("new_name"), "new_name"), "new_name");
            if (!isJson(from) || !isJson(to)) {
                throw Refusal.badRequest("Only JSON workflow files are allowed");
            }
            if (!Files.exists(from)) {
                throw Refusal.notFound("Workflow not found");
            }
            if (Files.exists(to)) {
                throw Refusal.conflict("A workflow with that name already exists");
            }
            Files.move(from, to);
            return Reply.noContent();
        }));
    }

    /** Workflow names: {@code .json} files (any case) not starting with a dot, in locale order. */
    private static ArrayNode list(Path dir) {
        ArrayNode out = JsJson.array();
        FileNames.list(dir).stream()
                .filter(name -> !name.startsWith(".") && name.toLowerCase(Locale.ROOT).endsWith(".json"))
                .sorted(JsLocale.comparator())
                .forEach(out::add);
        return out;
    }

    /** {@code comfyWorkflows/sanitize(file_name)}, as ST names it: {@code ../a.json} is {@code ..a.json}. */
    private static Path file(Request request, String field) {
        return file(request, request.text(field), field);
    }

    private static Path file(Request request, String name, String field) {
        return SafeNames.sanitizedFile(request.dirs().comfyWorkflows(), name, field);
    }

    private static boolean isJson(Path file) {
        return FileNames.ext(file.getFileName().toString()).equalsIgnoreCase(".json");
    }
}
