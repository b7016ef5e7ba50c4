package tankard.summarize.onnx;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;

import java.nio.FloatBuffer;
import java.util.Arrays;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The decoder steps of one generation over an Optimum export. With {@code decoder_with_past_model.onnx} the first
 * step runs {@code decoder_model.onnx} and keeps its keys and values ({@code present.*}), and each later step feeds
 * only the newest tokens with the cache ({@code past_key_values.*}), its decoder rows reordered to follow the
 * beams; the encoder's keys and values are the same for every beam and stay as they are. Without it, every step
 * runs the whole sequence through {@code decoder_model.onnx}. A merged decoder ({@code decoder_model_merged.onnx},
 * both graphs in one, chosen by its {@code use_cache_branch} input) is both: its first step gets empty keys and values
 * and {@code use_cache_branch} false, as transformers.js feeds it (sillytavern-transformers, src/models.js,
 * seq2seqForward and addPastKeyValues). Not thread-safe: one per generation.
 */
final class OnnxDecoder implements StepDecoder, AutoCloseable {
    static final String PAST = "past_key_values.";
    static final String PRESENT = "present.";
    static final String BRANCH = "use_cache_branch";

    private final OrtEnvironment env;
    private final OrtSession decoder;
    private final OrtSession withPast;
    private final Tensors encoderStates;
    private final long[] encoderMask;
    /** Per batch size: the encoder's states, mask and (with a cache) keys and values, repeated for each row. */
    private final Map<String, Map<String, OnnxTensor>> encoderInputs = new HashMap<>();
    /** The encoder's keys and values from the first step, one row. */
    private final Map<String, Tensors> encoderCache = new LinkedHashMap<>();
    /** The decoder's keys and values after the last step, one row per sequence of that step. */
    private Map<String, Tensors> decoderCache = new LinkedHashMap<>();

    OnnxDecoder(OrtEnvironment env, OrtSession decoder, OrtSession withPast, Tensors encoderStates, long[] encoderMask) {
        this.env = env;
        this.decoder = decoder;
        this.withPast = withPast;
        this.encoderStates = encoderStates;
        this.encoderMask = encoderMask;
    }

    @Override
    public float[][] next(int[][] sequences, int[] parents) throws OrtException {
        boolean cached = withPast != null && parents != null;
        OrtSession session = cached ? withPast : decoder;
        boolean merged = session.getInputNames().contains(BRANCH);
        int batch = sequences.length;
        int length = sequences[0].length;
        int fed = cached ? 1 : length;
        long[] ids = new long[batch * fed];
        for (int b = 0; b < batch; b++) {
            for (int i = 0; i < fed; i++) {
                ids[b * fed + i] = sequences[b][length - fed + i];
            }
        }
        Map<String, OnnxTensor> inputs = new HashMap<>();
        Map<String, OnnxTensor> owned = new HashMap<>();
        try {
            owned.put("input_ids", Tensors.longs(env, ids, batch, fed));
            if (cached) {
                for (Map.Entry<String, Tensors> entry : decoderCache.entrySet()) {
                    owned.put(PAST + entry.getKey(), entry.getValue().select(parents).tensor(env));
                }
            } else if (merged) {
                for (String name : session.getInputNames()) {
                    if (name.startsWith(PAST)) {
                        owned.put(name, emptyPast(env, session, name, batch));
                    }
                }
            }
            if (merged) {
                owned.put(BRANCH, OnnxTensor.createTensor(env, new boolean[]{cached}));
            }
            Map<String, OnnxTensor> shared = encoderInputs(session, batch, cached);
            for (String name : session.getInputNames()) {
                OnnxTensor input = owned.containsKey(name) ? owned.get(name) : shared.get(name);
                if (input == null) {
                    throw new IllegalStateException("The decoder wants an input this runner does not know: " + name);
                }
                inputs.put(name, input);
            }
            try (OrtSession.Result result = session.run(inputs)) {
                Map<String, Tensors> presents = new LinkedHashMap<>();
                for (String name : session.getOutputNames()) {
                    if (!name.startsWith(PRESENT) || withPast == null) {
                        continue;
                    }
                    String key = name.substring(PRESENT.length());
                    if (key.contains(".encoder.")) {
                        if (!cached) {
                            encoderCache.put(key, Tensors.of(result, name));
                        }
                    } else {
                        presents.put(key, Tensors.of(result, name));
                    }
                }
                decoderCache = presents;
                return lastLogits(Tensors.of(result, "logits"));
            }
        } finally {
            for (OnnxTensor tensor : owned.values()) {
                tensor.close();
            }
        }
    }

    /** A merged decoder's past keys or values before the first step: {@code [batch, heads, 0, head size]}. */
    static OnnxTensor emptyPast(OrtEnvironment env, OrtSession session, String name, int batch) throws OrtException {
        long[] shape = ((TensorInfo) session.getInputInfo().get(name).getInfo()).getShape().clone();
        if (shape.length != 4 || shape[1] < 0 || shape[3] < 0) {
            throw new IllegalStateException("The merged decoder's " + name + " has no fixed heads and head size: "
                    + Arrays.toString(shape));
        }
        shape[0] = batch;
        shape[2] = 0;
        return OnnxTensor.createTensor(env, FloatBuffer.allocate(0), shape);
    }

    private static float[][] lastLogits(Tensors logits) {
        int batch = (int) logits.shape()[0];
        int length = (int) logits.shape()[1];
        int vocab = (int) logits.shape()[2];
        float[][] rows = new float[batch][vocab];
        for (int b = 0; b < batch; b++) {
            System.arraycopy(logits.values(), (b * length + length - 1) * vocab, rows[b], 0, vocab);
        }
        return rows;
    }

    /** Only what the session takes: the encoder's states are large and a cached step does not need them. */
    private Map<String, OnnxTensor> encoderInputs(OrtSession session, int batch, boolean cached) throws OrtException {
        String key = batch + (cached ? " cached" : "");
        Map<String, OnnxTensor> inputs = encoderInputs.get(key);
        if (inputs != null) {
            return inputs;
        }
        int[] rows = Tensors.repeat(0, batch);
        inputs = new HashMap<>();
        encoderInputs.put(key, inputs);
        if (session.getInputNames().contains("encoder_hidden_states")) {
            inputs.put("encoder_hidden_states", encoderStates.select(rows).tensor(env));
        }
        long[] mask = new long[batch * encoderMask.length];
        for (int b = 0; b < batch; b++) {
            System.arraycopy(encoderMask, 0, mask, b * encoderMask.length, encoderMask.length);
        }
        inputs.put("encoder_attention_mask", Tensors.longs(env, mask, batch, encoderMask.length));
        if (cached) {
            for (Map.Entry<String, Tensors> entry : encoderCache.entrySet()) {
                inputs.put(PAST + entry.getKey(), entry.getValue().select(rows).tensor(env));
            }
        }
        return inputs;
    }

    @Override
    public void close() {
        encoderInputs.values().forEach(tensors -> tensors.values().forEach(OnnxTensor::close));
    }
}
