package tankard.speech;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import tankard.core.Refusal;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.util.concurrent.CompletionStage;
import java.util.regex.Pattern;

/**
 * Azure's text-to-speech for ST's TTS extension: the voice list of a region and speech as Ogg Opus, with the key
 * from the secrets (ST: src/endpoints/azure.js).
 */
public final class AzureSpeech {
    private static final String SERVICE = "Azure TTS";
    /** A region is a name such as "westeurope": it becomes part of the host, so nothing else may pass. */
    private static final Pattern REGION = Pattern.compile("[A-Za-z0-9-]{1,64}");

    private final SecretStore secrets;
    private final ServiceCalls calls;

    public AzureSpeech(SecretStore secrets, ServiceCalls calls) {
        this.secrets = secrets;
        this.calls = calls;
    }

    /** {@code {region}} → the region's voices, as Azure lists them. */
    public CompletionStage<JsonNode> voices(String user, JsonNode body) {
        String key = key(user);
        String region = region(body);
        return calls.send(SERVICE, UpstreamRequest.get(host(region) + "/cognitiveservices/voices/list", headers(key)))
                .thenApply(answer -> ServiceCalls.json(SERVICE, answer));
    }

    /** {@code {text, voice, region}} → the spoken text (Ogg Opus, 24 kHz). */
    public CompletionStage<byte[]> speak(String user, JsonNode body) {
        String key = key(user);
        String text = body.path("text").asText("");
        String voice = body.path("voice").asText("");
        if (text.isEmpty() || voice.isEmpty() || body.path("region").asText("").isEmpty()) {
            throw Refusal.badRequest("text, voice and region are required");
        }
        String region = region(body);
        String lang = String.join("-", java.util.Arrays.stream(voice.split("-")).limit(2).toList());
        String ssml = "<speak version='1.0' xmlns='http://www.w3.org/2001/10/synthesis' xml:lang='" + xml(lang)
                + "'><voice xml:lang='" + xml(lang) + "' name='" + xml(voice) + "'>" + xml(text) + "</voice></speak>";
        MultiMap headers = headers(key).add("Content-Type", "application/ssml+xml")
                .add("X-Microsoft-OutputFormat", "webm-24khz-16bit-mono-opus");
        return calls.send(SERVICE, new UpstreamRequest(HttpMethod.POST, host(region) + "/cognitiveservices/v1", headers,
                Buffer.buffer(ssml))).thenApply(answer -> answer.body().getBytes());
    }

    private String key(String user) {
        String key = secrets.read(user, SecretKeys.AZURE_TTS);
        if (key == null || key.isEmpty()) {
            throw Refusal.forbidden("The Azure TTS API key is not set"); // ST's 403
        }
        return key;
    }

    private static String region(JsonNode body) {
        String region = body.path("region").asText("");
        if (region.isEmpty()) {
            throw Refusal.badRequest("region is required");
        }
        if (!REGION.matcher(region).matches()) {
            throw Refusal.badRequest("region must be an Azure region name such as westeurope");
        }
        return region;
    }

    private static String host(String region) {
        return "https://" + region + ".tts.speech.microsoft.com";
    }

    private static MultiMap headers(String key) {
        return MultiMap.caseInsensitiveMultiMap().add("Ocp-Apim-Subscription-Key", key);
    }

    /** The text and attribute values escaped for SSML (ST escapes only the text's & < >). */
    private static String xml(String value) {
        return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&apos;")
                .replace("\"", "&quot;");
    }
}
