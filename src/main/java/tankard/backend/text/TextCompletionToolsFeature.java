package tankard.backend.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
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

import java.util.function.Function;
import java.util.regex.Pattern;

import static tankard.backend.common.Proxying.worker;
import static tankard.backend.common.Urls.trimTrailingSlash;
import static tankard.backend.common.Urls.trimV1;

/**
 * The model-server helpers under {@code /api/backends/text-completions} (the ollama, llamacpp and tabby routers of
 * ST's src/endpoints/backends/text-completions.js): Ollama's model
 * pull and image captions, llama.cpp's props and slots, TabbyAPI's model download. Failures answer
 * {@code 500 {error:true}} as ST does; calls that cannot reach their server (offline) fail the same way.
 */
record TextCompletionToolsFeature(SecretStore secrets, TextCompletionBackends backends, UpstreamClient upstream)
        implements Feature {
    private static final String BASE = TextCompletionsFeature.BASE;
    private static final Pattern SLOT_ACTIONS = Pattern.compile("^(erase|info|restore|save)$");
    private static final Pattern DIGITS = Pattern.compile("^\\d+$");

    @Override
    public void mount(Router router, Routes routes) {
        router.post(BASE + "/ollama/download").handler(routes.answering(this::ollamaDownload));
        router.post(BASE + "/ollama/caption-image").handler(routes.answering(this::ollamaCaption));
        router.post(BASE + "/llamacpp/props").handler(routes.answering(this::llamaCppProps));
        router.post(BASE + "/llamacpp/slots").handler(routes.answering(this::llamaCppSlots));
        router.post(BASE + "/tabby/download").handler(routes.answering(this::tabbyDownload));
    }

    /** Pulls a model with {@code POST /api/pull}, waiting for the whole download; no key. */
    private void ollamaDownload(Request request) {
        call(request, body -> {
            if (!Js.truthy(body.get("name")) || !Js.truthy(body.get("api_server"))) {
                return null;
            }
            ObjectNode pull = JsJson.object();
            pull.set("name", body.get("name"));
            pull.put("stream", false);
            String server = trimTrailingSlash(Js.string(body.get("api_server")));
            return UpstreamRequest.post(server + "/api/pull", json(), pull);
        }, answer -> {
            JsJson.parse(answer.body().getBytes());
            return Reply.json(JsJson.object().put("ok", true));
        });
    }

    /** Captions an image with a vision model through {@code /api/generate}. */
    private void ollamaCaption(Request request) {
        call(request, body -> {
            if (!Js.truthy(body.get("server_url")) || !Js.truthy(body.get("model"))) {
                return null;
            }
            ObjectNode generate = JsJson.object();
            generate.set("model", body.get("model"));
            if (body.has("prompt")) {
                generate.set("prompt", body.get("prompt"));
            }
            generate.set("images", JsJson.array().add(Js.coalesce(body.get("image"), JsJson.tree(null))));
            generate.put("stream", false);
            return UpstreamRequest.post(trimV1(Js.string(body.get("server_url"))) + "/api/generate", json(), generate);
        }, answer -> {
            JsonNode caption = JsJson.parse(answer.body().getBytes()).get("response");
            if (!Js.truthy(caption)) {
                return errorTrue();
            }
            ObjectNode reply = JsJson.object();
            reply.set("caption", caption);
            return Reply.json(reply);
        });
    }

    /** llama.cpp's {@code GET /props}, passed through. */
    private void llamaCppProps(Request request) {
        call(request, body -> {
            if (!Js.truthy(body.get("server_url"))) {
                return null;
            }
            return UpstreamRequest.get(trimV1(Js.string(body.get("server_url"))) + "/props", none());
        }, TextCompletionToolsFeature::passThrough);
    }

    /** llama.cpp's slot list, or a slot saved to, restored from or erased on the server's disk. */
    private void llamaCppSlots(Request request) {
        call(request, body -> {
            JsonNode action = body.get("action");
            if (!Js.truthy(body.get("server_url")) || !SLOT_ACTIONS.matcher(Js.string(action)).matches()) {
                return null;
            }
            String base = trimV1(Js.string(body.get("server_url")));
            if ("info".equals(Js.string(action))) {
                return UpstreamRequest.get(base + "/slots", none());
            }
            String slot = Js.string(body.get("id_slot"));
            boolean erase = "erase".equals(Js.string(action));
            if (!DIGITS.matcher(slot).matches() || !erase && !Js.truthy(body.get("filename"))) {
                return null;
            }
            ObjectNode file = JsJson.object();
            if (!erase) {
                file.put("filename", Js.string(body.get("filename")));
            }
            return UpstreamRequest.post(base + "/slots/" + slot + "?action=" + Js.string(action), json(), file);
        }, TextCompletionToolsFeature::passThrough);
    }

    /**
     * Asks TabbyAPI to download a model from Hugging Face; the key must be an admin key (403 otherwise). The
     * whole body is forwarded, with the type's auth headers.
     */
    private void tabbyDownload(Request request) {
        RoutingContext ctx = request.ctx();
        HttpServerResponse response = ctx.response();
        SecretReader reader = SecretReader.of(secrets, request.user().handle());
        worker(ctx, () -> backends.open(JsonFields.object(request.body()), reader, false)).compose(backend -> {
            String base = trimTrailingSlash(Js.string(backend.body().get("api_server")));
            MultiMap headers = backend.headers(true);
            UpstreamRequest download = UpstreamRequest.post(base + "/v1/download", headers, backend.body());
            return upstream.fetch(UpstreamRequest.get(base + "/v1/auth/permission", headers), response)
                    .compose(permission -> worker(ctx, () -> permissionRefusal(permission)))
                    .compose(refusal -> refusal != null ? Future.succeededFuture(refusal)
                            : upstream.fetch(download, response).map(answer -> answer.ok()
                            ? Reply.json(JsJson.object().put("ok", true)) : errorTrue()));
        }).onSuccess(reply -> Proxying.answer(response, reply::writeTo))
                .onFailure(e -> Proxying.answer(response, UpstreamFailures.reply(e)::writeTo));
    }

    /** Why TabbyAPI's permission answer refuses a download, or null when the key is an admin key. */
    private static Reply permissionRefusal(UpstreamClient.Fetched permission) {
        if (!permission.ok()) {
            return errorTrue();
        }
        JsonNode level = JsJson.parse(permission.body().getBytes()).get("permission");
        return level == null || !"admin".equals(level.asText(null)) ? Reply.json(403, JsJson.object().put("error", true))
                : null;
    }

    /**
     * One call built from the body on a worker (null: the body lacks what it needs, 400); a non-2xx answer is
     * {@code 500 {error:true}}, a 2xx one is turned into the reply on a worker; anything thrown on the way is a
     * bare 500, as in ST.
     */
    private void call(Request request, Function<ObjectNode, UpstreamRequest> build,
                      Function<UpstreamClient.Fetched, Reply> reply) {
        RoutingContext ctx = request.ctx();
        HttpServerResponse response = ctx.response();
        worker(ctx, () -> build.apply(JsonFields.object(request.body()))).compose(call -> call == null
                        ? Future.succeededFuture(Reply.status(400))
                        : upstream.fetch(call, response).compose(answer -> answer.ok()
                        ? worker(ctx, () -> reply.apply(answer)) : Future.succeededFuture(errorTrue())))
                .onSuccess(answer -> Proxying.answer(response, answer::writeTo))
                .onFailure(e -> Proxying.answer(response, UpstreamFailures.reply(e)::writeTo));
    }

    private static Reply passThrough(UpstreamClient.Fetched answer) {
        return Reply.json(JsJson.parse(answer.body().getBytes()));
    }

    private static Reply errorTrue() {
        return Reply.json(500, JsJson.object().put("error", true));
    }

    private static MultiMap none() {
        return MultiMap.caseInsensitiveMultiMap();
    }

    private static MultiMap json() {
        return MultiMap.caseInsensitiveMultiMap().set("Content-Type", "application/json");
    }
}
