package tankard.backend.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.Set;

/**
 * OpenRouter's text completions: a prompt sent to its chat endpoint, the provider list and quantizations
 * folded into its {@code provider} routing object.
 */
final class OpenRouterTextApi extends TextCompletionApi {
    private static final Set<String> FIELDS = Set.of("max_tokens", "temperature", "top_k", "top_p",
            "presence_penalty", "frequency_penalty", "repetition_penalty", "min_p", "top_a", "seed", "logit_bias",
            "model", "stream", "prompt", "stop", "provider", "include_reasoning");

    OpenRouterTextApi() {
        super("openrouter", AuthHeaders.REFERER_AND_BEARER, "/v1/models", "/v1/chat/completions", FIELDS);
    }

    @Override
    ObjectNode requestBody(ObjectNode body) {
        JsonNode order = body.get("provider");
        if (order != null && order.isArray() && !order.isEmpty()) {
            ObjectNode provider = JsJson.object();
            provider.set("allow_fallbacks", Js.coalesce(body.get("allow_fallbacks"), JsJson.tree(true)));
            provider.set("order", order);
            body.set("provider", provider);
        } else {
            body.remove("provider");
        }
        JsonNode quantizations = body.get("quantizations");
        if (quantizations != null && quantizations.isArray() && !quantizations.isEmpty()) {
            JsonNode provider = body.get("provider");
            ObjectNode target = provider instanceof ObjectNode object ? object : body.putObject("provider");
            target.set("quantizations", quantizations);
        }
        return super.requestBody(body);
    }
}
