package tankard.group;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

/**
 * What ST's /create takes from the body (ST: src/endpoints/groups.js, router.post('/create')): the known fields,
 * others dropped, each the body's value or ST's {@code ??} default. {@code chatId} and {@code chats} are null
 * when the body has none, as their defaults come from the new id; {@code avatarUrl} and {@code fav} are null
 * when the body has none, and then left out as JSON.stringify leaves out undefined.
 */
public record NewGroup(JsonNode name, JsonNode members, JsonNode avatarUrl, boolean allowSelfResponses,
                       JsonNode activationStrategy, JsonNode generationMode, JsonNode disabledMembers, JsonNode fav,
                       JsonNode chatId, JsonNode chats, JsonNode autoModeDelay, JsonNode joinPrefix,
                       JsonNode joinSuffix) {
    public static NewGroup of(JsonNode body) {
        return new NewGroup(
                Js.coalesce(body.get("name"), JsJson.tree("New Group")),
                Js.coalesce(body.get("members"), JsJson.array()),
                present(body, "avatar_url"),
                Js.truthy(body.get("allow_self_responses")),
                Js.coalesce(body.get("activation_strategy"), JsJson.tree(0)),
                Js.coalesce(body.get("generation_mode"), JsJson.tree(0)),
                Js.coalesce(body.get("disabled_members"), JsJson.array()),
                present(body, "fav"),
                Js.coalesce(body.get("chat_id"), null),
                Js.coalesce(body.get("chats"), null),
                Js.coalesce(body.get("auto_mode_delay"), JsJson.tree(5)),
                Js.coalesce(body.get("generation_mode_join_prefix"), JsJson.tree("")),
                Js.coalesce(body.get("generation_mode_join_suffix"), JsJson.tree("")));
    }

    /** The group to store under {@code id}, its members in ST's order. */
    ObjectNode json(String id) {
        ObjectNode group = JsJson.object().put("id", id);
        group.set("name", name);
        group.set("members", members);
        setIfPresent(group, "avatar_url", avatarUrl);
        group.put("allow_self_responses", allowSelfResponses);
        group.set("activation_strategy", activationStrategy);
        group.set("generation_mode", generationMode);
        group.set("disabled_members", disabledMembers);
        setIfPresent(group, "fav", fav);
        group.set("chat_id", Js.coalesce(chatId, JsJson.tree(id)));
        group.set("chats", Js.coalesce(chats, JsJson.array().add(id)));
        group.set("auto_mode_delay", autoModeDelay);
        group.set("generation_mode_join_prefix", joinPrefix);
        group.set("generation_mode_join_suffix", joinSuffix);
        return group;
    }

    /** The body's member, JSON null included; null when the body has none. */
    private static JsonNode present(JsonNode body, String field) {
        return body.has(field) ? body.get(field) : null;
    }

    private static void setIfPresent(ObjectNode group, String field, JsonNode value) {
        if (value != null) {
            group.set(field, value);
        }
    }
}
