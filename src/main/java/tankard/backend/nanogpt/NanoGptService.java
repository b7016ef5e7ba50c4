package tankard.backend.nanogpt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import tankard.backend.common.UpstreamJson;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

/**
 * NanoGPT's own API beside chat completions (ST's src/endpoints/nanogpt.js): the user's balance and subscription
 * usage, and the providers a model can be routed to. The calls hold no thread while they wait.
 */
public final class NanoGptService {
    static final String API = "https://nano-gpt.com/api";
    private static final String NAME = "NanoGPT";

    private final SecretStore secrets;
    private final UpstreamJson upstream;

    public NanoGptService(SecretStore secrets, UpstreamJson upstream) {
        this.secrets = secrets;
        this.upstream = upstream;
    }

    /**
     * {@code /credits}: the pay-as-you-go balance, and the subscription's limits and usage when one is active
     * (null otherwise, or when its request fails). Blocking (the key).
     */
    Future<JsonNode> credits(String user) {
        String key = secrets.read(user, SecretKeys.NANOGPT);
        if (key.isEmpty()) {
            throw Refusal.badRequest("NanoGPT API key not found");
        }
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("Accept", "application/json").set("x-api-key", key);
        // both at once, as ST; only the balance is needed
        Future<UpstreamJson.Answer> balance = upstream.call(
                new UpstreamRequest(HttpMethod.POST, API + "/check-balance", headers, null), NAME);
        Future<JsonNode> subscription = upstream.call(UpstreamRequest.get(API + "/subscription/v1/usage", headers), NAME)
                .map(answer -> answer.ok() ? subscription(answer.json()) : NullNode.getInstance())
                .otherwise(NullNode.getInstance());
        return balance.compose(answer -> {
            if (!answer.ok() || answer.json() == null) {
                return Future.failedFuture(Refusal.upstream("NanoGPT's balance request failed with status "
                        + answer.status()));
            }
            ObjectNode credits = JsJson.object();
            credits.set("usd_balance", number(answer.json().path("usd_balance")));
            credits.set("nano_balance", number(answer.json().path("nano_balance")));
            return subscription.map(usage -> {
                credits.set("subscription", usage);
                return (JsonNode) credits;
            });
        });
    }

    /** The subscription in ST's shape when it is active; null otherwise. */
    private static JsonNode subscription(JsonNode usage) {
        if (usage == null || !Js.truthy(usage.path("active"))) {
            return NullNode.getInstance();
        }
        ObjectNode shaped = JsJson.object().put("active", true)
                .put("state", orEmpty(usage.path("state")))
                .put("allowOverage", Js.truthy(usage.path("allowOverage")));
        shaped.putObject("period").put("currentPeriodEnd", orEmpty(usage.path("period").path("currentPeriodEnd")));
        ObjectNode limits = shaped.putObject("limits");
        for (String limit : new String[] {"weeklyInputTokens", "dailyInputTokens", "dailyImages"}) {
            limits.set(limit, number(usage.path("limits").path(limit)));
        }
        shaped.set("weekly_tokens", bucket(usage.path("weeklyInputTokens")));
        shaped.set("daily_tokens", bucket(usage.path("dailyInputTokens")));
        shaped.set("daily_images", bucket(usage.path("dailyImages")));
        return shaped;
    }

    /** One usage bucket's numbers; null when it is not an object. */
    private static JsonNode bucket(JsonNode usage) {
        if (!usage.isContainerNode()) {
            return NullNode.getInstance();
        }
        ObjectNode shaped = JsJson.object();
        for (String field : new String[] {"used", "remaining", "percentUsed", "resetAt"}) {
            shaped.set(field, number(usage.path(field)));
        }
        return shaped;
    }

    /** {@code String(x || '')}. */
    private static String orEmpty(JsonNode value) {
        return Js.truthy(value) ? Js.string(value) : "";
    }

    /** ST's parseNumber: {@code Number(x)}, 0 when that is not finite. */
    private static JsonNode number(JsonNode value) {
        JsonNode number = Js.number(value);
        double x = number == null ? Double.NaN : number.doubleValue();
        return JsJson.parse(JsJson.jsNumber(Double.isFinite(x) ? x : 0));
    }

    /** {@code /models/providers}: whether the model's provider can be chosen, and the available ones. */
    Future<JsonNode> providers(JsonNode body) {
        JsonNode model = body.get("model");
        if (!Js.truthy(model)) {
            throw Refusal.badRequest("A model is required");
        }
        String id = Js.string(model);
        if (id.equals(".") || id.equals("..")) { // encodeURIComponent leaves them, and they would leave the path
            throw Refusal.badRequest("Not a NanoGPT model id: " + id);
        }
        String url = API + "/models/" + Urls.encodeUriComponent(id) + "/providers";
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("Accept", "application/json");
        return upstream.call(UpstreamRequest.get(url, headers), NAME).map(answer -> {
            JsonNode data = answer.ok() && answer.json() != null ? answer.json() : JsJson.object();
            ArrayNode providers = JsJson.array();
            JsonNode listed = data.path("providers");
            for (JsonNode provider : listed.isArray() ? listed : JsJson.array()) {
                JsonNode name = provider.path("provider");
                if (!(provider.path("available").isBoolean() && !provider.path("available").booleanValue())
                        && Js.truthy(name)) {
                    providers.add(name);
                }
            }
            return JsJson.object().put("supportsProviderSelection", Js.truthy(data.path("supportsProviderSelection")))
                    .set("providers", providers);
        });
    }
}
