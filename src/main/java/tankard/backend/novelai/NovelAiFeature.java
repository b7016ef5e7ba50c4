package tankard.backend.novelai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import tankard.backend.common.JsonFields;
import tankard.backend.common.Proxying;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.http.UpstreamFailures;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.StreamConverter;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.util.Base64;

/**
 * {@code /api/novelai/*} (ST's src/endpoints/novelai.js) with the user's NovelAI key: status and text generation
 * (Kayra and Erato on NovelAI's text host, older models on its API host; streams relayed as they arrive), image
 * generation with optional upscaling, and text to speech.
 */
public record NovelAiFeature(SecretStore secrets, UpstreamClient upstream) implements Feature {
    private static final String BASE = "/api/novelai";
    private static final String API_HOST = "https://api.novelai.net";
    private static final String TEXT_HOST = "https://text.novelai.net";
    private static final String IMAGE_HOST = "https://image.novelai.net";

    @Override
    public void mount(Router router, Routes routes) {
        router.post(BASE + "/status").handler(routes.answering(this::status));
        router.post(BASE + "/generate").handler(routes.answering(this::generate));
        router.post(BASE + "/generate-image").handler(routes.answering(this::generateImage));
        router.post(BASE + "/generate-voice").handler(routes.answering(this::generateVoice));
    }

    /** The JSON and Bearer headers of every NovelAI call; the user's key is required. */
    private MultiMap headers(Request request) {
        String key = secrets.read(request.user().handle(), SecretKeys.NOVEL);
        if (key.isEmpty()) {
            throw Refusal.badRequest("NovelAI Access Token is missing.");
        }
        return MultiMap.caseInsensitiveMultiMap().set("Content-Type", "application/json")
                .set("Authorization", "Bearer " + key);
    }

    private void status(Request request) {
        HttpServerResponse response = request.ctx().response();
        Reply failed = Reply.json(JsJson.object().put("error", true));
        Proxying.worker(request.ctx(), () -> headers(request))
                .onFailure(request.ctx()::fail)
                .onSuccess(headers -> upstream.fetch(UpstreamRequest.get(API_HOST + "/user/subscription", headers),
                                response)
                        .map(answer -> answer.ok() ? JsJson.tryParse(answer.body().getBytes()) : null)
                        .onComplete(answer -> (answer.result() == null ? failed : Reply.json(answer.result()))
                                .writeTo(response)));
    }

    private void generate(Request request) {
        Reply failed = Reply.json(JsJson.object().put("error", true));
        Proxying.worker(request.ctx(), () -> generation(request)).onFailure(request.ctx()::fail)
                .onSuccess(call -> Proxying.generate(upstream, request.ctx(), call,
                        Js.truthy(request.body().get("streaming")), () -> { }, answer -> completion(answer)::writeTo,
                        e -> failed::writeTo));
    }

    private UpstreamRequest generation(Request request) {
        MultiMap headers = headers(request);
        JsonNode body = request.body();
        JsonNode model = body.get("model");
        if (model == null || !model.isTextual()) {
            throw Refusal.badRequest("No NovelAI model was given");
        }
        String name = model.textValue();
        String host = name.contains("kayra") || name.contains("erato") ? TEXT_HOST : API_HOST;
        String url = host + (Js.truthy(body.get("streaming")) ? "/ai/generate-stream" : "/ai/generate");
        return UpstreamRequest.post(url, headers, NovelAiSettings.body(body, name));
    }

    /** The upstream JSON; an error as 500 with NovelAI's {@code message} (or its whole text if not JSON). */
    private static Reply completion(UpstreamClient.Fetched answer) {
        JsonNode json = JsJson.tryParse(answer.body().getBytes());
        if (!answer.ok()) {
            ObjectNode error = JsJson.object();
            ObjectNode message = error.putObject("error");
            if (json == null) {
                message.put("message", answer.body().toString());
            } else if (json.isObject() && json.has("message")) {
                message.set("message", json.get("message"));
            }
            return Reply.json(500, error);
        }
        if (json == null) {
            throw new IllegalStateException("NovelAI answered with something that is not JSON");
        }
        return Reply.json(json);
    }

    // ---- images and voice

    private void generateImage(Request request) {
        RoutingContext ctx = request.ctx();
        HttpServerResponse response = ctx.response();
        // the body may carry a base64 image: parsed and laid out on a worker, like the PNGs that come back
        Proxying.worker(ctx, () -> ImageCall.of(request.body(), headers(request))).onFailure(ctx::fail).onSuccess(call ->
                upstream.fetch(call.generate(), response)
                        .compose(answer -> Proxying.worker(ctx, () -> image(answer)))
                        .compose(image -> upscaled(ctx, call, image, response))
                        .onSuccess(image -> Reply.text(image).writeTo(response))
                        .onFailure(e -> Proxying.answer(response, UpstreamFailures.reply(e)::writeTo)));
    }

    /** The frontend's body, the auth headers, and the generation call made of them. */
    private record ImageCall(JsonNode body, MultiMap headers, UpstreamRequest generate) {
        static ImageCall of(JsonNode body, MultiMap headers) {
            return new ImageCall(body, headers, UpstreamRequest.post(IMAGE_HOST + "/ai/generate-image", headers,
                    NovelAiImages.request(body)));
        }
    }

    /** The base64 PNG of a generation; a failed one is answered 500 as in ST. Blocking. */
    private static String image(UpstreamClient.Fetched answer) {
        String png = base64Png(answer);
        if (png == null) {
            throw new IllegalStateException("NovelAI's answer has no image");
        }
        return png;
    }

    /** The first PNG of a NovelAI answer (a zip), base64-encoded; null when it failed or has none. Blocking. */
    private static String base64Png(UpstreamClient.Fetched answer) {
        byte[] png = answer.ok() ? NovelAiImages.firstPng(answer.body().getBytes()) : null;
        return png == null ? null : Base64.getEncoder().encodeToString(png);
    }

    /** The image upscaled when the frontend asks for it; the original when upscaling fails. */
    private Future<String> upscaled(RoutingContext ctx, ImageCall call, String image, HttpServerResponse response) {
        if (Double.isNaN(NovelAiImages.upscaleRatio(call.body()))) {
            return Future.succeededFuture(image);
        }
        return Proxying.worker(ctx, () -> {
            ObjectNode upscale = JsJson.object().put("image", image);
            JsonFields.copy(call.body(), upscale, "height", "width");
            JsonFields.copyAs(call.body(), "upscale_ratio", upscale, "scale");
            return UpstreamRequest.post(API_HOST + "/ai/upscale", call.headers(), upscale);
        }).compose(upscale -> upstream.fetch(upscale, response))
                .compose(answer -> Proxying.worker(ctx, () -> base64Png(answer)))
                .map(png -> png == null ? image : png)
                .otherwise(image);
    }

    private void generateVoice(Request request) {
        RoutingContext ctx = request.ctx();
        HttpServerResponse response = ctx.response();
        JsonNode text = request.body().get("text");
        JsonNode voice = request.body().get("voice");
        Proxying.worker(ctx, () -> {
            MultiMap headers = headers(request).remove("Content-Type").set("Accept", "audio/mpeg");
            if (!Js.truthy(text) || !Js.truthy(voice)) {
                throw Refusal.badRequest("A text and a voice are needed");
            }
            return headers;
        }).onFailure(ctx::fail).onSuccess(headers -> {
            String url = API_HOST + "/ai/generate-voice?text=" + Urls.encodeUriComponent(Js.string(text))
                    + "&voice=-1&seed=" + Urls.encodeUriComponent(Js.string(voice)) + "&opus=false&version=v2";
            upstream.send(UpstreamRequest.get(url, headers), response).onSuccess(from -> {
                if (!UpstreamClient.isOk(from)) {
                    from.body().onComplete(ignored -> Reply.status(500).writeTo(response));
                    return;
                }
                // relayed as it arrives (ST buffers the whole sound first)
                response.putHeader("Content-Type", "audio/mpeg");
                UpstreamClient.pipe(from, response, StreamConverter.NONE);
            }).onFailure(e -> Proxying.answer(response, UpstreamFailures.reply(e)::writeTo));
        });
    }
}
