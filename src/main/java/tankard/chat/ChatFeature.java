package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.ApiError;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.Set;

/**
 * {@code /api/chats/get|save|recent} and the group chat pair {@code /api/chats/group/get|save} (st-api.md §8),
 * and Tankard's windowed reads and saves of a chat's end, {@code /api/tankard/chats/tail[/save]} (ChatWindow).
 */
public final class ChatFeature implements Feature {
    private static final String SAVE = "/api/chats/save";
    private static final String GROUP_SAVE = "/api/chats/group/save";
    private static final String JSON = "application/json; charset=utf-8";

    private final TankardConfig config;
    private final ChatService chats;

    public ChatFeature(TankardConfig config, ChatService chats) {
        this.config = config;
        this.chats = chats;
    }

    @Override
    public void mount(Router router) {
        router.post("/api/chats/get").handler(Routes.blocking(config, request -> {
            String avatar = request.text("avatar_url");
            if (avatar == null) {
                throw ApiError.badRequest("Missing avatar_url");
            }
            return reply(chats.get(request.user().handle(), avatar, truthyText(request, "file_name")));
        }));
        router.post(SAVE).handler(Routes.streamed(config, (request, json) -> {
            chats.save(request.user().handle(), json);
            return Reply.json(JsJson.object().put("ok", true));
        }));
        router.post("/api/chats/recent").handler(Routes.blocking(config, request ->
                Reply.json(chats.recent(request.user().handle(), request.body()))));
        router.post("/api/chats/group/get").handler(Routes.blocking(config, request -> {
            String id = truthyText(request, "id");
            if (id == null) {
                throw ApiError.badRequest("Missing group chat id");
            }
            return reply(chats.getGroup(request.user().handle(), id));
        }));
        router.post("/api/tankard/chats/tail").handler(Routes.blocking(config, request ->
                Reply.rawJson(chats.tail(request.user().handle(), request.body()))));
        router.post("/api/tankard/chats/tail/save").handler(Routes.blocking(config, request ->
                Reply.json(chats.saveTail(request.user().handle(), request.body()))));
        router.post(GROUP_SAVE).handler(Routes.streamed(config, (request, json) -> {
            chats.saveGroup(request.user().handle(), json);
            return Reply.json(JsJson.object().put("ok", true));
        }));
    }

    /** Chat saves can be hundreds of MB: their bodies are read as they arrive. */
    @Override
    public Set<String> streamedBodyPaths() {
        return Set.of(SAVE, GROUP_SAVE);
    }

    private static Reply reply(ChatService.ChatRead read) {
        return read.file() == null ? Reply.rawJson(read.json()) : Reply.stream(JSON, read.length(), read.file()::writeTo);
    }

    /** {@code String(body[field])} when the member is truthy, else null (ST's {@code if (!body.x)} checks). */
    private static String truthyText(Request request, String field) {
        JsonNode value = request.body().get(field);
        return Js.truthy(value) ? Js.string(value) : null;
    }
}
