package tankard.backend.nanogpt;

import io.vertx.ext.web.Router;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;

/** {@code /api/nanogpt/*} (ST's src/endpoints/nanogpt.js), answered once NanoGPT has. */
public record NanoGptFeature(NanoGptService nanoGpt) implements Feature {
    private static final String BASE = "/api/nanogpt";

    @Override
    public void mount(Router router, Routes routes) {
        router.post(BASE + "/credits").handler(routes.later(request ->
                nanoGpt.credits(request.user().handle()).map(Reply::json).toCompletionStage()));
        router.post(BASE + "/models/providers").handler(routes.later(request ->
                nanoGpt.providers(request.body()).map(Reply::json).toCompletionStage()));
    }
}
