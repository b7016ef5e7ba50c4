package tankard.speech;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.util.Base64;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Pollinations' audio models for ST's TTS: a model's voices from the public model list, and speech as MP3 from an
 * audio chat completion, with the key from the secrets (ST: src/endpoints/speech.js, {@code /api/speech/pollinations/*}).
 */
public final class PollinationsSpeech {
    private static final String SERVICE = "Pollinations";
    private static final String API = "https://gen.pollinations.ai";
    private static final String DEFAULT_MODEL = "openai-audio";

    private final SecretStore secrets;
    private final ServiceCalls calls;

    public PollinationsSpeech(SecretStore secrets, ServiceCalls calls) {
        this.secrets = secrets;
        this.calls = calls;
    }

    /** {@code {model}} → that model's voices, as Pollinations lists them. */
    public CompletionStage<JsonNode> voices(JsonNode body) {
        String model = text(body, "model", DEFAULT_MODEL);
        return calls.send(SERVICE, UpstreamRequest.get(API + "/text/models", MultiMap.caseInsensitiveMultiMap()))
                .thenApply(answer -> {
                    JsonNode models = ServiceCalls.json(SERVICE, answer);
                    if (!models.isArray()) {
                        throw Refusal.failed("Invalid data format received from Pollinations");
                    }
                    for (JsonNode entry : models) {
                        if (model.equals(entry.path("name").asText(null)) && entry.path("voices").isArray()) {
                            return entry.get("voices");
                        }
                    }
                    throw Refusal.failed("No voices found for the specified model");
                });
    }

    /** {@code {text, model, voice}} → the text spoken, MP3. */
    public CompletionStage<byte[]> generate(String user, JsonNode body) {
        String key = secrets.read(user, SecretKeys.POLLINATIONS);
        if (key == null || key.isEmpty()) {
            throw Refusal.badRequest("The Pollinations API key is not set"); // ST's 400
        }
        ObjectNode request = JsJson.object().put("model", text(body, "model", DEFAULT_MODEL)).put("stream", false);
        request.putArray("modalities").add("text").add("audio");
        request.put("seed", ThreadLocalRandom.current().nextLong(1L << 32));
        request.putObject("audio").put("format", "mp3").put("voice", text(body, "voice", "alloy"));
        ObjectNode message = request.putArray("messages").addObject().put("role", "user");
        JsonNode text = body.get("text");
        if (text != null) {
            message.set("content", text);
        }
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("Authorization", "Bearer " + key)
                .set("Content-Type", "application/json");
        return calls.send(SERVICE, UpstreamRequest.post(API + "/v1/chat/completions", headers, request))
                .thenApply(answer -> {
                    JsonNode audio = ServiceCalls.json(SERVICE, answer).path("choices").path(0).path("message")
                            .path("audio").path("data");
                    String data = ServiceCalls.text(SERVICE, audio.isMissingNode() ? null : audio, "audio data");
                    if (data.isEmpty()) {
                        throw Refusal.failed("Pollinations answered without audio data");
                    }
                    try {
                        return Base64.getMimeDecoder().decode(data);
                    } catch (IllegalArgumentException e) {
                        throw Refusal.failed("Pollinations answered audio that is not base64");
                    }
                });
    }

    /** A text field, or the fallback when it is missing or empty ({@code value || fallback}). */
    private static String text(JsonNode body, String field, String fallback) {
        String value = body.path(field).asText("");
        return value.isEmpty() ? fallback : value;
    }
}
