package tankard.character;

import io.vertx.ext.web.Router;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.chat.ChatService;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;

/**
 * {@code /api/characters/all|get|chats} (ST: src/endpoints/characters.js), and Tankard's paged library beside
 * them, {@code /api/tankard/characters/page} (CharacterPage).
 */
public record CharacterFeature(TankardConfig config, CharacterService characters, ChatService chats) implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(CharacterFeature.class);

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/characters/all").handler(routes.blocking(request -> {
            try {
                CharacterList list = characters.all(request.user().handle(), config.performance().lazyLoadCharacters());
                return Reply.stream("application/json; charset=utf-8", list::writeTo);
            } catch (Exception e) {
                LOG.error("Could not list the characters", e);
                return Reply.json(500, JsJson.object().put("overflow", false).put("error", true));
            }
        }));
        router.post("/api/characters/get").handler(routes.blocking(request ->
                Reply.rawJson(JsJson.stringifyAsJsBytes(characters.get(request.user().handle(), avatarUrl(request))))));
        router.post("/api/characters/chats").handler(routes.blocking(request ->
                Reply.json(chats.characterChats(request.user().handle(), avatarUrl(request),
                        Js.truthy(request.body().get("simple")), Js.truthy(request.body().get("metadata"))))));
        router.post("/api/tankard/characters/page").handler(routes.blocking(request ->
                Reply.json(characters.page(request.user().handle(), CharacterPage.Query.of(request.body())))));
    }

    static String avatarUrl(Request request) {
        String avatar = request.text("avatar_url");
        if (avatar == null) {
            throw Refusal.badRequest("Missing avatar_url");
        }
        return avatar;
    }
}
