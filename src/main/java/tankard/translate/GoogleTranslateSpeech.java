package tankard.translate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamRequest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Google Translate's speech, for ST's "Google Translate" TTS (ST: src/endpoints/google.js, {@code list-voices} and
 * {@code generate-voice}), called as google-translate-api-x (10.7) speaks: one {@code batchexecute} RPC
 * ({@code jQ1olc}) of {@code [text, lang, true]}, whose answer carries the MP3 in base64. The languages are the
 * library's list (code → name), which also turns a language's name into its code.
 */
public final class GoogleTranslateSpeech {
    private static final String RPC = "jQ1olc";
    private static final String SERVICE = "Google Translate TTS";
    /** Longer texts Google refuses; the library fails them before sending. */
    static final int MAX_CHARS = 200;
    private static final int GUARD_CHARS = 6;

    private final ServiceCalls upstream;
    private final JsonNode languages = loadLanguages();

    public GoogleTranslateSpeech(ServiceCalls upstream) {
        this.upstream = upstream;
    }

    /** The languages, code → name, as ST lists them. */
    public JsonNode languages() {
        return languages;
    }

    /** {@code {text, voice}} (voice: a language's code or name, default {@code en}) → the text spoken, MP3. */
    public CompletionStage<byte[]> speak(JsonNode body) {
        JsonNode text = body.get("text");
        if (text == null || !text.isTextual()) {
            throw Refusal.badRequest("text is required");
        }
        if (text.textValue().length() > MAX_CHARS) {
            throw Refusal.badRequest("Google Translate speaks at most " + MAX_CHARS + " characters at once");
        }
        JsonNode voice = body.get("voice");
        String lang = code(voice == null || voice.isNull() ? "en" : voice.asText(""));
        String url = GoogleTranslate.ORIGIN + "/_/TranslateWebserverUi/data/batchexecute?" + new Form()
                .add("rpcids", RPC).add("source-path", "/").add("f.sid", "").add("bl", "").add("hl", "en-US")
                .add("soc-app", "1").add("soc-platform", "1").add("soc-device", "1")
                .add("_reqid", String.valueOf(ThreadLocalRandom.current().nextInt(1000, 10000))).add("rt", "c");
        MultiMap headers = MultiMap.caseInsensitiveMultiMap()
                .set("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8");
        return upstream.send(SERVICE, new UpstreamRequest(HttpMethod.POST, url, headers, body(text.textValue(), lang)))
                .thenApply(answer -> audio(answer.body().toString()));
    }

    /** {@code f.req=[[[rpc, "[text,lang,true]", null, "0"]]]&}, encoded. */
    static Buffer body(String text, String lang) {
        ArrayNode args = JsJson.array().add(text).add(lang).add(true);
        ArrayNode request = JsJson.array();
        request.addArray().addArray().add(RPC).add(JsJson.compact(args)).addNull().add("0");
        return Buffer.buffer("f.req=" + Urls.encodeUriComponent(JsJson.compact(request)) + "&");
    }

    /** The library's getCode: a known code as it is, else the code of the language of that name (any case). */
    private String code(String lang) {
        if (languages.has(lang)) {
            return lang;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = languages.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            if (entry.getValue().asText().equalsIgnoreCase(lang)) {
                return entry.getKey();
            }
        }
        throw Refusal.badRequest("Google Translate does not speak the language " + lang);
    }

    /** The MP3 in the RPC's answer. */
    private static byte[] audio(String answer) {
        String chunks = answer.length() > GUARD_CHARS ? answer.substring(GUARD_CHARS) : "";
        for (String chunk : chunks.split("\n")) {
            if (!chunk.startsWith("[") || chunk.length() > 3 && chunk.charAt(3) == 'e') {
                continue;
            }
            JsonNode lines = JsJson.tryParse(chunk.getBytes(StandardCharsets.UTF_8));
            for (JsonNode line : lines == null ? JsJson.array() : lines) {
                if (!"wrb.fr".equals(line.path(0).asText())) {
                    continue;
                }
                JsonNode result = line.path(2).isTextual()
                        ? JsJson.tryParse(line.get(2).textValue().getBytes(StandardCharsets.UTF_8)) : null;
                if (result == null || !result.path(0).isTextual()) {
                    throw Refusal.failed(SERVICE + " rejected the request (too many requests, or an unsupported language)");
                }
                try {
                    return Base64.getMimeDecoder().decode(result.get(0).textValue());
                } catch (IllegalArgumentException e) {
                    throw Refusal.failed(SERVICE + " answered audio that is not base64");
                }
            }
        }
        throw Refusal.failed(SERVICE + " answered without audio");
    }

    private static JsonNode loadLanguages() {
        try (InputStream in = GoogleTranslateSpeech.class.getResourceAsStream("google-languages.json")) {
            return JsJson.parse(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
