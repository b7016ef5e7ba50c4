package tankard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.engine.macro.MacroEnv;
import tankard.engine.macro.Macros;
import tankard.engine.prompt.PromptInputs;
import tankard.json.Js;

import java.util.ArrayList;
import java.util.List;

/**
 * What a group chat's members bring to the prompt (ST: public/scripts/group-chats.js): their joined card fields,
 * their depth prompts and their names.
 */
final class GroupMembers {
    /** ST's group_generation_mode. */
    private static final int SWAP = 0;
    private static final int APPEND_DISABLED = 2;
    /** ST's depth_prompt_depth_default (public/script.js). */
    private static final int DEPTH_PROMPT_DEPTH = 4;

    private GroupMembers() {
    }

    record DepthPrompt(String text, int depth, int role) {
    }

    /** A depth prompt's {@code depth ?? depth_prompt_depth_default}. */
    static int depthOf(JsonNode depthPrompt) {
        JsonNode depth = depthPrompt == null ? null : depthPrompt.get("depth");
        return depth == null || depth.isNull() ? DEPTH_PROMPT_DEPTH : PromptEngine.intOr(depth, DEPTH_PROMPT_DEPTH);
    }

    /** ST: public/scripts/group-chats.js getGroupDepthPrompts: enabled members' (and the speaker's) depth prompts. */
    static List<DepthPrompt> depthPrompts(PromptInputs inputs, Macros macros, ObjectNode powerUser) {
        List<DepthPrompt> found = new ArrayList<>();
        ObjectNode group = inputs.group();
        JsonNode mode = group == null ? null : group.get("generation_mode");
        if (group == null || mode != null && mode.isNumber() && mode.asInt() == SWAP) {
            return found;
        }
        forEachMember(inputs, false, (member, card) -> {
            JsonNode depthPrompt = card.path("data").path("extensions").path("depth_prompt");
            String text = PromptEngine.baseChatReplace(PromptEngine.text(depthPrompt.get("prompt")).strip(), macros, powerUser,
                    PromptEngine.text(card.get("name")));
            if (!text.isEmpty()) {
                found.add(new DepthPrompt(text, depthOf(depthPrompt), PromptEngine.role(depthPrompt.get("role"))));
            }
        });
        return found;
    }

    /**
     * Each member's card in the group's order, leaving out members without a card and disabled members other than
     * the one who speaks (unless {@code withDisabled}).
     */
    private static void forEachMember(PromptInputs inputs, boolean withDisabled,
                                      java.util.function.BiConsumer<String, ObjectNode> action) {
        List<String> disabled = new ArrayList<>();
        inputs.group().path("disabled_members").forEach(member -> disabled.add(PromptEngine.text(member)));
        JsonNode members = inputs.group().path("members");
        for (int i = 0; i < members.size() && i < inputs.members().size(); i++) {
            ObjectNode card = inputs.members().get(i);
            String member = PromptEngine.text(members.get(i));
            boolean speaker = card != null && card == inputs.character();
            if (card != null && (!disabled.contains(member) || speaker || withDisabled)) {
                action.accept(member, card);
            }
        }
    }

    record Cards(String description, String personality, String scenario, String mesExamples) {
    }

    /**
     * ST: public/scripts/group-chats.js getGroupCharacterCardsLazy: with a join generation mode, each member's
     * field between the group's prefix and suffix ({@code <FIELDNAME>} replaced), joined by newlines; null
     * outside a group or in swap mode.
     */
    static Cards cards(PromptInputs inputs, ObjectNode metadata, Macros macros, ObjectNode powerUser) {
        ObjectNode group = inputs.group();
        if (group == null || !Js.truthy(group.get("generation_mode")) || group.path("members").isEmpty()) {
            return null;
        }
        boolean withDisabled = PromptEngine.intOr(group.get("generation_mode"), 0) == APPEND_DISABLED;
        java.util.function.BiFunction<String, String, String> collect = (fieldName, field) -> {
            List<String> values = new ArrayList<>();
            forEachMember(inputs, withDisabled, (member, card) -> {
                String value = PromptEngine.text(card.get(field)).strip();
                if (value.isEmpty()) {
                    return;
                }
                if (field.equals("mes_example") && !value.startsWith("<START>")) {
                    value = "<START>\n" + value;
                }
                String name = PromptEngine.text(card.get("name"));
                String joined = joinPart(group.get("generation_mode_join_prefix"), fieldName, name, false, macros, powerUser)
                        + joinPart(TextNode.valueOf(value), fieldName, name, true, macros, powerUser)
                        + joinPart(group.get("generation_mode_join_suffix"), fieldName, name, false, macros, powerUser);
                if (!joined.isEmpty()) {
                    values.add(joined);
                }
            });
            return String.join("\n", values);
        };
        String scenario = PromptEngine.baseChatReplace(PromptEngine.text(metadata.get("scenario")).strip(), macros, powerUser);
        String examples = PromptEngine.baseChatReplace(PromptEngine.text(metadata.get("mes_example")).strip(), macros, powerUser);
        return new Cards(collect.apply("Description", "description"), collect.apply("Personality", "personality"),
                scenario.isEmpty() ? collect.apply("Scenario", "scenario") : scenario,
                examples.isEmpty() ? collect.apply("Example Messages", "mes_example") : examples);
    }

    /** ST: getGroupCharacterCardsLazy's customTransform. */
    private static String joinPart(JsonNode value, String fieldName, String name, boolean trim, Macros macros,
                                   ObjectNode powerUser) {
        if (!Js.truthy(value)) {
            return "";
        }
        String text = Js.string(value).replaceAll("(?i)<FIELDNAME>", java.util.regex.Matcher.quoteReplacement(fieldName));
        return PromptEngine.baseChatReplace(trim ? Js.trim(text) : text, macros, powerUser, name);
    }

    /** The members macros name ({{group}}, {{groupNotMuted}}): those with a card, in the group's order. */
    static List<MacroEnv.GroupMember> members(PromptInputs inputs) {
        if (inputs.group() == null) {
            return null;
        }
        List<String> disabled = new ArrayList<>();
        inputs.group().path("disabled_members").forEach(member -> disabled.add(PromptEngine.text(member)));
        List<MacroEnv.GroupMember> members = new ArrayList<>();
        JsonNode avatars = inputs.group().path("members");
        for (int i = 0; i < avatars.size() && i < inputs.members().size(); i++) {
            ObjectNode card = inputs.members().get(i);
            if (card != null) {
                members.add(new MacroEnv.GroupMember(PromptEngine.text(card.get("name")),
                        disabled.contains(PromptEngine.text(avatars.get(i)))));
            }
        }
        return members;
    }
}
