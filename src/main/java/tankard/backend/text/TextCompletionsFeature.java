package tankard.backend.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import tankard.backend.common.JsonFields;
import tankard.backend.common.Proxying;
import tankard.backend.common.SecretReader;
import tankard.backend.common.Urls;
import tankard.http.UpstreamFailures;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.OutboundPolicy;
import tankard.outbound.StreamConverter;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretStore;
import tankard.util.Hashes;

import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.function.Function;

import static tankard.backend.common.Proxying.worker;
import static tankard.backend.common.Urls.trimV1;

/**
 * {@code /api/backends/text-completions/status}, {@code /generate} and {@code /props} (ST's
 * src/endpoints/backends/text-completions.js) for every {@code api_type}: the type builds the upstream calls, these
 * routes make them and answer in ST's shapes. Streams are relayed as they arrive (Ollama's converted to SSE on the
 * way). Also mounts the model-server helpers ({@link TextCompletionToolsFeature}) and the backends' own tokenizers
 * ({@link RemoteTokenizersFeature}).
 */
public record TextCompletionsFeature(SecretStore secrets, TextCompletionBackends backends, UpstreamClient upstream)
        implements Feature {
    static final String BASE = "/api/backends/text-completions";

    @Override
    public void mount(Router router, Routes routes) {
        new TextCompletionToolsFeature(secrets, backends, upstream).mount(router, routes);
        new RemoteTokenizersFeature(secrets, backends, upstream).mount(router, routes);
        router.post(BASE + "/status").handler(routes.answering(this::status));
        router.post(BASE + "/generate").handler(routes.answering(this::generate));
        router.post(BASE + "/props").handler(routes.answering(this::props));
    }

    /** The backend of the request, opened on a worker (it reads secrets), then turned into what the route needs. */
    private <T> Future<T> open(Request request, boolean rewriteLocalhost,
                               Function<TextCompletionBackends.Backend, T> then) {
        SecretReader reader = SecretReader.of(secrets, request.user().handle());
        return worker(request.ctx(), () -> then.apply(backends.open(JsonFields.object(request.body()), reader,
                rewriteLocalhost)));
    }

    // ---- status

    private void status(Request request) {
        RoutingContext ctx = request.ctx();
        HttpServerResponse response = ctx.response();
        open(request, true, Function.identity()).compose(backend -> {
            if (backend.server() == null) {
                return Future.succeededFuture(Reply.json(400, JsJson.object() // ST crashes on it: a bare 500
                        .put("error", "No API server URL (api_server) was given")));
            }
            if (!backend.typeKnown()) {
                return Future.succeededFuture(Reply.status(400));
            }
            TextCompletionApi api = backend.api();
            String base = trimV1(backend.server());
            MultiMap headers = backend.headers(true);
            return upstream.fetch(UpstreamRequest.get(api.modelsUrl(base), headers), response).compose(models ->
                    worker(ctx, () -> modelList(api, models)).compose(status -> {
                        if (status == null) {
                            return Future.succeededFuture(Reply.status(400));
                        }
                        UpstreamRequest info = api.modelInfo(base, headers, models);
                        Future<TextCompletionApi.Status> named = info == null ? Future.succeededFuture(status)
                                : upstream.fetch(info, response)
                                .compose(answer -> worker(ctx, () -> api.withModelInfo(status, answer)))
                                .otherwise(status);
                        return named.map(done -> statusReply(response, done));
                    }));
        }).onSuccess(reply -> reply.writeTo(response))
                .onFailure(e -> Proxying.answer(response, UpstreamFailures.reply(e)::writeTo));
    }

    /** The model list as {@code {data}}, {@code result} its first id; null when the backend has none to give. */
    private static TextCompletionApi.Status modelList(TextCompletionApi api, UpstreamClient.Fetched models) {
        if (!models.ok()) {
            return null;
        }
        JsonNode data = api.models(JsJson.parse(models.body().getBytes())).path("data");
        if (!data.isArray()) {
            return null;
        }
        JsonNode first = data.isEmpty() ? null : data.get(0).get("id");
        return new TextCompletionApi.Status(Js.or(first, JsJson.tree("Valid")), data, false);
    }

    private static Reply statusReply(HttpServerResponse response, TextCompletionApi.Status status) {
        if (status.supportsTokenization()) {
            // tells the frontend the backend's own tokenizer can be used
            response.putHeader("x-supports-tokenization", "true");
        }
        ObjectNode answer = JsJson.object();
        answer.set("result", status.result());
        answer.set("data", status.data());
        return Reply.json(answer);
    }

    // ---- generate

    /**
     * One generation: the backend, why its call cannot be made (null: it can), the completion call, KoboldCpp's
     * abort call (or null).
     */
    private record Generation(TextCompletionBackends.Backend backend, String refusal, UpstreamRequest call,
                              UpstreamRequest abort) {
        static Generation of(TextCompletionBackends.Backend backend) {
            if (backend.server() == null) {
                return new Generation(backend, "No API server URL (api_server) was given", null, null);
            }
            if (!backend.typeKnown()) {
                return new Generation(backend, "Unknown API type: " + Js.string(backend.body().get("api_type")),
                        null, null);
            }
            return new Generation(backend, null, backend.completionCall(),
                    backend.api().abort(trimV1(backend.server()), backend.headers(false)));
        }

        boolean stream() {
            return Js.truthy(backend.body().get("stream"));
        }
    }

    private void generate(Request request) {
        HttpServerResponse response = request.ctx().response();
        open(request, true, Generation::of).onSuccess(generation -> {
            if (generation.refusal() != null) {
                Proxying.answer(response, errorBody("UNKNOWN", generation.refusal())::writeTo);
                return;
            }
            Runnable abort = generation.abort() == null ? () -> { } : () -> upstream.fire(generation.abort());
            upstream.send(generation.call(), response, abort)
                    .onSuccess(from -> answer(request.ctx(), generation, from))
                    .onFailure(e -> generateFailed(response, generation.call(), e));
        }).onFailure(e -> generateFailed(response, null, e));
    }

    private void answer(RoutingContext ctx, Generation generation, HttpClientResponse from) {
        HttpServerResponse response = ctx.response();
        TextCompletionApi api = generation.backend().api();
        if (generation.stream()) {
            StreamConverter converter = api.streamConverter();
            if (converter == StreamConverter.NONE) {
                UpstreamClient.relay(from, response);
            } else {
                UpstreamClient.pipe(from, response, converter);
            }
            return;
        }
        from.body().compose(bytes -> worker(ctx, () -> completion(api, new UpstreamClient.Fetched(from, bytes))))
                .onSuccess(reply -> reply.writeTo(response))
                .onFailure(e -> generateFailed(response, generation.call(), e));
    }

    /** The upstream JSON (InfermaticAI's mapped), or ST's 200 error body with the upstream status and text. */
    private static Reply completion(TextCompletionApi api, UpstreamClient.Fetched answer) {
        if (!answer.ok()) {
            return errorBody(JsJson.tree(answer.status()), answer.body().toString());
        }
        JsonNode json = JsJson.tryParse(answer.body().getBytes());
        if (json == null) {
            return errorBody("UNKNOWN", "The backend answered with something that is not JSON");
        }
        return Reply.json(api.completion(json));
    }

    /** ST answers a failed generation with 200 and the error's code and message, which the frontend shows. */
    private static void generateFailed(HttpServerResponse response, UpstreamRequest call, Throwable failure) {
        String message = failure.getMessage() == null ? "Unknown error on /generate endpoint" : failure.getMessage();
        String reason = call == null || failure instanceof UpstreamClient.UpstreamException
                || failure instanceof OutboundPolicy.Refused ? message
                : "request to " + call.url() + " failed, reason: " + message;
        Proxying.answer(response, errorBody(errorCode(failure), reason)::writeTo);
    }

    /** Node's error code for the common network failures, as node-fetch reports them. */
    private static String errorCode(Throwable failure) {
        if (failure instanceof ConnectException) {
            return "ECONNREFUSED";
        }
        if (failure instanceof UnknownHostException) {
            return "ENOTFOUND";
        }
        return "UNKNOWN";
    }

    private static Reply errorBody(String status, String response) {
        return errorBody(JsJson.tree(status), response);
    }

    private static Reply errorBody(JsonNode status, String response) {
        ObjectNode error = JsJson.object().put("error", true);
        error.set("status", status);
        return Reply.json(error.put("response", response));
    }

    // ---- props

    private void props(Request request) {
        RoutingContext ctx = request.ctx();
        HttpServerResponse response = ctx.response();
        open(request, false, Function.identity()).compose(backend -> {
            JsonNode server = backend.body().get("api_server");
            if (!Js.truthy(server)) {
                return Future.succeededFuture(Reply.status(400));
            }
            boolean llamaCpp = backend.typeKnown() && "llamacpp".equals(backend.api().type());
            JsonNode model = backend.body().get("model");
            String url = trimV1(Js.string(server)) + "/props"
                    + (llamaCpp && Js.truthy(model) ? "?model=" + Urls.encodeUriComponent(Js.string(model)) : "");
            return upstream.fetch(UpstreamRequest.get(url, backend.headers(false)), response)
                    .compose(props -> worker(ctx, () -> props(props, llamaCpp)));
        }).onSuccess(reply -> reply.writeTo(response))
                .onFailure(e -> Proxying.answer(response, UpstreamFailures.reply(e)::writeTo));
    }

    /** The props with {@code chat_template_hash} added; 400 for an error status; a template missing fails (500). */
    private static Reply props(UpstreamClient.Fetched answer, boolean llamaCpp) {
        if (!answer.ok()) {
            return Reply.status(400);
        }
        ObjectNode props = (ObjectNode) JsJson.parse(answer.body().getBytes());
        JsonNode template = props.get("chat_template");
        if (template == null || !template.isTextual()) {
            throw new IllegalStateException("The backend's props have no chat_template");
        }
        String text = template.textValue();
        if (llamaCpp && text.endsWith("\u0000")) {
            // llama.cpp's /props turns the template's last newline into a NUL
            text = text.substring(0, text.length() - 1) + "\n";
            props.put("chat_template", text);
        }
        return Reply.json(props.put("chat_template_hash", Hashes.sha256Hex(text)));
    }
}
