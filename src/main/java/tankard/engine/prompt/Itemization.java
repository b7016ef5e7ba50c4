package tankard.engine.prompt;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * ST's prompt itemization (public/script.js, itemizedPrompts and PromptItemize): how many tokens each part of
 * the prompt took. Parts are added as the prompt is built; a part added twice adds up.
 */
public final class Itemization {
    public static final String STORY_STRING = "storyString";
    public static final String WORLD_INFO = "worldInfo";
    public static final String EXAMPLES = "examples";
    public static final String HISTORY = "history";
    public static final String SUMMARY = "summary";
    public static final String VECTORS = "vectors";
    public static final String AUTHORS_NOTE = "authorsNote";
    public static final String PERSONA = "persona";
    public static final String SYSTEM = "system";
    public static final String OTHER = "other";

    private final Map<String, Integer> tokens = new LinkedHashMap<>();
    private int total;

    public void add(String part, int count) {
        tokens.merge(part, count, Integer::sum);
    }

    public void total(int total) {
        this.total = total;
    }

    public int tokens(String part) {
        return tokens.getOrDefault(part, 0);
    }

    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        ObjectNode parts = json.putObject("parts");
        tokens.forEach(parts::put);
        json.put("total", total);
        return json;
    }
}
