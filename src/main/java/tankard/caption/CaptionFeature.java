package tankard.caption;

import io.vertx.ext.web.Router;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.JsJson;

/**
 * Captioning routes for ST's Image Captioning extension: the local model ({@code POST /api/extra/caption}
 * {@code {image}} → {@code {caption}}, ST: src/endpoints/caption.js; 503 with a message while the model is not
 * ready) and Claude. The waits hold no thread.
 */
public record CaptionFeature(LocalCaptioner local, ClaudeCaption claude) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/extra/caption").handler(routes.later(request ->
                local.caption(request.body()).thenApply(caption -> Reply.json(JsJson.object().put("caption", caption)))));
        router.post("/api/anthropic/caption-image").handler(routes.later(request ->
                claude.caption(request.user().handle(), request.body())
                        .thenApply(caption -> Reply.json(JsJson.object().put("caption", caption)))));
    }
}
