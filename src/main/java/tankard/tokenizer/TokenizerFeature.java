package tankard.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.Router;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.core.Refusal;
import tankard.json.JsJson;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@code /api/tokenizers/*} (ST: src/endpoints/tokenizers.js). The frontend waits on these while it builds prompts,
 * so every route answers 200 with its documented shape, falling back to ST's empty or estimated answer on any error.
 * The backends' own tokenizers ({@code /api/tokenizers/remote/*}) are in {@code
 * tankard.backend.text.RemoteTokenizersFeature}, next to the text-completion backends whose URLs and keys they use.
 */
public record TokenizerFeature(Tokenizers tokenizers) implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(TokenizerFeature.class);

    @Override
    public void mount(Router router, Routes routes) {
        List<String> ids = Stream.of(List.of("gpt2"), Tokenizers.SENTENCEPIECE, Tokenizers.HUGGINGFACE)
                .flatMap(List::stream).toList();
        // Vocabularies load on first use, on a worker thread: loading one takes a second or two.
        for (String id : ids) {
            router.post("/api/tokenizers/" + id + "/encode").handler(routes.blocking(request ->
                    encode(request, r -> tokenizers.byId(id))));
            router.post("/api/tokenizers/" + id + "/decode").handler(routes.blocking(request ->
                    decode(request, r -> tokenizers.byId(id))));
        }
        router.post("/api/tokenizers/openai/encode").handler(routes.blocking(request ->
                encode(request, r -> tokenizers.forModel(model(r)))));
        router.post("/api/tokenizers/openai/decode").handler(routes.blocking(request ->
                decode(request, r -> tokenizers.forModel(model(r)))));
        router.post("/api/tokenizers/openai/count").handler(routes.blocking(this::count));
        router.post("/api/backends/chat-completions/bias").handler(routes.blocking(this::bias));
    }

    /**
     * {@code [{text, value}]} → {@code {tokenId: value}}: each entry's text tokenized for {@code ?model=} (or, when
     * the text is a JSON array of numbers, those ids), as OpenAI's logit_bias wants it; nothing for Claude, and
     * nothing when the model's vocabulary is not there (ST: src/endpoints/backends/chat-completions.js, /bias).
     */
    private Reply bias(Request request) {
        if (!(request.body() instanceof ArrayNode entries)) {
            throw Refusal.badRequest("The body must be an array of {text, value}");
        }
        ObjectNode result = JsJson.object();
        String model = model(request);
        Tokenizer tokenizer = tokenizers.forCount(model);
        if (Tokenizers.openAiModel(model).equals("claude") || tokenizer.estimated()) {
            return Reply.json(result);
        }
        TreeMap<Long, JsonNode> biases = new TreeMap<>(); // a JavaScript object lists integer keys in order
        for (JsonNode entry : entries) {
            if (entry == null || !entry.path("text").isTextual() || entry.path("text").asText().isEmpty()) {
                continue; // ST skips falsy texts, and fails on (then skips) texts that are not strings
            }
            for (long token : biasTokens(entry.path("text").asText(), tokenizer)) {
                biases.put(token, entry.path("value"));
            }
        }
        biases.forEach((token, value) -> result.set(Long.toString(token), value.isMissingNode() ? null : value));
        return Reply.json(result);
    }

    /** Raw ids when the text is a JSON array of numbers (as a Uint32Array takes them), else the text's tokens. */
    private static long[] biasTokens(String text, Tokenizer tokenizer) {
        String trimmed = text.trim();
        if (trimmed.startsWith("[") && trimmed.endsWith("]")) {
            try {
                JsonNode ids = JsJson.parse(trimmed.getBytes(StandardCharsets.UTF_8));
                boolean numbers = ids.isArray();
                for (JsonNode id : ids) {
                    numbers &= id.isNumber();
                }
                if (numbers) {
                    long[] raw = new long[ids.size()];
                    for (int i = 0; i < raw.length; i++) {
                        raw[i] = toUint32(ids.get(i).doubleValue());
                    }
                    return raw;
                }
            } catch (RuntimeException notJson) {
                // tokenized as text
            }
        }
        return java.util.Arrays.stream(tokenizer.encode(text)).mapToLong(id -> id & 0xffffffffL).toArray();
    }

    /** JavaScript's ToUint32. */
    private static long toUint32(double value) {
        if (!Double.isFinite(value)) {
            return 0;
        }
        double truncated = value < 0 ? Math.ceil(value) : Math.floor(value);
        return (long) (truncated % 4294967296.0 + 4294967296.0) % 4294967296L;
    }

    /** {@code {text}} → {@code {ids, count, chunks}}. */
    private static Reply encode(Request request, Function<Request, Tokenizer> pick) {
        try {
            Tokenizer tokenizer = pick.apply(request);
            JsonNode text = request.body().get("text");
            String input = text == null || text.isNull() ? "" : text.asText();
            int[] ids = tokenizer.encode(input);
            if (tokenizer.estimated()) {
                // ST's answer when a model file cannot be loaded: no ids, no chunks, an estimated count.
                return Reply.json(JsJson.object().<ObjectNode>set("ids", JsJson.array()).put("count", ids.length));
            }
            ObjectNode out = JsJson.object();
            ArrayNode idList = out.putArray("ids");
            for (int id : ids) {
                idList.add(id);
            }
            out.put("count", ids.length);
            ArrayNode chunks = out.putArray("chunks");
            tokenizer.encodeChunks(input, ids).forEach(chunks::add);
            return Reply.json(out);
        } catch (RuntimeException e) {
            LOG.warn("Tokenizing failed: {}", e.toString());
            return Reply.json(JsJson.object().<ObjectNode>set("ids", JsJson.array()).put("count", 0)
                    .set("chunks", JsJson.array()));
        }
    }

    /** {@code {ids}} → {@code {text}} (tiktoken) or {@code {text, chunks}}. */
    private static Reply decode(Request request, Function<Request, Tokenizer> pick) {
        Tokenizer tokenizer = null;
        try {
            tokenizer = pick.apply(request);
            int[] ids = ids(request.body().get("ids"));
            ObjectNode out = JsJson.object();
            if (tokenizer.family() == Tokenizer.Family.TIKTOKEN) {
                return Reply.json(out.put("text", tokenizer.decode(ids)));
            }
            List<String> chunks = tokenizer.chunks(ids);
            // SentencePiece decodes id by id and concatenates, so word-initial spaces are lost as in ST.
            out.put("text", tokenizer.family() == Tokenizer.Family.SENTENCEPIECE ? String.join("", chunks)
                    : tokenizer.decode(ids));
            chunks.forEach(out.putArray("chunks")::add);
            return Reply.json(out);
        } catch (RuntimeException e) {
            LOG.warn("Decoding tokens failed: {}", e.toString());
            ObjectNode out = JsJson.object().put("text", "");
            if (tokenizer == null || tokenizer.family() != Tokenizer.Family.TIKTOKEN) {
                out.putArray("chunks");
            }
            return Reply.json(out);
        }
    }

    /** Array of chat messages → {@code {token_count}}; any failure gives ST's byte-length estimate. */
    private Reply count(Request request) {
        int count;
        try {
            count = ChatTokenCounter.count(tokenizers, model(request), request.body());
        } catch (RuntimeException e) {
            LOG.warn("Counting tokens failed, estimating: {}", e.toString());
            byte[] raw = request.ctx().body().buffer() == null ? new byte[0] : request.ctx().body().buffer().getBytes();
            count = ChatTokenCounter.guess(new String(raw, StandardCharsets.UTF_8));
        }
        return Reply.json(JsJson.object().put("token_count", count));
    }

    private static String model(Request request) {
        String model = request.query("model");
        return model == null ? "" : model;
    }

    private static int[] ids(JsonNode ids) {
        if (ids == null || ids.isNull()) {
            return new int[0];
        }
        if (!ids.isArray()) {
            throw new IllegalArgumentException("ids must be an array");
        }
        int[] out = new int[ids.size()];
        for (int i = 0; i < out.length; i++) {
            if (!ids.get(i).isIntegralNumber() || !ids.get(i).canConvertToInt()) {
                throw new IllegalArgumentException("ids must be integers");
            }
            out[i] = ids.get(i).intValue();
        }
        return out;
    }
}
