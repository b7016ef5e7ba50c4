package tankard.backend.openai;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.regex.Pattern;

/**
 * Speech to text for ST's Speech Recognition extension: the uploaded recording sent to OpenAI, Groq, Mistral or
 * Z.AI as OpenAI's multipart transcription request, or to a Chutes model as base64 JSON (ST:
 * src/endpoints/openai.js, the transcribe-audio routes).
 */
public final class Transcriptions {
    /** OpenAI's own limit on a file to transcribe; a larger recording is refused before it is read. */
    public static final long MAX_AUDIO_BYTES = 25L << 20;
    /** A Chutes model's name becomes its host's first label, so nothing else may pass. */
    private static final Pattern CHUTE = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?");

    /** A service that takes OpenAI's transcription request. */
    public enum Service {
        OPENAI("OpenAI", SecretKeys.OPENAI, "https://api.openai.com/v1/audio/transcriptions"),
        GROQ("Groq", SecretKeys.GROQ, "https://api.groq.com/openai/v1/audio/transcriptions"),
        MISTRAL("MistralAI", SecretKeys.MISTRALAI, "https://api.mistral.ai/v1/audio/transcriptions"),
        ZAI("Z.AI", SecretKeys.ZAI, "https://api.z.ai/api/paas/v4/audio/transcriptions");

        private final String label;
        private final String secret;
        private final String url;

        Service(String label, String secret, String url) {
            this.label = label;
            this.secret = secret;
            this.url = url;
        }
    }

    /** The upload: its temporary file (null: none) and the form's {@code model} and {@code language}. */
    public record Recording(Path file, String model, String language) {
    }

    private final SecretStore secrets;
    private final ServiceCalls calls;

    public Transcriptions(SecretStore secrets, ServiceCalls calls) {
        this.secrets = secrets;
        this.calls = calls;
    }

    /** The recording as {@code audio.wav} with the model and language → the service's JSON as it came. */
    public CompletionStage<JsonNode> transcribe(String user, Service service, Recording recording) {
        String key = Keys.required(secrets, user, service.secret, service.label);
        byte[] audio = audio(recording);
        if (recording.model() == null || recording.model().isEmpty()) {
            throw Refusal.badRequest("model is required");
        }
        String boundary = "----TankardFormBoundary" + UUID.randomUUID().toString().replace("-", "");
        Buffer form = Buffer.buffer();
        part(form, boundary, "name=\"file\"; filename=\"audio.wav\"", "audio/wav").appendBytes(audio).appendString("\r\n");
        field(form, boundary, "model", recording.model());
        if (recording.language() != null && !recording.language().isEmpty()) {
            field(form, boundary, "language", recording.language());
        }
        form.appendString("--" + boundary + "--\r\n");
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Authorization", "Bearer " + key)
                .add("Content-Type", "multipart/form-data; boundary=" + boundary);
        return calls.send(service.label, new UpstreamRequest(HttpMethod.POST, service.url, headers, form))
                .thenApply(answer -> ServiceCalls.json(service.label, answer));
    }

    /** The recording as base64 to the Chutes model named by {@code model} → {@code {text}}, its chunks joined. */
    public CompletionStage<JsonNode> chutes(String user, Recording recording) {
        String key = Keys.required(secrets, user, SecretKeys.CHUTES, "Chutes");
        byte[] audio = audio(recording);
        String model = recording.model() == null ? "" : recording.model();
        if (!CHUTE.matcher(model).matches()) {
            throw Refusal.badRequest("model must be a Chutes model name (letters, digits and hyphens)");
        }
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Authorization", "Bearer " + key)
                .add("Content-Type", "application/json");
        JsonNode request = JsJson.object().put("audio_b64", Base64.getEncoder().encodeToString(audio));
        return calls.send("Chutes", UpstreamRequest.post("https://" + model + ".chutes.ai/transcribe", headers, request))
                .thenApply(answer -> {
                    JsonNode chunks = ServiceCalls.json("Chutes", answer);
                    if (!chunks.isArray()) {
                        throw Refusal.failed("Chutes answered a transcription that is not a list of chunks");
                    }
                    StringBuilder text = new StringBuilder();
                    chunks.forEach(chunk -> text.append(chunk.path("text").asText("")));
                    return JsJson.object().put("text", text.toString().strip());
                });
    }

    /** The uploaded file's bytes: 400 without one, 413 past {@link #MAX_AUDIO_BYTES}. */
    private static byte[] audio(Recording recording) {
        if (recording.file() == null) {
            throw Refusal.badRequest("No audio file was uploaded");
        }
        try {
            if (Files.size(recording.file()) > MAX_AUDIO_BYTES) {
                throw Refusal.tooLarge("The recording is larger than " + (MAX_AUDIO_BYTES >> 20) + " MB");
            }
            return Files.readAllBytes(recording.file());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Buffer part(Buffer form, String boundary, String disposition, String type) {
        form.appendString("--" + boundary + "\r\nContent-Disposition: form-data; " + disposition + "\r\n");
        if (type != null) {
            form.appendString("Content-Type: " + type + "\r\n");
        }
        return form.appendString("\r\n");
    }

    private static void field(Buffer form, String boundary, String name, String value) {
        part(form, boundary, "name=\"" + name + "\"", null).appendString(value, StandardCharsets.UTF_8.name()).appendString("\r\n");
    }
}
