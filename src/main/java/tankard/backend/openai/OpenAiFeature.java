package tankard.backend.openai;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.Router;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.JsJson;

import java.nio.file.Path;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * ST's {@code /api/openai/*} (src/endpoints/openai.js): captioning, speech, image and video generation, speech to
 * text and model lists. Every wait on a service holds no thread.
 */
public record OpenAiFeature(OpenAiCaption caption, OpenAiSpeech speech, OpenAiImages images,
                            Transcriptions transcriptions, ModelLists models) implements Feature {
    private static final String BASE = "/api/openai";

    @Override
    public void mount(Router router, Routes routes) {
        post(router, routes, "/caption-image", request -> caption.caption(request.user().handle(), request.body())
                .thenApply(text -> Reply.json(JsJson.object().put("caption", text))));

        voice(router, routes, "/generate-voice", request -> speech.openAi(request.user().handle(), request.body()));
        voice(router, routes, "/custom/generate-voice", request ->
                speech.custom(request.user().handle(), request.body()));
        voice(router, routes, "/electronhub/generate-voice", request ->
                speech.electronHub(request.user().handle(), request.body()));
        voice(router, routes, "/chutes/generate-voice", request ->
                speech.chutes(request.user().handle(), request.body()));

        json(router, routes, "/generate-image", request -> images.image(request.user().handle(), request.body()));
        json(router, routes, "/generate-video", request -> images.video(request.user().handle(), request.body(),
                () -> request.ctx().response().closed()));

        transcribe(router, routes, "/transcribe-audio", Transcriptions.Service.OPENAI);
        transcribe(router, routes, "/groq/transcribe-audio", Transcriptions.Service.GROQ);
        transcribe(router, routes, "/mistral/transcribe-audio", Transcriptions.Service.MISTRAL);
        transcribe(router, routes, "/zai/transcribe-audio", Transcriptions.Service.ZAI);
        json(router, routes, "/chutes/transcribe-audio", request ->
                transcriptions.chutes(request.user().handle(), recording(request)));

        json(router, routes, "/electronhub/models", request -> models.electronHub(request.user().handle()));
        json(router, routes, "/chutes/models/embedding", request -> models.chutesEmbedding(request.user().handle()));
        json(router, routes, "/nanogpt/models/embedding", request -> models.nanoGptEmbedding(request.user().handle()));
        json(router, routes, "/siliconflow/models/embedding", request ->
                models.siliconFlowEmbedding(request.user().handle(), request.body()));
        json(router, routes, "/workers-ai/models/embedding", request ->
                models.workersAiEmbedding(request.user().handle(), request.body()));
    }

    private void transcribe(Router router, Routes routes, String path, Transcriptions.Service service) {
        json(router, routes, path, request ->
                transcriptions.transcribe(request.user().handle(), service, recording(request)));
    }

    private static Transcriptions.Recording recording(Request request) {
        FileUpload upload = request.upload();
        return new Transcriptions.Recording(upload == null ? null : Path.of(upload.uploadedFileName()),
                request.formField("model"), request.formField("language"));
    }

    private static void voice(Router router, Routes routes, String path,
                              Function<Request, CompletionStage<OpenAiSpeech.Audio>> action) {
        post(router, routes, path, request -> action.apply(request)
                .thenApply(audio -> new Reply.Body(200, audio.contentType(), audio.bytes())));
    }

    private static void json(Router router, Routes routes, String path, Function<Request, CompletionStage<JsonNode>> action) {
        post(router, routes, path, request -> action.apply(request).thenApply(Reply::json));
    }

    private static void post(Router router, Routes routes, String path, Routes.LaterAction action) {
        router.post(BASE + path).handler(routes.later(action));
    }
}
