package tankard.backend.chat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import tankard.backend.common.JsonFields;
import tankard.backend.common.Proxying;
import tankard.backend.common.SecretReader;
import tankard.http.UpstreamFailures;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretStore;

import java.util.concurrent.Callable;

/**
 * {@code /api/backends/chat-completions/*} (ST's src/endpoints/backends/chat-completions.js): the frontend's body
 * goes to the chosen source, which builds the upstream call; the answer comes back in ST's shapes, streams
 * relayed as they arrive. Unknown sources answer 400 as ST does.
 */
public record ChatCompletionsFeature(SecretStore secrets, UpstreamClient upstream, ChatCompletionSources sources)
        implements Feature {
    private static final String BASE = "/api/backends/chat-completions";

    @Override
    public void mount(Router router, Routes routes) {
        router.post(BASE + "/status").handler(routes.answering(request -> call(request,
                ChatCompletionSource::models, this::status)));
        router.post(BASE + "/generate").handler(routes.answering(request -> call(request,
                (source, body, reader) -> source.generate(sources.prompts().preprocess(body), reader), this::generate)));
        router.post(BASE + "/multimodal-models/:source").handler(routes.answering(this::multimodalModels));
        router.post(BASE + "/process").handler(routes.blocking(request -> reply(sources.prompts().process(request.body()))));
    }

    private static Reply reply(JsonAnswer answer) {
        return Reply.json(answer.status(), answer.body());
    }

    @FunctionalInterface
    private interface StepBuilder {
        SourceStep build(ChatCompletionSource source, ObjectNode body, SecretReader secrets);
    }

    @FunctionalInterface
    private interface Answer {
        void send(RoutingContext ctx, ChatCompletionSource source, ObjectNode body, UpstreamRequest call);
    }

    /**
     * Builds the source's step on a worker (the body may be large, secrets are read from disk), then answers: with
     * ST's answer when the source has one, else by making the call.
     */
    private void call(Request request, StepBuilder builder, Answer answer) {
        RoutingContext ctx = request.ctx();
        SecretReader reader = SecretReader.of(secrets, request.user().handle());
        Proxying.worker(ctx, () -> {
            ObjectNode body = JsonFields.object(request.body());
            ChatCompletionSource source = sources.source(Js.string(body.get("chat_completion_source")));
            SourceStep step = source == null ? SourceStep.badRequest() : builder.build(source, body, reader);
            return new Prepared(source, body, step);
        }).onSuccess(prepared -> prepared.step().settled()
                .onSuccess(step -> {
                    if (step instanceof SourceStep.Call call) {
                        answer.send(ctx, prepared.source(), prepared.body(), call.request());
                    } else {
                        Proxying.answer(ctx.response(), reply(((SourceStep.Answered) step).answer())::writeTo);
                    }
                })
                .onFailure(e -> Proxying.answer(ctx.response(), reply(prepared.source().failure(e))::writeTo)))
                .onFailure(ctx::fail);
    }

    private record Prepared(ChatCompletionSource source, ObjectNode body, SourceStep step) {
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
                .onSuccess(answer -> Proxying.answer(response, reply(answer)::writeTo))
                .onFailure(e -> Proxying.answer(response, Reply.json(source.statusFailure())::writeTo));
    }

    /** A completion: streamed straight through, or the source's answer to the upstream's whole one. */
    private void generate(RoutingContext ctx, ChatCompletionSource source, ObjectNode body, UpstreamRequest call) {
        Proxying.generate(upstream, ctx, call, Js.truthy(body.get("stream")), () -> { },
                answer -> reply(source.completion(answer))::writeTo, e -> reply(source.failure(e))::writeTo);
    }

    /**
     * {@code POST /multimodal-models/{source}}: the ids of the provider's models that take images; {@code []}
     * without a key or when the provider says no, a bare 500 when the call fails.
     */
    private void multimodalModels(Request request) {
        RoutingContext ctx = request.ctx();
        String source = ctx.pathParam("source");
        if (!MultimodalModels.lists(source)) {
            ctx.next();
            return;
        }
        HttpServerResponse response = ctx.response();
        SecretReader reader = SecretReader.of(secrets, request.user().handle());
        Proxying.worker(ctx, () -> MultimodalModels.call(source, JsonFields.object(request.body()), reader))
                .compose(call -> call == null ? Future.succeededFuture(JsJson.array()) : upstream.fetch(call, response)
                        .compose(answer -> answer.ok()
                                ? Proxying.worker(ctx, () -> MultimodalModels.visionModels(source,
                                        JsJson.parse(answer.body().getBytes())))
                                : Future.succeededFuture(JsJson.array())))
                .onSuccess(models -> Proxying.answer(response, Reply.json(models)::writeTo))
                .onFailure(e -> Proxying.answer(response, UpstreamFailures.reply(e)::writeTo));
    }
}
