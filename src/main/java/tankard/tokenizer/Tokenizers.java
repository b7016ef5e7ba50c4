package tankard.tokenizer;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which vocabulary serves which tokenizer id and model name, following ST's rules (src/endpoints/tokenizers.js,
 * getTokenizerModel). SentencePiece and Hugging Face vocabularies load from the user's copies of ST's files
 * ({@link TokenizerFiles}), each once, on first use; while a file is missing its id only estimates counts
 * ({@link ApproximateTokenizer}). Thread-safe.
 */
public final class Tokenizers {
    private static final Logger LOG = LoggerFactory.getLogger(Tokenizers.class);

    public static final List<String> SENTENCEPIECE = List.of("llama", "nerdstash", "nerdstash_v2", "mistral", "yi",
            "gemma", "jamba");
    public static final List<String> HUGGINGFACE = List.of("claude", "llama3", "qwen2", "command-r", "command-a",
            "nemo", "deepseek");
    /** The vocabularies ST downloads, and uses Llama 3's in place of when it cannot. */
    private static final List<String> DOWNLOADED = List.of("command-r", "command-a", "qwen2", "nemo", "deepseek");

    /** OpenAI completion-era models and their encodings (tiktoken's model table). */
    private static final Map<String, EncodingType> LEGACY_MODELS = Map.ofEntries(
            Map.entry("gpt-3.5-turbo-instruct", EncodingType.CL100K_BASE),
            Map.entry("gpt-3.5-turbo-instruct-0914", EncodingType.CL100K_BASE),
            Map.entry("text-embedding-ada-002", EncodingType.CL100K_BASE),
            Map.entry("text-davinci-003", EncodingType.P50K_BASE),
            Map.entry("text-davinci-002", EncodingType.P50K_BASE),
            Map.entry("code-davinci-002", EncodingType.P50K_BASE),
            Map.entry("code-davinci-001", EncodingType.P50K_BASE),
            Map.entry("code-cushman-002", EncodingType.P50K_BASE),
            Map.entry("code-cushman-001", EncodingType.P50K_BASE),
            Map.entry("text-davinci-edit-001", EncodingType.P50K_EDIT),
            Map.entry("code-davinci-edit-001", EncodingType.P50K_EDIT),
            Map.entry("text-davinci-001", EncodingType.R50K_BASE),
            Map.entry("text-curie-001", EncodingType.R50K_BASE),
            Map.entry("text-babbage-001", EncodingType.R50K_BASE),
            Map.entry("text-ada-001", EncodingType.R50K_BASE),
            Map.entry("text-similarity-davinci-001", EncodingType.R50K_BASE),
            Map.entry("text-similarity-curie-001", EncodingType.R50K_BASE),
            Map.entry("text-similarity-babbage-001", EncodingType.R50K_BASE),
            Map.entry("text-similarity-ada-001", EncodingType.R50K_BASE),
            Map.entry("text-search-davinci-doc-001", EncodingType.R50K_BASE),
            Map.entry("text-search-curie-doc-001", EncodingType.R50K_BASE),
            Map.entry("text-search-babbage-doc-001", EncodingType.R50K_BASE),
            Map.entry("text-search-ada-doc-001", EncodingType.R50K_BASE),
            Map.entry("code-search-babbage-code-001", EncodingType.R50K_BASE),
            Map.entry("code-search-ada-code-001", EncodingType.R50K_BASE));

    private final EncodingRegistry registry = Encodings.newLazyEncodingRegistry();
    private final Map<EncodingType, TiktokenTokenizer> tiktoken = new ConcurrentHashMap<>();
    private final TokenizerFiles files;
    /** Loaded vocabularies by file; a missing file is looked for again next time. */
    private final Map<Path, Tokenizer> loaded = new ConcurrentHashMap<>();
    /** Files that failed to load, with their modification time: tried again only once they change. */
    private final Map<Path, FileTime> unusable = new ConcurrentHashMap<>();
    private final TokenCounts counts = new TokenCounts();

    public Tokenizers(TokenizerFiles files) {
        this.files = files;
    }

    /** The counts made so far, for counters that count the same texts again and again (the chat engine). */
    public TokenCounts counts() {
        return counts;
    }

    /** The tokenizer behind {@code /api/tokenizers/<id>/*}, or null for an unknown id. */
    public Tokenizer byId(String id) {
        if (id.equals("gpt2")) {
            return tiktoken(EncodingType.R50K_BASE); // tiktoken's gpt2 vocabulary is r50k_base's
        }
        if (SENTENCEPIECE.contains(id)) {
            Tokenizer real = load(id + ".model");
            return real != null ? real
                    : new ApproximateTokenizer(id, Tokenizer.Family.SENTENCEPIECE, tiktoken(EncodingType.CL100K_BASE));
        }
        if (HUGGINGFACE.contains(id)) {
            Tokenizer real = load(id + ".json");
            if (real == null && DOWNLOADED.contains(id)) {
                real = load("llama3.json");
            }
            return real != null ? real
                    : new ApproximateTokenizer(id, Tokenizer.Family.HUGGINGFACE, tiktoken(EncodingType.CL100K_BASE));
        }
        return null;
    }

    /** The vocabulary in the file called {@code name}, loaded once; null when there is no usable file. */
    private Tokenizer load(String name) {
        Path file = files.find(name);
        if (file == null) {
            return null;
        }
        Tokenizer known = loaded.get(file);
        if (known != null) {
            return known; // the usual case: no further look at the file
        }
        FileTime modified = modifiedTime(file);
        if (modified == null || modified.equals(unusable.get(file))) {
            return null;
        }
        return loaded.computeIfAbsent(file, path -> {
            try {
                Tokenizer tokenizer = name.endsWith(".model") ? SentencePieceTokenizer.load(path)
                        : HuggingFaceTokenizer.load(path);
                LOG.info("Loaded the tokenizer {}", path);
                return tokenizer;
            } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
                LOG.warn("Cannot load the tokenizer {}, estimating instead: {}", path, e.toString());
                unusable.put(path, modified);
                return null;
            }
        });
    }

    private static FileTime modifiedTime(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code /api/tokenizers/openai/encode|decode?model=}: the model name picks the vocabulary. */
    public Tokenizer forModel(String model) {
        String id = modelFamilyId(model);
        return id != null ? byId(id) : tiktokenForModel(openAiModel(model));
    }

    /** {@code /api/tokenizers/openai/count?model=}: ST resolves the model through its own ordering first. */
    public Tokenizer forCount(String model) {
        String resolved = openAiModel(model);
        Tokenizer tokenizer = byId(resolved);
        return tokenizer != null ? tokenizer : tiktokenForModel(resolved);
    }

    /** ST's getTokenizerModel: the OpenAI model whose encoding applies, or a tokenizer id. */
    static String openAiModel(String model) {
        if (model.equals("o1") || model.contains("o1-preview") || model.contains("o1-mini") || model.contains("o3-mini")
                || model.contains("gpt-5") || model.contains("o3") || model.contains("o4-mini")) {
            return "o1";
        }
        if (model.contains("gpt-4o") || model.contains("chatgpt-4o-latest") || model.contains("gpt-4.1")
                || model.contains("gpt-4.5")) {
            return "gpt-4o";
        }
        if (model.contains("gpt-4-32k")) {
            return "gpt-4-32k";
        }
        if (model.contains("gpt-4")) {
            return "gpt-4";
        }
        if (model.contains("gpt-3.5-turbo-0301")) {
            return "gpt-3.5-turbo-0301";
        }
        if (model.contains("gpt-3.5-turbo")) {
            return "gpt-3.5-turbo";
        }
        if (LEGACY_MODELS.containsKey(model)) {
            return model;
        }
        for (String[] rule : new String[][] {{"claude", "claude"}, {"llama3", "llama3"}, {"llama-3", "llama3"},
                {"llama", "llama"}, {"mistral", "mistral"}, {"yi", "yi"}, {"deepseek", "deepseek"}, {"gemma", "gemma"},
                {"gemini", "gemma"}, {"learnlm", "gemma"}, {"jamba", "jamba"}, {"qwen2", "qwen2"},
                {"command-r", "command-r"}, {"command-a", "command-a"}, {"nemo", "nemo"}}) {
            if (model.contains(rule[0])) {
                return rule[1];
            }
        }
        return "gpt-3.5-turbo";
    }

    /** The non-OpenAI vocabulary the encode/decode routes pick from a model name, in ST's order, or null. */
    private static String modelFamilyId(String model) {
        for (String[] rule : new String[][] {{"llama3", "llama3"}, {"llama-3", "llama3"}, {"llama", "llama"},
                {"mistral", "mistral"}, {"yi", "yi"}, {"claude", "claude"}, {"gemma", "gemma"}, {"gemini", "gemma"},
                {"jamba", "jamba"}, {"qwen2", "qwen2"}, {"command-r", "command-r"}, {"command-a", "command-a"},
                {"nemo", "nemo"}, {"deepseek", "deepseek"}}) {
            if (model.contains(rule[0])) {
                return rule[1];
            }
        }
        return null;
    }

    private Tokenizer tiktokenForModel(String openAiModel) {
        EncodingType type = switch (openAiModel) {
            case "o1", "gpt-4o" -> EncodingType.O200K_BASE;
            default -> LEGACY_MODELS.getOrDefault(openAiModel, EncodingType.CL100K_BASE);
        };
        return tiktoken(type);
    }

    private TiktokenTokenizer tiktoken(EncodingType type) {
        return tiktoken.computeIfAbsent(type, t -> new TiktokenTokenizer(registry.getEncoding(t)));
    }
}
