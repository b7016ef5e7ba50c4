package tankard.vector.source;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamClient.Fetched;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretStore;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * An embedding source behind an upstream API: the texts go in batches of ten, one call after another, as ST's
 * getBatchVector sends them (ST: src/endpoints/vectors.js, getBatchVector), each batch's vectors read out of the
 * upstream's answer and checked (one array of numbers per text).
 * <p>
 * Failures: a key or setting the request lacks is a {@code BAD_REQUEST} naming it (ST answers 500); an error
 * status upstream, an upstream that cannot be reached and an answer without the vectors are {@code UPSTREAM}, with
 * the upstream's own message when it gives one (ST logs it and answers 500).
 */
final class RemoteSource implements EmbeddingSource {
    /** ST's batch size. */
    static final int BATCH = 10;
    private static final int MESSAGE_LIMIT = 500;

    /** What one request's calls are, built on the worker that {@link #embed} is called on. */
    @FunctionalInterface
    interface Opener {
        /** The calls of this request; may fail with a {@link Refusal} (a missing key), or come later (a token). */
        Future<Upstream> open(EmbeddingCall call, boolean query);
    }

    /** Where a batch's vectors are in the upstream's answer: one element per text, in the texts' order. */
    @FunctionalInterface
    interface Answer {
        /** The vectors (each still JSON), or null when the answer does not have them where they should be. */
        List<JsonNode> vectors(JsonNode answer);
    }

    /**
     * The calls of one request.
     *
     * @param api     the upstream's name in messages ("OpenAI", "Ollama")
     * @param url     where each batch goes (POST)
     * @param headers the headers of each call (Content-Type among them)
     * @param body    the JSON body of a batch
     * @param answer  where the vectors are in an answer
     * @param where   the member that holds them, for the message when it does not ("data", "embeddings")
     */
    record Upstream(String api, String url, MultiMap headers, Function<List<String>, JsonNode> body, Answer answer,
                    String where) {
    }

    private final UpstreamClient client;
    private final Function<JsonNode, String> scope;
    private final Opener opener;

    RemoteSource(UpstreamClient client, Function<JsonNode, String> scope, Opener opener) {
        this.client = client;
        this.scope = scope;
        this.opener = opener;
    }

    @Override
    public String modelScope(JsonNode body) {
        return scope.apply(body);
    }

    @Override
    public CompletionStage<List<float[]>> embed(EmbeddingCall call, List<String> texts, boolean query) {
        Future<Upstream> upstream;
        try {
            upstream = opener.open(call, query);
        } catch (RuntimeException e) {
            upstream = Future.failedFuture(e);
        }
        return upstream.compose(calls -> batches(calls, texts)).toCompletionStage();
    }

    /** The batches, one call after the other; the first failure ends it. */
    private Future<List<float[]>> batches(Upstream calls, List<String> texts) {
        List<float[]> vectors = new ArrayList<>(texts.size());
        Future<Void> chain = Future.succeededFuture();
        for (int from = 0; from < texts.size(); from += BATCH) {
            List<String> batch = texts.subList(from, Math.min(texts.size(), from + BATCH));
            chain = chain.compose(done -> client.fetch(UpstreamRequest.post(calls.url(), calls.headers(),
                            calls.body().apply(batch)))
                    .compose(answer -> offLoop(() -> read(calls, answer, batch.size())))
                    .map(batchVectors -> {
                        vectors.addAll(batchVectors);
                        return null;
                    }));
        }
        return chain.<List<float[]>>map(done -> vectors)
                .recover(e -> Future.failedFuture(e instanceof Refusal ? e
                        : Refusal.upstream(calls.api() + " could not be called: " + e.getMessage())));
    }

    /** Reads an answer on a worker: ten vectors of a few thousand numbers are JSON to keep off the event loop. */
    private static <T> Future<T> offLoop(Callable<T> work) {
        Context context = Vertx.currentContext();
        if (context == null) {
            try {
                return Future.succeededFuture(work.call());
            } catch (Exception e) {
                return Future.failedFuture(e);
            }
        }
        return context.executeBlocking(work, false);
    }

    /** A batch's vectors out of the upstream's answer, or the refusal that says what is wrong with it. */
    static List<float[]> read(Upstream calls, Fetched answer, int count) {
        if (!answer.ok()) {
            throw Refusal.upstream(calls.api() + " answered " + answer.status() + " "
                    + answer.head().statusMessage() + errorMessage(answer));
        }
        JsonNode json = JsJson.tryParse(answer.body().getBytes());
        List<JsonNode> found = json == null ? null : calls.answer().vectors(json);
        if (found == null) {
            throw Refusal.upstream(calls.api() + " answered without the vectors: "
                    + (json == null ? "the answer is not JSON" : "no array \"" + calls.where() + "\""));
        }
        if (found.size() != count) {
            // vectors that cannot be stored are refused as a bad request would be: nothing is written
            throw Refusal.badRequest(calls.api() + " answered " + found.size() + " vectors for " + count + " texts");
        }
        List<float[]> vectors = new ArrayList<>(count);
        for (JsonNode vector : found) {
            try {
                vectors.add(Vectors.of(vector));
            } catch (Refusal e) {
                throw Refusal.badRequest(calls.api() + " answered a malformed vector: " + e.getMessage());
            }
        }
        return vectors;
    }

    /** The upstream's error message: its JSON's {@code error.message}, {@code error}, {@code message} or {@code detail}, else its text. */
    private static String errorMessage(Fetched answer) {
        String text = answer.body().toString(StandardCharsets.UTF_8).strip();
        JsonNode json = JsJson.tryParse(answer.body().getBytes());
        if (json != null && json.isObject()) {
            for (JsonNode candidate : List.of(json.path("error").path("message"), json.path("error"),
                    json.path("message"), json.path("detail"))) {
                if (candidate.isTextual() && !candidate.asText().isBlank()) {
                    text = candidate.asText().strip();
                    break;
                }
            }
        }
        if (text.isEmpty()) {
            return "";
        }
        return ": " + (text.length() <= MESSAGE_LIMIT ? text : text.substring(0, MESSAGE_LIMIT) + "…");
    }

    // ---- shared by the sources

    /** The user's key of that secret, or the refusal that names the secret. Blocking: reads the secrets file. */
    static String key(SecretStore secrets, EmbeddingCall call, String secret, String api) {
        String key = secrets.read(call.user(), secret);
        if (key.isEmpty()) {
            throw Refusal.badRequest("No API key for " + api + ": the secret " + secret + " is not set");
        }
        return key;
    }

    /** JSON headers with {@code Authorization: Bearer key}. */
    static MultiMap bearer(String key) {
        return json().set("Authorization", "Bearer " + key);
    }

    /** {@code Content-Type: application/json}. */
    static MultiMap json() {
        return MultiMap.caseInsensitiveMultiMap().set("Content-Type", "application/json");
    }

    /** A member holding an array: its elements; null when it is not an array. */
    static List<JsonNode> elements(JsonNode array) {
        if (array == null || !array.isArray()) {
            return null;
        }
        List<JsonNode> elements = new ArrayList<>(array.size());
        array.forEach(elements::add);
        return elements;
    }

    /** The elements' {@code member} each (missing where one lacks it, which then fails as a malformed vector). */
    static List<JsonNode> each(List<JsonNode> elements, Function<JsonNode, JsonNode> member) {
        return elements == null ? null : elements.stream().map(member).toList();
    }

    /**
     * OpenAI's {@code data: [{index, embedding}]}, sorted by {@code index} as ST sorts it (ST:
     * src/vectors/openai-vectors.js, getOpenAIBatchVector); elements without a numeric index keep their place.
     */
    static List<JsonNode> openAiData(JsonNode answer) {
        List<JsonNode> data = elements(answer.get("data"));
        if (data == null) {
            return null;
        }
        if (data.stream().allMatch(x -> x.path("index").isNumber())) {
            data = new ArrayList<>(data);
            data.sort(Comparator.comparingDouble(x -> x.path("index").asDouble()));
        }
        return each(data, x -> x.path("embedding"));
    }
}
