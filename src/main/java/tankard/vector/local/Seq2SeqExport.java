package tankard.vector.local;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.JsonFiles;
import tankard.summarize.onnx.GenerationSettings;
import tankard.summarize.onnx.HubDownloader;
import tankard.summarize.onnx.Seq2SeqDecoder;

import java.io.IOException;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What the local captioner and speech recognizer share of a transformers.js encoder-decoder export: the encoder,
 * the decoder (a merged one preferred, as transformers.js loads, else separate ones), the generation settings of
 * {@code config.json} and {@code generation_config.json}, and the tokenizer that turns the generated ids into text
 * (special tokens skipped, spaces cleaned up as {@code tokenizer_config.json} says). Quantized graphs first, as ST
 * asks for them. Thread-safe.
 */
public final class Seq2SeqExport implements AutoCloseable {
    /** The files such an export needs, with the graphs {@link Seq2SeqDecoder} looks for. */
    public static final List<HubDownloader.Wanted> FILES = Stream.concat(Stream.of(
            HubDownloader.Wanted.file("config.json", true),
            HubDownloader.Wanted.file("generation_config.json", false),
            HubDownloader.Wanted.file("preprocessor_config.json", true),
            HubDownloader.Wanted.file("tokenizer.json", true),
            HubDownloader.Wanted.file("tokenizer_config.json", false)), Seq2SeqDecoder.GRAPHS.stream()).toList();

    private final OrtEnvironment env = OrtEnvironment.getEnvironment();
    private final OrtSession.SessionOptions options = new OrtSession.SessionOptions();
    private final OrtSession encoder;
    private final Seq2SeqDecoder decoder;
    private final HuggingFaceTokenizer tokenizer;
    private final boolean cleanUpSpaces;
    private final GenerationSettings settings;

    /** Loads the export in the folder. Blocking: seconds, and the model's size in memory. */
    public Seq2SeqExport(Path folder) throws IOException, OrtException {
        JsonNode config = JsonFiles.readObject(folder.resolve("config.json"), true);
        settings = GenerationSettings.read(config, JsonFiles.readObject(folder.resolve("generation_config.json"), false));
        cleanUpSpaces = JsonFiles.readObject(folder.resolve("tokenizer_config.json"), false)
                .path("clean_up_tokenization_spaces").asBoolean(true);
        tokenizer = LocalEmbeddingModel.tokenizer(folder, 1024);
        LocalEmbeddingModel.configure(options);
        encoder = Seq2SeqDecoder.encoder(env, options, folder);
        decoder = Seq2SeqDecoder.open(env, options, folder);
    }

    /** The model's own generation settings. */
    public GenerationSettings settings() {
        return settings;
    }

    /**
     * The ids generated from the encoder's {@code last_hidden_state} (its first output when it has no such name)
     * for one input of the given name and shape, with these settings.
     */
    public int[] generate(String inputName, float[] input, long[] inputShape, GenerationSettings with) throws OrtException {
        float[] states;
        long[] shape;
        try (OnnxTensor tensor = OnnxTensor.createTensor(env, FloatBuffer.wrap(input), inputShape);
             OrtSession.Result result = encoder.run(Map.of(inputName, tensor))) {
            OnnxTensor output = (OnnxTensor) result.get("last_hidden_state").orElseGet(() -> result.get(0));
            FloatBuffer buffer = output.getFloatBuffer();
            states = new float[buffer.remaining()];
            buffer.get(states);
            shape = ((TensorInfo) output.getInfo()).getShape();
        }
        long[] mask = new long[(int) shape[1]];
        Arrays.fill(mask, 1);
        return decoder.generate(states, shape, mask, with);
    }

    /** The text of the ids, special tokens skipped, spaces cleaned up when the tokenizer's config says so. */
    public String decode(long[] ids) {
        String text = tokenizer.decode(ids, true);
        return cleanUpSpaces ? Seq2SeqDecoder.cleanUpTokenizationSpaces(text) : text;
    }

    @Override
    public void close() throws OrtException {
        encoder.close();
        decoder.close();
        options.close();
        tokenizer.close();
    }
}
