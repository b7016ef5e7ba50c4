package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretStore;

import java.util.Base64;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import java.util.function.IntToLongFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What the image servers' and services' calls share: answers of up to {@link #MAX_ANSWER_BYTES}, the user's key,
 * waits on timers, and the parsing and encoding of image-sized bodies on a worker rather than the event loop.
 */
final class ImageCalls {
    /** A generated image, or a JSON answer carrying one in base64. */
    static final long MAX_ANSWER_BYTES = 64L << 20;

    private final Vertx vertx;
    private final ServiceCalls calls;
    private final SecretStore secrets;

    ImageCalls(Vertx vertx, ServiceCalls calls, SecretStore secrets) {
        this.vertx = vertx;
        this.calls = calls;
        this.secrets = secrets;
    }

    /** The user's key for the service; without one the request is refused (ST's 400), nothing called. */
    String key(String user, String secret, String service) {
        String key = secrets.read(user, secret);
        if (key == null || key.isEmpty()) {
            throw Refusal.badRequest("The " + service + " API key is not set");
        }
        return key;
    }

    /** Headers with the key as a bearer token. */
    /**
     * The models kept, as ST's frontend lists them: {@code [{value, text}]}, each model's {@code valueField} and
     * {@code textField} as they are (null where missing).
     */
    static ArrayNode options(JsonNode models, Predicate<JsonNode> kept, String valueField, String textField) {
        ArrayNode options = JsJson.array();
        models.forEach(model -> {
            if (kept.test(model)) {
                ObjectNode option = options.addObject();
                option.set("value", model.get(valueField));
                option.set("text", model.get(textField));
            }
        });
        return options;
    }

    static MultiMap bearer(String key) {
        return MultiMap.caseInsensitiveMultiMap().add("Authorization", "Bearer " + key);
    }

    /** The answer, which must have a 2xx status. */
    CompletionStage<UpstreamClient.Fetched> send(String service, UpstreamRequest call) {
        return calls.send(service, call, MAX_ANSWER_BYTES);
    }

    /** The answer whatever its status, for a caller that reads the status. */
    CompletionStage<UpstreamClient.Fetched> answer(String service, UpstreamRequest call) {
        return calls.answer(service, call, MAX_ANSWER_BYTES);
    }

    /**
     * As {@link #send(String, UpstreamRequest)} for a browser that waits on it: if the browser leaves first, the call
     * is reset and {@code onBrowserGone} runs (an interrupt).
     */
    CompletionStage<UpstreamClient.Fetched> send(String service, UpstreamRequest call, HttpServerResponse browser,
                                                 Runnable onBrowserGone) {
        return calls.send(service, call, MAX_ANSWER_BYTES, browser, onBrowserGone);
    }

    /** Sends a call whose answer nobody waits for (an interrupt). */
    void fire(UpstreamRequest call) {
        calls.fire(call);
    }

    /** Completes after the delay, holding no thread. */
    CompletionStage<Void> after(long millis) {
        Promise<Void> done = Promise.promise();
        vertx.setTimer(millis, id -> done.complete());
        return done.future().toCompletionStage();
    }

    /**
     * Makes {@code attempt} until it yields a value: attempt {@code n} (from 0) after {@code delayBefore(n)} ms, at
     * most {@code maxAttempts} of them; a failed attempt fails the whole, and so does {@code stopped} (the browser
     * gone) between attempts. Nothing waits on a thread meanwhile.
     */
    <T> CompletionStage<T> poll(String service, IntToLongFunction delayBefore, int maxAttempts, BooleanSupplier stopped,
                                Supplier<CompletionStage<Optional<T>>> attempt) {
        CompletableFuture<T> result = new CompletableFuture<>();
        poll(service, delayBefore, maxAttempts, stopped, attempt, 0, result);
        return result;
    }

    private <T> void poll(String service, IntToLongFunction delayBefore, int maxAttempts, BooleanSupplier stopped,
                          Supplier<CompletionStage<Optional<T>>> attempt, int n, CompletableFuture<T> result) {
        if (n >= maxAttempts) {
            result.completeExceptionally(Refusal.failed(service + " had not finished after " + maxAttempts + " checks"));
            return;
        }
        long delay = delayBefore.applyAsLong(n);
        CompletionStage<Void> waited = delay > 0 ? after(delay) : CompletableFuture.completedFuture(null);
        waited.thenCompose(v -> {
            if (stopped.getAsBoolean()) {
                throw Refusal.failed("The browser left before " + service + " finished");
            }
            return attempt.get();
        }).whenComplete((value, failure) -> {
            if (failure != null) {
                result.completeExceptionally(failure);
            } else if (value.isPresent()) {
                result.complete(value.get());
            } else {
                poll(service, delayBefore, maxAttempts, stopped, attempt, n + 1, result);
            }
        });
    }

    /** Work too heavy for the event loop (large bodies), on a worker. */
    <T> CompletionStage<T> onWorker(Callable<T> work) {
        return vertx.executeBlocking(work, false).toCompletionStage();
    }

    /** The answer's JSON, parsed on a worker. */
    CompletionStage<JsonNode> json(String service, UpstreamRequest call) {
        return send(service, call).thenCompose(answer -> onWorker(() -> ServiceCalls.json(service, answer)));
    }

    /** The answer's body in base64, encoded on a worker. */
    CompletionStage<String> base64(String service, UpstreamRequest call) {
        return send(service, call).thenCompose(answer -> base64(answer.body()));
    }

    CompletionStage<String> base64(Buffer bytes) {
        return onWorker(() -> Base64.getEncoder().encodeToString(bytes.getBytes()));
    }

    /** The base64 of an OpenAI-style answer's first image ({@code data[0].b64_json}), which it must have. */
    static String firstB64Json(String service, JsonNode answer) {
        String image = answer.path("data").path(0).path("b64_json").asText("");
        if (image.isEmpty()) {
            throw Refusal.failed(service + " answered without an image");
        }
        return image;
    }

    /** A multipart form body and the content type naming its boundary. */
    record Form(String contentType, Buffer body) {
    }

    /** Each field of the object as FormData appends {@code String(value)}. */
    static Form form(JsonNode fields) {
        String boundary = "----TankardFormBoundary" + UUID.randomUUID().toString().replace("-", "");
        Buffer body = Buffer.buffer();
        fields.fields().forEachRemaining(field -> body.appendString("--" + boundary
                + "\r\nContent-Disposition: form-data; name=\"" + formName(field.getKey()) + "\"\r\n\r\n"
                + Js.string(field.getValue()) + "\r\n"));
        return new Form("multipart/form-data; boundary=" + boundary, body.appendString("--" + boundary + "--\r\n"));
    }

    /** A field name escaped as the HTML form encoding does it. */
    private static String formName(String name) {
        return name.replace("\r", "%0D").replace("\n", "%0A").replace("\"", "%22");
    }
}
