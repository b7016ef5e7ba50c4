package tankard.speech;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import com.fasterxml.jackson.databind.JsonNode;
import tankard.core.Refusal;
import tankard.json.JsonFiles;
import tankard.summarize.onnx.HubDownloader;
import tankard.summarize.onnx.SpectrogramDecoder;
import tankard.vector.local.LocalEmbeddingModel;

import java.io.IOException;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A SpeechT5 text-to-speech model and its HiFi-GAN vocoder in the transformers.js layout, run as ST's text-to-speech
 * pipeline runs them (sillytavern-transformers, src/pipelines.js, TextToAudioPipeline._call_text_to_spectrogram;
 * src/models.js, SpeechT5ForTextToSpeech.generate_speech): the text tokenized (cut to the tokenizer's
 * {@code model_max_length}, its closing token too, as transformers.js truncates), the encoder, the decoder steps
 * ({@link SpectrogramDecoder}), the spectrogram through the vocoder; the audio at the
 * {@code preprocessor_config.json}'s {@code sampling_rate}. Unquantized graphs, as ST asks for them. Thread-safe.
 */
final class SpeechModel implements AutoCloseable {
    /** The text-to-speech model's files. */
    static final List<HubDownloader.Wanted> FILES = List.of(
            HubDownloader.Wanted.file("config.json", true),
            HubDownloader.Wanted.file("preprocessor_config.json", true),
            HubDownloader.Wanted.file("tokenizer.json", true),
            HubDownloader.Wanted.file("tokenizer_config.json", false),
            HubDownloader.Wanted.graph("encoder_model.onnx", true),
            HubDownloader.Wanted.graph("decoder_model_merged.onnx", true));
    /** The vocoder's files. */
    static final List<HubDownloader.Wanted> VOCODER_FILES = List.of(
            HubDownloader.Wanted.file("config.json", true),
            HubDownloader.Wanted.graph("model.onnx", true));

    /** Samples at a rate. */
    record Audio(float[] samples, int rate) {
    }

    private final OrtEnvironment env = OrtEnvironment.getEnvironment();
    private final OrtSession.SessionOptions options = new OrtSession.SessionOptions();
    private final HuggingFaceTokenizer tokenizer;
    private final int maxTokens;
    private final int reductionFactor;
    private final int mels;
    private final long speakerSize;
    private final int rate;
    private final OrtSession encoder;
    private final SpectrogramDecoder decoder;
    private final OrtSession vocoder;

    private SpeechModel(Path folder, Path vocoderFolder) throws IOException, OrtException {
        JsonNode config = JsonFiles.readObject(folder.resolve("config.json"), true);
        reductionFactor = config.path("reduction_factor").asInt(2);
        mels = config.path("num_mel_bins").asInt(80);
        JsonNode rateNode = JsonFiles.readObject(folder.resolve("preprocessor_config.json"), true).path("sampling_rate");
        if (!rateNode.canConvertToInt() || rateNode.asInt() < 1) {
            throw new IOException("The preprocessor_config.json in " + folder + " has no sampling_rate");
        }
        rate = rateNode.asInt();
        // absent: transformers.js compares with undefined and cuts nothing
        maxTokens = JsonFiles.readObject(folder.resolve("tokenizer_config.json"), false).path("model_max_length")
                .asInt(Integer.MAX_VALUE);
        // cut here, closing token included (DJL's truncation would keep it, and cuts at 512 unless told otherwise)
        tokenizer = LocalEmbeddingModel.tokenizer(folder, Map.of("addSpecialTokens", "true", "truncation", "false",
                "padding", "false"));
        LocalEmbeddingModel.configure(options);
        encoder = env.createSession(graph(folder, "encoder_model.onnx").toString(), options);
        decoder = SpectrogramDecoder.load(env, options, graph(folder, "decoder_model_merged.onnx"));
        vocoder = env.createSession(graph(vocoderFolder, "model.onnx").toString(), options);
        long fixed = decoder.speakerSize();
        speakerSize = fixed > 0 ? fixed : config.path("speaker_embedding_dim").asLong(-1);
    }

    /** Loads a model folder and its vocoder's. Blocking: seconds, and the models' size in memory. */
    static SpeechModel load(Path folder, Path vocoderFolder) throws IOException, OrtException {
        try {
            return new SpeechModel(folder, vocoderFolder);
        } catch (RuntimeException e) { // the tokenizer binding's failures on a bad tokenizer.json, a wrong graph
            throw new IOException("Cannot load the text-to-speech model in " + folder + ": " + e.getMessage(), e);
        }
    }

    private static Path graph(Path folder, String name) throws IOException {
        for (Path path : List.of(folder.resolve("onnx").resolve(name), folder.resolve(name))) {
            if (Files.isRegularFile(path)) {
                return path;
            }
        }
        throw new IOException("The model folder " + folder + " has no " + name);
    }

    /** The speech of the text in the speaker's voice; a 400 {@link Refusal} when the embeddings' size is wrong. */
    Audio synthesize(String text, float[] speaker) throws OrtException {
        if (speakerSize > 0 && speaker.length != speakerSize) {
            throw Refusal.badRequest("\"speaker\" holds " + speaker.length + " values; this model's speaker embeddings"
                    + " have " + speakerSize);
        }
        Encoding encoding = tokenizer.encode(text);
        long[] ids = encoding.getIds();
        if (ids.length > maxTokens) {
            ids = Arrays.copyOf(ids, maxTokens);
        }
        if (ids.length == 0) { // a tokenizer that adds no closing token, on blank text
            throw Refusal.badRequest("\"text\" has nothing to speak");
        }
        float[] spectrogram;
        try (OnnxTensor input = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), new long[]{1, ids.length});
             OrtSession.Result encoded = encoder.run(Map.of("input_ids", input))) {
            spectrogram = decoder.generate(output(encoded, "encoder_outputs"), output(encoded, "encoder_attention_mask"),
                    speaker, mels, reductionFactor, SpectrogramDecoder.Settings.DEFAULT);
        }
        try (OnnxTensor input = OnnxTensor.createTensor(env, FloatBuffer.wrap(spectrogram),
                new long[]{spectrogram.length / mels, mels});
             OrtSession.Result waveform = vocoder.run(Map.of("spectrogram", input))) {
            return new Audio(SpectrogramDecoder.floats(waveform, "waveform"), rate);
        }
    }

    private static OnnxTensor output(OrtSession.Result result, String name) {
        return (OnnxTensor) result.get(name).orElseThrow(() -> new IllegalStateException("The encoder has no output " + name));
    }

    @Override
    public void close() throws OrtException {
        encoder.close();
        decoder.close();
        vocoder.close();
        options.close();
        tokenizer.close();
    }
}
