package tankard.engine.openai;

import java.util.ArrayList;
import java.util.List;

/** The prompts of one generation in the user's order (ST: public/scripts/PromptManager.js, PromptCollection). */
final class PromptCollection {
    final List<ManagedPrompt> collection = new ArrayList<>();
    final List<String> overriddenPrompts = new ArrayList<>();

    void add(ManagedPrompt prompt) {
        collection.add(prompt);
    }

    ManagedPrompt get(String identifier) {
        int index = index(identifier);
        return index < 0 ? null : collection.get(index);
    }

    int index(String identifier) {
        for (int i = 0; i < collection.size(); i++) {
            if (identifier.equals(collection.get(i).identifier)) {
                return i;
            }
        }
        return -1;
    }

    boolean has(String identifier) {
        return index(identifier) >= 0;
    }

    void set(ManagedPrompt prompt, int position) {
        collection.set(position, prompt);
    }

    void override(ManagedPrompt prompt, int position) {
        set(prompt, position);
        overriddenPrompts.add(prompt.identifier);
    }
}
