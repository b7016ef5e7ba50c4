package tankard.speech;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * MiniMax's text-to-speech ({@code t2a_v2}) for ST's TTS extension, with the key and group id from the secrets
 * (ST: src/endpoints/minimax.js, {@code /api/minimax/generate-voice}): the audio comes hex-encoded in the answer, or
 * as a URL that is then fetched. Failures are ST's 500 with {@code {error}} in ST's words.
 */
public final class MiniMaxSpeech {
    private static final String SERVICE = "MiniMax TTS";
    private static final String DEFAULT_HOST = "https://api.minimax.io";
    private static final String AUTH_FAILED = "Authentication failed - Please check your API key and API host";
    private static final Map<String, String> TYPES = Map.of("mp3", "audio/mpeg", "wav", "audio/wav",
            "pcm", "audio/pcm", "flac", "audio/flac", "aac", "audio/aac");
    private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]*");

    private final SecretStore secrets;
    private final ServiceCalls calls;

    public MiniMaxSpeech(SecretStore secrets, ServiceCalls calls) {
        this.secrets = secrets;
        this.calls = calls;
    }

    /** Speech and its content type, named by the requested format as ST names it. */
    public record Audio(String contentType, byte[] bytes) {
    }

    /** {@code {text, voiceId, apiHost, model, speed, volume, pitch, audioSampleRate, bitrate, format, language}}. */
    public CompletionStage<Audio> generate(String user, JsonNode body) {
        String key = secrets.read(user, SecretKeys.MINIMAX);
        String groupId = secrets.read(user, SecretKeys.MINIMAX_GROUP_ID);
        if (!Js.truthy(body.get("text")) || !Js.truthy(body.get("voiceId")) || key == null || key.isEmpty()
                || groupId == null || groupId.isEmpty()) {
            throw Refusal.badRequest("Missing required parameters: text, voiceId, apiKey, and groupId are required");
        }
        String host = body.hasNonNull("apiHost") ? Urls.httpUrl(Js.string(body.get("apiHost")), "apiHost")
                : DEFAULT_HOST;
        String format = body.hasNonNull("format") ? Js.string(body.get("format")) : "mp3";
        ObjectNode request = JsJson.object().put("model", or(body, "model", "speech-02-hd"));
        request.set("text", body.get("text"));
        request.put("stream", false);
        ObjectNode voice = request.putObject("voice_setting");
        voice.set("voice_id", body.get("voiceId"));
        voice.set("speed", number(body, "speed", 1));
        voice.set("vol", number(body, "volume", 1));
        voice.set("pitch", number(body, "pitch", 1));
        ObjectNode audio = request.putObject("audio_setting");
        audio.set("sample_rate", number(body, "audioSampleRate", 32000));
        audio.set("bitrate", number(body, "bitrate", 128000));
        audio.put("format", format).put("channel", 1);
        if (Js.truthy(body.get("language"))) {
            request.set("lang", body.get("language"));
        }
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("Authorization", "Bearer " + key)
                .set("Content-Type", "application/json").set("MM-API-Source", "SillyTavern-TTS");
        String url = host + "/v1/t2a_v2?GroupId=" + Urls.encodeUriComponent(groupId);
        String type = TYPES.getOrDefault(format, "audio/mpeg");
        return calls.answer(SERVICE, UpstreamRequest.post(url, headers, request))
                .thenCompose(answer -> audio(answer, type));
    }

    private CompletionStage<Audio> audio(UpstreamClient.Fetched answer, String type) {
        JsonNode json = JsJson.tryParse(answer.body().getBytes());
        if (!answer.ok()) {
            throw Refusal.failed(json == null ? errorText(answer) : errorMessage(json, answer.status()));
        }
        if (json == null) {
            throw Refusal.failed("Invalid response format from MiniMax API");
        }
        JsonNode base = json.path("base_resp");
        if (failed(base)) {
            throw Refusal.failed(baseError(base));
        }
        JsonNode data = json.path("data");
        if (Js.truthy(data.get("audio"))) {
            return CompletableFuture.completedFuture(new Audio(type, hex(data.get("audio"))));
        }
        if (Js.truthy(data.get("url"))) {
            String url = Urls.httpUrl(Js.string(data.get("url")), "MiniMax's audio URL");
            return calls.send(SERVICE, UpstreamRequest.get(url, MultiMap.caseInsensitiveMultiMap()))
                    .thenApply(audio -> new Audio(type, audio.body().getBytes()));
        }
        String message = Js.truthy(base.get("status_msg")) ? Js.string(base.get("status_msg"))
                : Js.truthy(json.path("error").get("message")) ? Js.string(json.path("error").get("message"))
                : "Unknown error";
        throw Refusal.failed("API Error: " + message);
    }

    /** The hex audio, a {@code 0x} prefix and spaces dropped, an odd length padded with a leading 0. */
    private static byte[] hex(JsonNode audio) {
        if (!audio.isTextual()) {
            throw Refusal.failed("Invalid audio data format");
        }
        String clean = audio.textValue().replaceFirst("^0x", "").replaceAll("\\s", "");
        if (!HEX.matcher(clean).matches()) {
            throw Refusal.failed("Invalid audio data format");
        }
        if (clean.isEmpty()) {
            throw Refusal.failed("Audio data conversion failed");
        }
        return HexFormat.of().parseHex(clean.length() % 2 == 0 ? clean : "0" + clean);
    }

    /** ST's message for an error status whose body is JSON. */
    private static String errorMessage(JsonNode error, int status) {
        JsonNode base = error.path("base_resp");
        if (failed(base)) {
            return baseError(base);
        }
        for (JsonNode message : new JsonNode[] {error.path("error").get("message"), error.get("message"), error.get("detail")}) {
            if (Js.truthy(message)) {
                return Js.string(message);
            }
        }
        return "HTTP " + status;
    }

    /** ST's message for an error status whose body is not JSON. */
    private static String errorText(UpstreamClient.Fetched answer) {
        String text = answer.body().toString();
        return text.length() > 500 ? "HTTP " + answer.status() + ": Response too large (" + text.length() + " characters)"
                : text.isEmpty() ? "HTTP " + answer.status() : text;
    }

    /** MiniMax's {@code base_resp} of a failure: present, with a status code other than 0. */
    private static boolean failed(JsonNode base) {
        JsonNode code = base.path("status_code");
        return base.isObject() && !(code.isNumber() && code.doubleValue() == 0);
    }

    private static String baseError(JsonNode base) {
        return base.path("status_code").asInt() == 1004 ? AUTH_FAILED
                : "API Error: " + Js.string(base.get("status_msg"));
    }

    private static String or(JsonNode body, String field, String fallback) {
        return body.hasNonNull(field) ? Js.string(body.get(field)) : fallback;
    }

    /** JavaScript's {@code Number(value)} of a field with a default; NaN is sent as JSON.stringify sends it, null. */
    private static JsonNode number(JsonNode body, String field, int fallback) {
        JsonNode value = body.get(field);
        if (Js.isUndefined(value)) {
            return IntNode.valueOf(fallback);
        }
        JsonNode number = Js.number(value);
        return number == null ? NullNode.getInstance() : number;
    }
}
