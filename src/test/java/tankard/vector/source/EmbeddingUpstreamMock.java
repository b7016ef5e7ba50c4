package tankard.vector.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import tankard.json.JsJson;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Every embedding upstream of ST's Vector Storage in one mock: each built-in origin under a path prefix of its
 * own, the user-given servers (Ollama, llama.cpp, vLLM, Extras) at its root. It records each call and answers in
 * the upstream's shape; the vector of the text "tK" is [K, 0.5].
 */
final class EmbeddingUpstreamMock {
    /** The built-in origins, each rebased onto the mock under a path prefix of its own. */
    static final Map<String, String> PREFIXES = Map.ofEntries(
            Map.entry("https://api.openai.com", "/openai"),
            Map.entry("https://api.together.xyz", "/together"),
            Map.entry("https://api.mistral.ai", "/mistral"),
            Map.entry("https://api.electronhub.ai", "/electronhub"),
            Map.entry("https://openrouter.ai", "/openrouter"),
            Map.entry("https://chutes-qwen-qwen3-embedding-8b.chutes.ai", "/chutes-default"),
            Map.entry("https://my-embedder.chutes.ai", "/chutes-mine"),
            Map.entry("https://nano-gpt.com", "/nanogpt"),
            Map.entry("https://api.siliconflow.com", "/siliconflow-com"),
            Map.entry("https://api.siliconflow.cn", "/siliconflow-cn"),
            Map.entry("https://api.cloudflare.com", "/cloudflare"),
            Map.entry("https://api-atlas.nomic.ai", "/nomic"),
            Map.entry("https://api.cohere.ai", "/cohere"),
            Map.entry("https://generativelanguage.googleapis.com", "/aistudio"),
            Map.entry("https://us-central1-aiplatform.googleapis.com", "/vertex-us"),
            Map.entry("https://europe-west4-aiplatform.googleapis.com", "/vertex-eu"),
            Map.entry("https://aiplatform.googleapis.com", "/vertex-global"),
            Map.entry("https://oauth2.googleapis.com", "/oauth"));

    /** One call as the mock received it. */
    record Call(String path, String query, MultiMap headers, JsonNode body) {
        String header(String name) {
            return headers.get(name);
        }
    }

    /** How the mock answers a call: status and body. */
    record Answer(int status, String body) {
    }

    final List<Call> calls = new CopyOnWriteArrayList<>();
    final AtomicInteger mostInFlight = new AtomicInteger();
    /** How the mock answers each call; the upstreams' own shapes unless a test says otherwise. */
    volatile Function<Call, Answer> answers = EmbeddingUpstreamMock::shaped;
    final String origin;
    private final Vertx vertx;
    private final HttpServer server;
    private final AtomicInteger inFlight = new AtomicInteger();

    private EmbeddingUpstreamMock(Vertx vertx) {
        this.vertx = vertx;
        this.server = vertx.createHttpServer().requestHandler(this::handle);
        server.listen(0, "127.0.0.1").await();
        this.origin = "http://127.0.0.1:" + server.actualPort();
    }

    static EmbeddingUpstreamMock start(Vertx vertx) {
        return new EmbeddingUpstreamMock(vertx);
    }

    int port() {
        return server.actualPort();
    }

    /** {@code tankard.providerOrigins}: every built-in origin onto the mock. */
    Map<String, String> origins() {
        Map<String, String> origins = new LinkedHashMap<>();
        PREFIXES.forEach((from, prefix) -> origins.put(from, origin + prefix));
        return origins;
    }

    private void handle(HttpServerRequest request) {
        request.body().onSuccess(buffer -> {
            JsonNode body = buffer.length() == 0 ? null : JsJson.tryParse(buffer.getBytes());
            Call call = new Call(request.path(), request.query(), MultiMap.caseInsensitiveMultiMap()
                    .addAll(request.headers()), body == null ? JsJson.object() : body);
            calls.add(call);
            Answer answer = request.path().startsWith("/oauth")
                    ? new Answer(200, "{\"access_token\":\"ya29.token\"}") : answers.apply(call);
            // answered a little later, so that a batch sent before the one before it was answered would be seen
            int now = inFlight.incrementAndGet();
            mostInFlight.accumulateAndGet(now, Math::max);
            vertx.setTimer(5, t -> {
                inFlight.decrementAndGet();
                request.response().setStatusCode(answer.status()).putHeader("Content-Type", "application/json")
                        .end(answer.body());
            });
        });
    }

    // ---- the mock's answers in each upstream's shape; the vector of text "tK" is [K, 0.5]

    static ArrayNode vector(String text) {
        ArrayNode vector = JsJson.array();
        return vector.add(Integer.parseInt(text.substring(1))).add(0.5);
    }

    static List<String> strings(JsonNode array, Function<JsonNode, JsonNode> text) {
        List<String> out = new ArrayList<>();
        array.forEach(element -> out.add(text.apply(element).asText()));
        return out;
    }

    static Answer shaped(Call call) {
        JsonNode body = call.body();
        ObjectNode answer = JsJson.object();
        String path = call.path();
        if (path.endsWith("/embeddings") && !path.endsWith("/api/embeddings/compute")) {
            // OpenAI's shape, listed in reverse to check the sort by index
            List<String> input = strings(body.get("input"), x -> x);
            ArrayNode data = answer.putArray("data");
            for (int i = input.size() - 1; i >= 0; i--) {
                data.addObject().put("object", "embedding").put("index", i).set("embedding", vector(input.get(i)));
            }
        } else if (path.endsWith("/api/embed")) {
            strings(body.get("input"), x -> x).forEach(text -> answer.withArray("embeddings").add(vector(text)));
        } else if (path.endsWith("/embedding/text")) {
            strings(body.get("texts"), x -> x).forEach(text -> answer.withArray("embeddings").add(vector(text)));
        } else if (path.endsWith("/v2/embed")) {
            ArrayNode floats = answer.putObject("embeddings").putArray("float");
            strings(body.get("texts"), x -> x).forEach(text -> floats.add(vector(text)));
        } else if (path.endsWith(":batchEmbedContents")) {
            strings(body.get("requests"), x -> x.path("content").path("parts").path(0).path("text"))
                    .forEach(text -> answer.withArray("embeddings").addObject().set("values", vector(text)));
        } else if (path.endsWith(":predict")) {
            strings(body.get("instances"), x -> x.path("content")).forEach(text -> answer.withArray("predictions")
                    .addObject().putObject("embeddings").set("values", vector(text)));
        } else if (path.endsWith("/api/embeddings/compute")) {
            List<String> texts = strings(body.get("text"), x -> x);
            if (texts.size() == 1) {
                answer.set("embedding", vector(texts.get(0)));
            } else {
                texts.forEach(text -> answer.withArray("embedding").add(vector(text)));
            }
        } else {
            return new Answer(404, "{\"error\":{\"message\":\"no such path " + path + "\"}}");
        }
        return new Answer(200, JsJson.compact(answer));
    }
}
