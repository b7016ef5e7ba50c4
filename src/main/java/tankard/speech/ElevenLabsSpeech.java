package tankard.speech;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.MultiMap;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.MultipartForm;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ElevenLabs for ST's TTS and speech recognition: voices, default settings, speech, history, voice cloning and
 * transcription, with the key from the secrets (ST: src/endpoints/speech.js, {@code /api/speech/elevenlabs/*}).
 */
public final class ElevenLabsSpeech {
    private static final String SERVICE = "ElevenLabs";
    private static final String API = "https://api.elevenlabs.io/v1";
    /** ElevenLabs takes up to 25 samples of a voice; more is refused before anything is decoded. */
    static final int MAX_SAMPLES = 25;
    /** The samples' total size, decoded: far more than ElevenLabs takes per voice. */
    static final long MAX_SAMPLE_BYTES = 100L << 20;
    /** A recording to transcribe: ElevenLabs takes files of up to about 1 GB; Tankard reads at most this into memory. */
    static final long MAX_RECORDING_BYTES = 100L << 20;
    private static final Pattern DATA_URL = Pattern.compile("^data:(.+?);base64,(.+)$", Pattern.DOTALL);
    /** mime-types' extensions of the audio types browsers record or upload. */
    private static final Map<String, String> EXTENSIONS = Map.of("audio/mpeg", "mp3", "audio/mp3", "mp3",
            "audio/wav", "wav", "audio/wave", "wav", "audio/x-wav", "wav", "audio/ogg", "oga", "audio/webm", "weba",
            "audio/mp4", "m4a", "audio/flac", "flac", "audio/aac", "aac");

    private final SecretStore secrets;
    private final ServiceCalls calls;

    public ElevenLabsSpeech(SecretStore secrets, ServiceCalls calls) {
        this.secrets = secrets;
        this.calls = calls;
    }

    public CompletionStage<JsonNode> voices(String user) {
        return json(UpstreamRequest.get(API + "/voices", headers(user)));
    }

    public CompletionStage<JsonNode> voiceSettings(String user) {
        return json(UpstreamRequest.get(API + "/voices/settings/default", headers(user)));
    }

    public CompletionStage<JsonNode> history(String user) {
        return json(UpstreamRequest.get(API + "/history", headers(user)));
    }

    /** {@code {voiceId, request}} → MP3 (ElevenLabs' default format): the request (text, model, settings) sent on as it is. */
    public CompletionStage<byte[]> synthesize(String user, JsonNode body) {
        MultiMap headers = headers(user);
        JsonNode request = body.get("request");
        String voiceId = body.path("voiceId").asText("");
        if (voiceId.isEmpty() || request == null || !request.isObject()) {
            throw Refusal.badRequest("voiceId and request are required");
        }
        headers.set("Content-Type", "application/json");
        return audio(UpstreamRequest.post(API + "/text-to-speech/" + Urls.segment(voiceId, "voiceId"), headers, request));
    }

    /** {@code {historyItemId}}: the audio of an earlier synthesis. */
    public CompletionStage<byte[]> historyAudio(String user, JsonNode body) {
        MultiMap headers = headers(user);
        String id = body.path("historyItemId").asText("");
        if (id.isEmpty()) {
            throw Refusal.badRequest("historyItemId is required");
        }
        return audio(UpstreamRequest.get(API + "/history/" + Urls.segment(id, "historyItemId") + "/audio", headers));
    }

    /**
     * {@code {name, description, labels, files}}: a cloned voice from samples given as base64 data URLs (at most
     * {@link #MAX_SAMPLES}, {@link #MAX_SAMPLE_BYTES} together); one that is not a data URL is skipped, as in ST.
     */
    public CompletionStage<JsonNode> addVoice(String user, JsonNode body) {
        MultiMap headers = headers(user);
        MultipartForm form = new MultipartForm().field("name", text(body, "name", "Custom Voice"))
                .field("description", text(body, "description", "Uploaded via SillyTavern"))
                .field("labels", text(body, "labels", ""));
        JsonNode files = body.path("files");
        if (!files.isMissingNode() && !files.isNull() && !files.isArray()) {
            throw Refusal.badRequest("files must be a list of data URLs");
        }
        if (files.size() > MAX_SAMPLES) {
            throw Refusal.tooLarge("At most " + MAX_SAMPLES + " voice samples can be uploaded at once");
        }
        long total = 0;
        for (JsonNode file : files) {
            Matcher data = DATA_URL.matcher(file.asText(""));
            if (!file.isTextual() || !data.matches()) {
                continue;
            }
            byte[] audio;
            try {
                audio = Base64.getMimeDecoder().decode(data.group(2));
            } catch (IllegalArgumentException e) {
                throw Refusal.badRequest("A voice sample is not valid base64");
            }
            total += audio.length;
            if (total > MAX_SAMPLE_BYTES) {
                throw Refusal.tooLarge("The voice samples are larger than " + (MAX_SAMPLE_BYTES >> 20) + " MiB together");
            }
            String type = data.group(1);
            form.file("files", "audio." + EXTENSIONS.getOrDefault(type.toLowerCase(java.util.Locale.ROOT), "wav"),
                    type, audio);
        }
        return json(form.post(API + "/voices/add", headers));
    }

    /** The recorded audio (the upload's bytes) transcribed by the model; ElevenLabs' answer as it is. */
    public CompletionStage<JsonNode> recognize(String user, byte[] audio, String model) {
        MultiMap headers = headers(user);
        if (audio == null) {
            throw Refusal.badRequest("No audio file was uploaded");
        }
        if (model == null || model.isEmpty()) {
            throw Refusal.badRequest("model is required"); // ST's form-data fails on the missing field (500)
        }
        MultipartForm form = new MultipartForm().file("file", "audio.wav", "audio/wav", audio).field("model_id", model);
        return json(form.post(API + "/speech-to-text", headers));
    }

    /** The key header; no key is ST's 400. */
    private MultiMap headers(String user) {
        String key = secrets.read(user, SecretKeys.ELEVENLABS);
        if (key == null || key.isEmpty()) {
            throw Refusal.badRequest("The ElevenLabs API key is not set");
        }
        return MultiMap.caseInsensitiveMultiMap().set("xi-api-key", key);
    }

    private CompletionStage<JsonNode> json(UpstreamRequest call) {
        return calls.send(SERVICE, call).thenApply(answer -> ServiceCalls.json(SERVICE, answer));
    }

    private CompletionStage<byte[]> audio(UpstreamRequest call) {
        return calls.send(SERVICE, call).thenApply(answer -> answer.body().getBytes());
    }

    /** A form text: JavaScript's {@code value || fallback}, numbers and the like as their text. */
    private static String text(JsonNode body, String field, String fallback) {
        JsonNode value = body.get(field);
        String text = value == null || value.isNull() ? "" : value.isTextual() ? value.textValue() : JsJson.compact(value);
        return text.isEmpty() || "false".equals(text) || "0".equals(text) ? fallback : text;
    }
}
