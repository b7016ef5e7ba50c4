package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import tankard.config.TankardConfig;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.JsJson;
import tankard.json.Js;
import tankard.secrets.SecretStore;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code /api/backends/chat-completions/status} and {@code /generate} (st-backends.md §2): the frontend's body
 * goes to the chosen source, which builds the upstream call; the answer comes back in ST's shapes, streams
 * relayed as they arrive. Unknown sources answer 400 as ST does.
 */
public final class ChatCompletionsFeature implements Feature {
    private static final String BASE = "/api/backends/chat-completions";

    private final TankardConfig config;
    private final SecretStore secrets;
    private final UpstreamClient upstream;
    private final Map<String, ChatCompletionSource> sources;
    private final ChatPrompts prompts;
    private final MultimodalModels multimodal;

    public ChatCompletionsFeature(TankardConfig config, SecretStore secrets, UpstreamClient upstream) {
        this(config, secrets, upstream, sources(config, upstream));
    }

    /** ST's sources: the OpenAI-shaped ones of the registry, and the native senders. */
    static List<ChatCompletionSource> sources(TankardConfig config, UpstreamClient upstream) {
        List<ChatCompletionSource> all = new ArrayList<>(ChatCompletionSources.all(converters(config),
                config.backends().chat()));
        String placeholder = config.backends().promptPlaceholder();
        TankardConfig.ChatSettings chat = config.backends().chat();
        all.addAll(List.of(new ClaudeSource(ClaudeSource.Settings.of(chat), placeholder),
                GoogleSource.aiStudio(chat.geminiApiVersion()),
                GoogleSource.vertex(upstream),
                new CohereSource(placeholder)));
        return all;
    }

    static PromptConverters converters(TankardConfig config) {
        return new PromptConverters(config.backends().promptPlaceholder());
    }

    ChatCompletionsFeature(TankardConfig config, SecretStore secrets, UpstreamClient upstream,
                           List<ChatCompletionSource> sources) {
        this.config = config;
        this.prompts = new ChatPrompts(converters(config));
        this.multimodal = new MultimodalModels(secrets, upstream);
        this.secrets = secrets;
        this.upstream = upstream;
        this.sources = Map.copyOf(sources.stream()
                .collect(Collectors.toMap(ChatCompletionSource::id, Function.identity())));
    }

    @Override
    public void mount(Router router, Routes routes) {
        router.post(BASE + "/status").handler(routes.answering(request -> call(request,
                ChatCompletionSource::models, this::status)));
        router.post(BASE + "/generate").handler(routes.answering(request -> call(request,
                (source, body, reader) -> source.generate(prompts.preprocess(body), reader), this::generate)));
        router.post(BASE + "/multimodal-models/:source").handler(routes.answering(multimodal::answer));
        router.post(BASE + "/process").handler(routes.blocking(request -> prompts.process(request.body())));
    }

    @FunctionalInterface
    private interface CallBuilder {
        UpstreamRequest build(ChatCompletionSource source, ObjectNode body, SecretReader secrets);
    }

    @FunctionalInterface
    private interface Answer {
        void send(RoutingContext ctx, ChatCompletionSource source, ObjectNode body, UpstreamRequest call);
    }

    /** Builds the upstream call on a worker (the body may be large, secrets are read from disk), then answers. */
    private void call(Request request, CallBuilder builder, Answer answer) {
        RoutingContext ctx = request.ctx();
        Proxying.worker(ctx, () -> {
            JsonNode parsed = request.body();
            ObjectNode body = parsed.isObject() ? (ObjectNode) parsed : JsJson.object();
            ChatCompletionSource source = sources.get(Js.string(body.get("chat_completion_source")));
            UpstreamRequest call = source == null ? null
                    : builder.build(source, body, (key, id) -> secrets.read(request.dirs(), key, id));
            return new Prepared(source, body, call);
        }).onSuccess(prepared -> {
            if (prepared.call() == null) {
                Reply.json(400, DedicatedSenders.errorTrue()).writeTo(ctx.response());
            } else {
                answer.send(ctx, prepared.source(), prepared.body(), prepared.call());
            }
        }).onFailure(e -> {
            if (e instanceof Proxying.Answered) {
                Proxying.fail(ctx.response(), e, null);
            } else {
                ctx.fail(e);
            }
        });
    }

    private record Prepared(ChatCompletionSource source, ObjectNode body, UpstreamRequest call) {
    }

    /** The source's status answer; its {@code statusFailure} when the check fails (ST answers 200). */
    private void status(RoutingContext ctx, ChatCompletionSource source, ObjectNode body, UpstreamRequest call) {
        HttpServerResponse response = ctx.response();
        ChatCompletionSource.StatusCalls calls = new ChatCompletionSource.StatusCalls() {
            @Override
            public Future<UpstreamClient.Fetched> fetch(UpstreamRequest request) {
                return upstream.fetch(request, response);
            }

            @Override
            public <T> Future<T> worker(Callable<T> work) {
                return Proxying.worker(ctx, work);
            }
        };
        source.status(body, call, calls)
                .onSuccess(reply -> reply.writeTo(response))
                .onFailure(e -> Proxying.fail(response, e, Reply.json(source.statusFailure())));
    }

    static JsonNode models(HttpClientResponse from, Buffer bytes) {
        if (!UpstreamClient.isOk(from)) {
            return JsJson.object().put("error", true).set("data", JsJson.object().set("data", JsJson.array()));
        }
        return JsJson.parse(bytes.getBytes());
    }

    /** A completion: streamed straight through, or the upstream JSON; ST's error shapes otherwise (§2.4). */
    private void generate(RoutingContext ctx, ChatCompletionSource source, ObjectNode body, UpstreamRequest call) {
        HttpServerResponse response = ctx.response();
        boolean stream = Js.truthy(body.get("stream"));
        upstream.send(call, response).onSuccess(from -> {
            if (stream) {
                UpstreamClient.relay(from, response);
            } else {
                from.body().compose(bytes -> Proxying.worker(ctx, () -> source.completion(from, bytes)))
                        .onSuccess(reply -> reply.writeTo(response))
                        .onFailure(e -> Proxying.fail(response, e, source.failure(e)));
            }
        }).onFailure(e -> Proxying.fail(response, e, source.failure(e)));
    }

    static Reply completion(HttpClientResponse from, Buffer bytes) {
        if (UpstreamClient.isOk(from)) {
            JsonNode json = JsJson.tryParse(bytes.getBytes());
            if (json == null) {
                return Reply.json(502, CompletionErrors.message("The backend sent an answer that is not JSON"));
            }
            return Reply.json(json);
        }
        JsonNode error = JsJson.tryParse(bytes.getBytes());
        boolean quotaError = from.statusCode() == 429 && error != null
                && "insufficient_quota".equals(error.path("error").path("type").asText(null));
        String reason = from.statusMessage();
        ObjectNode answer = CompletionErrors.message(reason == null || reason.isEmpty() ? "Unknown error occurred" : reason);
        return Reply.json(answer.put("quota_error", quotaError));
    }

    /** 502 with the failure's message, as ST answers an exception before anything was sent. */
    static Reply networkError(Throwable failure) {
        String message = failure.getMessage() == null ? "Unknown error occurred" : failure.getMessage();
        ObjectNode answer = CompletionErrors.message(message);
        if (failure instanceof OutboundPolicy.Refused) {
            ((ObjectNode) answer.get("error")).put("type", "system"); // node-fetch's FetchError, spread by ST
        }
        return Reply.json(502, answer);
    }

}
