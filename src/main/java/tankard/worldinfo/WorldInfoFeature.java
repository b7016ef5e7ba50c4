package tankard.worldinfo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.json.JsonFiles;
import tankard.util.FileNames;
import tankard.util.JsLocale;
import tankard.util.SafeNames;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reading lorebooks: {@code /api/worldinfo/get} and {@code /list} (st-api.md §10). */
public final class WorldInfoFeature implements Feature {
    private final TankardConfig config;

    public WorldInfoFeature(TankardConfig config) {
        this.config = config;
    }

    @Override
    public void mount(Router router) {
        router.post("/api/worldinfo/get").handler(Routes.blocking(config, request -> {
            String name = SafeNames.noSeparators(request.text("name"), "lorebook name");
            Path file = SafeNames.sanitizedFile(request.dirs().worlds(), name + ".json", "lorebook name");
            String text = JsonFiles.readText(file);
            if (text == null) {
                return Reply.json(JsJson.object().set("entries", JsJson.object()));
            }
            if (JsonFiles.tryParse(text) == null) {
                throw new IllegalStateException("The lorebook " + file.getFileName() + " is not valid JSON");
            }
            // Re-laid out token by token: the frontend gets the stored numbers exactly as written.
            return Reply.rawJson(JsJson.relayout(text.getBytes(StandardCharsets.UTF_8), false));
        }));
        router.post("/api/worldinfo/list").handler(Routes.blocking(config, request ->
                Reply.json(list(request.dirs().worlds()))));
    }

    /** {@code [{file_id, name, extensions}]} for the lorebook files, in locale order. Blocking. */
    private static ArrayNode list(Path dir) {
        ArrayNode out = JsJson.array();
        List<String> files = FileNames.list(dir).stream()
                .filter(name -> FileNames.ext(name).equalsIgnoreCase(".json") && Files.isRegularFile(dir.resolve(name)))
                .sorted(JsLocale.comparator())
                .toList();
        for (String file : files) {
            String id = FileNames.base(file);
            JsonNode book = JsonFiles.tryRead(dir.resolve(file));
            JsonNode name = book == null ? null : book.get("name");
            JsonNode extensions = book == null ? null : book.get("extensions");
            out.addObject()
                    .put("file_id", id)
                    .<ObjectNode>set("name", Js.truthy(name) ? name : TextNode.valueOf(id))
                    .set("extensions", extensions != null && extensions.isContainerNode() ? extensions : JsJson.object());
        }
        return out;
    }
}
