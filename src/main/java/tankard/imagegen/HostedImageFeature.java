package tankard.imagegen;

import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.outbound.ServiceCalls;
import tankard.secrets.SecretStore;

/**
 * The image generation extension's calls to hosted services, with the user's key from the secrets (ST:
 * src/endpoints/stable-diffusion.js, mounted at {@code /api/sd}). Waiting on a service holds no thread.
 */
public record HostedImageFeature(Together together, Pollinations pollinations, HuggingFace huggingFace,
                                 Stability stability, ElectronHub electronHub, Chutes chutes, NanoGpt nanoGpt,
                                 Xai xai, AimlApi aimlApi, WorkersAi workersAi, Bfl bfl, FalAi falAi, Zai zai)
        implements Feature {
    public static HostedImageFeature of(Vertx vertx, ServiceCalls serviceCalls, SecretStore secrets) {
        ImageCalls calls = new ImageCalls(vertx, serviceCalls, secrets);
        return new HostedImageFeature(new Together(calls), new Pollinations(calls), new HuggingFace(calls),
                new Stability(calls), new ElectronHub(calls), new Chutes(calls), new NanoGpt(calls), new Xai(calls),
                new AimlApi(calls), new WorkersAi(calls), new Bfl(calls), new FalAi(calls), new Zai(calls));
    }

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/sd/together/models").handler(routes.later(request ->
                together.models(request.user().handle()).thenApply(Reply::json)));
        router.post("/api/sd/together/generate").handler(routes.later(request ->
                together.generate(request.user().handle(), request.body()).thenApply(Reply::json)));
        router.post("/api/sd/pollinations/models").handler(routes.later(request ->
                pollinations.models().thenApply(Reply::json)));
        router.post("/api/sd/pollinations/generate").handler(routes.later(request ->
                pollinations.generate(request.user().handle(), request.body()).thenApply(Reply::json)));
        router.post("/api/sd/huggingface/generate").handler(routes.later(request ->
                huggingFace.generate(request.user().handle(), request.body()).thenApply(Reply::json)));
        // the base64 as a bare string, as ST's res.send(base64)
        router.post("/api/sd/stability/generate").handler(routes.later(request ->
                stability.generate(request.user().handle(), request.body()).thenApply(Reply::text)));
        router.post("/api/sd/electronhub/models").handler(routes.later(request ->
                electronHub.models(request.user().handle()).thenApply(Reply::json)));
        router.post("/api/sd/electronhub/generate").handler(routes.later(request ->
                electronHub.generate(request.user().handle(), request.body()).thenApply(Reply::json)));
        router.post("/api/sd/electronhub/sizes").handler(routes.later(request ->
                electronHub.sizes(request.body()).thenApply(Reply::json)));
        router.post("/api/sd/chutes/models").handler(routes.later(request ->
                chutes.models(request.user().handle()).thenApply(Reply::json)));
        router.post("/api/sd/chutes/generate").handler(routes.later(request ->
                chutes.generate(request.user().handle(), request.body()).thenApply(Reply::json)));
        router.post("/api/sd/nanogpt/models").handler(routes.later(request ->
                nanoGpt.models(request.user().handle()).thenApply(Reply::json)));
        router.post("/api/sd/nanogpt/generate").handler(routes.later(request ->
                nanoGpt.generate(request.user().handle(), request.body()).thenApply(Reply::json)));
        router.post("/api/sd/xai/generate").handler(routes.later(request ->
                xai.generate(request.user().handle(), request.body()).thenApply(Reply::json)));
        router.post("/api/sd/aimlapi/models").handler(routes.later(request ->
                aimlApi.models(request.user().handle()).thenApply(Reply::json)));
        router.post("/api/sd/aimlapi/generate-image").handler(routes.later(request ->
                aimlApi.generate(request.user().handle(), request.body()).thenApply(Reply::json)));
        router.post("/api/sd/workersai/models").handler(routes.later(request ->
                workersAi.models(request.user().handle(), request.body()).thenApply(Reply::json)));
        router.post("/api/sd/workersai/generate").handler(routes.later(request ->
                workersAi.generate(request.user().handle(), request.body()).thenApply(Reply::json)));
        router.post("/api/sd/bfl/generate").handler(routes.later(request ->
                bfl.generate(request.user().handle(), request.body()).thenApply(Reply::json)));
        router.post("/api/sd/falai/models").handler(routes.later(request -> falAi.models().thenApply(Reply::json)));
        router.post("/api/sd/falai/generate").handler(routes.later(request -> ImageGenFeature.asText(
                falAi.generate(request.user().handle(), request.body()).thenApply(Reply::json))));
        router.post("/api/sd/zai/generate").handler(routes.later(request ->
                zai.generate(request.user().handle(), request.body()).thenApply(Reply::json)));
        router.post("/api/sd/zai/generate-video").handler(routes.later(request ->
                zai.generateVideo(request.user().handle(), request.body(), request.ctx().response())
                        .thenApply(Reply::json)));
    }
}
