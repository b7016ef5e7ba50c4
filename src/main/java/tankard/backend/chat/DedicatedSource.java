package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.backend.common.SecretReader;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;

import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One of ST's dedicated senders for an OpenAI-shaped API (sendMistralAIRequest, sendDeepSeekRequest, sendXaiRequest,
 * sendAimlapiRequest, sendElectronHubRequest, sendChutesRequest, sendMinimaxRequest and sendAI21Request of
 * src/endpoints/backends/chat-completions.js): its own body fields in its own order, the parameters it adds over
 * them, its message conversion, and the dedicated senders' error shapes.
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
    public SourceStep generate(ObjectNode body, SecretReader secrets) {
        JsonNode key = site.key(body, secrets);
        if (!Js.truthy(key) && !(keyOptionalWithProxy && Js.truthy(body.get("reverse_proxy")))) {
            return SourceStep.badRequest();
        }
        ObjectNode params = JsJson.object();
        prepare.accept(body, params);
        ObjectNode requestBody = fields.apply(body).spread(params).toJson();
        MultiMap headers = site.headers().apply(body);
        return new SourceStep.Call(OpenAiCompatible.completion(site.base(body), Js.string(key), headers, requestBody,
                false));
    }

    @Override
    public JsonAnswer completion(UpstreamClient.Fetched answer) {
        return CompletionErrors.DEDICATED.completion(answer);
    }

    @Override
    public JsonAnswer failure(Throwable failure) {
        return CompletionErrors.DEDICATED.failure(failure);
    }
}
