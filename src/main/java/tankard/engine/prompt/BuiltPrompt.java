package tankard.engine.prompt;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A prompt ready to send: the body ST's frontend would post to {@code route} (Tankard's own backend proxy,
 * {@code /api/backends/chat-completions/generate} or {@code /api/backends/text-completions/generate}), and
 * its itemization.
 */
public record BuiltPrompt(String route, ObjectNode request, Itemization itemization) {
    public static final String CHAT_COMPLETIONS = "/api/backends/chat-completions/generate";
    public static final String TEXT_COMPLETIONS = "/api/backends/text-completions/generate";
}
