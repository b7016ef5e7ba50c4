package tankard.backend.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.backend.common.JsonFields;
import tankard.backend.common.Proxying;
import tankard.backend.common.SecretReader;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;
import tankard.outbound.UpstreamClient;
import tankard.secrets.SecretStore;

import java.util.concurrent.Callable;
import java.util.function.Function;

import static tankard.backend.common.Proxying.worker;
import static tankard.backend.common.Urls.trimTrailingSlash;
import static tankard.backend.common.Urls.trimV1;

/**
 * {@code /api/tokenizers/remote/*} (ST's src/endpoints/tokenizers.js, the {@code /remote/kobold/count} and
 * {@code /remote/textgenerationwebui/encode} routes): token counts and ids from the model server's own
 * tokenize API, ST's "API" tokenizers (the best match for KoboldAI and for the text-completion types that can
 * tokenize). Any failure (server down, error status, not JSON) answers ST's {@code 200 {error: true}}, on which
 * the frontend falls back to its estimate. Like ST, these calls carry no timeout.
 */
record RemoteTokenizersFeature(SecretStore secrets, TextCompletionBackends backends, UpstreamClient upstream)
        implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteTokenizersFeature.class);
    static final String BASE = "/api/tokenizers/remote";

    @Override
    public void mount(Router router, Routes routes) {
        router.post(BASE + "/kobold/count").handler(routes.answering(this::koboldCount));
        router.post(BASE + "/textgenerationwebui/encode").handler(routes.answering(this::textgenEncode));
    }

    /** KoboldAI's {@code {url}} is its {@code /api} base; no key and no header overrides, as in ST. */
    private void koboldCount(Request request) {
        tokenize(request, () -> {
            JsonNode body = request.body();
            String url = trimTrailingSlash(Js.string(body.get("url"))) + "/extra/tokencount";
            MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("Content-Type", "application/json");
            return UpstreamRequest.post(url, headers, JsJson.object().put("prompt", text(body)));
        }, RemoteTokenizersFeature::koboldAnswer);
    }

    /** Each type's own tokenize endpoint under {@code url} (without {@code /v1}), with the type's auth headers. */
    private void textgenEncode(Request request) {
        SecretReader reader = SecretReader.of(secrets, request.user().handle());
        tokenize(request, () -> {
            TextCompletionBackends.Backend backend = backends.open(JsonFields.object(request.body()), reader,
                    Js.string(request.body().get("url")));
            JsonNode body = backend.body();
            String base = trimV1(backend.server());
            String text = text(body);
            String model = Js.string(body.get("model"));
            JsonNode type = body.get("api_type");
            ObjectNode call = JsJson.object();
            String path = switch (type != null && type.isTextual() ? type.textValue() : "") {
                case "tabby" -> {
                    call.put("text", text).put("add_bos_token", false).put("encode_special_tokens", false);
                    yield "/v1/token/encode";
                }
                case "koboldcpp" -> {
                    call.put("prompt", text).put("special", false);
                    yield "/api/extra/tokencount";
                }
                case "llamacpp" -> {
                    call.put("model", model).put("content", text);
                    yield "/tokenize";
                }
                case "vllm" -> {
                    call.put("model", model).put("prompt", text);
                    yield "/tokenize";
                }
                case "aphrodite" -> {
                    call.put("model", model).put("prompt", text);
                    yield "/v1/tokenize";
                }
                default -> {
                    call.put("text", text);
                    yield "/v1/internal/encode";
                }
            };
            return UpstreamRequest.post(base + path, backend.headers(true), call);
        }, RemoteTokenizersFeature::textgenAnswer);
    }

    /** Builds the call on a worker (secrets, a body of any size), makes it, and maps a good answer to ST's. */
    private void tokenize(Request request, Callable<UpstreamRequest> call, Function<JsonNode, JsonNode> answer) {
        RoutingContext ctx = request.ctx();
        HttpServerResponse response = ctx.response();
        worker(ctx, call).compose(upstreamCall -> upstream.fetch(upstreamCall, response))
                .compose(fetched -> worker(ctx, () -> {
                    if (!fetched.ok()) {
                        throw new IllegalStateException("API returned error: " + fetched.head().statusCode() + " "
                                + fetched.head().statusMessage());
                    }
                    return Reply.rawJson(JsJson.stringifyAsJs(answer.apply(JsJson.parse(fetched.body().getBytes()))));
                }))
                .onSuccess(reply -> reply.writeTo(response))
                .onFailure(e -> {
                    if (e instanceof Refusal) {
                        // a malformed JSON body, which ST's body parser answers before the route
                        ctx.fail(e);
                        return;
                    }
                    LOG.warn("Remote tokenization failed: {}", e.getMessage());
                    Proxying.answer(response, Reply.json(JsJson.object().put("error", true))::writeTo);
                });
    }

    /** KoboldCpp's {@code {value, ids}} as {@code {count, ids}}; a null answer fails as in ST. */
    private static JsonNode koboldAnswer(JsonNode data) {
        if (data.isNull()) {
            throw new IllegalStateException("The tokenizer answered null");
        }
        return answer(property(data, "value"), Js.coalesce(property(data, "ids"), JsJson.array()));
    }

    /**
     * Whichever shape the backend answers: ooba's and Tabby's {@code {tokens, length}}, vLLM's
     * {@code {count, tokens}}, KoboldCpp's and Aphrodite's {@code {value, ids}}, llama.cpp's {@code {tokens}}.
     */
    private static JsonNode textgenAnswer(JsonNode data) {
        JsonNode tokens = property(data, "tokens");
        JsonNode count = Js.coalesce(property(data, "length"), Js.coalesce(property(data, "count"),
                Js.coalesce(property(data, "value"), property(tokens, "length"))));
        return answer(count, Js.coalesce(tokens, Js.coalesce(property(data, "ids"), JsJson.array())));
    }

    /** {@code {count, ids}}, without {@code count} when it is undefined (as JSON.stringify drops it). */
    private static JsonNode answer(JsonNode count, JsonNode ids) {
        ObjectNode out = JsJson.object();
        if (count != null) {
            out.set("count", count);
        }
        return out.set("ids", ids);
    }

    /** JavaScript's {@code value?.name} on a parsed JSON value, null for undefined; arrays and strings have a length. */
    private static JsonNode property(JsonNode value, String name) {
        if (value == null) {
            return null;
        }
        if (value.isObject()) {
            return value.get(name);
        }
        if (name.equals("length") && value.isArray()) {
            return IntNode.valueOf(value.size());
        }
        if (name.equals("length") && value.isTextual()) {
            return IntNode.valueOf(value.textValue().length());
        }
        return null;
    }

    /** ST's {@code String(text) || ''}: a missing text is sent as "undefined". */
    private static String text(JsonNode body) {
        return Js.string(body.get("text"));
    }
}
