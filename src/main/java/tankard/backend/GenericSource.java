package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.json.Js;
import tankard.json.JsJson;

/**
 * A source of ST's generic OpenAI-compatible path (st-backends.md §2.4): the shared request body and parameters,
 * plus what the source adds in its own branch ({@link Quirk}).
 */
class GenericSource extends SiteSource {
    /** What one source's branch of the generic path does to the body, parameters and headers. */
    @FunctionalInterface
    interface Quirk {
        void apply(Call call);

        /** Runs on the finished upstream body (the custom source's excluded keys). */
        default void finish(ObjectNode body, ObjectNode requestBody) {
        }
    }

    /** One generate call being built: the frontend's body (changed in place, as ST does), the source's params. */
    record Call(ObjectNode body, ObjectNode params, MultiMap headers, boolean textCompletion) {
    }

    private final Quirk quirk;

    GenericSource(Site site, Quirk quirk) {
        super(site);
        this.quirk = quirk;
    }

    @Override
    public UpstreamRequest generate(ObjectNode body, SecretReader secrets) {
        boolean textCompletion = OpenAiCompatible.isTextCompletion(body);
        Call call = new Call(body, JsJson.object(), site.headers().apply(body), textCompletion);
        quirk.apply(call);
        String url = site.base(body);
        JsonNode key = site.key(body, secrets);
        site.requireKey(body, key);
        OpenAiCompatible.addCommonParams(body, call.params(), textCompletion, id());
        ObjectNode requestBody = OpenAiCompatible.requestBody(body, call.params(), textCompletion);
        quirk.finish(body, requestBody);
        // OpenRouter takes a prompt on its chat endpoint too
        boolean completionsEndpoint = textCompletion && !"openrouter".equals(id());
        return OpenAiCompatible.completion(url, Js.string(key), call.headers(), requestBody, completionsEndpoint);
    }
}
