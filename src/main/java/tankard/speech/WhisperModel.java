package tankard.speech;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import com.fasterxml.jackson.databind.JsonNode;
import tankard.core.Refusal;
import tankard.json.JsonFiles;
import tankard.summarize.onnx.GenerationSettings;
import tankard.summarize.onnx.HubDownloader;
import tankard.summarize.onnx.Seq2SeqDecoder;
import tankard.vector.local.LocalEmbeddingModel;

import java.io.IOException;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A Whisper model in the transformers.js layout, run as ST's automatic-speech-recognition pipeline runs it
 * (sillytavern-transformers, src/pipelines.js, AutomaticSpeechRecognitionPipeline._call_whisper; src/models.js,
 * WhisperForConditionalGeneration and generate): the log-mel of the first 30 s ({@link WhisperFeatures}; ST passes
 * no {@code chunk_length_s}, so longer audio is cut there); the encoder's {@code last_hidden_state}; greedy decoding
 * from {@code <|startoftranscript|>} with the prompt forced: the language when given (else the model's own choice),
 * {@code <|transcribe|>}, {@code <|notimestamps|>}; the model's generation settings otherwise (transformers.js applies
 * neither {@code suppress_tokens}, which it leaves out, nor, in effect, {@code begin_suppress_tokens}, whose position
 * is the last forced one); the text of the tokens that are neither special nor timestamps, not trimmed
 * (the tokenizer's _decode_asr). Thread-safe.
 */
final class WhisperModel implements AutoCloseable {
    /** The files of an export, as this class loads them. */
    static final List<HubDownloader.Wanted> FILES = Stream.concat(Stream.of(
            HubDownloader.Wanted.file("config.json", true),
            HubDownloader.Wanted.file("generation_config.json", false),
            HubDownloader.Wanted.file("preprocessor_config.json", true),
            HubDownloader.Wanted.file("tokenizer.json", true),
            HubDownloader.Wanted.file("tokenizer_config.json", false)), Seq2SeqDecoder.GRAPHS.stream()).toList();

    private final OrtEnvironment env = OrtEnvironment.getEnvironment();
    private final OrtSession.SessionOptions options = new OrtSession.SessionOptions();
    private final WhisperFeatures features;
    private final GenerationSettings settings;
    private final Map<String, Integer> specialTokens;
    private final HuggingFaceTokenizer tokenizer;
    private final boolean cleanUpSpaces;
    private final OrtSession encoder;
    private final Seq2SeqDecoder decoder;

    private WhisperModel(Path folder) throws IOException, OrtException {
        JsonNode config = JsonFiles.readObject(folder.resolve("config.json"), true);
        settings = GenerationSettings.read(config, JsonFiles.readObject(folder.resolve("generation_config.json"), false));
        features = new WhisperFeatures(JsonFiles.readObject(folder.resolve("preprocessor_config.json"), true));
        specialTokens = addedTokens(JsonFiles.readObject(folder.resolve("tokenizer.json"), true));
        for (String token : List.of("<|transcribe|>", "<|notimestamps|>")) {
            if (!specialTokens.containsKey(token)) {
                throw new IOException("The tokenizer of " + folder + " has no " + token + ": it is no Whisper model");
            }
        }
        cleanUpSpaces = JsonFiles.readObject(folder.resolve("tokenizer_config.json"), false)
                .path("clean_up_tokenization_spaces").asBoolean(true);
        tokenizer = LocalEmbeddingModel.tokenizer(folder, 1024);
        LocalEmbeddingModel.configure(options);
        encoder = Seq2SeqDecoder.encoder(env, options, folder);
        decoder = Seq2SeqDecoder.open(env, options, folder);
    }

    /** Loads an export folder. Blocking: seconds, and the model's size in memory. */
    static WhisperModel load(Path folder) throws IOException, OrtException {
        try {
            return new WhisperModel(folder);
        } catch (RuntimeException e) { // the tokenizer binding's failures on a bad tokenizer.json
            throw new IOException("Cannot load the speech recognition model in " + folder + ": " + e.getMessage(), e);
        }
    }

    /** The tokenizer's added tokens ({@code <|en|>}, {@code <|transcribe|>}, ...), by content. */
    private static Map<String, Integer> addedTokens(JsonNode tokenizer) {
        Map<String, Integer> ids = new HashMap<>();
        for (JsonNode token : tokenizer.path("added_tokens")) {
            ids.put(token.path("content").asText(), token.path("id").asInt());
        }
        return ids;
    }

    /**
     * The transcript of 16 kHz audio, as the pipeline's {@code text}.
     *
     * @param language a Whisper language code, or null to let the model detect it
     */
    String transcribe(float[] audio, String language) throws OrtException {
        int[] prompt = prompt(language);
        float[] input = features.extract(audio);
        float[] states;
        long[] shape;
        try (OnnxTensor tensor = OnnxTensor.createTensor(env, FloatBuffer.wrap(input),
                new long[]{1, features.mels(), features.frames()});
             OrtSession.Result result = encoder.run(Map.of("input_features", tensor))) {
            OnnxTensor output = (OnnxTensor) result.get("last_hidden_state").orElseGet(() -> result.get(0));
            FloatBuffer buffer = output.getFloatBuffer();
            states = new float[buffer.remaining()];
            buffer.get(states);
            shape = ((TensorInfo) output.getInfo()).getShape();
        }
        long[] mask = new long[(int) shape[1]];
        Arrays.fill(mask, 1);
        int[] ids = decoder.generate(states, shape, mask, settings.withForcedDecoderIds(prompt));
        int timestampBegin = specialTokens.get("<|notimestamps|>") + 1;
        long[] text = Arrays.stream(ids).filter(id -> id < timestampBegin).asLongStream().toArray();
        String decoded = tokenizer.decode(text, true);
        return cleanUpSpaces ? Seq2SeqDecoder.cleanUpTokenizationSpaces(decoded) : decoded;
    }

    /** The forced decoder ids by position: the language (or none), the task, no timestamps. */
    private int[] prompt(String language) {
        int[] forced = {-1, -1, specialTokens.get("<|transcribe|>"), specialTokens.get("<|notimestamps|>")};
        if (language != null) {
            Integer id = specialTokens.get("<|" + language + "|>");
            if (id == null) {
                throw Refusal.badRequest("The speech recognition model has no language \"" + language + "\"");
            }
            forced[1] = id;
        }
        return forced;
    }

    @Override
    public void close() throws OrtException {
        encoder.close();
        decoder.close();
        options.close();
        tokenizer.close();
    }
}
