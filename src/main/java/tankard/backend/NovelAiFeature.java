package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

/**
 * {@code /api/novelai/status} and {@code /generate} (st-backends.md §3.3) with the user's NovelAI key. Kayra and
 * Erato generate on NovelAI's text host, older models on its API host; streams are relayed as they arrive.
 */
public final class NovelAiFeature implements Feature {
    private static final String BASE = "/api/novelai";
    /** Tests point the fixed NovelAI hosts at a mock with these properties. */
    static final String API_HOST_PROPERTY = "tankard.novelai.api";
    static final String TEXT_HOST_PROPERTY = "tankard.novelai.text";

    private final TankardConfig config;
    private final SecretStore secrets;
    private final UpstreamClient upstream;
    private final String apiHost;
    private final String textHost;

    public NovelAiFeature(TankardConfig config, SecretStore secrets, UpstreamClient upstream) {
        this.config = config;
        this.secrets = secrets;
        this.upstream = upstream;
        this.apiHost = System.getProperty(API_HOST_PROPERTY, "https://api.novelai.net");
        this.textHost = System.getProperty(TEXT_HOST_PROPERTY, "https://text.novelai.net");
    }

    @Override
    public void mount(Router router) {
        router.post(BASE + "/status").handler(Routes.answering(config, this::status));
        router.post(BASE + "/generate").handler(Routes.answering(config, this::generate));
    }

    /** The JSON and Bearer headers of every NovelAI call; the user's key is required. */
    private MultiMap headers(Request request) {
        String key = secrets.read(request.dirs(), SecretKeys.NOVEL);
        if (key.isEmpty()) {
            throw ApiError.badRequest("NovelAI Access Token is missing.");
        }
        return MultiMap.caseInsensitiveMultiMap().set("Content-Type", "application/json")
                .set("Authorization", "Bearer " + key);
    }

    private void status(Request request) {
        HttpServerResponse response = request.ctx().response();
        Reply failed = Reply.json(JsJson.object().put("error", true));
        Proxying.worker(request.ctx(), () -> headers(request))
                .onFailure(request.ctx()::fail)
                .onSuccess(headers -> upstream.fetch(TextCompletionApi.get(apiHost + "/user/subscription", headers),
                                response)
                        .map(answer -> answer.ok() ? JsJson.tryParse(answer.body().getBytes()) : null)
                        .onComplete(answer -> (answer.result() == null ? failed : Reply.json(answer.result()))
                                .writeTo(response)));
    }

    private void generate(Request request) {
        Proxying.worker(request.ctx(), () -> generation(request)).onFailure(request.ctx()::fail)
                .onSuccess(call -> upstream.generate(request.ctx(), call,
                        Js.truthy(request.body().get("streaming")), () -> { }, NovelAiFeature::completion,
                        Reply.json(JsJson.object().put("error", true))));
    }

    private UpstreamRequest generation(Request request) {
        MultiMap headers = headers(request);
        JsonNode body = request.body();
        JsonNode model = body.get("model");
        if (model == null || !model.isTextual()) {
            throw ApiError.badRequest("No NovelAI model was given");
        }
        String name = model.textValue();
        String host = name.contains("kayra") || name.contains("erato") ? textHost : apiHost;
        String url = host + (Js.truthy(body.get("streaming")) ? "/ai/generate-stream" : "/ai/generate");
        return new UpstreamRequest(HttpMethod.POST, url, headers,
                Buffer.buffer(JsJson.compactBytes(NovelAiSettings.body(body, name))));
    }

    /** The upstream JSON; an error as 500 with NovelAI's {@code message} (or its whole text if not JSON). */
    private static Reply completion(UpstreamClient.Fetched answer) {
        JsonNode json = JsJson.tryParse(answer.body().getBytes());
        if (!answer.ok()) {
            ObjectNode error = JsJson.object();
            ObjectNode message = error.putObject("error");
            if (json == null) {
                message.put("message", answer.body().toString());
            } else if (json.isObject() && json.has("message")) {
                message.set("message", json.get("message"));
            }
            return Reply.json(500, error);
        }
        if (json == null) {
            throw new IllegalStateException("NovelAI answered with something that is not JSON");
        }
        return Reply.json(json);
    }
}
