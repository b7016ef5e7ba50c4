package tankard.summarize.onnx;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;

import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * SpeechT5's speech decoder loop over its merged decoder ({@code decoder_model_merged.onnx}), as transformers.js runs
 * it (sillytavern-transformers, src/models.js, SpeechT5ForTextToSpeech.generate_speech): each step feeds the frames so
 * far ({@code output_sequence}, zeros at first, then the step's {@code output_sequence_out}), the speaker's
 * embeddings, the encoder's states and mask and the key/value cache ({@link OnnxDecoder}'s names: empty and
 * {@code use_cache_branch} false at first; then the last step's decoder {@code present.*} and the first step's
 * encoder ones), and keeps the step's {@code spectrum} rows; it stops once a {@code prob} reaches the threshold or
 * at {@code maxlen}, never before {@code minlen} (both from the encoder's length over the reduction factor).
 * The results stay in ONNX Runtime between steps (no copies of the cache). Thread-safe (one cache a generation).
 */
public final class SpectrogramDecoder implements AutoCloseable {
    private static final String SPEAKER = "speaker_embeddings";

    /** transformers.js's defaults of generate_speech. */
    public record Settings(double threshold, double minLengthRatio, double maxLengthRatio) {
        public static final Settings DEFAULT = new Settings(0.5, 0.0, 20.0);
    }

    private final OrtEnvironment env;
    private final OrtSession session;

    private SpectrogramDecoder(OrtEnvironment env, OrtSession session) {
        this.env = env;
        this.session = session;
    }

    public static SpectrogramDecoder load(OrtEnvironment env, OrtSession.SessionOptions options, Path merged)
            throws OrtException {
        OrtSession session = env.createSession(merged.toString(), options);
        if (!session.getInputNames().contains(OnnxDecoder.BRANCH) || !session.getInputNames().contains(SPEAKER)) {
            session.close();
            throw new IllegalStateException(merged + " is not a merged SpeechT5 decoder (it takes no "
                    + OnnxDecoder.BRANCH + " or no " + SPEAKER + ")");
        }
        return new SpectrogramDecoder(env, session);
    }

    /** The size of the speaker embeddings the decoder takes, or -1 when its graph does not fix it. */
    public long speakerSize() throws OrtException {
        long[] shape = ((TensorInfo) session.getInputInfo().get(SPEAKER).getInfo()).getShape();
        return shape.length == 2 ? shape[1] : -1;
    }

    /**
     * The spectrogram, its rows one after another ({@code frames × mels} values).
     *
     * @param states  the encoder's {@code encoder_outputs}, {@code [1, length, hidden]}
     * @param mask    the encoder's {@code encoder_attention_mask}
     * @param speaker the speaker's embeddings, one row
     */
    public float[] generate(OnnxTensor states, OnnxTensor mask, float[] speaker, int mels, int reductionFactor,
                            Settings settings) throws OrtException {
        double ratio = (double) ((TensorInfo) states.getInfo()).getShape()[1] / reductionFactor;
        int maxLength = (int) Math.floor(ratio * settings.maxLengthRatio());
        int minLength = (int) Math.floor(ratio * settings.minLengthRatio());
        List<float[]> parts = new ArrayList<>();
        OrtSession.Result first = null;
        OrtSession.Result last = null;
        try (OnnxTensor speakerTensor = OnnxTensor.createTensor(env, FloatBuffer.wrap(speaker), new long[]{1, speaker.length})) {
            for (int step = 1; ; step++) {
                OrtSession.Result result = step(states, mask, speakerTensor, mels, first, last);
                if (last != first) {
                    last.close();
                }
                if (first == null) {
                    first = result;
                }
                last = result;
                parts.add(floats(result, "spectrum"));
                boolean stop = false;
                for (float p : floats(result, "prob")) {
                    stop |= p >= settings.threshold();
                }
                if (step >= minLength && (stop || step >= maxLength)) {
                    break;
                }
            }
        } finally {
            if (last != null && last != first) {
                last.close();
            }
            if (first != null) {
                first.close();
            }
        }
        int size = parts.stream().mapToInt(part -> part.length).sum();
        float[] spectrogram = new float[size];
        int at = 0;
        for (float[] part : parts) {
            System.arraycopy(part, 0, spectrogram, at, part.length);
            at += part.length;
        }
        return spectrogram;
    }

    /** One decoder step; {@code first} and {@code last} null on the first. */
    private OrtSession.Result step(OnnxTensor states, OnnxTensor mask, OnnxTensor speaker, int mels,
                                   OrtSession.Result first, OrtSession.Result last) throws OrtException {
        boolean cached = last != null;
        List<OnnxTensor> owned = new ArrayList<>();
        try {
            Map<String, OnnxTensor> given = new HashMap<>();
            given.put("encoder_hidden_states", states);
            given.put("encoder_attention_mask", mask);
            given.put(SPEAKER, speaker);
            given.put(OnnxDecoder.BRANCH, own(owned, OnnxTensor.createTensor(env, new boolean[]{cached})));
            given.put("output_sequence", cached ? output(last, "output_sequence_out")
                    : own(owned, OnnxTensor.createTensor(env, FloatBuffer.allocate(mels), new long[]{1, 1, mels})));
            Map<String, OnnxTensor> inputs = new HashMap<>();
            for (String name : session.getInputNames()) {
                OnnxTensor input = given.get(name);
                if (name.startsWith(OnnxDecoder.PAST)) {
                    String present = OnnxDecoder.PRESENT + name.substring(OnnxDecoder.PAST.length());
                    // the encoder's keys and values come from the first step: a later step's are not meant to be read
                    input = !cached ? own(owned, OnnxDecoder.emptyPast(env, session, name, 1))
                            : output(name.contains(".encoder.") ? first : last, present);
                }
                if (input == null) {
                    throw new IllegalStateException("The SpeechT5 decoder wants an input this runner does not know: " + name);
                }
                inputs.put(name, input);
            }
            return session.run(inputs);
        } finally {
            owned.forEach(OnnxTensor::close);
        }
    }

    private static OnnxTensor own(List<OnnxTensor> owned, OnnxTensor tensor) {
        owned.add(tensor);
        return tensor;
    }

    private static OnnxTensor output(OrtSession.Result result, String name) {
        OnnxValue value = result.get(name).orElseThrow(() -> new IllegalStateException("The SpeechT5 decoder has no output " + name));
        return (OnnxTensor) value;
    }

    /** A float output's values, whatever its shape. */
    public static float[] floats(OrtSession.Result result, String name) throws OrtException {
        return Tensors.of(result, name).values();
    }

    @Override
    public void close() throws OrtException {
        session.close();
    }
}
