package tankard.google;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import tankard.backend.common.GeminiSafety;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gemini's and Imagen's and Veo's media routes of ST (src/endpoints/google.js): image captions, native speech,
 * images and videos, through AI Studio or Vertex AI as {@link GoogleApi} targets them. A video is a long-running
 * operation, polled up to 30 times with growing waits on timers (no thread waits); each poll, and the reading of
 * a video's answer, runs on a worker, since it reads the secrets from disk and decodes large bodies.
 */
final class GoogleMedia {
    /** Videos come whole, in base64 inside JSON on Vertex AI: more room than the other answers. */
    private static final long MAX_VIDEO_BYTES = 256L << 20;
    private static final int POLLS = 30;
    private static final Pattern L16_RATE = Pattern.compile("rate=(\\d+)");
    /** An operation's name, which becomes part of AI Studio's polling URL. */
    private static final Pattern OPERATION = Pattern.compile("[A-Za-z0-9._~/-]{1,300}");

    private final GoogleApi api;
    private final ServiceCalls calls;
    private final Vertx vertx;
    /** Runs a step on a worker thread. */
    private final Executor worker;
    private final String personGeneration;
    private final int pollMillis;

    GoogleMedia(GoogleApi api, ServiceCalls calls, Vertx vertx, String personGeneration, int pollMillis) {
        this.api = api;
        this.calls = calls;
        this.vertx = vertx;
        this.worker = task -> vertx.executeBlocking(() -> {
            task.run();
            return null;
        }, false);
        this.personGeneration = personGeneration;
        this.pollMillis = pollMillis;
    }

    /** An answer with its own status and type: native speech, or Google's error of it as ST passes it on. */
    record Answer(int status, String contentType, byte[] bytes) {
        static Answer error(int status, String message) {
            return new Answer(status, "application/json; charset=utf-8",
                    JsJson.compactBytes(JsJson.object().put("error", message)));
        }
    }

    /** {@code {image (data URL), prompt, model, api…}} → {@code {caption}}. */
    CompletionStage<JsonNode> caption(String user, JsonNode body) {
        JsonNode image = body.get("image");
        if (image == null || !image.isTextual() || !image.textValue().startsWith("data:")
                || !image.textValue().contains(",")) {
            throw Refusal.badRequest("image must be a data URL");
        }
        String url = image.textValue();
        String mimeType = url.split(";")[0].substring("data:".length());
        String data = url.substring(url.indexOf(',') + 1);
        String model = or(body, "model", "gemini-2.0-flash");
        ObjectNode request = JsJson.object();
        var parts = request.putArray("contents").addObject().put("role", "user").putArray("parts");
        ObjectNode prompt = parts.addObject();
        if (body.has("prompt")) {
            prompt.set("text", body.get("prompt"));
        }
        parts.addObject().putObject("inlineData").put("mimeType", mimeType).put("data", data);
        return api.target(user, body, model, "generateContent").thenCompose(target -> {
            request.set("safetySettings", GeminiSafety.settings(target.vertex()));
            return calls.send(target.apiName(), UpstreamRequest.post(target.url(), target.headers(), request))
                    .thenApply(answer -> {
                        JsonNode candidates = ServiceCalls.json(target.apiName(), answer).get("candidates");
                        if (!Js.truthy(candidates)) {
                            throw Refusal.failed("No candidates found, image was most likely filtered.");
                        }
                        JsonNode caption = candidates.path(0).path("content").path("parts").path(0).get("text");
                        if (!Js.truthy(caption)) {
                            throw Refusal.failed("No caption found");
                        }
                        return JsJson.object().set("caption", caption);
                    });
        });
    }

    /** {@code {text, voice, model, api…}} → the speech; raw PCM ({@code audio/L16}) is wrapped as WAV. */
    CompletionStage<Answer> speech(String user, JsonNode body) {
        if (!Js.truthy(body.get("model"))) {
            throw Refusal.badRequest("model is required");
        }
        ObjectNode request = JsJson.object();
        ObjectNode part = request.putArray("contents").addObject().put("role", "user").putArray("parts").addObject();
        copy(body, "text", part, "text");
        ObjectNode config = request.putObject("generationConfig");
        config.putArray("responseModalities").add("AUDIO");
        ObjectNode voice = config.putObject("speechConfig").putObject("voiceConfig").putObject("prebuiltVoiceConfig");
        copy(body, "voice", voice, "voiceName");
        return api.target(user, body, Js.string(body.get("model")), "generateContent").thenCompose(target -> {
            request.set("safetySettings", GeminiSafety.settings(target.vertex()));
            return calls.answer(target.apiName(), UpstreamRequest.post(target.url(), target.headers(), request))
                    .thenApply(GoogleMedia::speech);
        });
    }

    private static Answer speech(UpstreamClient.Fetched answer) {
        JsonNode json = JsJson.tryParse(answer.body().getBytes());
        if (!answer.ok()) {
            if (json == null) { // ST fails parsing it
                return Answer.error(500, "Internal server error during TTS generation");
            }
            JsonNode message = json.path("error").get("message");
            return Answer.error(answer.status(), Js.truthy(message) ? Js.string(message) : "TTS generation failed.");
        }
        JsonNode inline = json == null ? null : json.path("candidates").path(0).path("content").path("parts").path(0)
                .path("inlineData");
        if (inline == null || !Js.truthy(inline.get("data"))) {
            return Answer.error(500, "No audio data found in response");
        }
        byte[] audio = base64(Js.string(inline.get("data")), "audio");
        String mimeType = Js.truthy(inline.get("mimeType")) ? Js.string(inline.get("mimeType")) : null;
        if (mimeType != null && mimeType.toLowerCase(java.util.Locale.ROOT).contains("audio/l16")) {
            Matcher rate = L16_RATE.matcher(mimeType);
            return new Answer(200, "audio/wav", wav(audio, rate.find() ? Integer.parseInt(rate.group(1)) : 24000));
        }
        return new Answer(200, mimeType == null ? "application/octet-stream" : mimeType, audio);
    }

    /** 16-bit mono PCM behind a 44-byte WAV header. */
    static byte[] wav(byte[] pcm, int sampleRate) {
        ByteBuffer out = ByteBuffer.allocate(44 + pcm.length).order(ByteOrder.LITTLE_ENDIAN);
        out.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(36 + pcm.length)
                .put("WAVEfmt ".getBytes(StandardCharsets.US_ASCII)).putInt(16).putShort((short) 1).putShort((short) 1)
                .putInt(sampleRate).putInt(sampleRate * 2).putShort((short) 2).putShort((short) 16)
                .put("data".getBytes(StandardCharsets.US_ASCII)).putInt(pcm.length).put(pcm);
        return out.array();
    }

    /** {@code {prompt, model, seed, enhance, negative_prompt, aspect_ratio, api…}} → {@code {image}} (JPEG, base64). */
    CompletionStage<JsonNode> image(String user, JsonNode body) {
        String model = or(body, "model", "imagen-3.0-generate-002");
        boolean vertex = GoogleApi.vertex(body);
        boolean deprecated = model.startsWith("imagegeneration");
        ObjectNode request = JsJson.object();
        request.putArray("instances").addObject().set("prompt", Js.truthy(body.get("prompt")) ? body.get("prompt")
                : JsJson.tree(""));
        ObjectNode parameters = request.putObject("parameters").put("sampleCount", 1);
        if (vertex) {
            parameters.set("seed", seed(body));
            parameters.put("enhancePrompt", Js.truthy(body.get("enhance")));
            if (Js.truthy(body.get("negative_prompt"))) {
                parameters.set("negativePrompt", body.get("negative_prompt"));
            }
        }
        parameters.put("aspectRatio", or(body, "aspect_ratio", "1:1"));
        if (!deprecated && !personGeneration.isEmpty()) {
            parameters.put("personGeneration", personGeneration);
        }
        if (vertex) {
            parameters.put("language", "auto");
        }
        if (!deprecated) {
            parameters.put("safetySetting", vertex ? "block_only_high" : "block_low_and_above");
        }
        if (vertex) {
            parameters.put("addWatermark", false);
        }
        parameters.putObject("outputOptions").put("mimeType", "image/jpeg").put("compressionQuality", 100);
        return api.target(user, body, model, "predict").thenCompose(target ->
                calls.send(target.apiName(), UpstreamRequest.post(target.url(), target.headers(), request))
                        .thenApply(answer -> {
                            JsonNode image = ServiceCalls.json(target.apiName(), answer).path("predictions").path(0)
                                    .get("bytesBase64Encoded");
                            if (!Js.truthy(image)) {
                                throw Refusal.failed("No image data found in response");
                            }
                            return JsJson.object().set("image", image);
                        }));
    }

    /** {@code {prompt, negative_prompt, seconds, aspect_ratio, seed, model, api…}} → {@code {video}} (base64). */
    CompletionStage<JsonNode> video(String user, JsonNode body) {
        String model = or(body, "model", "veo-3.1-generate-preview");
        boolean veo3 = model.contains("veo-3");
        ObjectNode request = JsJson.object();
        request.putArray("instances").addObject().put("prompt", truthyText(body, "prompt"));
        ObjectNode parameters = request.putObject("parameters").put("negativePrompt", truthyText(body, "negative_prompt"));
        JsonNode seconds = Js.number(Js.truthy(body.get("seconds")) ? body.get("seconds") : IntNode.valueOf(6));
        if (seconds == null) {
            parameters.putNull("durationSeconds"); // NaN, as ST's clamp leaves it
        } else {
            parameters.set("durationSeconds", JsJson.tree(Math.max(veo3 ? 4 : 5, Math.min(8, seconds.doubleValue()))));
        }
        parameters.put("aspectRatio", or(body, "aspect_ratio", "16:9")).put("personGeneration", "allow_all");
        if (veo3) {
            parameters.set("seed", seed(body));
        }
        return api.target(user, body, model, "predictLongRunning").thenCompose(target ->
                calls.send(target.apiName(), UpstreamRequest.post(target.url(), target.headers(), request))
                        .thenCompose(answer -> {
                            JsonNode name = ServiceCalls.json(target.apiName(), answer).get("name");
                            if (!Js.truthy(name)) {
                                throw Refusal.failed("No video job name found in response");
                            }
                            return poll(user, body, model, target, Js.string(name), 0);
                        }));
    }

    private CompletionStage<JsonNode> poll(String user, JsonNode body, String model, GoogleApi.Target target,
                                           String operation, int attempt) {
        if (attempt >= POLLS) {
            throw Refusal.failed("Video generation timed out");
        }
        long wait = pollMillis + (long) attempt * pollMillis / 5;
        CompletableFuture<Void> waited = new CompletableFuture<>();
        vertx.setTimer(wait, id -> worker.execute(() -> waited.complete(null)));
        return waited.thenCompose(fired -> target.vertex() ? vertexStatus(user, body, model, operation)
                        : studioStatus(target, operation))
                .thenCompose(video -> video != null ? CompletableFuture.completedFuture(video)
                        : poll(user, body, model, target, operation, attempt + 1));
    }

    /** Vertex AI's operation, asked with {@code fetchPredictOperation}: the video when done, else null. */
    private CompletionStage<JsonNode> vertexStatus(String user, JsonNode body, String model, String operation) {
        return api.target(user, body, model, "fetchPredictOperation").thenCompose(target ->
                calls.send(target.apiName(), UpstreamRequest.post(target.url(), target.headers(),
                        JsJson.object().put("operationName", operation)), MAX_VIDEO_BYTES).thenApplyAsync(answer -> {
                    JsonNode status = ServiceCalls.json(target.apiName(), answer);
                    if (!Js.truthy(status.get("done"))) {
                        return null;
                    }
                    JsonNode video = status.path("response").path("videos").path(0).get("bytesBase64Encoded");
                    if (!Js.truthy(video)) {
                        throw Refusal.failed("No video data found in response");
                    }
                    return JsJson.object().set("video", video);
                }, worker));
    }

    /** AI Studio's operation, read under the API's base URL; when done, the video fetched from its URI. */
    private CompletionStage<JsonNode> studioStatus(GoogleApi.Target target, String operation) {
        if (!OPERATION.matcher(operation).matches() || operation.contains("..")) {
            throw Refusal.failed(target.apiName() + " named its video job oddly: " + operation);
        }
        String url = target.baseUrl() + "/" + operation.replaceFirst("^/+", "");
        return calls.send(target.apiName(), UpstreamRequest.get(url, target.headers())).thenCompose(answer -> {
            JsonNode status = ServiceCalls.json(target.apiName(), answer);
            if (!Js.truthy(status.get("done"))) {
                return CompletableFuture.completedFuture(null);
            }
            JsonNode uri = status.path("response").path("generateVideoResponse").path("generatedSamples").path(0)
                    .path("video").get("uri");
            if (!Js.truthy(uri)) {
                throw Refusal.failed("No video URI found in response");
            }
            String videoUrl = Urls.httpUrl(Js.string(uri), "The video URI");
            MultiMap headers = sameOrigin(videoUrl, target.baseUrl()) ? target.headers()
                    : MultiMap.caseInsensitiveMultiMap();
            return calls.send(target.apiName(), UpstreamRequest.get(videoUrl, headers), MAX_VIDEO_BYTES)
                    .thenApplyAsync(video -> JsJson.object().put("video",
                            Base64.getEncoder().encodeToString(video.body().getBytes())), worker);
        });
    }

    /** Whether the URL is on the API's own origin, the only one the key is sent to. */
    private static boolean sameOrigin(String url, String base) {
        URI a = URI.create(url);
        URI b = URI.create(base);
        return a.getScheme().equalsIgnoreCase(b.getScheme()) && a.getRawAuthority().equalsIgnoreCase(b.getRawAuthority());
    }

    /** JavaScript's {@code Number(seed ?? random)}: NaN is sent as null. */
    private static JsonNode seed(JsonNode body) {
        JsonNode seed = body.get("seed");
        if (seed == null || seed.isNull()) {
            return IntNode.valueOf(ThreadLocalRandom.current().nextInt(1_000_000));
        }
        JsonNode number = Js.number(seed);
        return number == null ? NullNode.getInstance() : number;
    }

    private static byte[] base64(String data, String what) {
        try {
            return Base64.getMimeDecoder().decode(data);
        } catch (IllegalArgumentException e) {
            throw Refusal.failed("Google answered " + what + " that is not base64");
        }
    }

    /** A field's text, or the fallback when it is falsy ({@code String(value || fallback)}). */
    private static String or(JsonNode body, String field, String fallback) {
        return Js.truthy(body.get(field)) ? Js.string(body.get(field)) : fallback;
    }

    private static String truthyText(JsonNode body, String field) {
        return or(body, field, "");
    }

    /** Copies a field that is there (JSON.stringify drops an undefined one). */
    private static void copy(JsonNode from, String field, ObjectNode to, String as) {
        if (from.has(field)) {
            to.set(as, from.get(field));
        }
    }
}
