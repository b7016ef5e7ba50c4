package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import tankard.backend.common.SecretReader;
import tankard.backend.common.Urls;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;

/**
 * Cloudflare Workers AI, at the body's account (400 {@code {error:true}} without one): generate goes ST's generic
 * path; status is ST's own branch, which answers differently from the generic one: an upstream error keeps the
 * upstream's status with {@code {error:true}}, a failed call or an answer that is not JSON is a 500, and only
 * {@code result}'s models are listed (with their name as id).
 */
final class WorkersAiSource extends GenericSource {
    static final String API = "https://api.cloudflare.com/client/v4/accounts";

    WorkersAiSource(Site site, Quirk quirk) {
        super(site, quirk);
    }

    /** The body's Cloudflare account id, trimmed and URL-encoded (encodeURIComponent); null when there is none. */
    static String account(ObjectNode body) {
        JsonNode id = body.get("workers_ai_account_id");
        String account = Js.truthy(id) ? Js.trim(Js.string(id)) : "";
        return account.isEmpty() ? null : Urls.encodeUriComponent(account);
    }

    @Override
    public SourceStep generate(ObjectNode body, SecretReader secrets) {
        return account(body) == null ? SourceStep.badRequest() : super.generate(body, secrets);
    }

    @Override
    public SourceStep models(ObjectNode body, SecretReader secrets) {
        return account(body) == null ? SourceStep.badRequest() : super.models(body, secrets);
    }

    @Override
    public Future<JsonAnswer> status(ObjectNode body, UpstreamRequest models, StatusCalls calls) {
        return calls.fetch(models).compose(answer -> answer.ok()
                ? calls.worker(() -> JsonAnswer.ok(JsJson.object().set("data", models(JsJson.parse(answer.body().getBytes())))))
                : Future.succeededFuture(JsonAnswer.errorTrue(answer.status())))
                .otherwise(e -> JsonAnswer.errorTrue(500));
    }

    /** ST's {@code data.result.map(model => ({...model, id: model.name}))}, or none when there is no list. */
    private static ArrayNode models(JsonNode answer) {
        ArrayNode data = JsJson.array();
        JsonNode result = answer.get("result");
        if (result == null || !result.isArray()) {
            return data;
        }
        for (JsonNode model : result) {
            ObjectNode copy = spread(model);
            JsonNode name = model.isObject() ? model.get("name") : null;
            if (name == null) {
                copy.remove("id"); // id: undefined, left out of the JSON
            } else {
                copy.set("id", name);
            }
            data.add(copy);
        }
        return data;
    }

    /** {@code {...value}}: an object's members, a string's characters or an array's items by index, else nothing. */
    private static ObjectNode spread(JsonNode value) {
        if (value.isObject()) {
            return ((ObjectNode) value).deepCopy();
        }
        ObjectNode copy = JsJson.object();
        if (value.isTextual()) {
            String text = value.textValue();
            for (int i = 0; i < text.length(); i++) {
                copy.put(Integer.toString(i), String.valueOf(text.charAt(i)));
            }
        } else if (value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                copy.set(Integer.toString(i), value.get(i));
            }
        }
        return copy;
    }
}
