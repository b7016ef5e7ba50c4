package tankard.caption;

import io.vertx.ext.web.Router;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.JsJson;

/** Captioning providers' routes for ST's Image Captioning extension; the wait on a provider holds no thread. */
public record CaptionFeature(ClaudeCaption claude) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/anthropic/caption-image").handler(routes.later(request ->
                claude.caption(request.dirs(), request.body()).thenApply(caption -> Reply.json(JsJson.object().put("caption", caption)))));
    }
}
