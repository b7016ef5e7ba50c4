package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.Router;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.config.TankardConfig;
import tankard.http.ApiError;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;

import java.nio.file.Path;

/** {@code /api/chats/get|save|recent|import} and the group chat pair {@code /api/chats/group/get|save} (st-api.md §8). */
public final class ChatFeature implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(ChatFeature.class);

    private final TankardConfig config;
    private final ChatService chats;
    private final ChatImporter importer;

    public ChatFeature(TankardConfig config, ChatService chats, ChatImporter importer) {
        this.config = config;
        this.chats = chats;
        this.importer = importer;
    }

    @Override
    public void mount(Router router) {
        router.post("/api/chats/get").handler(Routes.blocking(config, request -> {
            String avatar = request.text("avatar_url");
            if (avatar == null) {
                throw ApiError.badRequest("Missing avatar_url");
            }
            return Reply.rawJson(chats.get(request.user().handle(), avatar, truthyText(request, "file_name")));
        }));
        router.post("/api/chats/save").handler(Routes.blocking(config, request -> {
            chats.save(request.user().handle(), request.jsonBytes());
            return Reply.json(JsJson.object().put("ok", true));
        }));
        router.post("/api/chats/recent").handler(Routes.blocking(config, request ->
                Reply.json(chats.recent(request.user().handle(), request.body()))));
        router.post("/api/chats/group/get").handler(Routes.blocking(config, request -> {
            String id = truthyText(request, "id");
            if (id == null) {
                throw ApiError.badRequest("Missing group chat id");
            }
            return Reply.rawJson(chats.getGroup(request.user().handle(), id));
        }));
        router.post("/api/chats/group/save").handler(Routes.blocking(config, request -> {
            chats.saveGroup(request.user().handle(), request.jsonBytes());
            return Reply.json(JsJson.object().put("ok", true));
        }));
        mountImport(router);
    }

    /** {@code /api/chats/import}: ST's answers, {@code {"res": true, "fileNames": […]}} or {@code {"error": true}}. */
    private void mountImport(Router router) {
        router.post("/api/chats/import").handler(Routes.blocking(config, request -> {
            FileUpload file = request.upload();
            ChatImporter.Upload upload = new ChatImporter.Upload(file == null ? null : Path.of(file.uploadedFileName()),
                    request.formField("file_type"), request.formField("avatar_url"),
                    request.formField("character_name"), request.formField("user_name"));
            try {
                ArrayNode fileNames = JsJson.array();
                importer.importChat(request.user().handle(), upload).forEach(fileNames::add);
                return Reply.json(JsJson.object().put("res", true).set("fileNames", fileNames));
            } catch (ChatImportException e) {
                LOG.warn("Could not import the chat {}: {}", file == null ? "" : file.fileName(), e.getMessage());
                return Reply.json(JsJson.object().put("error", true).put("message", e.getMessage()));
            }
        }));
    }

    /** {@code String(body[field])} when the member is truthy, else null (ST's {@code if (!body.x)} checks). */
    private static String truthyText(Request request, String field) {
        JsonNode value = request.body().get(field);
        return Js.truthy(value) ? Js.string(value) : null;
    }
}
