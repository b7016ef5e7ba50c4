package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.ApiError;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;

/**
 * {@code /api/backends/kobold/status} and {@code /generate} (st-backends.md §3.1): KoboldAI Classic and
 * KoboldCpp's Kobold API, whose {@code api_server} already ends in {@code /api}. No auth, only the config's
 * per-host header overrides on generate.
 */
public final class KoboldClassicFeature implements Feature {
    private static final String BASE = "/api/backends/kobold";
    /** What the frontend's samplers send when it does not defer to the Kobold GUI's own settings. */
    private static final String[] SAMPLERS = {"rep_pen", "rep_pen_range", "rep_pen_slope", "temperature", "tfs",
            "top_a", "top_k", "top_p", "min_p", "typical", "sampler_order"};
    private static final String[] AFTER_SINGLELINE = {"use_default_badwordsids", "mirostat", "mirostat_eta",
            "mirostat_tau", "grammar", "sampler_seed"};

    private final TankardConfig config;
    private final UpstreamClient upstream;
    private final RequestOverrides overrides;

    public KoboldClassicFeature(TankardConfig config, UpstreamClient upstream) {
        this.config = config;
        this.upstream = upstream;
        this.overrides = new RequestOverrides(config.backends().requestOverrides());
    }

    @Override
    public void mount(Router router) {
        router.post(BASE + "/status").handler(Routes.answering(config, this::status));
        router.post(BASE + "/generate").handler(Routes.answering(config, this::generate));
    }

    /** The request's {@code api_server} with its first "localhost" made 127.0.0.1, as ST does. */
    private static String server(JsonNode body) {
        JsonNode server = body.get("api_server");
        if (server == null || !server.isTextual()) {
            throw ApiError.badRequest("No KoboldAI server URL (api_server) was given");
        }
        return server.textValue().replaceFirst("localhost", "127.0.0.1");
    }

    // ---- status

    private void status(Request request) {
        String server = server(request.body());
        HttpServerResponse response = request.ctx().response();
        Future<JsonNode> united = probe(server + "/v1/info/version", response);
        Future<JsonNode> cpp = probe(server + "/extra/version", response);
        Future<JsonNode> model = probe(server + "/v1/model", response);
        Future.all(united, cpp, model).onComplete(done -> {
            ObjectNode status = JsJson.object();
            setIfPresent(status, "koboldUnitedVersion",
                    united.result() == null ? JsJson.tree("0.0.0") : result(united));
            // ST reads "result" of KoboldCpp's {result: "KoboldCpp", version}; nothing when the call failed
            setIfPresent(status, "koboldCppVersion", result(cpp));
            JsonNode modelResult = result(model);
            boolean connected = model.result() != null && !"ReadOnly".equals(Js.string(modelResult));
            setIfPresent(status, "model", connected ? modelResult : JsJson.tree("no_connection"));
            Reply.json(status).writeTo(response);
        });
    }

    /** One status GET: its JSON answer, or null when it failed, answered non-2xx or was not JSON. */
    private Future<JsonNode> probe(String url, HttpServerResponse response) {
        return upstream.fetch(TextCompletionApi.get(url, MultiMap.caseInsensitiveMultiMap()), response)
                .map(answer -> answer.ok() ? JsJson.tryParse(answer.body().getBytes()) : null)
                .otherwise((JsonNode) null);
    }

    private static void setIfPresent(ObjectNode to, String field, JsonNode value) {
        if (value != null) {
            to.set(field, value);
        }
    }

    /** The {@code result} field of a probe's answer (null: no answer or no such field). */
    private static JsonNode result(Future<JsonNode> probe) {
        JsonNode answer = probe.result();
        return answer == null ? null : answer.get("result");
    }

    // ---- generate

    private void generate(Request request) {
        Proxying.worker(request.ctx(), () -> generation(request.body())).onSuccess(generation ->
                upstream.generate(request.ctx(), generation.call(), generation.stream(), generation.abort(),
                        KoboldClassicFeature::completion, Reply.json(JsJson.object().put("error", true))))
                .onFailure(request.ctx()::fail);
    }

    /** A generation call, whether it streams, and what to do when the browser leaves before its end. */
    private record Generation(UpstreamRequest call, boolean stream, Runnable abort) {
    }

    private Generation generation(JsonNode body) {
        String server = server(body);
        boolean stream = Js.truthy(body.get("streaming"));
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("Content-Type", "application/json");
        overrides.apply(headers, server);
        String url = server + (stream ? "/extra/generate/stream" : "/v1/generate");
        UpstreamRequest call = new UpstreamRequest(HttpMethod.POST, url, headers,
                Buffer.buffer(JsJson.compactBytes(settings(body))));
        // KoboldCpp goes on generating after the connection closes unless told to stop
        Runnable abort = Js.truthy(body.get("can_abort")) ? () -> upstream.fire(new UpstreamRequest(HttpMethod.POST,
                server + "/extra/abort", MultiMap.caseInsensitiveMultiMap(), null)) : () -> { };
        return new Generation(call, stream, abort);
    }

    /** ST's settings for Kobold: the frontend's samplers unless it defers to the GUI's ({@code gui_settings}). */
    static ObjectNode settings(JsonNode body) {
        ObjectNode settings = JsJson.object();
        JsonFields.copy(body, settings, "prompt");
        settings.put("use_story", false).put("use_memory", false).put("use_authors_note", false)
                .put("use_world_info", false);
        JsonFields.copy(body, settings, "max_context_length", "max_length");
        if (Js.truthy(body.get("gui_settings"))) {
            return settings;
        }
        JsonFields.copy(body, settings, SAMPLERS);
        settings.put("singleline", Js.truthy(body.get("singleline")));
        JsonFields.copy(body, settings, AFTER_SINGLELINE);
        if (Js.truthy(body.get("stop_sequence"))) {
            settings.set("stop_sequence", body.get("stop_sequence"));
        }
        return settings;
    }

    /** The upstream JSON; an error as 400 with Kobold's {@code detail.msg} or its whole text. */
    private static Reply completion(UpstreamClient.Fetched answer) {
        String text = answer.body().toString();
        if (!answer.ok()) {
            JsonNode error = JsJson.tryParse(answer.body().getBytes());
            JsonNode detail = error == null ? null : Js.get(error, "detail.msg");
            String message = Js.truthy(detail) ? Js.string(detail) : text;
            ObjectNode reply = JsJson.object();
            reply.putObject("error").put("message", message);
            return Reply.json(400, reply);
        }
        JsonNode json = JsJson.tryParse(answer.body().getBytes());
        if (json == null) {
            throw new IllegalStateException("KoboldAI answered with something that is not JSON: " + text);
        }
        return Reply.json(json);
    }
}
