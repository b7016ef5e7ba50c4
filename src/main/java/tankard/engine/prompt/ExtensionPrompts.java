package tankard.engine.prompt;

import tankard.engine.macro.Macros;
import tankard.json.Js;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The prompts extensions and features place around the story string and into the chat, keyed by module name
 * (ST: public/script.js, {@code extension_prompts}, setExtensionPrompt and getExtensionPrompt). Keys are read in
 * sorted order, as ST's {@code Object.keys(extension_prompts).sort()}.
 */
public final class ExtensionPrompts {
    /** ST's {@code extension_prompt_types}. */
    public static final int NONE = -1;
    public static final int IN_PROMPT = 0;
    public static final int IN_CHAT = 1;
    public static final int BEFORE_PROMPT = 2;
    /** ST's {@code extension_prompt_roles}. */
    public static final int SYSTEM = 0;
    public static final int USER = 1;
    public static final int ASSISTANT = 2;
    /** ST's {@code MAX_INJECTION_DEPTH}. */
    public static final int MAX_INJECTION_DEPTH = 10000;

    /**
     * One prompt as setExtensionPrompt stores it: {@code depth} null where ST's {@code Number(depth)} is NaN (an
     * undefined depth, which matches no depth), {@code role} the system's where none was given.
     */
    public record Prompt(String value, int position, Integer depth, boolean scan, Integer role) {
    }

    private final Map<String, Prompt> prompts = new TreeMap<>();
    private final Macros macros;

    public ExtensionPrompts(Macros macros) {
        this.macros = macros;
    }

    /** ST's setExtensionPrompt: a value of null is stored as empty. */
    public void set(String key, String value, int position, Integer depth, boolean scan, Integer role) {
        prompts.put(key, new Prompt(value == null ? "" : value, position, depth, scan, role == null ? SYSTEM : role));
    }

    public Prompt get(String key) {
        return prompts.get(key);
    }

    public void remove(String key) {
        prompts.remove(key);
    }

    /** All prompts in key order (ST sorts the keys where order matters). */
    public Map<String, Prompt> all() {
        return java.util.Collections.unmodifiableMap(prompts);
    }

    /**
     * ST's getExtensionPrompt: the non-empty prompts at a position (and depth and role, where given), trimmed and
     * joined by the separator, wrapped in it when asked, macros substituted.
     */
    public String at(int position, Integer depth, String separator, Integer role, boolean wrap) {
        List<String> values = new ArrayList<>();
        for (Prompt prompt : prompts.values()) {
            if (prompt.position() != position || prompt.value().isEmpty()) {
                continue;
            }
            if (depth != null && !depth.equals(prompt.depth())) {
                continue;
            }
            if (role != null && !role.equals(prompt.role())) {
                continue;
            }
            values.add(Js.trim(prompt.value()));
        }
        String joined = String.join(separator, values);
        if (wrap && !joined.isEmpty() && !joined.startsWith(separator)) {
            joined = separator + joined;
        }
        if (wrap && !joined.isEmpty() && !joined.endsWith(separator)) {
            joined = joined + separator;
        }
        return joined.isEmpty() ? joined : macros.substitute(joined);
    }

    /**
     * The depths the non-empty prompts at a position are at, from 0 to {@link #MAX_INJECTION_DEPTH}, ascending: where
     * ST's loops over every depth up to that find something.
     */
    public java.util.NavigableSet<Integer> depths(int position) {
        java.util.TreeSet<Integer> depths = new java.util.TreeSet<>();
        for (Prompt prompt : prompts.values()) {
            if (prompt.position() == position && !prompt.value().isEmpty() && prompt.depth() != null
                    && prompt.depth() >= 0 && prompt.depth() <= MAX_INJECTION_DEPTH) {
                depths.add(prompt.depth());
            }
        }
        return depths;
    }

    /** {@code getExtensionPrompt(position)} with its defaults: any depth and role, "\n", wrapped. */
    public String at(int position) {
        return at(position, null, "\n", null, true);
    }
}
