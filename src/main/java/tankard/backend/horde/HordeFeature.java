package tankard.backend.horde;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import tankard.backend.common.JsonFields;
import tankard.backend.common.Proxying;
import tankard.backend.common.Urls;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.http.UpstreamFailures;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;
import tankard.system.SystemFeature;

import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code /api/horde/*} (ST's src/endpoints/horde.js): AI Horde's text generation (an async job the frontend polls), its
 * model and worker lists (kept 60 s, shared by all users as in ST), the user's kudos, and Stable Horde's image
 * generation and captioning, which this server polls for the browser. The key is the user's
 * {@code api_key_horde} or Horde's anonymous key. When Horde cannot be reached the routes answer as ST does:
 * 500 (here with the reason as JSON), {@code {error: true}} for text generation.
 */
public final class HordeFeature implements Feature {
    private static final String BASE = "/api/horde";
    private static final String API = "https://aihorde.net/api/v2";
    private static final String MODEL_REFERENCE = "https://raw.githubusercontent.com/db0/AI-Horde-text-model-reference/main/db.json";

    private static final String ANONYMOUS_KEY = "0000000000";
    private static final String CLIENT_AGENT = "SillyTavern:" + SystemFeature.ST_VERSION + ":Cohee#1207";
    private static final long CACHE_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final int MAX_POLLS = 200;
    private static final int PROMPT_LIMIT = 5000;
    /** The samplers of Stable Horde, as ST lists them. */
    private static final String[] SAMPLERS = {"lcm", "k_lms", "k_heun", "k_euler_a", "k_euler", "k_dpm_2",
            "k_dpm_2_a", "DDIM", "PLMS", "k_dpm_fast", "k_dpm_adaptive", "k_dpmpp_2s_a", "k_dpmpp_2m", "dpmsolver",
            "k_dpmpp_sde"};

    private final SecretStore secrets;
    private final UpstreamClient upstream;
    private final long pollMillis;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    private record Cached(JsonNode value, long at) {
    }

    public HordeFeature(TankardConfig config, SecretStore secrets, UpstreamClient upstream) {
        this.secrets = secrets;
        this.upstream = upstream;
        this.pollMillis = config.backends().hordePollMillis();
    }

    @Override
    public void mount(Router router, Routes routes) {
        route(router, routes, "status", request -> send(request, get("/status/heartbeat", null))
                .map(answer -> Reply.json(JsJson.object().put("ok", answer.ok())))
                .recover(e -> whenOffline(e, JsJson.object().put("ok", false))));
        route(router, routes, "text-workers", request -> cached(request, "workers",
                () -> json(request, get("/workers?type=text", null))).recover(e -> whenOffline(e, JsJson.array())));
        route(router, routes, "text-models", request -> textModels(request).recover(e -> whenOffline(e, JsJson.array())));
        route(router, routes, "task-status", request -> json(request, get(taskPath(request), null)).map(Reply::json));
        route(router, routes, "cancel-task", request -> json(request,
                new UpstreamRequest(HttpMethod.DELETE, API + taskPath(request), headers(null), null)).map(Reply::json));
        router.post(BASE + "/generate-text").handler(routes.answering(this::generateText));
        route(router, routes, "user-info", this::userInfo);
        router.post(BASE + "/sd-samplers").handler(routes.inline(request -> Reply.json(SAMPLERS)));
        route(router, routes, "sd-models", request -> checked(request, get("/status/models", null)).map(Reply::json)
                .recover(e -> whenOffline(e, JsJson.array())));
        route(router, routes, "caption-image", this::captionImage);
        route(router, routes, "generate-image", this::generateImage);
    }

    /**
     * A route answering with the future's reply; a failure is answered as ST does (500), with its reason, but a
     * Horde that cannot be reached is a 502.
     */
    private void route(Router router, Routes routes, String path, Function<Request, Future<Reply>> action) {
        router.post(BASE + "/" + path).handler(routes.answering(request -> {
            HttpServerResponse response = request.ctx().response();
            action.apply(request).onSuccess(reply -> reply.writeTo(response))
                    .onFailure(e -> Proxying.answer(response, unreachable(e)::writeTo));
        }));
    }

    /**
     * The frontend's boot-time probes (status, model and worker lists) when Horde cannot be reached at all (no
     * network): "not ok" and empty lists, which the frontend shows as Horde being offline. ST answers 500 there,
     * and its frontend then fails on the list ({@code .sort is not a function}). Horde's own errors stay 500s.
     */
    private static Future<Reply> whenOffline(Throwable failure, JsonNode answer) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConnectException || cause instanceof UnknownHostException) {
                return Future.succeededFuture(Reply.json(answer));
            }
        }
        return Future.failedFuture(failure);
    }

    private static Reply unreachable(Throwable failure) {
        ObjectNode error = JsJson.object();
        error.putObject("error").put("message", "AI Horde: " + failure.getMessage());
        return Reply.json(UpstreamFailures.unreachable(failure) ? 502 : 500, error);
    }

    // ---- calls

    /** Horde's headers: its client agent, JSON, and the key when the call is made for a user. */
    private static MultiMap headers(String key) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("Client-Agent", CLIENT_AGENT)
                .set("Content-Type", "application/json");
        if (key != null) {
            headers.set("apikey", key);
        }
        return headers;
    }

    private UpstreamRequest get(String path, String key) {
        return UpstreamRequest.get(API + path, headers(key));
    }

    private UpstreamRequest post(String path, String key, JsonNode body) {
        return UpstreamRequest.post(API + path, headers(key), body);
    }

    private Future<UpstreamClient.Fetched> send(Request request, UpstreamRequest call) {
        return upstream.fetch(call, request.ctx().response());
    }

    /** The answer's JSON whatever its status (ST's fetch-then-json routes). */
    private Future<JsonNode> json(Request request, UpstreamRequest call) {
        return send(request, call).compose(answer -> Proxying.worker(request.ctx(),
                () -> JsJson.parse(answer.body().getBytes())));
    }

    /** The answer's JSON, a non-2xx answer failing with Horde's message (ST's Horde client library). */
    private Future<JsonNode> checked(Request request, UpstreamRequest call) {
        return send(request, call).compose(answer -> Proxying.worker(request.ctx(), () -> {
            JsonNode json = JsJson.tryParse(answer.body().getBytes());
            if (!answer.ok()) {
                JsonNode message = json == null ? null : json.get("message");
                throw new IllegalStateException(message == null ? "HTTP " + answer.head().statusCode()
                        : Js.string(message));
            }
            if (json == null) {
                throw new IllegalStateException("an answer that is not JSON");
            }
            return json;
        }));
    }

    /** The user's Horde key, read on a worker; null when there is none. */
    private Future<String> key(Request request) {
        return Proxying.worker(request.ctx(), () -> {
            String key = secrets.read(request.user().handle(), SecretKeys.HORDE);
            return key.isEmpty() ? null : key;
        });
    }

    private Future<String> keyOrAnonymous(Request request) {
        return key(request).map(key -> key == null ? ANONYMOUS_KEY : key);
    }

    private static String taskPath(Request request) {
        JsonNode id = request.body().get("taskId");
        if (!Js.truthy(id)) {
            throw Refusal.badRequest("No Horde task id (taskId) was given");
        }
        return "/generate/text/status/" + Urls.encodeUriComponent(Js.string(id));
    }

    // ---- lists

    /** The list as last fetched within a minute (for every user, as in ST), unless the request forces a refresh. */
    private Future<Reply> cached(Request request, String name, Supplier<Future<JsonNode>> fetch) {
        Cached hit = cache.get(name);
        if (hit != null && System.nanoTime() - hit.at() < CACHE_NANOS && !Js.truthy(request.body().get("force"))) {
            return Future.succeededFuture(Reply.json(hit.value()));
        }
        return fetch.get().map(value -> {
            cache.put(name, new Cached(value, System.nanoTime()));
            return Reply.json(value);
        });
    }

    private Future<Reply> textModels(Request request) {
        return cached(request, "models", () -> json(request, get("/status/models?type=text", null))
                .compose(models -> send(request, UpstreamRequest.get(MODEL_REFERENCE, MultiMap.caseInsensitiveMultiMap()))
                        .compose(reference -> Proxying.worker(request.ctx(), () -> withMetadata(models, reference)))
                        // the models go without their metadata when the reference cannot be had
                        .otherwise(models)));
    }

    /** Each model with its metadata from the model reference and whether it has any ({@code is_whitelisted}). */
    private static JsonNode withMetadata(JsonNode models, UpstreamClient.Fetched reference) {
        JsonNode metadata = JsJson.parse(reference.body().getBytes());
        if (!models.isArray()) {
            return models;
        }
        ArrayNode merged = JsJson.array();
        for (JsonNode model : models) {
            ObjectNode entry = model.isObject() ? ((ObjectNode) model).deepCopy() : JsJson.object();
            JsonNode known = metadata.get(Js.string(model.get("name")));
            if (Js.truthy(known) && known.isObject()) {
                entry.setAll((ObjectNode) known);
            }
            merged.add(entry.put("is_whitelisted", Js.truthy(known)));
        }
        return merged;
    }

    // ---- text generation

    private void generateText(Request request) {
        HttpServerResponse response = request.ctx().response();
        // the prompt body is parsed and laid out again on a worker: it can be as long as the context
        keyOrAnonymous(request)
                .compose(key -> Proxying.worker(request.ctx(), () -> post("/generate/text/async", key, request.body())))
                .compose(call -> send(request, call))
                .compose(answer -> Proxying.worker(request.ctx(), () -> {
                    if (!answer.ok()) {
                        ObjectNode error = JsJson.object();
                        error.putObject("error").put("message", answer.body().toString());
                        return Reply.json(error);
                    }
                    return Reply.json(JsJson.parse(answer.body().getBytes()));
                }))
                .onSuccess(reply -> reply.writeTo(response))
                .onFailure(e -> Proxying.answer(response, Reply.json(JsJson.object().put("error", true))::writeTo));
    }

    // ---- user

    private Future<Reply> userInfo(Request request) {
        return key(request).compose(key -> {
            if (key == null) {
                return Future.succeededFuture(Reply.json(JsJson.object().put("anonymous", true)));
            }
            Future<JsonNode> sharedKey = checked(request, get("/sharedkeys/" + Urls.encodeUriComponent(key), null))
                    .otherwise(JsJson.tree(null));
            return sharedKey.compose(shared -> checked(request, get("/find_user", key)).map(user -> {
                ObjectNode info = JsJson.object();
                info.set("user", user);
                info.set("sharedKey", shared);
                return Reply.json(info.put("anonymous", false));
            }));
        });
    }

    // ---- images

    private Future<Reply> captionImage(Request request) {
        // the body carries the image: parsed and laid out on a worker
        return keyOrAnonymous(request).compose(key -> Proxying.worker(request.ctx(), () -> {
                    ObjectNode job = JsJson.object();
                    job.set("source_image", request.body().get("image"));
                    job.putArray("forms").addObject().put("name", "caption");
                    return post("/interrogate/async", key, job);
                }))
                .compose(call -> checked(request, call))
                .compose(started -> {
                    if (!Js.truthy(started.get("id"))) {
                        return Future.succeededFuture(Reply.status(400));
                    }
                    String id = Urls.encodeUriComponent(Js.string(started.get("id")));
                    return poll(request, 0, () -> { }, () -> checked(request, get("/interrogate/status/" + id, null))
                            .map(HordeFeature::caption));
                });
    }

    /** The caption of a finished interrogation, an error status for a failed one, null while it runs. */
    private static Reply caption(JsonNode status) {
        String state = Js.string(status.get("state"));
        if ("done".equals(state)) {
            JsonNode forms = status.get("forms");
            if (forms == null) {
                return Reply.status(500);
            }
            JsonNode caption = Js.get(forms.path(0), "result.caption");
            if (!Js.truthy(caption)) {
                return Reply.status(500);
            }
            ObjectNode answer = JsJson.object();
            answer.set("caption", caption);
            return Reply.json(answer);
        }
        return "faulted".equals(state) || "cancelled".equals(state) ? Reply.status(503) : null;
    }

    private Future<Reply> generateImage(Request request) {
        JsonNode body = request.body();
        if (!Js.truthy(body.get("prompt"))) {
            return Future.succeededFuture(Reply.status(400));
        }
        JsonNode job = imageJob(body);
        return keyOrAnonymous(request).compose(key -> checked(request, post("/generate/async", key, job)))
                .compose(started -> {
                    if (!Js.truthy(started.get("id"))) {
                        return Future.succeededFuture(Reply.status(400));
                    }
                    String id = Urls.encodeUriComponent(Js.string(started.get("id")));
                    // the job is deleted when the browser gives up on it
                    Runnable cancel = () -> upstream.fire(new UpstreamRequest(HttpMethod.DELETE,
                            API + "/generate/status/" + id, headers(null), null));
                    return poll(request, 0, cancel, () -> checked(request, get("/generate/check/" + id, null))
                            .compose(check -> {
                                if (Js.truthy(check.get("done"))) {
                                    return checked(request, get("/generate/status/" + id, null)).map(HordeFeature::image);
                                }
                                return Future.succeededFuture(Js.truthy(check.get("faulted")) ? Reply.status(500) : null);
                            }));
                });
    }

    /** The first image of a finished job, as the bare base64 string ST sends. */
    private static Reply image(JsonNode status) {
        JsonNode generations = status.get("generations");
        if (generations == null) {
            return Reply.status(500);
        }
        return Reply.text(Js.string(Js.get(generations.path(0), "img")));
    }

    /** Stable Horde's job for the frontend's image request: prompt and negative prompt within Horde's limit. */
    static JsonNode imageJob(JsonNode body) {
        String negative = Js.string(body.get("negative_prompt"));
        String prompt = Js.string(body.get("prompt"));
        int maxLength = Math.max(0, PROMPT_LIMIT - negative.length() - 5);
        if (prompt.length() > maxLength) {
            prompt = prompt.substring(0, maxLength);
        }
        if (Js.truthy(body.get("sanitize"))) {
            prompt = HordePrompts.sanitize(prompt);
        }
        ObjectNode job = JsJson.object().put("prompt", prompt + " ### " + negative);
        ObjectNode params = job.putObject("params");
        JsonFields.copyAs(body, "sampler", params, "sampler_name");
        JsonFields.copyAs(body, "enable_hr", params, "hires_fix");
        JsonFields.copyAs(body, "restore_faces", params, "use_gfpgan");
        JsonFields.copyAs(body, "scale", params, "cfg_scale");
        JsonFields.copy(body, params, "steps", "width", "height");
        params.put("karras", Js.truthy(body.get("karras")));
        JsonFields.copy(body, params, "clip_skip");
        JsonNode seed = body.get("seed");
        if (JsonFields.number(seed) >= 0) {
            params.put("seed", Js.string(seed));
        }
        params.put("n", 1);
        job.put("r2", false);
        JsonFields.copyAs(body, "nfsw", job, "nsfw");
        job.putArray("models").add(Js.coalesce(body.get("model"), JsJson.tree(null)));
        return job;
    }

    /**
     * Checks a Horde job every few seconds until {@code step} has a reply (null: not yet), as ST does; 504 after
     * {@value #MAX_POLLS} checks. Stops, running {@code onGone}, once the browser has left.
     */
    private Future<Reply> poll(Request request, int attempt, Runnable onGone, Supplier<Future<Reply>> step) {
        RoutingContext ctx = request.ctx();
        if (attempt == MAX_POLLS) {
            return Future.succeededFuture(Reply.status(504));
        }
        Promise<Void> waited = Promise.promise();
        ctx.vertx().setTimer(pollMillis, id -> waited.complete());
        return waited.future().compose(v -> {
            if (ctx.response().closed()) {
                onGone.run();
                return Future.failedFuture("The browser left");
            }
            return step.get();
        }).compose(reply -> reply != null ? Future.succeededFuture(reply) : poll(request, attempt + 1, onGone, step));
    }
}
