package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import tankard.http.Reply;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One of ST's dedicated senders for an OpenAI-shaped API (st-backends.md §2.5.4–2.5.8: Mistral, DeepSeek, xAI,
 * AI/ML API, Electron Hub, Chutes, MiniMax, AI21): its own body fields in its own order, the parameters it adds
 * over them, its message conversion, and the dedicated senders' error shapes.
 */
final class DedicatedSource extends SiteSource {
    private final boolean keyOptionalWithProxy;
    private final BiConsumer<ObjectNode, ObjectNode> prepare;
    private final Function<ObjectNode, JsObject> fields;

    /**
     * @param keyOptionalWithProxy whether a reverse proxy without a password still goes (DeepSeek, xAI)
     * @param prepare converts the body's messages in place and fills the parameters, in ST's order
     * @param fields  the body's fields, in ST's order; the parameters are spread over them
     */
    DedicatedSource(Site site, boolean keyOptionalWithProxy, BiConsumer<ObjectNode, ObjectNode> prepare,
                    Function<ObjectNode, JsObject> fields) {
        super(site);
        this.keyOptionalWithProxy = keyOptionalWithProxy;
        this.prepare = prepare;
        this.fields = fields;
    }

    @Override
    public UpstreamRequest generate(ObjectNode body, SecretReader secrets) {
        JsonNode key = site.key(body, secrets);
        if (!Js.truthy(key) && !(keyOptionalWithProxy && Js.truthy(body.get("reverse_proxy")))) {
            throw Site.errorTrue(400);
        }
        ObjectNode params = JsJson.object();
        prepare.accept(body, params);
        ObjectNode requestBody = fields.apply(body).spread(params).toJson();
        MultiMap headers = site.headers().apply(body);
        return OpenAiCompatible.completion(site.base(body), Js.string(key), headers, requestBody, false);
    }

    @Override
    public Reply completion(HttpClientResponse head, Buffer body) {
        return CompletionErrors.DEDICATED.completion(head, body);
    }

    @Override
    public Reply failure(Throwable failure) {
        return CompletionErrors.DEDICATED.failure(failure);
    }
}
