package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;

import java.util.ArrayList;
import java.util.List;

/**
 * The speaker names the prompt converters prefix (ST's getPromptNames, src/prompt-converters.js): the character's,
 * the user's and, in group chats, every member's.
 */
record PromptNames(String charName, String userName, List<String> groupNames) {
    static PromptNames of(ObjectNode body) {
        List<String> groups = new ArrayList<>();
        body.path("group_names").forEach(name -> groups.add(Js.string(name)));
        return new PromptNames(nameOf(body.get("char_name")), nameOf(body.get("user_name")),
                body.path("group_names").isArray() ? groups : List.of());
    }

    private static String nameOf(JsonNode value) {
        return Js.truthy(value) ? Js.string(value) : "";
    }

    /** Whether an assistant's text still needs the character's name in front. */
    boolean needsCharPrefix(String text) {
        return !charName.isEmpty() && !text.startsWith(charName + ": ") && !startsWithGroupName(text);
    }

    boolean needsUserPrefix(String text) {
        return !userName.isEmpty() && !text.startsWith(userName + ": ");
    }

    boolean startsWithGroupName(String text) {
        return groupNames.stream().anyMatch(name -> text.startsWith(name + ": "));
    }

    /**
     * Example dialogue ({@code example_user}/{@code example_assistant}) prefixed with the speaker it stands for,
     * unless already so; any other text unchanged.
     */
    String exampleText(String name, String text) {
        if ("example_user".equals(name) && !userName.isEmpty() && !text.startsWith(userName + ": ")) {
            return userName + ": " + text;
        }
        if ("example_assistant".equals(name) && !charName.isEmpty() && !text.startsWith(charName + ": ")
                && !startsWithGroupName(text)) {
            return charName + ": " + text;
        }
        return text;
    }

    /** {@link #exampleText} applied to a message's string content in place. */
    void prefixExample(ObjectNode message) {
        JsonNode content = message.get("content");
        if (content != null && content.isTextual()) {
            message.put("content", exampleText(Js.string(message.get("name")), content.textValue()));
        }
    }
}
