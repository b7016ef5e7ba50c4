package tankard.engine;

import io.vertx.ext.web.Router;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;

/**
 * {@code POST /api/tankard/prompt}: the request Tankard would send for a chat and an action, built on the server
 * as ST's frontend builds it (see {@link PromptEngine} and docs/engine.md). The body:
 * <pre>
 * {
 *   "avatar_url": "Bramble.png", "file_name": "Bramble - 2026-01-01@10h00m00s",   a character's chat
 *      or "group_id": "1700000000000", "file_name": "…" (the group chat's id), "avatar_url": the member who speaks
 *   "action": "send" | "regenerate" | "swipe" | "continue" | "impersonate",        default send
 *   "text": "Hello",                      what the user typed (send)
 *   "now": "2026-01-01T10:00:00Z"         optional: the clock date and time macros read
 * }
 * </pre>
 * Answers {@code {route, request, itemization}}: the backend route the request goes to, the body ST's frontend
 * would post there, and the tokens each part of the prompt took. 400 for a bad body, an unknown action or a
 * settings.json that does not parse; 404 for an unknown chat, character or group. Builds nothing into the chat.
 */
public record EngineFeature(EngineService engine) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/tankard/prompt").handler(routes.blocking(request ->
                Reply.json(engine.prompt(request.user().handle(), request.body()))));
    }
}
