package tankard.engine.openai;

import java.util.Locale;

/**
 * The {@code model} ST's frontend names when it asks {@code /api/tokenizers/openai/count} to count chat messages
 * (ST: public/scripts/tokenizers.js, getTokenizerModel). OpenRouter models are matched by name only: the
 * tokenizer OpenRouter's model list names is not known on the server.
 */
final class TokenizerModel {
    private static final String TURBO = "gpt-3.5-turbo";
    private static final String GPT4 = "gpt-4";
    private static final String GPT4O = "gpt-4o";

    private TokenizerModel() {
    }

    static String of(OaiSettings settings) {
        String source = settings.source();
        if (source.equals(OaiSettings.OPENAI)) {
            return settings.string("openai_model");
        }
        if (source.equals(OaiSettings.AZURE_OPENAI)) {
            String model = settings.string("azure_openai_model");
            return settings.truthy("azure_openai_model") ? model : TURBO;
        }
        if (source.equals(OaiSettings.DEEPSEEK)) {
            return "deepseek";
        }
        if (source.equals(OaiSettings.OPENROUTER) && settings.truthy("openrouter_model")) {
            String byName = openRouter(settings.string("openrouter_model"));
            if (byName != null) {
                return byName;
            }
        }
        if (source.equals("electronhub") && settings.truthy("electronhub_model")) {
            String byName = electronHub(settings.string("electronhub_model"));
            if (byName != null) {
                return byName;
            }
        }
        if (source.equals("chutes") && settings.truthy("chutes_model")) {
            String byName = chutes(settings.string("chutes_model").toLowerCase(Locale.ROOT));
            if (byName != null) {
                return byName;
            }
        }
        if (source.equals("minimax")) {
            return TURBO;
        }
        if (source.equals("workers_ai") && settings.truthy("workers_ai_model")) {
            String byName = workersAi(settings.string("workers_ai_model").toLowerCase(Locale.ROOT));
            if (byName != null) {
                return byName;
            }
        }
        switch (source) {
            case "cohere":
                return settings.string("cohere_model").contains("command-a") ? "command-a" : "command-r";
            case OaiSettings.MAKERSUITE, OaiSettings.VERTEXAI:
                return "gemma";
            case "ai21":
                return "jamba";
            case OaiSettings.CLAUDE:
                return "claude";
            case "mistralai": {
                String model = settings.string("mistralai_model");
                return model.contains("nemo") || model.contains("pixtral") ? "nemo" : "mistral";
            }
            case OaiSettings.CUSTOM:
                return settings.string("custom_model");
            case "perplexity": {
                String model = settings.string("perplexity_model");
                String byName = firstContained(model, new String[][] {{"sonar-reasoning", "deepseek"},
                        {"r1-1776", "deepseek"}, {"llama-3", "llama3"}, {"llama3", "llama3"}, {"llama", "llama"},
                        {"mistral", "mistral"}, {"mixtral", "mistral"}});
                return byName != null ? byName : TURBO;
            }
            case "groq": {
                String model = settings.string("groq_model");
                String byName = firstContained(model, new String[][] {{"qwen", "qwen2"}, {"llama-3", "llama3"},
                        {"llama3", "llama3"}, {"mistral", "mistral"}, {"mixtral", "mistral"}, {"gemma", "gemma"}});
                return byName != null ? byName : TURBO;
            }
            default:
                return TURBO;
        }
    }

    private static String openRouter(String model) {
        return firstContained(model, new String[][] {{"gpt-4o", GPT4O}, {"gpt-4", GPT4}, {"gpt-3.5-turbo", TURBO},
                {"claude", "claude"}, {"GPT-NeoXT", "gpt2"}, {"jamba", "jamba"}, {"deepseek", "deepseek"}});
    }

    private static String electronHub(String model) {
        String known = firstContained(model, new String[][] {{"gpt-4o", GPT4O}, {"gpt-5", GPT4O}, {"gpt-4.1", GPT4O},
                {"gpt-4.5", GPT4O}, {"gpt-4", GPT4}, {"gpt-3.5-turbo", TURBO}, {"claude", "claude"},
                {"jamba", "jamba"}, {"deepseek", "deepseek"}, {"sonar-reasoning", "deepseek"}, {"r1", "deepseek"},
                {"qwen", "qwen2"}, {"gemma", "gemma"}, {"mistral", "mistral"}, {"yi", "yi"}});
        if (known != null) {
            return known;
        }
        if (model.startsWith("l3")) {
            return "llama3";
        }
        return firstContained(model, new String[][] {{"llama3", "llama3"}, {"llama-3", "llama3"}, {"llama", "llama"},
                {"command-a", "command-a"}, {"command-r", "command-r"}, {"nemo", "nemo"}});
    }

    private static String chutes(String model) {
        return firstContained(model, new String[][] {{"deepseek", "deepseek"}, {"mai-ds", "deepseek"},
                {"qwen", "qwen2"}, {"qwq", "qwen2"}, {"tongyi", "qwen2"}, {"kimi", "qwen2"}, {"llama", "llama3"},
                {"longcat", "llama3"}, {"hermes", "llama3"}, {"gemma", "gemma"}, {"nemo", "nemo"},
                {"mistral", "mistral"}, {"gpt-oss", GPT4O}});
    }

    private static String workersAi(String model) {
        return firstContained(model, new String[][] {{"deepseek", "deepseek"}, {"qwen", "qwen2"}, {"qwq", "qwen2"},
                {"kimi", "qwen2"}, {"llama-3", "llama3"}, {"llama-4", "llama3"}, {"llama", "llama"},
                {"gemma", "gemma"}, {"mistral", "mistral"}, {"phi", TURBO}, {"gpt-oss", GPT4O}});
    }

    /** The tokenizer of the first rule whose text the model name contains, or null. */
    private static String firstContained(String model, String[][] rules) {
        for (String[] rule : rules) {
            if (model.contains(rule[0])) {
                return rule[1];
            }
        }
        return null;
    }
}
