package tankard.translate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import tankard.outbound.ServiceCalls;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Google Translate's web endpoint, called as ST's google-translate-api-x library (10.7) calls it by default: one
 * {@code batchexecute} RPC ({@code MkEWBc}) of {@code [text, "auto", lang, false]}, whose answer is a stream of
 * JSON lines after a {@code )]}'} guard. The language is sent as given; the library's own check of it against its
 * list is left to Google.
 */
final class GoogleTranslate {
    static final String ORIGIN = "https://translate.google.com";
    private static final String RPC = "MkEWBc";
    private static final String SERVICE = "Google Translate";
    /** The {@code )]}'} guard and the blank line before the first chunk. */
    private static final int GUARD_CHARS = 6;

    private final ServiceCalls upstream;

    GoogleTranslate(ServiceCalls upstream) {
        this.upstream = upstream;
    }

    CompletionStage<String> translate(String text, String lang) {
        String url = ORIGIN + "/_/TranslateWebserverUi/data/batchexecute?" + new Form().add("rpcids", RPC)
                .add("source-path", "/").add("f.sid", "").add("bl", "").add("hl", "en-US").add("soc-app", "1")
                .add("soc-platform", "1").add("soc-device", "1")
                .add("_reqid", String.valueOf(ThreadLocalRandom.current().nextInt(1000, 10000))).add("rt", "c");
        MultiMap headers = MultiMap.caseInsensitiveMultiMap()
                .set("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8");
        return upstream.send(SERVICE, new UpstreamRequest(HttpMethod.POST, url, headers, body(text, lang)))
                .thenApply(answer -> translation(answer.body().toString()));
    }

    /** {@code f.req=[[[rpc, "[[text,from,to,autoCorrect],[null]]", null, "0"]]]&}, encoded. */
    static Buffer body(String text, String lang) {
        ArrayNode args = JsJson.array();
        args.addArray().add(text).add("auto").add(lang).add(false);
        args.addArray().addNull();
        ArrayNode request = JsJson.array();
        request.addArray().addArray().add(RPC).add(JsJson.compact(args)).addNull().add("0");
        return Buffer.buffer("f.req=" + Urls.encodeUriComponent(JsJson.compact(request)) + "&");
    }

    /** The translation in the RPC's answer: its sentences joined with spaces, or its one text. */
    static String translation(String answer) {
        String chunks = answer.length() > GUARD_CHARS ? answer.substring(GUARD_CHARS) : "";
        for (String chunk : chunks.split("\n")) {
            if (!chunk.startsWith("[") || chunk.length() > 3 && chunk.charAt(3) == 'e') {
                continue; // the chunks' lengths, and the closing ["e", …] chunk
            }
            JsonNode lines = JsJson.tryParse(chunk.getBytes(StandardCharsets.UTF_8));
            for (JsonNode line : lines == null ? JsJson.array() : lines) {
                if (!"wrb.fr".equals(line.path(0).asText())) {
                    continue;
                }
                if (!line.path(2).isTextual()) {
                    throw Refusal.failed(SERVICE + " rejected the translation (an unsupported language, or too many"
                            + " requests)");
                }
                JsonNode result = JsJson.tryParse(line.get(2).textValue().getBytes(StandardCharsets.UTF_8));
                return text(result == null ? JsJson.array() : result);
            }
        }
        throw Refusal.failed(SERVICE + " answered without a translation");
    }

    private static String text(JsonNode result) {
        JsonNode first = result.path(1).path(0).path(0);
        JsonNode sentences = first.path(5);
        if (!sentences.isArray()) {
            return TranslateService.translation(SERVICE, first.get(0)); // a link or a gendered translation
        }
        List<String> parts = new ArrayList<>();
        for (JsonNode sentence : sentences) {
            JsonNode part = sentence.path(0);
            if (part.isTextual() && !part.textValue().isEmpty()) {
                parts.add(part.textValue());
            }
        }
        return String.join(" ", parts);
    }
}
