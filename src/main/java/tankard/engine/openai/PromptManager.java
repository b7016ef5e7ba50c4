package tankard.engine.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.engine.macro.Macros;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The prompt manager with ST's "global" prompt order (ST: public/scripts/PromptManager.js, PromptManager with
 * {@code promptOrder: {strategy: 'global', dummyId: 100001}}): the prompts of {@code oai_settings.prompts} in the
 * order {@code oai_settings.prompt_order} keeps for character id 100001.
 */
final class PromptManager {
    static final String GLOBAL_ORDER_ID = "100001";
    private static final Pattern VALID_NAME = Pattern.compile("^[a-zA-Z0-9_]{1,64}$");
    private static final Pattern INVALID_NAME_CHARACTER = Pattern.compile("[^a-zA-Z0-9_]");

    private final List<JsonNode> prompts;
    private final List<JsonNode> order;
    private final Macros macros;

    PromptManager(OaiSettings settings, Macros macros) {
        this.macros = macros;
        this.prompts = sanitizedPrompts(settings.prompts());
        this.order = sanitizedOrder(settings.promptOrder(), prompts);
    }

    /** sanitizeServiceSettings: no prompts means ST's defaults; a default prompt missing is added back. */
    private static List<JsonNode> sanitizedPrompts(ArrayNode saved) {
        List<JsonNode> prompts = new ArrayList<>();
        saved.forEach(prompts::add);
        if (prompts.isEmpty()) {
            defaultPrompts().forEach(prompts::add);
            return prompts;
        }
        for (JsonNode defaultPrompt : defaultPrompts()) {
            String identifier = defaultPrompt.get("identifier").textValue();
            if (prompts.stream().noneMatch(prompt -> identifier.equals(identifierOf(prompt)))) {
                prompts.add(defaultPrompt);
            }
        }
        return prompts;
    }

    /**
     * The global order: the first list for character 100001, ST's default order when there is none; entries
     * naming no prompt are dropped.
     */
    private static List<JsonNode> sanitizedOrder(ArrayNode promptOrder, List<JsonNode> prompts) {
        JsonNode entries = null;
        for (JsonNode list : promptOrder) {
            if (list != null && list.isObject() && Js.string(list.get("character_id")).equals(GLOBAL_ORDER_ID)) {
                entries = list.get("order");
                break;
            }
        }
        List<JsonNode> order = new ArrayList<>();
        if (entries == null) {
            defaultOrder().forEach(order::add);
        } else if (entries.isArray()) {
            entries.forEach(order::add);
        }
        order.removeIf(entry -> entry != null && entry.isObject()
                && prompts.stream().noneMatch(prompt -> prompt != null && prompt.isObject()
                        && Js.strictEquals(prompt.get("identifier"), entry.get("identifier"))));
        return order;
    }

    private static String identifierOf(JsonNode prompt) {
        return prompt != null && prompt.isObject() && prompt.path("identifier").isTextual()
                ? prompt.get("identifier").textValue() : null;
    }

    /** getPromptById. */
    private JsonNode promptById(String identifier) {
        for (JsonNode prompt : prompts) {
            if (prompt != null && prompt.isObject() && identifier.equals(identifierOf(prompt))) {
                return prompt;
            }
        }
        return null;
    }

    /** isPromptDisabledForActiveCharacter: the order has the prompt switched off. */
    boolean isDisabled(String identifier) {
        for (JsonNode entry : order) {
            if (entry != null && entry.isObject() && identifier.equals(identifierOf(entry))) {
                return !Js.truthy(entry.get("enabled"));
            }
        }
        return false;
    }

    /**
     * getPromptCollection: the enabled prompts whose triggers allow the generation type, prepared, in order; the
     * main prompt always, emptied when it is off.
     */
    PromptCollection collection(String generationType) {
        PromptCollection collection = new PromptCollection();
        for (JsonNode entry : order) {
            if (entry == null || !entry.isObject()) {
                continue;
            }
            String identifier = Js.string(entry.get("identifier"));
            JsonNode prompt = promptById(identifier);
            if (prompt == null) {
                continue;
            }
            ManagedPrompt managed = ManagedPrompt.fromJson(prompt);
            if (Js.truthy(entry.get("enabled")) && shouldTrigger(prompt, generationType)) {
                collection.add(prepare(managed));
            } else if (identifier.equals("main")) {
                managed.content = "";
                collection.add(prepare(managed));
            }
        }
        return collection;
    }

    /** shouldTrigger: a prompt with injection triggers goes only into generations of those types. */
    private static boolean shouldTrigger(JsonNode prompt, String generationType) {
        JsonNode triggers = prompt.get("injection_trigger");
        if (triggers == null || !triggers.isArray() || triggers.isEmpty()) {
            return true;
        }
        for (JsonNode trigger : triggers) {
            if (trigger.isTextual() && trigger.textValue().equals(generationType)) {
                return true;
            }
        }
        return false;
    }

    /** preparePrompt: a copy with its content's macros substituted. */
    ManagedPrompt prepare(ManagedPrompt prompt) {
        ManagedPrompt prepared = prompt.copy();
        prepared.content = macros.substitute(prompt.content);
        return prepared;
    }

    /** preparePrompt(prompt, original): {@code {{original}}} is the text the prompt replaces. */
    ManagedPrompt prepare(ManagedPrompt prompt, String original) {
        ManagedPrompt prepared = prompt.copy();
        prepared.content = macros.substitute(prompt.content, Macros.Options.original(original));
        return prepared;
    }

    static boolean isValidName(String name) {
        return VALID_NAME.matcher(name).matches();
    }

    static String sanitizeName(String name) {
        String sanitized = INVALID_NAME_CHARACTER.matcher(name).replaceAll("_");
        return sanitized.length() > 64 ? sanitized.substring(0, 64) : sanitized;
    }

    /** ST: PromptManager.js, chatCompletionDefaultPrompts. */
    static ArrayNode defaultPrompts() {
        ArrayNode prompts = JsJson.array();
        prompts.add(systemPrompt("Main Prompt", "main",
                "Write {{char}}'s next reply in a fictional chat between {{charIfNotGroup}} and {{user}}."));
        prompts.add(systemPrompt("Auxiliary Prompt", "nsfw", ""));
        prompts.add(marker("dialogueExamples", "Chat Examples"));
        prompts.add(systemPrompt("Post-History Instructions", "jailbreak", ""));
        prompts.add(marker("chatHistory", "Chat History"));
        prompts.add(marker("worldInfoAfter", "World Info (after)"));
        prompts.add(marker("worldInfoBefore", "World Info (before)"));
        prompts.addObject().put("identifier", "enhanceDefinitions").put("role", "system")
                .put("name", "Enhance Definitions")
                .put("content", "If you have more knowledge of {{char}}, add to the character's lore and personality"
                        + " to enhance them but keep the Character Sheet's definitions absolute.")
                .put("system_prompt", true).put("marker", false);
        prompts.add(marker("charDescription", "Char Description"));
        prompts.add(marker("charPersonality", "Char Personality"));
        prompts.add(marker("scenario", "Scenario"));
        prompts.add(marker("personaDescription", "Persona Description"));
        return prompts;
    }

    private static ObjectNode systemPrompt(String name, String identifier, String content) {
        return JsJson.object().put("name", name).put("system_prompt", true).put("role", "system")
                .put("content", content).put("identifier", identifier);
    }

    private static ObjectNode marker(String identifier, String name) {
        return JsJson.object().put("identifier", identifier).put("name", name).put("system_prompt", true)
                .put("marker", true);
    }

    /** ST: PromptManager.js, promptManagerDefaultPromptOrder. */
    private static ArrayNode defaultOrder() {
        ArrayNode order = JsJson.array();
        for (String identifier : List.of("main", "worldInfoBefore", "personaDescription", "charDescription",
                "charPersonality", "scenario", "enhanceDefinitions", "nsfw", "worldInfoAfter", "dialogueExamples",
                "chatHistory", "jailbreak")) {
            order.addObject().put("identifier", identifier).put("enabled", !identifier.equals("enhanceDefinitions"));
        }
        return order;
    }
}
