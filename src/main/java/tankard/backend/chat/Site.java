package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.vertx.core.MultiMap;
import tankard.backend.common.AttributionHeaders;
import tankard.backend.common.SecretReader;
import tankard.json.Js;
import tankard.outbound.UpstreamClient;

import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Where an OpenAI-shaped chat source lives and how it is called (its branches of the {@code /generate} and
 * {@code /status} routes in ST's src/endpoints/backends/chat-completions.js): its base URL (a reverse proxy's in
 * its place for some, with the proxy's password as key), its secret, its fixed headers, and its model list for
 * {@code /status}.
 *
 * @param url        the base URL, from the body for sources with regional or per-account endpoints
 * @param proxiable  whether the frontend's {@code reverse_proxy} replaces the base URL
 * @param modelsUrl  the base of {@code GET /models} when it is not the base URL; {@link #NO_MODELS} for none
 * @param modelsPath the path of that call under its base, {@code /models} unless the source says
 * @param modelList  the upstream's model list reshaped for the frontend
 */
record Site(String id, String secret, Function<ObjectNode, String> url, boolean proxiable,
            Function<ObjectNode, MultiMap> headers, Function<ObjectNode, String> modelsUrl, String modelsPath,
            UnaryOperator<JsonNode> modelList) {
    /** Sources ST has no model list for: status answers 400 {@code {error: true}}. */
    static final Function<ObjectNode, String> NO_MODELS = body -> null;
    static Site at(String id, String secret, String url) {
        return new Site(id, secret, body -> url, false, body -> MultiMap.caseInsensitiveMultiMap(), null, "/models",
                UnaryOperator.identity());
    }

    Site reverseProxied() {
        return new Site(id, secret, url, true, headers, modelsUrl, modelsPath, modelList);
    }

    Site url(Function<ObjectNode, String> fromBody) {
        return new Site(id, secret, fromBody, proxiable, headers, modelsUrl, modelsPath, modelList);
    }

    Site headers(Function<ObjectNode, MultiMap> fromBody) {
        return new Site(id, secret, url, proxiable, fromBody, modelsUrl, modelsPath, modelList);
    }

    Site headers(Map<String, String> fixed) {
        return headers(body -> MultiMap.caseInsensitiveMultiMap().addAll(fixed));
    }

    /** OpenRouter's and AI/ML API's attribution headers. */
    Site refererAndTitle() {
        return headers(AttributionHeaders.REFERER_AND_TITLE);
    }

    Site models(Function<ObjectNode, String> base, String path) {
        return new Site(id, secret, url, proxiable, headers, base, path, modelList);
    }

    Site models(String base) {
        return models(body -> base, modelsPath);
    }

    Site noModels() {
        return models(NO_MODELS, modelsPath);
    }

    Site modelList(UnaryOperator<JsonNode> reshape) {
        return new Site(id, secret, url, proxiable, headers, modelsUrl, modelsPath, reshape);
    }

    /** The status answer: ST's generic one, the list reshaped for the frontend when the upstream gave one. */
    JsonNode modelList(UpstreamClient.Fetched answer) {
        JsonNode list = OpenAiCompatible.modelList(answer);
        return answer.ok() ? modelList.apply(list) : list;
    }

    boolean proxied(ObjectNode body) {
        return proxiable && Js.truthy(body.get("reverse_proxy"));
    }

    /** The base URL: the reverse proxy (as WHATWG's URL writes it) or the source's own. */
    String base(ObjectNode body) {
        return proxiable ? DedicatedSenders.baseUrl(body, url.apply(body)) : url.apply(body);
    }

    /** ST's apiKey as a JavaScript value: the proxy's password with a proxy, else the secret (by {@code secret_id}). */
    JsonNode key(ObjectNode body, SecretReader secrets) {
        return proxiable ? DedicatedSenders.apiKey(body, secrets, secret)
                : TextNode.valueOf(DedicatedSenders.secret(body, secrets, secret));
    }

    /** ST's generic missing-key rule: no key and no reverse proxy, except for the custom source. */
    boolean lacksKey(ObjectNode body, JsonNode key) {
        return !Js.truthy(key) && !Js.truthy(body.get("reverse_proxy")) && !OpenAiCompatible.CUSTOM.equals(id);
    }

    /** {@code GET {base}/models} with the key as Bearer and the source's headers; 400 without either. */
    SourceStep models(ObjectNode body, SecretReader secrets) {
        if (modelsUrl == NO_MODELS) {
            return SourceStep.badRequest();
        }
        String base = proxied(body) || modelsUrl == null ? base(body) : modelsUrl.apply(body);
        JsonNode key = key(body, secrets);
        if (lacksKey(body, key)) {
            return SourceStep.badRequest();
        }
        return new SourceStep.Call(OpenAiCompatible.models(base, Js.string(key), headers.apply(body), modelsPath));
    }
}
