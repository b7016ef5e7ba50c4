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
import tankard.store.BlobStore;
import tankard.util.FileNames;
import tankard.util.JsLocale;
import tankard.util.SafeNames;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.Locale;
import java.util.Optional;

/**
 * ComfyUI workflow files in {@code user/workflows/} (ST: src/endpoints/stable-diffusion.js, the {@code comfy}
 * router): list, read, save, delete, rename. They are blobs ({@code Stores.isBlob}: not documents).
 */
public record ComfyWorkflowFeature(BlobStore blobs) implements Feature {
    /** The folder of the workflows, from the user's folder. */
    private static final String FOLDER = "user/workflows";
    private static final String DEFAULT_WORKFLOW = "Default_Comfy_Workflow.json";

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/sd/comfy/workflows").handler(routes.blocking(request ->
                Reply.json(list(request.user().handle()))));
        router.post("/api/sd/comfy/workflow").handler(routes.blocking(request -> {
            String user = request.user().handle();
            Optional<InputStream> found = blobs.open(user, file(request, "file_name"));
            if (found.isEmpty()) {
                found = blobs.open(user, FOLDER + "/" + DEFAULT_WORKFLOW);
            }
            if (found.isEmpty()) {
                throw Refusal.notFound("Workflow not found");
            }
            String text;
            try (InputStream in = found.get()) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
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
            String user = request.user().handle();
            blobs.write(user, file(request, "file_name"),
                    new ByteArrayInputStream(workflow.textValue().getBytes(StandardCharsets.UTF_8)));
            return Reply.json(list(user));
        }));
        router.post("/api/sd/comfy/delete-workflow").handler(routes.blocking(request -> {
            blobs.delete(request.user().handle(), file(request, "file_name"));
            return Reply.ok();
        }));
        router.post("/api/sd/comfy/rename-workflow").handler(routes.blocking(request -> {
            // Only here does ST check the names for separators first (getFileNameValidationFunction).
            String from = file(SafeNames.noSeparators(request.text("old_name"), "old_name"), "old_name");
            String to = file(SafeNames.noSeparators(request.text("new_name"), "new_name"), "new_name");
            if (!isJson(from) || !isJson(to)) {
                throw Refusal.badRequest("Only JSON workflow files are allowed");
            }
            String user = request.user().handle();
            if (blobs.stat(user, from).isEmpty()) {
                throw Refusal.notFound("Workflow not found");
            }
            if (blobs.stat(user, to).isPresent()) {
                throw taken();
            }
            try {
                if (!blobs.rename(user, from, to)) {
                    throw Refusal.notFound("Workflow not found"); // deleted since
                }
            } catch (UncheckedIOException e) {
                throw e.getCause() instanceof FileAlreadyExistsException ? taken() : e; // a folder, or written since
            }
            return Reply.noContent();
        }));
    }

    /** Workflow names: {@code .json} files (any case) not starting with a dot, in locale order. Blocking. */
    private ArrayNode list(String user) {
        ArrayNode out = JsJson.array();
        blobs.list(user, FOLDER).stream().map(BlobStore.Entry::name)
                .filter(name -> !name.startsWith(".") && name.toLowerCase(Locale.ROOT).endsWith(".json"))
                .sorted(JsLocale.comparator())
                .forEach(out::add);
        return out;
    }

    /** {@code user/workflows/sanitize(file_name)}, as ST names it: {@code ../a.json} is {@code ..a.json}. */
    private static String file(Request request, String field) {
        return file(request.text(field), field);
    }

    private static String file(String name, String field) {
        return FOLDER + "/" + SafeNames.sanitizedName(name, field);
    }

    private static boolean isJson(String file) {
        return FileNames.ext(file.substring(file.lastIndexOf('/') + 1)).equalsIgnoreCase(".json");
    }

    private static Refusal taken() {
        return Refusal.conflict("A workflow with that name already exists");
    }
}
