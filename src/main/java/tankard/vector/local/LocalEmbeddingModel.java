package tankard.vector.local;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtLoggingLevel;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.JsonFiles;
import tankard.tokenizer.NativeLibraries;
import tankard.util.Threads;

import java.io.IOException;
import java.io.InputStream;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A sentence-embedding model in the Hugging Face / transformers.js layout ({@code tokenizer.json},
 * {@code config.json}, the graph as {@code onnx/model_quantized.onnx}, {@code onnx/model.onnx} or
 * {@code model.onnx}), run as ST's transformers.js feature-extraction pipeline runs it: the graph's first output
 * (the last hidden state) mean-pooled over the attention mask and L2-normalised (ST: src/vectors/embedding.js,
 * getTransformersVector). Not thread-safe: one thread calls it, and it runs the texts on a pool of its own.
 */
public final class LocalEmbeddingModel implements AutoCloseable {
    /** The graphs in the order transformers.js would pick them (it loads the quantized one by default). */
    public static final List<String> GRAPHS = List.of("onnx/model_quantized.onnx", "onnx/model.onnx", "model.onnx");

    private static final int RUNNERS = Math.max(1, Runtime.getRuntime().availableProcessors());

    private final OrtEnvironment env = OrtEnvironment.getEnvironment();
    /** Runs the texts beyond the caller's own share, one each at a time. */
    private final ExecutorService runners = Threads.boundedPool("embedding-run", RUNNERS - 1);
    private final OrtSession.SessionOptions options = new OrtSession.SessionOptions();
    private final OrtSession session;
    private final HuggingFaceTokenizer tokenizer;
    private final boolean tokenTypes;
    private final int maxLength;

    private LocalEmbeddingModel(Path folder) throws IOException, OrtException {
        Path graph = graph(folder);
        maxLength = maxLength(folder);
        tokenizer = tokenizer(folder, maxLength);
        configure(options);
        session = env.createSession(graph.toString(), options);
        tokenTypes = session.getInputNames().contains("token_type_ids");
    }

    /** The folder's ONNX graph, the first of {@link #GRAPHS} there. */
    public static Path graph(Path folder) throws IOException {
        return GRAPHS.stream().map(folder::resolve).filter(Files::isRegularFile).findFirst()
                .orElseThrow(() -> new IOException("The model folder " + folder + " has no ONNX graph: none of "
                        + String.join(", ", GRAPHS)));
    }

    /** The folder's longest input, from its {@code config.json} and {@code tokenizer_config.json}. */
    public static int maxLength(Path folder) throws IOException {
        return maxLength(JsonFiles.readObject(folder.resolve("config.json"), false),
                JsonFiles.readObject(folder.resolve("tokenizer_config.json"), false));
    }

    /**
     * The folder's {@code tokenizer.json}, adding the special tokens and truncating at {@code maxLength}, as
     * transformers.js's pipelines call it; no padding (each text runs alone).
     */
    public static HuggingFaceTokenizer tokenizer(Path folder, int maxLength) throws IOException {
        // padding is done here, per batch; the file's own settings (LangChain4j's pads to 128) are overridden
        return tokenizer(folder, Map.of("addSpecialTokens", "true", "truncation", "true",
                "maxLength", String.valueOf(maxLength), "padding", "false"));
    }

    /** The folder's {@code tokenizer.json} with DJL's options ({@code addSpecialTokens}, {@code truncation}, …). */
    public static HuggingFaceTokenizer tokenizer(Path folder, Map<String, String> options) throws IOException {
        NativeLibraries.stayOffline();
        try (InputStream in = Files.newInputStream(folder.resolve("tokenizer.json"))) {
            return HuggingFaceTokenizer.newInstance(in, options);
        }
    }

    /** Session options for runs of one text each, as many at once as callers: one thread a run, no spinning. */
    public static void configure(OrtSession.SessionOptions options) throws OrtException {
        // one thread per run, and as many runs at once as there are cores: a text of a few hundred tokens is too
        // small to share between threads (measured on 2 cores: 96 texts/s with two threads a run, 206 with two
        // runs of one thread at once)
        options.setIntraOpNumThreads(1);
        options.setSessionLogLevel(OrtLoggingLevel.ORT_LOGGING_LEVEL_ERROR);
        // threads that spin while waiting for work take the cores from everything else on a small machine: runs
        // measured twice as slow with spinning on a busy 2-core one
        options.addConfigEntry("session.intra_op.allow_spinning", "0");
    }

    /**
     * The inputs of one text's run: {@code input_ids}, an all-ones {@code attention_mask} and, when the graph
     * takes them, zero {@code token_type_ids}. The caller closes them.
     */
    public static Map<String, OnnxTensor> inputs(OrtEnvironment env, long[] ids, boolean tokenTypes) throws OrtException {
        long[] shape = {1, ids.length};
        long[] mask = new long[ids.length];
        Arrays.fill(mask, 1);
        Map<String, OnnxTensor> inputs = new HashMap<>();
        try {
            inputs.put("input_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape));
            inputs.put("attention_mask", OnnxTensor.createTensor(env, LongBuffer.wrap(mask), shape));
            if (tokenTypes) {
                inputs.put("token_type_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(new long[ids.length]), shape));
            }
            return inputs;
        } catch (OrtException | RuntimeException e) {
            inputs.values().forEach(OnnxTensor::close);
            throw e;
        }
    }

    /** Loads a model folder. Blocking: seconds, and the model's size in memory. */
    public static LocalEmbeddingModel load(Path folder) throws IOException, OrtException {
        return new LocalEmbeddingModel(folder);
    }

    /**
     * The longest input, as transformers.js truncates: the tokenizer's {@code model_max_length}, within the model's
     * {@code max_position_embeddings}; 512 when neither says.
     */
    static int maxLength(JsonNode config, JsonNode tokenizerConfig) {
        int positions = config.path("max_position_embeddings").asInt(0);
        double tokenizerMax = tokenizerConfig.path("model_max_length").asDouble(0);
        int max = tokenizerMax > 0 && tokenizerMax < 1e6 ? (int) tokenizerMax : positions > 0 ? positions : 512;
        return positions > 0 ? Math.min(max, positions) : max;
    }

    /** The longest input in tokens, special tokens included. */
    public int maxLength() {
        return maxLength;
    }

    /**
     * The unit-length vectors of {@code texts}, in their order. Each text runs alone, as in ST: the quantized
     * graphs scale their activations by the range of the whole input tensor, so a text padded into a batch with
     * others gets a vector about 1% off its own (cosine 0.99), and a text's vector would depend on its neighbours.
     */
    public List<float[]> embed(List<String> texts) throws OrtException {
        Encoding[] encodings = tokenizer.batchEncode(texts.toArray(String[]::new));
        float[][] vectors = new float[encodings.length][];
        AtomicInteger next = new AtomicInteger();
        Callable<Void> work = () -> {
            for (int i; (i = next.getAndIncrement()) < encodings.length; ) {
                vectors[i] = run(encodings[i].getIds());
            }
            return null;
        };
        List<Future<Void>> helpers = new ArrayList<>();
        for (int t = 1; t < Math.min(encodings.length, RUNNERS); t++) {
            helpers.add(runners.submit(work));
        }
        try {
            work.call();
            for (Future<Void> helper : helpers) {
                helper.get();
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof OrtException ort) {
                throw ort;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while embedding", e);
        } catch (OrtException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            helpers.forEach(helper -> helper.cancel(false));
        }
        return Arrays.asList(vectors);
    }

    /** One run of the graph: the text's pooled, normalised vector. */
    private float[] run(long[] ids) throws OrtException {
        Map<String, OnnxTensor> inputs = inputs(env, ids, tokenTypes);
        try {
            try (OrtSession.Result result = session.run(inputs)) {
                OnnxTensor states = (OnnxTensor) result.get(0);
                long[] statesShape = ((TensorInfo) states.getInfo()).getShape();
                if (statesShape.length != 3) {
                    throw new IllegalStateException("The model's first output is not a last hidden state: its shape is "
                            + Arrays.toString(statesShape));
                }
                return meanPool(states.getFloatBuffer(), ids.length, (int) statesShape[2]);
            }
        } finally {
            inputs.values().forEach(OnnxTensor::close);
        }
    }

    /** The mean of the token states, L2-normalised (every token is unmasked: the text runs alone). */
    private static float[] meanPool(FloatBuffer states, int tokens, int hidden) {
        float[] vector = new float[hidden];
        for (int t = 0; t < tokens; t++) {
            for (int h = 0; h < hidden; h++) {
                vector[h] += states.get(t * hidden + h);
            }
        }
        double norm = 0;
        for (int h = 0; h < hidden; h++) {
            vector[h] /= Math.max(1, tokens);
            norm += (double) vector[h] * vector[h];
        }
        float scale = (float) (1 / Math.max(Math.sqrt(norm), 1e-12));
        for (int h = 0; h < hidden; h++) {
            vector[h] *= scale;
        }
        return vector;
    }

    @Override
    public void close() throws OrtException {
        runners.shutdown();
        session.close();
        options.close();
        tokenizer.close();
    }
}
