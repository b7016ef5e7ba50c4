package tankard.summarize.onnx;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;

import java.nio.file.Path;

/**
 * The decoder half of an ONNX encoder-decoder export (Optimum's names) and its generation: greedy or beam search
 * from the decoder start token over the encoder's states. Either separate decoders ({@code decoder_model.onnx},
 * optionally {@code decoder_with_past_model.onnx} for a key/value cache) or one merged decoder
 * ({@code decoder_model_merged.onnx}). Shared by the BART summarizer and the image captioner; thread-safe (the
 * sessions are, and each generation has its own cache).
 */
public final class Seq2SeqDecoder implements AutoCloseable {
    private final OrtEnvironment env;
    private final OrtSession decoder;
    private final OrtSession withPast;

    private Seq2SeqDecoder(OrtEnvironment env, OrtSession decoder, OrtSession withPast) {
        this.env = env;
        this.decoder = decoder;
        this.withPast = withPast;
    }

    /** Separate decoders; {@code withPast} null for none (every step then runs the whole sequence). */
    public static Seq2SeqDecoder separate(OrtEnvironment env, OrtSession.SessionOptions options, Path decoder,
                                          Path withPast) throws OrtException {
        OrtSession first = env.createSession(decoder.toString(), options);
        try {
            return new Seq2SeqDecoder(env, first, withPast == null ? null : env.createSession(withPast.toString(), options));
        } catch (OrtException | RuntimeException e) {
            first.close();
            throw e;
        }
    }

    /** A merged decoder: both steps in one graph, chosen by its {@code use_cache_branch} input. */
    public static Seq2SeqDecoder merged(OrtEnvironment env, OrtSession.SessionOptions options, Path merged)
            throws OrtException {
        OrtSession session = env.createSession(merged.toString(), options);
        return new Seq2SeqDecoder(env, session, session);
    }

    /** Whether generation uses a key/value cache. */
    public boolean cached() {
        return withPast != null;
    }

    /**
     * The generated ids, without the start token and the closing EOS.
     *
     * @param states      the encoder's {@code last_hidden_state}, one row: its values, row-major
     * @param shape       its shape, {@code [1, length, hidden]}
     * @param encoderMask the encoder's attention mask, {@code length} values (for a decoder that takes it)
     */
    public int[] generate(float[] states, long[] shape, long[] encoderMask, GenerationSettings settings)
            throws OrtException {
        try (OnnxDecoder steps = new OnnxDecoder(env, decoder, withPast, new Tensors(states, shape), encoderMask)) {
            return Generator.generate(steps, settings);
        } catch (OrtException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The clean-up of a decoded text that a tokenizer's {@code clean_up_tokenization_spaces} asks for (Transformers'
     * and transformers.js's {@code clean_up_tokenization}): no space before punctuation and English contractions.
     */
    public static String cleanUpTokenizationSpaces(String text) {
        return text.replace(" .", ".").replace(" ?", "?").replace(" !", "!").replace(" ,", ",")
                .replace(" ' ", "'").replace(" n't", "n't").replace(" 'm", "'m").replace(" 's", "'s")
                .replace(" 've", "'ve").replace(" 're", "'re");
    }

    @Override
    public void close() throws OrtException {
        decoder.close();
        if (withPast != null && withPast != decoder) {
            withPast.close();
        }
    }
}
