package tankard.speech;

import ai.onnxruntime.OrtException;
import com.fasterxml.jackson.databind.JsonNode;
import tankard.core.Refusal;
import tankard.json.JsonFiles;
import tankard.summarize.onnx.HubDownloader;
import tankard.vector.local.Seq2SeqExport;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
    static final List<HubDownloader.Wanted> FILES = Seq2SeqExport.FILES;

    private final WhisperFeatures features;
    private final Map<String, Integer> specialTokens;
    private final Seq2SeqExport export;

    private WhisperModel(Path folder) throws IOException, OrtException {
        features = new WhisperFeatures(JsonFiles.readObject(folder.resolve("preprocessor_config.json"), true));
        specialTokens = addedTokens(JsonFiles.readObject(folder.resolve("tokenizer.json"), true));
        for (String token : List.of("<|transcribe|>", "<|notimestamps|>")) {
            if (!specialTokens.containsKey(token)) {
                throw new IOException("The tokenizer of " + folder + " has no " + token + ": it is no Whisper model");
            }
        }
        export = new Seq2SeqExport(folder);
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
        int[] ids = export.generate("input_features", input, new long[]{1, features.mels(), features.frames()},
                export.settings().withForcedDecoderIds(prompt));
        int timestampBegin = specialTokens.get("<|notimestamps|>") + 1;
        long[] text = Arrays.stream(ids).filter(id -> id < timestampBegin).asLongStream().toArray();
        return export.decode(text);
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
        export.close();
    }
}
