package tankard.extras;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import com.fasterxml.jackson.databind.node.ArrayNode;
import tankard.caption.LocalCaptioner;
import tankard.classify.Classifier;
import tankard.classify.Score;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.summarize.SummaryQueue;
import tankard.summarize.SummaryUnavailableException;
import tankard.json.JsJson;
import tankard.vector.local.LocalEmbeddings;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Tankard's SillyTavern-Extras-compatible module server, on its own port so that ST's
 * "Extras API URL" can point at it: {@code GET /api/modules}, {@code POST /api/summarize},
 * {@code POST /api/embeddings/compute}, {@code POST /api/classify}, {@code GET /api/classify/labels} and {@code POST /api/caption}, CORS open to all origins and, with {@code --secure}, a Bearer API key, as
 * Extras has them. Errors are JSON {@code {error}}.
 */
public final class ExtrasServer {
    private static final Logger LOG = LoggerFactory.getLogger(ExtrasServer.class);
    /** Route prefixes of the Extras modules Tankard does not host: Extras answers 403 for a disabled module. */
    private static final Map<String, String> OTHER_MODULES = Map.of(
            "/api/classify", "classify",
            "/api/caption", "caption",
            "/api/image", "sd",
            "/api/tts", "silero-tts",
            "/api/edge-tts", "edge-tts",
            "/api/text-to-speech/coqui", "coqui-tts",
            "/api/embeddings", "embeddings");

    private final TankardConfig config;
    private final String apiKey;
    private final SummaryQueue summaries;
    private final LocalEmbeddings embeddings;
    private final Classifier classifier;
    private final LocalCaptioner captioner;

    /**
     * @param apiKey     the key every request must carry, or null for none (Extras without {@code --secure})
     * @param summaries  the summarization model's queue, or null when no model is loaded
     * @param embeddings the embedding model, or null when the {@code embeddings} module is off
     * @param classifier the emotion classifier, or null when the {@code classify} module is off
     * @param captioner  the local image captioner, or null when the {@code caption} module is off
     */
    public ExtrasServer(TankardConfig config, String apiKey, SummaryQueue summaries, LocalEmbeddings embeddings,
                        Classifier classifier, LocalCaptioner captioner) {
        this.config = config;
        this.apiKey = apiKey;
        this.summaries = summaries;
        this.embeddings = embeddings;
        this.classifier = classifier;
        this.captioner = captioner;
    }

    /** Starts listening with {@code options}: {@code tankard.extras.port}, where Tankard listens. */
    public Future<HttpServer> listen(Vertx vertx, HttpServerOptions options) {
        return vertx.createHttpServer(options)
                .requestHandler(router(vertx))
                .listen()
                .onSuccess(server -> LOG.info("Extras modules {} on port {}", config.extras().modules(),
                        server.actualPort()));
    }

    private Router router(Vertx vertx) {
        Router router = Router.router(vertx);
        router.route().failureHandler(ctx -> {
            // never an HTML page or a stack trace
            int status = ctx.statusCode() > 0 ? ctx.statusCode() : 500;
            if (status == 413) { // from the body limit
                String path = ctx.request().path();
                String task = path.startsWith("/api/embeddings") ? "text to embed"
                        : path.startsWith("/api/classify") ? "text to classify"
                        : path.startsWith("/api/caption") ? "image to caption" : "text to summarize";
                error(ctx, status, "The " + task + " is too long: at most " + config.extras().maxTextMegabytes()
                        + " MB (tankard.extras.maxTextMegabytes)");
                return;
            }
            if (ctx.failure() != null) {
                LOG.warn("Extras request {} failed", ctx.request().path(), ctx.failure());
            }
            // a server fault's message is for the log, not the client
            error(ctx, status, ctx.failure() == null || status >= 500 ? "HTTP " + status
                    : String.valueOf(ctx.failure().getMessage()));
        });
        router.route().handler(this::corsAndTiming);
        router.route().method(HttpMethod.OPTIONS).handler(ExtrasServer::preflight);
        if (apiKey != null) {
            router.route().handler(this::requireKey);
        }
        router.get("/api/modules").handler(ctx -> json(ctx, 200, JsJson.object()
                .set("modules", JsJson.MAPPER.valueToTree(config.extras().modules()))));
        router.post("/api/summarize").handler(BodyHandler.create(false).setBodyLimit(maxTextBytes()))
                .handler(this::summarize);
        if (embeddings != null) {
            router.post("/api/embeddings/compute").handler(BodyHandler.create(false).setBodyLimit(maxTextBytes()))
                    .handler(this::computeEmbeddings);
        }
        if (classifier != null) {
            router.post("/api/classify").handler(BodyHandler.create(false).setBodyLimit(maxTextBytes()))
                    .handler(this::classify);
            router.get("/api/classify/labels").handler(this::classifyLabels);
        }
        if (captioner != null) {
            router.post("/api/caption").handler(BodyHandler.create(false).setBodyLimit(maxTextBytes()))
                    .handler(this::caption);
        }
        OTHER_MODULES.forEach((prefix, module) -> {
            if (!config.extras().modules().contains(module)) {
                router.route(prefix + "*").handler(ctx -> error(ctx, 403, "Module '" + module + "' not enabled in config"));
            }
        });
        router.route().last().handler(ctx -> error(ctx, 404, "Not found: " + ctx.request().path()));
        return router;
    }

    /** Extras (flask-cors) allows every origin, and times every request in {@code X-Request-Duration} (seconds). */
    private void corsAndTiming(RoutingContext ctx) {
        long start = System.nanoTime();
        ctx.response().putHeader("Access-Control-Allow-Origin", "*");
        ctx.addHeadersEndHandler(v -> ctx.response().putHeader("X-Request-Duration",
                String.valueOf((System.nanoTime() - start) / 1e9)));
        ctx.next();
    }

    /** A CORS preflight needs no key: the browser sends none with it. */
    private static void preflight(RoutingContext ctx) {
        String requested = ctx.request().getHeader("Access-Control-Request-Headers");
        if (requested != null) {
            ctx.response().putHeader("Access-Control-Allow-Headers", requested);
        }
        ctx.response().putHeader("Access-Control-Allow-Methods", "DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT")
                .setStatusCode(200).end();
    }

    private void requireKey(RoutingContext ctx) {
        String given = ctx.request().getHeader("Authorization");
        // constant-time, as the other secrets Tankard checks: the port may listen on the network
        if (given != null && MessageDigest.isEqual(("Bearer " + apiKey).getBytes(StandardCharsets.UTF_8),
                given.getBytes(StandardCharsets.UTF_8))) {
            ctx.next();
        } else {
            error(ctx, 401, "401: Invalid API key");
        }
    }

    /** Far more text than a chat summary needs, yet a bound: summary of summaries reads all of it. */
    private long maxTextBytes() {
        return config.extras().maxTextMegabytes() * 1024L * 1024;
    }

    /** Parses the body on a worker thread: it may be megabytes. */
    private void summarize(RoutingContext ctx) {
        Buffer bytes = ctx.body().buffer();
        if (bytes == null) {
            summarize(ctx, null);
            return;
        }
        ctx.vertx().executeBlocking(() -> JsJson.tryParse(bytes.getBytes()), false)
                .onComplete(parsed -> summarize(ctx, parsed.result()));
    }

    private void summarize(RoutingContext ctx, JsonNode body) {
        if (body == null || !body.isObject()) {
            error(ctx, 400, "The body must be a JSON object: {\"text\": \"...\", \"params\": {}}");
            return;
        }
        if (!body.path("text").isTextual()) {
            error(ctx, 400, "\"text\" is required");
            return;
        }
        if (summaries == null) {
            error(ctx, 503, "no summarization model loaded");
            return;
        }
        JsonNode params = body.path("params").isObject() ? body.get("params") : JsJson.object();
        summaries.submit(body.get("text").asText(), params).whenComplete((summary, failure) ->
                ctx.vertx().runOnContext(v -> {
                    if (failure == null) {
                        json(ctx, 200, JsJson.object().put("summary", summary));
                    } else if (failure instanceof SummaryUnavailableException) { // the queue full too
                        error(ctx, 503, failure.getMessage());
                    } else {
                        LOG.warn("Summarization failed", failure);
                        error(ctx, 500, "Summarization failed: " + failure.getMessage());
                    }
                }));
    }

    /**
     * {@code {"text": "..."}} to {@code {"embedding": [...]}}, {@code {"text": ["...", ...]}} to
     * {@code {"embedding": [[...], ...]}}, unit-length vectors (SillyTavern-Extras: server.py,
     * api_embeddings_compute). The model is the {@code transformers} vector source's, behind the same queue.
     */
    private void computeEmbeddings(RoutingContext ctx) {
        Buffer bytes = ctx.body().buffer();
        ctx.vertx().executeBlocking(() -> bytes == null ? null : JsJson.tryParse(bytes.getBytes()), false)
                .onSuccess(body -> computeEmbeddings(ctx, body))
                .onFailure(ctx::fail);
    }

    private void computeEmbeddings(RoutingContext ctx, JsonNode body) {
        JsonNode text = body == null || !body.isObject() ? null : body.get("text");
        if (text == null) {
            error(ctx, 400, "\"text\" is required");
            return;
        }
        List<String> texts = new ArrayList<>();
        if (text.isTextual()) {
            texts.add(text.asText());
        } else if (text.isArray()) {
            text.forEach(element -> texts.add(element.isTextual() ? element.asText() : null));
        }
        if (texts.isEmpty() && !text.isArray() || texts.contains(null)) {
            error(ctx, 400, "\"text\" must be string or array of strings");
            return;
        }
        embeddings.embed(texts).whenComplete((vectors, failure) -> ctx.vertx().runOnContext(v -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
                if (!(cause instanceof Refusal refusal)) {
                    LOG.warn("Embedding failed", cause);
                    error(ctx, 500, "Embedding failed");
                } else {
                    error(ctx, refusal.kind() == Refusal.Kind.UNAVAILABLE ? 503 : 500, refusal.getMessage());
                }
                return;
            }
            ArrayNode all = JsJson.MAPPER.createArrayNode();
            for (float[] vector : vectors) {
                ArrayNode numbers = all.addArray();
                for (float x : vector) {
                    numbers.add(x);
                }
            }
            json(ctx, 200, JsJson.object().set("embedding", text.isTextual() ? all.get(0) : all));
        }));
    }

    /**
     * {@code {"text": "..."}} to {@code {"classification": [{label, score}, ...]}}: every label of the model,
     * highest score first (SillyTavern-Extras: server.py, api_classify and classify_text). The model is the one of
     * ST's classify routes, behind the same queue.
     */
    private void classify(RoutingContext ctx) {
        Buffer bytes = ctx.body().buffer();
        ctx.vertx().executeBlocking(() -> bytes == null ? null : JsJson.tryParse(bytes.getBytes()), false)
                .onSuccess(body -> {
                    JsonNode text = body == null || !body.isObject() ? null : body.get("text");
                    if (text == null || !text.isTextual()) {
                        error(ctx, 400, "\"text\" is required");
                        return;
                    }
                    answerClassification(ctx, text.asText(), scores -> JsJson.object()
                            .set("classification", Score.json(scores)));
                })
                .onFailure(ctx::fail);
    }

    /** {@code {"labels": [...]}}: the labels of an empty text's classification, in its order, as Extras lists them. */
    private void classifyLabels(RoutingContext ctx) {
        answerClassification(ctx, "", scores -> {
            ArrayNode labels = JsJson.MAPPER.createArrayNode();
            scores.forEach(score -> labels.add(score.label()));
            return JsJson.object().set("labels", labels);
        });
    }

    private void answerClassification(RoutingContext ctx, String text, Function<List<Score>, JsonNode> reply) {
        answer(ctx, classifier.classify(text, Integer.MAX_VALUE), reply, "Classification");
    }

    /**
     * {@code {"image": "<base64>"}} to {@code {"caption": "..."}} (SillyTavern-Extras: server.py, api_caption), on
     * the model of ST's local captioning route, behind the same queue.
     */
    private void caption(RoutingContext ctx) {
        Buffer bytes = ctx.body().buffer();
        ctx.vertx().executeBlocking(() -> bytes == null ? null : JsJson.tryParse(bytes.getBytes()), false)
                .onSuccess(body -> {
                    JsonNode image = body == null || !body.isObject() ? null : body.get("image");
                    if (image == null || !image.isTextual()) {
                        error(ctx, 400, "\"image\" is required");
                        return;
                    }
                    answer(ctx, captioner.caption(body), caption -> JsJson.object().put("caption", caption),
                            "Captioning");
                })
                .onFailure(ctx::fail);
    }

    /** The work's reply; a refusal's status and message (400, 503, else 500), another failure a plain 500. */
    private static <T> void answer(RoutingContext ctx, CompletionStage<T> work, Function<T, JsonNode> reply, String what) {
        work.whenComplete((result, failure) -> ctx.vertx().runOnContext(v -> {
            if (failure == null) {
                json(ctx, 200, reply.apply(result));
                return;
            }
            Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
            if (cause instanceof Refusal refusal) {
                error(ctx, switch (refusal.kind()) {
                    case UNAVAILABLE -> 503;
                    case BAD_REQUEST -> 400;
                    default -> 500;
                }, refusal.getMessage());
            } else {
                LOG.warn("{} failed", what, cause);
                error(ctx, 500, what + " failed");
            }
        }));
    }

    private static void error(RoutingContext ctx, int status, String message) {
        json(ctx, status, JsJson.object().put("error", message));
    }

    private static void json(RoutingContext ctx, int status, JsonNode body) {
        if (!ctx.response().ended()) {
            ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                    .end(JsJson.compact(body));
        }
    }
}
