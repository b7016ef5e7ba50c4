package tankard.backend.openrouter;

import io.vertx.ext.web.Router;
import tankard.backend.openrouter.OpenRouterService.ModelList;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;

import java.util.concurrent.CompletionStage;

/** {@code /api/openrouter/*} (ST's src/endpoints/openrouter.js), answered once OpenRouter has. */
public record OpenRouterFeature(OpenRouterService openRouter) implements Feature {
    private static final String BASE = "/api/openrouter";

    @Override
    public void mount(Router router, Routes routes) {
        router.post(BASE + "/models/providers").handler(routes.later(request ->
                openRouter.providers(request.body()).map(Reply::json).toCompletionStage()));
        router.post(BASE + "/models/multimodal").handler(routes.later(request -> models(ModelList.MULTIMODAL)));
        router.post(BASE + "/models/embedding").handler(routes.later(request -> models(ModelList.EMBEDDING)));
        router.post(BASE + "/models/image").handler(routes.later(request -> models(ModelList.IMAGE)));
        router.post(BASE + "/credits").handler(routes.later(request ->
                openRouter.credits(request.user().handle()).map(Reply::json).toCompletionStage()));
        router.post(BASE + "/image/generate").handler(routes.later(request ->
                openRouter.generateImage(request.user().handle(), request.body()).map(Reply::json)
                        .toCompletionStage()));
    }

    private CompletionStage<Reply> models(ModelList list) {
        return openRouter.models(list).map(Reply::json).toCompletionStage();
    }
}
