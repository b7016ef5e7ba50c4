package tankard.engine.text;

import tankard.engine.prompt.TokenCounter;
import tankard.json.Js;
import tankard.tokenizer.Lines;
import tankard.tokenizer.Tokenizer;
import tankard.tokenizer.TokenCounts;
import tankard.tokenizer.Tokenizers;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * ST's getTokenCountAsync for a text completion prompt (public/scripts/tokenizers.js): the tokenizer
 * {@code power_user.tokenizer} names, counted as the frontend counts it, with the {@code count} of Tankard's
 * {@code /api/tokenizers/<id>/encode}. Where ST would ask the backend (the "API" tokenizers, and Best match for
 * the backends that tokenize), Tankard counts with the local vocabulary ST's own best-match rules pick from the
 * model name, as ST does while the backend cannot tokenize.
 */
final class TextTokenCounter implements TokenCounter {
    private static final double BYTES_PER_TOKEN = 3.35;
    private static final int GPT2 = 1;
    private static final int OPENAI = 2;
    private static final int API_CURRENT = 6;
    private static final int API_TEXTGENERATIONWEBUI = 9;
    private static final int API_KOBOLD = 10;
    /** ST's {@code tokenizers} ids with a local vocabulary, and the route each counts with. */
    private static final Map<Integer, String> LOCAL = Map.ofEntries(Map.entry(GPT2, "gpt2"), Map.entry(3, "llama"),
            Map.entry(4, "nerdstash"), Map.entry(5, "nerdstash_v2"), Map.entry(7, "mistral"), Map.entry(8, "yi"),
            Map.entry(11, "claude"), Map.entry(12, "llama3"), Map.entry(13, "gemma"), Map.entry(14, "jamba"),
            Map.entry(15, "qwen2"), Map.entry(16, "command-r"), Map.entry(17, "nemo"), Map.entry(18, "deepseek"),
            Map.entry(19, "command-a"));

    /** null to estimate as ST's guesstimate. */
    private final Tokenizer tokenizer;
    /** The vocabulary's name, for the report of what counted. */
    private final String name;

    private final TokenCounts counts;

    private TextTokenCounter(Tokenizer tokenizer, String name, TokenCounts counts) {
        this.tokenizer = tokenizer;
        this.name = name;
        this.counts = counts;
    }

    /**
     * @param connectedModel the model the backend reports (ST's {@code online_status}), for when the settings name
     *                       none
     */
    static TextTokenCounter of(TextSettings settings, Tokenizers tokenizers, String connectedModel) {
        int type = settings.tokenizer();
        String model = modelName(settings, connectedModel);
        if (type == TextSettings.BEST_MATCH) {
            type = bestMatch(Js.string(settings.textgen.get("type")), model);
        } else if (type == API_CURRENT || type == API_TEXTGENERATIONWEBUI || type == API_KOBOLD) {
            type = modelMatch(model);
        }
        String name = type == OPENAI ? "openai" : LOCAL.getOrDefault(type, "none");
        return new TextTokenCounter(vocabulary(type, tokenizers), name, tokenizers.counts());
    }

    /** ST: {@code getTextGenModel() || online_status}. */
    static String modelName(TextSettings settings, String connectedModel) {
        String model = TextGenRequest.model(settings.textgen);
        return model != null && !model.isEmpty() ? model : connectedModel;
    }

    /** The vocabulary behind one of ST's tokenizer ids, or null for none (estimated counts, no ids). */
    static Tokenizer vocabulary(int type, Tokenizers tokenizers) {
        if (type == OPENAI) {
            return tokenizers.forModel(""); // ST's count route names no model
        }
        String id = LOCAL.get(type);
        return id == null ? null : tokenizers.byId(id);
    }

    /**
     * ST: getTokenizerBestMatch for text completion: the backend's tokenizer where it has one (here the model name's
     * vocabulary), OpenRouter's and DreamGen's by model, else the model name's.
     */
    static int bestMatch(String type, String model) {
        String lower = model == null ? "" : model.toLowerCase(Locale.ROOT);
        if (type.equals("openrouter")) {
            // ST reads the tokenizer from OpenRouter's model list, which a server does not keep: the name decides,
            // and ST's answer for a model it does not know is OpenAI's
            int family = modelMatch(model);
            return lower.contains("jamba") ? 14 : family != 3 || lower.contains("llama") ? family : OPENAI;
        }
        if (type.equals("dreamgen")) {
            String id = model == null ? "" : model;
            return id.startsWith("lucid-v1-extra-large") || id.startsWith("lucid-v1-max") ? 12 : 7;
        }
        return modelMatch(model);
    }

    /** ST: getTokenizerBestMatch's rules for a text completion model, when the backend does not tokenize. */
    static int modelMatch(String model) {
        String lower = model == null ? "" : model.toLowerCase(Locale.ROOT);
        if (lower.contains("llama3") || lower.contains("llama-3")) {
            return 12;
        }
        if (lower.contains("mistral") || lower.contains("mixtral")) {
            return 7;
        }
        if (lower.contains("gemma")) {
            return 13;
        }
        if (lower.contains("nemo") || lower.contains("pixtral")) {
            return 17;
        }
        if (lower.contains("deepseek")) {
            return 18;
        }
        if (lower.contains("yi")) {
            return 8;
        }
        if (lower.contains("jamba")) {
            return 14;
        }
        if (lower.contains("command-r")) {
            return 16;
        }
        if (lower.contains("command-a")) {
            return 19;
        }
        if (lower.contains("qwen2")) {
            return 15;
        }
        return 3;
    }

    String name() {
        return name;
    }

    /** getTokenCountAsync(text): 0 for an empty text. */
    @Override
    public int count(String text) {
        return count(text, 0);
    }

    @Override
    public int count(Lines text) {
        return tokenizer == null || text.length() == 0 ? count(text.toString()) : counts.count(tokenizer, text, this::encoded);
    }

    /** getTokenCountAsync(text, padding). */
    int count(String text, int padding) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        return raw(text) + padding;
    }

    private int raw(String text) {
        if (tokenizer == null) {
            return (int) Math.ceil(text.getBytes(StandardCharsets.UTF_8).length / BYTES_PER_TOKEN);
        }
        return counts.count(tokenizer, text, this::encoded);
    }

    private int encoded(String text) {
        try {
            return tokenizer.encode(text).length;
        } catch (RuntimeException e) {
            return 0; // the encode route answers a count of 0 when tokenizing fails
        }
    }
}
