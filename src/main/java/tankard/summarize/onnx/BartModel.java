package tankard.summarize.onnx;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtLoggingLevel;
import ai.onnxruntime.OrtSession;
import com.fasterxml.jackson.databind.JsonNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.json.JsonFiles;
import tankard.summarize.SummaryModel;
import tankard.tokenizer.NativeLibraries;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A BART summarization model exported to ONNX (the layout Hugging Face Optimum and the Xenova repositories use:
 * {@code encoder_model.onnx}, {@code decoder_model.onnx}, optionally {@code decoder_with_past_model.onnx}, at the
 * top of the folder or under {@code onnx/}, with {@code config.json}, {@code generation_config.json} and
 * {@code tokenizer.json}), run on ONNX Runtime's CPU provider with the model's own tokenizer. Summaries are made
 * as SillyTavern-Extras makes them: the model's generation settings, Extras' bad words, Extras' clean-up of the
 * text. One instance is shared; its sessions are thread-safe, and {@code SummaryQueue} runs one call at a time.
 */
public final class BartModel implements SummaryModel, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BartModel.class);
    /** The words Extras' summarize module keeps out of summaries (as {@code bad_words_ids} of their tokens). */
    static final List<String> EXTRAS_BAD_WORDS = List.of("\n", "\"", "*", "[", "]", "{", "}", ":", "(", ")", "<",
            ">", "\u00c2");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+", Pattern.UNICODE_CHARACTER_CLASS);

    private final OrtEnvironment env;
    private final OrtSession.SessionOptions options;
    private final OrtSession encoder;
    private final Seq2SeqDecoder decoder;
    /** Counts and bad words: no special tokens, no truncation. */
    private final HuggingFaceTokenizer plain;
    /** The encoder's input: special tokens added, cut at the model's positions. */
    private final HuggingFaceTokenizer input;
    private final int maxPositions;
    private final int specialTokens;
    private final boolean cleanUpSpaces;
    private final GenerationSettings settings;

    private BartModel(Path folder) throws IOException, OrtException {
        JsonNode config = JsonFiles.readObject(folder.resolve("config.json"), true);
        maxPositions = config.path("max_position_embeddings").asInt(1024);
        cleanUpSpaces = JsonFiles.readObject(folder.resolve("tokenizer_config.json"), false)
                .path("clean_up_tokenization_spaces").asBoolean(true);
        NativeLibraries.stayOffline();
        plain = tokenizer(folder, Map.of("addSpecialTokens", "false", "truncation", "false", "padding", "false"));
        input = tokenizer(folder, Map.of("addSpecialTokens", "true", "truncation", "true",
                "maxLength", String.valueOf(maxPositions), "padding", "false"));
        specialTokens = input.encode("").getIds().length;
        env = OrtEnvironment.getEnvironment();
        options = new OrtSession.SessionOptions();
        options.setIntraOpNumThreads(Math.max(1, Runtime.getRuntime().availableProcessors()));
        // its warnings (e.g. unused initializers in an export) are not the user's concern
        options.setSessionLogLevel(OrtLoggingLevel.ORT_LOGGING_LEVEL_ERROR);
        encoder = env.createSession(file(folder, "encoder_model.onnx", true).toString(), options);
        decoder = Seq2SeqDecoder.separate(env, options, file(folder, "decoder_model.onnx", true),
                file(folder, "decoder_with_past_model.onnx", false));
        GenerationSettings defaults = GenerationSettings.read(config,
                JsonFiles.readObject(folder.resolve("generation_config.json"), false));
        settings = defaults.withBadWords(EXTRAS_BAD_WORDS.stream().map(this::plainIds)
                .filter(ids -> ids.length > 0).toList());
    }

    /** Loads an export folder. Blocking: a large model takes seconds and its size in memory. */
    public static BartModel load(Path folder) throws IOException, OrtException {
        return new BartModel(folder);
    }

    /** The model's file, at the top of the folder or under {@code onnx/}; null when optional and absent. */
    static Path modelFile(Path folder, String name) {
        for (Path candidate : List.of(folder.resolve(name), folder.resolve("onnx").resolve(name))) {
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private static Path file(Path folder, String name, boolean required) throws IOException {
        Path file = modelFile(folder, name);
        if (file == null) {
            if (required) {
                String merged = modelFile(folder, "decoder_model_merged.onnx") == null ? ""
                        : ": it has only a merged decoder, which Tankard does not load (export with Optimum's"
                        + " --no-post-process, see the README)";
                throw new IOException("The model folder " + folder + " has no " + name + " (nor onnx/" + name + ")"
                        + merged);
            }
            return null;
        }
        return file;
    }

    private static HuggingFaceTokenizer tokenizer(Path folder, Map<String, String> options) throws IOException {
        try (InputStream in = Files.newInputStream(folder.resolve("tokenizer.json"))) {
            return HuggingFaceTokenizer.newInstance(in, options);
        }
    }

    /** The model's own generation settings, with Extras' bad words. */
    public GenerationSettings settings() {
        return settings;
    }

    /** Whether generation uses a key/value cache ({@code decoder_with_past_model.onnx}). */
    public boolean cached() {
        return decoder.cached();
    }

    private int[] plainIds(String text) {
        return Arrays.stream(plain.encode(text, false, false).getIds()).mapToInt(Math::toIntExact).toArray();
    }

    @Override
    public int countTokens(String text) {
        return plainIds(text).length;
    }

    /** The model's positions less the special tokens its tokenizer adds (BART: 1024 - 2). */
    @Override
    public int inputWindow() {
        return maxPositions - specialTokens;
    }

    /** The encoder's input ids: special tokens added, cut to the model's positions. */
    public int[] encode(String text) {
        return Arrays.stream(input.encode(text, true, false).getIds()).mapToInt(Math::toIntExact).toArray();
    }

    /** The generated ids (without the start token and the closing EOS) for the encoder's input ids. */
    public int[] generate(int[] inputIds, GenerationSettings with) throws OrtException {
        long[] ids = Arrays.stream(inputIds).asLongStream().toArray();
        long[] mask = new long[ids.length];
        Arrays.fill(mask, 1);
        try (OnnxTensor idTensor = Tensors.longs(env, ids, 1, ids.length);
             OnnxTensor maskTensor = Tensors.longs(env, mask, 1, ids.length)) {
            Map<String, OnnxTensor> inputs = new HashMap<>();
            inputs.put("input_ids", idTensor);
            inputs.put("attention_mask", maskTensor);
            inputs.keySet().retainAll(encoder.getInputNames());
            try (OrtSession.Result result = encoder.run(inputs)) {
                Tensors states = Tensors.of(result, "last_hidden_state");
                return decoder.generate(states.values(), states.shape(), mask, with);
            }
        }
    }

    /**
     * The summary's text as the Transformers pipeline gives it (special tokens skipped, tokenization spaces
     * cleaned up as the tokenizer's config says), then as Extras cleans it: NFKC, trimmed, runs of whitespace
     * made one space.
     */
    public String decode(int[] ids) {
        String text = plain.decode(Arrays.stream(ids).asLongStream().toArray(), true);
        if (cleanUpSpaces) {
            text = Seq2SeqDecoder.cleanUpTokenizationSpaces(text);
        }
        return WHITESPACE.matcher(Normalizer.normalize(text, Normalizer.Form.NFKC).strip()).replaceAll(" ");
    }

    @Override
    public String summarize(String text) throws OrtException {
        long start = System.nanoTime();
        int tokens = countTokens(text);
        if (tokens > inputWindow()) {
            LOG.warn("Text of {} tokens cut to the model's window of {}", tokens, inputWindow());
        }
        int[] summary = generate(encode(text), settings);
        LOG.info("Summarized {} tokens into {} in {} ms", tokens, summary.length, (System.nanoTime() - start) / 1_000_000);
        return decode(summary);
    }

    @Override
    public void close() throws OrtException {
        encoder.close();
        decoder.close();
        options.close();
        plain.close();
        input.close();
    }
}
