package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.backend.common.SecretReader;
import tankard.json.Js;
import tankard.json.JsJson;

/**
 * A source of ST's generic OpenAI-compatible path (src/endpoints/backends/chat-completions.js, the {@code /generate}
 * route's branches after the dedicated senders): the shared request body and parameters,
 * plus what the source adds in its own branch ({@link Quirk}).
 */
class GenericSource extends SiteSource {
    /** What one source's branch of the generic path does to the body, parameters and headers. */
    @FunctionalInterface
    interface Quirk {
        void apply(Draft draft);

        /** Runs on the finished upstream body (the custom source's excluded keys). */
        default void finish(ObjectNode body, ObjectNode requestBody) {
        }
    }

    /** One generate call being built: the frontend's body (changed in place, as ST does), the source's params. */
    record Draft(ObjectNode body, ObjectNode params, MultiMap headers, boolean textCompletion) {
    }

    private final Quirk quirk;

    GenericSource(Site site, Quirk quirk) {
        super(site);
        this.quirk = quirk;
    }

    @Override
    public SourceStep generate(ObjectNode body, SecretReader secrets) {
        boolean textCompletion = OpenAiCompatible.isTextCompletion(body);
        Draft draft = new Draft(body, JsJson.object(), site.headers().apply(body), textCompletion);
        quirk.apply(draft);
        String url = site.base(body);
        JsonNode key = site.key(body, secrets);
        if (site.lacksKey(body, key)) {
            return SourceStep.badRequest();
        }
        OpenAiCompatible.addCommonParams(body, draft.params(), textCompletion, id());
        ObjectNode requestBody = OpenAiCompatible.requestBody(body, draft.params(), textCompletion);
        quirk.finish(body, requestBody);
        // OpenRouter takes a prompt on its chat endpoint too
        boolean completionsEndpoint = textCompletion && !"openrouter".equals(id());
        return new SourceStep.Call(OpenAiCompatible.completion(url, Js.string(key), draft.headers(), requestBody,
                completionsEndpoint));
    }
}
