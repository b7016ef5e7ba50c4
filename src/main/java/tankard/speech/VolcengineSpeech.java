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

import java.io.ByteArrayOutputStream;
import java.util.Base64;
import java.util.concurrent.CompletionStage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Volcengine's (ByteDance's) unidirectional TTS for ST's TTS extension, with the app id and access key from the
 * secrets (ST: src/endpoints/volcengine.js, {@code /api/volcengine/generate-voice}): the answer is JSON lines, each
 * with a piece of MP3 in base64, joined into one.
 */
public final class VolcengineSpeech {
    private static final String SERVICE = "Volcengine TTS";
    private static final String DEFAULT_ENDPOINT = "https://openspeech.bytedance.com/api/v3/tts/unidirectional";
    /** The {@code additions} ST sends, a JSON text inside the JSON. */
    private static final String ADDITIONS = "{\"mute_cut_threshold\":\"400\",\"mute_cut_remain_ms\":\"1\","
            + "\"explicit_language\":\"crosslingual\",\"enable_language_detector\":true,"
            + "\"disable_markdown_filter\":true,\"cache_config\":{\"use_cache\":true,\"text_type\":1}}";
    private static final Pattern LEADING_INT = Pattern.compile("^\\s*([+-]?\\d+)");

    private final SecretStore secrets;
    private final ServiceCalls calls;

    public VolcengineSpeech(SecretStore secrets, ServiceCalls calls) {
        this.secrets = secrets;
        this.calls = calls;
    }

    /** {@code {provider_endpoint, resource_id, text, voice_speaker, speed}} → the text spoken, MP3. */
    public CompletionStage<byte[]> generate(String user, JsonNode body) {
        String endpoint = Js.truthy(body.get("provider_endpoint"))
                ? Urls.httpUrl(Js.string(body.get("provider_endpoint")), "provider_endpoint") : DEFAULT_ENDPOINT;
        String appId = secrets.read(user, SecretKeys.VOLCENGINE_APP_ID);
        String accessKey = secrets.read(user, SecretKeys.VOLCENGINE_ACCESS_KEY);
        if (appId == null || appId.isEmpty() || accessKey == null || accessKey.isEmpty()) {
            throw Refusal.forbidden("The Volcengine app id and access key are not set"); // ST's 403
        }
        if (!Js.truthy(body.get("resource_id")) || !Js.truthy(body.get("text"))
                || !Js.truthy(body.get("voice_speaker"))) {
            throw Refusal.badRequest("resource_id, text and voice_speaker are required");
        }
        ObjectNode params = JsJson.object();
        params.set("text", body.get("text"));
        params.set("speaker", body.get("voice_speaker"));
        params.putObject("audio_params").put("format", "mp3").set("speech_rate", parseInt(body.get("speed")));
        params.put("additions", ADDITIONS);
        ObjectNode request = JsJson.object();
        request.set("req_params", params);
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("X-Api-App-Id", appId)
                .set("X-Api-Access-Key", accessKey).set("X-Api-Resource-Id", Js.string(body.get("resource_id")))
                .set("Content-Type", "application/json");
        return calls.answer(SERVICE, UpstreamRequest.post(endpoint, headers, request)).thenApply(VolcengineSpeech::audio);
    }

    /** The MP3 pieces of the answer's lines, joined; a line with an error code fails the whole. */
    private static byte[] audio(UpstreamClient.Fetched answer) {
        if (!answer.ok()) {
            String logId = answer.head().getHeader("X-Tt-Logid");
            throw Refusal.failed("TTS Generation Failed: " + answer.head().statusMessage()
                    + (logId == null || logId.isEmpty() ? "" : " (X-Tt-Logid " + logId + ")"));
        }
        ByteArrayOutputStream audio = new ByteArrayOutputStream();
        String[] lines = answer.body().toString().split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            JsonNode line = JsJson.tryParse(lines[i].getBytes(java.nio.charset.StandardCharsets.UTF_8));
            if (line == null || !line.isObject()) {
                if (i == lines.length - 1) { // ST skips a bad line, but not a bad last one
                    throw Refusal.failed("TTS Generation Failed: Error parsing final Volcengine TTS stream line");
                }
                continue;
            }
            JsonNode code = line.get("code");
            if (!(code != null && code.isNumber() && (code.longValue() == 0 || code.longValue() == 20000000))) {
                throw Refusal.failed("TTS Generation Failed: Volcengine TTS stream line code " + Js.string(code)
                        + ", " + Js.string(line.get("message")));
            }
            if (Js.truthy(line.get("data"))) {
                try {
                    audio.writeBytes(Base64.getMimeDecoder().decode(Js.string(line.get("data"))));
                } catch (IllegalArgumentException e) {
                    throw Refusal.failed("TTS Generation Failed: Volcengine answered audio that is not base64");
                }
            }
        }
        return audio.toByteArray();
    }

    /** JavaScript's {@code Number.parseInt(speed || '0')}: NaN is sent as null. */
    private static JsonNode parseInt(JsonNode speed) {
        if (!Js.truthy(speed)) {
            return IntNode.valueOf(0);
        }
        Matcher digits = LEADING_INT.matcher(Js.string(speed));
        if (!digits.find()) {
            return NullNode.getInstance();
        }
        try {
            return IntNode.valueOf(Integer.parseInt(digits.group(1)));
        } catch (NumberFormatException e) {
            return JsJson.tree(Double.parseDouble(digits.group(1)));
        }
    }
}
