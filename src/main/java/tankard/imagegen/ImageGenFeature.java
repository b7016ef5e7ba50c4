package tankard.imagegen;

import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import tankard.core.Refusal;
import tankard.http.FailureHandler;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.outbound.ServiceCalls;
import tankard.secrets.SecretStore;

import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * The image generation extension's calls to image servers (ST: src/endpoints/stable-diffusion.js, mounted at
 * {@code /api/sd}) at the user's URL: Stable Diffusion WebUI (A1111, Forge, SD.Next), ComfyUI (also on RunPod),
 * stable-diffusion.cpp and Draw Things. Waiting on a server holds no thread.
 */
public record ImageGenFeature(SdWebUi webUi, ComfyUi comfy, ComfyRunPod comfyRunPod, SdCpp sdCpp, DrawThings drawThings)
        implements Feature {
    public static ImageGenFeature of(Vertx vertx, ServiceCalls serviceCalls, SecretStore secrets) {
        ImageCalls calls = new ImageCalls(vertx, serviceCalls, secrets);
        return new ImageGenFeature(new SdWebUi(calls), new ComfyUi(calls), new ComfyRunPod(calls), new SdCpp(calls),
                new DrawThings(calls));
    }

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/sd/ping").handler(routes.later(request -> webUi.ping(request.body()).thenApply(v -> Reply.ok())));
        router.post("/api/sd/upscalers").handler(routes.later(request -> webUi.upscalers(request.body()).thenApply(Reply::json)));
        router.post("/api/sd/sd-next/upscalers").handler(routes.later(request ->
                webUi.sdNextUpscalers(request.body()).thenApply(Reply::json)));
        router.post("/api/sd/vaes").handler(routes.later(request -> webUi.vaes(request.body()).thenApply(Reply::json)));
        router.post("/api/sd/samplers").handler(routes.later(request -> webUi.samplers(request.body()).thenApply(Reply::json)));
        router.post("/api/sd/schedulers").handler(routes.later(request ->
                webUi.schedulers(request.body()).thenApply(Reply::json)));
        router.post("/api/sd/models").handler(routes.later(request -> webUi.models(request.body()).thenApply(Reply::json)));
        // a bare string, as ST's res.send(title)
        router.post("/api/sd/get-model").handler(routes.later(request ->
                webUi.currentModel(request.body()).thenApply(Reply::text)));
        router.post("/api/sd/set-model").handler(routes.later(request -> webUi.setModel(request.body()).thenApply(v -> Reply.ok())));
        router.post("/api/sd/generate").handler(routes.later(request ->
                webUi.generate(request.body(), request.ctx().response()).thenApply(Reply::rawJson)));

        router.post("/api/sd/comfy/ping").handler(routes.later(request -> comfy.ping(request.body()).thenApply(v -> Reply.ok())));
        router.post("/api/sd/comfy/samplers").handler(routes.later(request ->
                comfy.samplers(request.body()).thenApply(Reply::json)));
        router.post("/api/sd/comfy/schedulers").handler(routes.later(request ->
                comfy.schedulers(request.body()).thenApply(Reply::json)));
        router.post("/api/sd/comfy/vaes").handler(routes.later(request -> comfy.vaes(request.body()).thenApply(Reply::json)));
        router.post("/api/sd/comfy/models").handler(routes.later(request -> comfy.models(request.body()).thenApply(Reply::json)));
        router.post("/api/sd/comfy/generate").handler(routes.later(request ->
                asText(comfy.generate(request.body(), request.ctx().response()).thenApply(Reply::rawJson))));
        router.post("/api/sd/comfyrunpod/ping").handler(routes.later(request ->
                comfyRunPod.ping(request.user().handle(), request.body()).thenApply(v -> Reply.ok())));
        router.post("/api/sd/comfyrunpod/generate").handler(routes.later(request -> asText(comfyRunPod.generate(
                request.user().handle(), request.body(), request.ctx().response()).thenApply(Reply::json))));

        router.post("/api/sd/sdcpp/ping").handler(routes.later(request -> sdCpp.ping(request.body()).thenApply(v -> Reply.ok())));
        router.post("/api/sd/sdcpp/models").handler(routes.later(request -> sdCpp.models(request.body()).thenApply(Reply::json)));
        router.post("/api/sd/sdcpp/generate").handler(routes.later(request ->
                sdCpp.generate(request.body(), request.ctx().response()).thenApply(Reply::rawJson)));

        router.post("/api/sd/drawthings/ping").handler(routes.later(request ->
                drawThings.ping(request.body()).thenApply(v -> Reply.ok())));
        router.post("/api/sd/drawthings/get-model").handler(routes.later(request ->
                drawThings.setting(request.body(), "model").thenApply(Reply::text)));
        router.post("/api/sd/drawthings/get-upscaler").handler(routes.later(request ->
                drawThings.setting(request.body(), "upscaler").thenApply(Reply::text)));
        router.post("/api/sd/drawthings/generate").handler(routes.later(request ->
                drawThings.generate(request.body(), request.ctx().response()).thenApply(Reply::rawJson)));
    }

    /**
     * A failure as the bare message ST's ComfyUI and fal.ai routes send ({@code res.status(500).send(error.message)}),
     * which the frontend shows as it is.
     */
    static CompletionStage<Reply> asText(CompletionStage<Reply> reply) {
        return reply.exceptionally(failure -> {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            if (cause instanceof Refusal refusal) {
                return Reply.text(FailureHandler.status(refusal), refusal.getMessage());
            }
            throw failure instanceof CompletionException wrapped ? wrapped : new CompletionException(cause);
        });
    }
}
