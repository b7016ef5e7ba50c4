package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Context;
import io.vertx.core.Future;
import tankard.backend.chat.ChatCompletionSource;
import tankard.backend.chat.ChatCompletionSources;
import tankard.backend.chat.SourceStep;
import tankard.backend.common.SecretReader;
import tankard.backend.text.TextCompletionBackends;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.StreamConverter;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretStore;

import java.util.concurrent.ExecutionException;
import java.util.function.Function;

/**
 * One non-streamed completion made in-process by Tankard itself (no browser waiting): the upstream call is built
 * by the same chat-completion sources and text-completion types as {@code /api/backends/chat-completions/generate}
 * and {@code /api/backends/text-completions/generate} build it from the same bodies, and the upstream's raw
 * answer comes back (status and bytes), so the caller can read what the proxy routes reshape away (finish reasons).
 * Blocking: call from a worker thread, never an event loop.
 */
public final class Completions {
    private final SecretStore secrets;
    private final UpstreamClient upstream;
    private final ChatCompletionSources sources;
    private final TextCompletionBackends textBackends;

    public Completions(TankardConfig config, SecretStore secrets, UpstreamClient upstream) {
        this.secrets = secrets;
        this.upstream = upstream;
        this.sources = new ChatCompletionSources(config, upstream);
        this.textBackends = new TextCompletionBackends(config.backends());
    }

    /** The upstream's whole answer: its HTTP status and body. */
    public record Answer(int status, String reason, byte[] body) {
        public boolean ok() {
            return status >= 200 && status < 300;
        }

        /** The body as JSON, or null when it is not JSON. */
        public JsonNode json() {
            return JsJson.tryParse(body);
        }
    }

    /** The backend could not be reached or did not answer whole (refused address, connection reset...). */
    public static final class Unreachable extends Exception {
        Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Whether the body names a chat-completion source Tankard has. */
    public boolean knowsSource(String source) {
        return sources.source(source) != null;
    }

    /** A chat completion for a generate body as ST's frontend sends it ({@code chat_completion_source}...). */
    public Answer chat(String user, ObjectNode body) throws Unreachable {
        return answer(await(upstream.fetch(generation(user, true, body).request())));
    }

    /** A text completion for a generate body as ST's frontend sends it ({@code api_type}, {@code api_server}...). */
    public Answer text(String user, ObjectNode body) throws Unreachable {
        TextCompletionBackends.Backend backend = textBackends.open(body, reader(user), false);
        if (backend.api() == null) {
            throw Refusal.badRequest("Unknown api_type: " + Js.string(body.get("api_type")));
        }
        if (backend.server() == null) {
            throw Refusal.badRequest("No API server URL (api_server) was given");
        }
        return answer(await(upstream.fetch(backend.completionCall())));
    }

    /**
     * A generation for the engine to relay: the upstream call the generate route would make for the body, how
     * that route relays its stream, and how it reshapes a whole answer for the frontend.
     */
    public record Generation(UpstreamRequest request, StreamConverter converter,
                             Function<UpstreamClient.Fetched, JsonNode> whole) {
    }

    /**
     * The generation a chat-completions ({@code chatCompletion}) or text-completions generate body asks for, as
     * the generate routes build it. Blocking: call from a worker thread.
     */
    public Generation generation(String user, boolean chatCompletion, ObjectNode body) throws Unreachable {
        if (chatCompletion) {
            ChatCompletionSource source = sources.source(Js.string(body.get("chat_completion_source")));
            if (source == null) {
                throw Refusal.badRequest("Unknown chat_completion_source: " + Js.string(body.get("chat_completion_source")));
            }
            SourceStep step = await(source.generate(sources.prompts().preprocess(body), reader(user)).settled());
            if (!(step instanceof SourceStep.Call call)) {
                throw Refusal.badRequest("The " + source.id() + " request cannot be made: its API key or a required "
                        + "setting (URL, proxy) is missing");
            }
            return new Generation(call.request(), StreamConverter.NONE, fetched -> source.completion(fetched).body());
        }
        TextCompletionBackends.Backend backend = textBackends.open(body, reader(user), true);
        if (backend.server() == null) {
            throw Refusal.badRequest("No API server URL (api_server) was given");
        }
        if (!backend.typeKnown()) {
            throw Refusal.badRequest("Unknown api_type: " + Js.string(body.get("api_type")));
        }
        return new Generation(backend.completionCall(), backend.streamConverter(), fetched -> {
            JsonNode json = JsJson.tryParse(fetched.body().getBytes());
            return json == null ? JsJson.object() : backend.completion(json);
        });
    }

    private SecretReader reader(String user) {
        return SecretReader.of(secrets, user);
    }

    private static Answer answer(UpstreamClient.Fetched fetched) {
        return new Answer(fetched.status(), fetched.head().statusMessage(), fetched.body().getBytes());
    }

    private static <T> T await(Future<T> result) throws Unreachable {
        if (Context.isOnEventLoopThread()) {
            throw new IllegalStateException("Completions block: call them from a worker thread");
        }
        try {
            return result.toCompletionStage().toCompletableFuture().get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new Unreachable(cause.getMessage() == null ? cause.toString() : cause.getMessage(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unreachable("Interrupted while waiting for the backend", e);
        }
    }
}
