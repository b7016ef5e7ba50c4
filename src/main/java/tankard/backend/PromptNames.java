package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;

import java.util.ArrayList;
import java.util.List;

/** The speaker names the prompt converters prefix (ST's getPromptNames): character, user, group members. */
record PromptNames(String charName, String userName, List<String> groupNames) {
    static PromptNames of(ObjectNode body) {
        List<String> groups = new ArrayList<>();
        body.path("group_names").forEach(name -> groups.add(Js.string(name)));
        return new PromptNames(orEmpty(body.get("char_name")), orEmpty(body.get("user_name")),
                body.path("group_names").isArray() ? groups : List.of());
    }

    private static String orEmpty(JsonNode value) {
        return Js.truthy(value) ? Js.string(value) : "";
    }

    boolean startsWithGroupName(String content) {
        return groupNames.stream().anyMatch(name -> content.startsWith(name + ": "));
    }

    /** Whether an assistant line still needs the character's name in front. */
    boolean needsCharPrefix(String content) {
        return !charName.isEmpty() && !content.startsWith(charName + ": ") && !startsWithGroupName(content);
    }

    boolean needsUserPrefix(String content) {
        return !userName.isEmpty() && !content.startsWith(userName + ": ");
    }
}
