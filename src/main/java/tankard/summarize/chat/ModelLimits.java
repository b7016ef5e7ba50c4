package tankard.summarize.chat;

import java.util.List;
import java.util.Locale;

/**
 * The context window and output limit of well-known models, matched by the longest name prefix (after any
 * {@code vendor/} part, as OpenRouter names them). A model not listed has no known limits: the caller's settings
 * apply unchanged.
 */
final class ModelLimits {
    /** A model family's limits, in tokens. */
    record Limits(String prefix, int context, int output) {
    }

    private static final List<Limits> KNOWN = List.of(
            new Limits("gpt-3.5-turbo", 16_385, 4_096),
            new Limits("gpt-4", 8_192, 8_192),
            new Limits("gpt-4-32k", 32_768, 8_192),
            new Limits("gpt-4-turbo", 128_000, 4_096),
            new Limits("gpt-4o", 128_000, 16_384),
            new Limits("chatgpt-4o", 128_000, 16_384),
            new Limits("gpt-4.1", 1_047_576, 32_768),
            new Limits("gpt-5", 400_000, 128_000),
            new Limits("o1", 200_000, 100_000),
            new Limits("o3", 200_000, 100_000),
            new Limits("o4-mini", 200_000, 100_000),
            new Limits("claude-3-haiku", 200_000, 4_096),
            new Limits("claude-3-opus", 200_000, 4_096),
            new Limits("claude-3-5-haiku", 200_000, 8_192),
            new Limits("claude-3-5-sonnet", 200_000, 8_192),
            new Limits("claude-3-7-sonnet", 200_000, 64_000),
            new Limits("claude-sonnet-4", 200_000, 64_000),
            new Limits("claude-opus-4", 200_000, 32_000),
            new Limits("claude-haiku-4", 200_000, 64_000),
            new Limits("gemini-1.5-flash", 1_048_576, 8_192),
            new Limits("gemini-1.5-pro", 2_097_152, 8_192),
            new Limits("gemini-2.0-flash", 1_048_576, 8_192),
            new Limits("gemini-2.5-flash", 1_048_576, 65_536),
            new Limits("gemini-2.5-pro", 1_048_576, 65_536),
            new Limits("command-r", 128_000, 4_000),
            new Limits("command-a", 256_000, 8_000),
            new Limits("deepseek-chat", 128_000, 8_192),
            new Limits("deepseek-reasoner", 128_000, 65_536),
            new Limits("mistral-large", 128_000, 128_000));

    private ModelLimits() {
    }

    /** The limits of the model, or null when it is not a known one. */
    static Limits of(String model) {
        if (model == null) {
            return null;
        }
        String name = model.toLowerCase(Locale.ROOT);
        name = name.substring(name.lastIndexOf('/') + 1);
        Limits best = null;
        for (Limits limits : KNOWN) {
            if (name.startsWith(limits.prefix()) && (best == null || limits.prefix().length() > best.prefix().length())) {
                best = limits;
            }
        }
        return best;
    }
}
