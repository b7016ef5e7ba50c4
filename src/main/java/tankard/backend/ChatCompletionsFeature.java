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
        this(config, secrets, upstream, ChatCompletionSources.all(converters(config), config.backends().chat()));
    }

    ChatCompletionsFeature(TankardConfig config, SecretStore secrets, UpstreamClient upstream,
                           List<ChatCompletionSource> sources) {
        this.config = config;
        this.prompts = new ChatPrompts(converters(config));
        this.multimodal = new MultimodalModels(secrets, upstream);
        this.secrets = secrets;
        this.upstream = upstream;
        this.sources = sources.stream().collect(Collectors.toMap(ChatCompletionSource::id, Function.identity()));
    }

    private static PromptConverters converters(TankardConfig config) {
        return new PromptConverters(config.backends().promptPlaceholder());
    }

    @Override
    public void mount(Router router) {
        router.post(BASE + "/status").handler(Routes.answering(config, request -> call(request,
                ChatCompletionSource::models, this::status)));
        router.post(BASE + "/generate").handler(Routes.answering(config, request -> call(request,
                (source, body, keys) -> source.generate(prompts.preprocess(body), keys), this::generate)));
        router.post(BASE + "/multimodal-models/:source").handler(Routes.answering(config, multimodal::answer));
        router.post(BASE + "/process").handler(Routes.blocking(config, request -> prompts.process(request.body())));
    }

    @FunctionalInterface
    private interface CallBuilder {
        UpstreamRequest build(ChatCompletionSource source, ObjectNode body, SecretReader secrets);
    }

    @FunctionalInterface
    private interface Answer {
        void send(RoutingContext ctx, Prepared prepared);
    }

    /**
     * Builds the upstream call on a worker (the body may be large, secrets are read from disk), then answers;
     * an unknown source is ST's {@code 400 {error:true}}.
     */
    private void call(Request request, CallBuilder builder, Answer answer) {
        RoutingContext ctx = request.ctx();
        ctx.vertx().executeBlocking(() -> {
            JsonNode parsed = request.body();
            ObjectNode body = parsed.isObject() ? (ObjectNode) parsed : JsJson.object();
            ChatCompletionSource source = sources.get(Js.string(body.get("chat_completion_source")));
            UpstreamRequest call = source == null ? null
                    : builder.build(source, body, (key, id) -> secrets.read(request.dirs(), key, id));
            return new Prepared(source, body, call);
        }, false).onSuccess(prepared -> {
            if (prepared.call() == null) {
                Reply.json(400, JsJson.object().put("error", true)).writeTo(ctx.response());
            } else {
                answer.send(ctx, prepared);
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

    /** The source's status answer; {@code {error:true}} on any failure (ST answers 200). */
    private void status(RoutingContext ctx, Prepared prepared) {
        HttpServerResponse response = ctx.response();
        ChatCompletionSource.StatusCalls calls = new ChatCompletionSource.StatusCalls() {
            @Override
            public Future<UpstreamClient.Fetched> fetch(UpstreamRequest call) {
                return upstream.fetch(call, response);
            }

            @Override
            public <T> Future<T> worker(Callable<T> work) {
                return Proxying.worker(ctx, work);
            }
        };
        prepared.source().status(prepared.body(), prepared.call(), calls)
                .onSuccess(reply -> reply.writeTo(response))
                .onFailure(e -> Proxying.fail(response, e, Reply.json(JsJson.object().put("error", true))));
    }

    /** A completion: streamed straight through, or the upstream JSON; the source's error shapes otherwise. */
    private void generate(RoutingContext ctx, Prepared prepared) {
        HttpServerResponse response = ctx.response();
        CompletionErrors errors = prepared.source().errors();
        upstream.send(prepared.call(), response).onSuccess(from -> {
            if (Js.truthy(prepared.body().get("stream"))) {
                UpstreamClient.relay(from, response);
            } else {
                from.body().compose(bytes -> ctx.vertx().executeBlocking(() -> completion(errors, from, bytes), false))
                        .onSuccess(reply -> reply.writeTo(response))
                        .onFailure(e -> networkError(response, errors, e));
            }
        }).onFailure(e -> networkError(response, errors, e));
    }

    private static Reply completion(CompletionErrors errors, HttpClientResponse from, Buffer bytes) {
        if (!UpstreamClient.isOk(from)) {
            return errors.rejected(from, bytes.getBytes());
        }
        JsonNode json = JsJson.tryParse(bytes.getBytes());
        return json == null ? errors.failed("The backend sent an answer that is not JSON") : Reply.json(json);
    }

    /** The source's answer to a failed call, as ST answers an exception before anything was sent. */
    private static void networkError(HttpServerResponse response, CompletionErrors errors, Throwable failure) {
        String message = failure.getMessage() == null ? "Unknown error occurred" : failure.getMessage();
        Proxying.fail(response, failure, errors.failed(message));
    }
}
