package tankard.backend.kobold;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.Router;
import tankard.backend.common.JsonFields;
import tankard.backend.common.Proxying;
import tankard.backend.common.SecretReader;
import tankard.backend.text.TextCompletionBackends;
import tankard.core.Refusal;
import tankard.http.UpstreamFailures;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.RequestOverrides;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretStore;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * {@code /api/backends/kobold/*} (ST's src/endpoints/backends/kobold.js): status and generate over KoboldAI Classic's
 * and KoboldCpp's Kobold API, whose {@code api_server} already ends in {@code /api} (no auth, only the config's
 * per-host header overrides on generate), and KoboldCpp's embeddings and transcription with its auth headers.
 */
public record KoboldClassicFeature(SecretStore secrets, UpstreamClient upstream, RequestOverrides overrides,
                                   TextCompletionBackends backends) implements Feature {
    private static final String BASE = "/api/backends/kobold";
    /** What the frontend's samplers send when it does not defer to the Kobold GUI's own settings. */
    private static final String[] SAMPLERS = {"rep_pen", "rep_pen_range", "rep_pen_slope", "temperature", "tfs",
            "top_a", "top_k", "top_p", "min_p", "typical", "sampler_order"};
    /** ST's answer when a KoboldCpp extra fails. */
    private static final Reply FAILED = Reply.text(500, "Internal server error");
    private static final String[] AFTER_SINGLELINE = {"use_default_badwordsids", "mirostat", "mirostat_eta",
            "mirostat_tau", "grammar", "sampler_seed"};
    @Override
    public void mount(Router router, Routes routes) {
        router.post(BASE + "/status").handler(routes.answering(this::status));
        router.post(BASE + "/generate").handler(routes.answering(this::generate));
        router.post(BASE + "/embed").handler(routes.answering(request -> koboldCpp(request,
                request.text("server"), "/api/extra/embeddings", () -> {
                    ObjectNode body = JsJson.object();
                    JsonFields.copyAs(request.body(), "items", body, "input");
                    return body;
                }, KoboldClassicFeature::embeddings)));
        router.post(BASE + "/transcribe-audio").handler(routes.answering(request -> koboldCpp(request,
                request.formField("server"), "/api/extra/transcribe", () -> transcription(request),
                KoboldClassicFeature::transcribed)));
    }

    /** The request's {@code api_server} with its first "localhost" made 127.0.0.1, as ST does. */
    private static String server(JsonNode body) {
        JsonNode server = body.get("api_server");
        if (server == null || !server.isTextual()) {
            throw Refusal.badRequest("No KoboldAI server URL (api_server) was given");
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
        return upstream.fetch(UpstreamRequest.get(url, MultiMap.caseInsensitiveMultiMap()), response)
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
        Reply failed = Reply.json(JsJson.object().put("error", true));
        Proxying.worker(request.ctx(), () -> generation(request.body())).onSuccess(generation ->
                Proxying.generate(upstream, request.ctx(), generation.call(), generation.stream(), generation.abort(),
                        answer -> completion(answer)::writeTo, e -> failed::writeTo))
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
        UpstreamRequest call = UpstreamRequest.post(url, headers, settings(body));
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

    // ---- KoboldCpp's extras (embeddings for the vector storage, speech to text)

    /**
     * Calls a KoboldCpp extra at {@code path} of the server's origin with KoboldCpp's auth headers, the body
     * built (null: the request lacks it, 400) and the answer read on a worker; 400 without server, ST's 500 text
     * when the call fails.
     */
    private void koboldCpp(Request request, String server, String path, Callable<JsonNode> body,
                           Function<UpstreamClient.Fetched, Reply> answer) {
        HttpServerResponse response = request.ctx().response();
        if (server == null || server.isEmpty()) {
            throw Refusal.badRequest("No KoboldCpp server URL (server) was given");
        }
        SecretReader reader = SecretReader.of(secrets, request.user().handle());
        Proxying.worker(request.ctx(), () -> {
                    String url = withPath(server, path);
                    MultiMap headers = backends.open(JsonFields.object(request.body()), reader, "koboldcpp", server)
                            .headers(false);
                    JsonNode json = body.call();
                    return json == null ? null : UpstreamRequest.post(url, headers, json);
                })
                .compose(call -> call == null ? Future.succeededFuture(Reply.status(400)) : upstream.fetch(call, response)
                        .compose(fetched -> Proxying.worker(request.ctx(), () -> answer.apply(fetched))))
                .onSuccess(reply -> Proxying.answer(response, reply::writeTo))
                .onFailure(e -> Proxying.answer(response, UpstreamFailures.reply(e, FAILED)::writeTo));
    }

    /** The URL with its path replaced (WHATWG's {@code url.pathname = path}: query kept); a bad URL fails the call. */
    private static String withPath(String server, String path) throws URISyntaxException {
        URI uri = new URI(server);
        return new URI(uri.getScheme(), uri.getRawAuthority(), null, null, null) + path
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }

    /** The embeddings in input order ({@code data} sorted by index), with the model's name. */
    private static Reply embeddings(UpstreamClient.Fetched answer) {
        JsonNode json = JsJson.tryParse(answer.body().getBytes());
        if (json == null) {
            return FAILED;
        }
        JsonNode data = json.get("data");
        if (data == null || !data.isArray()) {
            return Reply.status(500);
        }
        List<JsonNode> items = new ArrayList<>();
        data.forEach(item -> items.add(item.isArray() ? item.path(0) : item));
        items.sort(Comparator.comparingDouble(item -> {
            JsonNode index = Js.number(item.get("index"));
            return index == null ? 0 : index.asDouble();
        }));
        ObjectNode reply = JsJson.object();
        reply.set("model", Js.or(json.get("model"), JsJson.tree("unknown")));
        ArrayNode embeddings = reply.putArray("embeddings");
        items.forEach(item -> embeddings.add(Js.coalesce(item.get("embedding"), JsJson.tree(null))));
        return Reply.json(reply);
    }

    /**
     * The uploaded sound as KoboldCpp's transcription request (read from the upload's temp file, then deleted);
     * null without one.
     */
    private static JsonNode transcription(Request request) throws IOException {
        FileUpload upload = request.upload();
        if (upload == null) {
            return null;
        }
        Path file = Path.of(upload.uploadedFileName());
        try {
            return JsJson.object().put("prompt", "")
                    .put("audio_data", Base64.getEncoder().encodeToString(Files.readAllBytes(file)));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** KoboldCpp's transcription JSON; its error text as 500. */
    private static Reply transcribed(UpstreamClient.Fetched answer) {
        JsonNode json = JsJson.tryParse(answer.body().getBytes());
        if (!answer.ok()) {
            return Reply.text(500, answer.body().toString());
        }
        return json == null ? FAILED : Reply.json(json);
    }
}
