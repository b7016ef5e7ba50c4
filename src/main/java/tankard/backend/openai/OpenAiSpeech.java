package tankard.backend.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.backend.common.JsonFields;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * Text-to-speech for ST's TTS extension: OpenAI's, an OpenAI-compatible server's, ElectronHub's and Chutes'
 * (ST: src/endpoints/openai.js, the generate-voice routes). The audio comes back as the service sent it.
 */
public final class OpenAiSpeech {
    private static final String MPEG = "audio/mpeg";
    /** The ElectronHub parameters ST copies when they are finite numbers. */
    private static final List<String> ELECTRONHUB_NUMBERS = List.of("cfg_scale", "cfg_filter_top_k", "speech_rate",
            "pitch_adjustment");

    /** The fields ST's ElectronHub request always has (some undefined), which the frontend's cannot replace. */
    private static final List<String> ELECTRONHUB_FIELDS = List.of("input", "voice", "speed", "temperature", "model",
            "response_format");

    private final SecretStore secrets;
    private final ServiceCalls calls;

    public OpenAiSpeech(SecretStore secrets, ServiceCalls calls) {
        this.secrets = secrets;
        this.calls = calls;
    }

    /** Audio and its content type. */
    public record Audio(String contentType, byte[] bytes) {
    }

    /** {@code {text, voice?, speed?, model?, instructions?}} → OpenAI's MP3. */
    public CompletionStage<Audio> openAi(String user, JsonNode body) {
        String key = Keys.required(secrets, user, SecretKeys.OPENAI, "OpenAI");
        ObjectNode request = JsJson.object();
        JsonFields.copyAs(body, "text", request, "input");
        request.put("response_format", "mp3");
        request.set("voice", or(body.get("voice"), JsJson.tree("alloy")));
        request.set("speed", or(body.get("speed"), JsJson.tree(1)));
        request.set("model", or(body.get("model"), JsJson.tree("tts-1")));
        if (Js.truthy(body.get("instructions"))) {
            request.set("instructions", body.get("instructions"));
        }
        return speak("OpenAI", "https://api.openai.com/v1/audio/speech", key, request, false);
    }

    /** {@code {provider_endpoint, input?, response_format?, voice?, speed?, model?}} → the server's audio, sent as MP3. */
    public CompletionStage<Audio> custom(String user, JsonNode body) {
        if (!Js.truthy(body.get("provider_endpoint"))) {
            throw Refusal.badRequest("provider_endpoint is required");
        }
        String key = secrets.read(user, SecretKeys.CUSTOM_OPENAI_TTS);
        ObjectNode request = JsJson.object();
        request.set("input", or(body.get("input"), JsJson.tree("")));
        request.set("response_format", or(body.get("response_format"), JsJson.tree("mp3")));
        request.set("voice", or(body.get("voice"), JsJson.tree("alloy")));
        request.set("speed", or(body.get("speed"), JsJson.tree(1)));
        request.set("model", or(body.get("model"), JsJson.tree("tts-1")));
        return speak("The TTS server", Js.string(body.get("provider_endpoint")), key, request, false);
    }

    /** {@code {input, voice, speed?, temperature?, model?, ...}} → ElectronHub's audio, every other field passed on. */
    public CompletionStage<Audio> electronHub(String user, JsonNode body) {
        String key = Keys.required(secrets, user, SecretKeys.ELECTRONHUB, "ElectronHub");
        ObjectNode request = JsJson.object();
        JsonFields.copy(body, request, "input", "voice");
        request.set("speed", or(body.get("speed"), JsJson.tree(1)));
        JsonFields.copy(body, request, "temperature");
        request.set("model", Js.truthy(body.get("model")) ? body.get("model") : JsJson.tree("tts-1"));
        request.put("response_format", "mp3");
        for (String field : List.of("instructions", "speaker_transcript")) {
            if (Js.truthy(body.get(field))) {
                request.set(field, body.get(field));
            }
        }
        for (String field : ELECTRONHUB_NUMBERS) {
            JsonNode value = body.get(field);
            if (value != null && value.isNumber() && Double.isFinite(value.doubleValue())) {
                request.set(field, value);
            }
        }
        if (Js.truthy(body.get("emotional_style"))) {
            request.set("emotional_style", body.get("emotional_style"));
        }
        // the frontend's provider-specific parameters, as they came; ST's own keep their values
        Set<String> known = new HashSet<>(ELECTRONHUB_FIELDS);
        request.fieldNames().forEachRemaining(known::add);
        body.properties().forEach(entry -> {
            if (!known.contains(entry.getKey())) {
                request.set(entry.getKey(), entry.getValue());
            }
        });
        return speak("ElectronHub", "https://api.electronhub.ai/v1/audio/speech", key, request, true);
    }

    /** {@code {input, voice?, speed?}} → Chutes' Kokoro audio. */
    public CompletionStage<Audio> chutes(String user, JsonNode body) {
        String key = Keys.required(secrets, user, SecretKeys.CHUTES, "Chutes");
        ObjectNode request = JsJson.object();
        JsonFields.copyAs(body, "input", request, "text");
        request.set("voice", Js.truthy(body.get("voice")) ? body.get("voice") : JsJson.tree("af_heart"));
        request.set("speed", Js.truthy(body.get("speed")) ? body.get("speed") : JsJson.tree(1));
        return speak("Chutes", "https://chutes-kokoro.chutes.ai/speak", key, request, true);
    }

    /** POSTs the request with the key as Bearer; the audio typed as the service typed it, or as MP3. */
    private CompletionStage<Audio> speak(String service, String url, String key, ObjectNode request, boolean typed) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/json")
                .add("Authorization", "Bearer " + key);
        return calls.send(service, UpstreamRequest.post(url, headers, request)).thenApply(answer -> new Audio(
                typed && answer.contentType() != null && !answer.contentType().isEmpty() ? answer.contentType() : MPEG,
                answer.body().getBytes()));
    }

    /** JavaScript's {@code value ?? fallback}. */
    private static JsonNode or(JsonNode value, JsonNode fallback) {
        return value == null || value.isNull() ? fallback : value;
    }
}
