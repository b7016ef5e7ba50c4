package tankard.summarize.onnx;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The decoder half of an ONNX encoder-decoder export (Optimum's names) and its generation: greedy or beam search
 * from the decoder start token over the encoder's states. Either separate decoders ({@code decoder_model.onnx},
 * optionally {@code decoder_with_past_model.onnx} for a key/value cache) or one merged decoder
 * ({@code decoder_model_merged.onnx}). Shared by the BART summarizer, the image captioner and the speech
 * recognizer; thread-safe (the sessions are, and each generation has its own cache).
 */
public final class Seq2SeqDecoder implements AutoCloseable {
    /** A transformers.js export's graphs, as it looks for them: quantized first (ST asks for them), then plain. */
    static final List<String> ENCODERS = List.of("onnx/encoder_model_quantized.onnx", "onnx/encoder_model.onnx",
            "encoder_model.onnx");
    static final List<String> MERGED = List.of("onnx/decoder_model_merged_quantized.onnx",
            "onnx/decoder_model_merged.onnx", "decoder_model_merged.onnx");
    static final List<String> DECODERS = List.of("onnx/decoder_model.onnx", "decoder_model.onnx");
    static final List<String> WITH_PAST = List.of("onnx/decoder_with_past_model.onnx", "decoder_with_past_model.onnx");
    /** The graphs to download for {@link #open}: an encoder, and a merged decoder or else a plain one. */
    public static final List<HubDownloader.Wanted> GRAPHS = List.of(new HubDownloader.Wanted(ENCODERS, true),
            new HubDownloader.Wanted(Stream.concat(MERGED.stream(), DECODERS.stream()).toList(), true));

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

    /**
     * The decoder of a transformers.js export folder: its merged decoder (as transformers.js loads), else
     * {@code decoder_model.onnx} with {@code decoder_with_past_model.onnx} when there is one.
     */
    public static Seq2SeqDecoder open(OrtEnvironment env, OrtSession.SessionOptions options, Path folder)
            throws IOException, OrtException {
        Path merged = first(folder, MERGED, false);
        return merged != null ? merged(env, options, merged)
                : separate(env, options, first(folder, DECODERS, true), first(folder, WITH_PAST, false));
    }

    /** The encoder of a transformers.js export folder (its quantized graph first). */
    public static OrtSession encoder(OrtEnvironment env, OrtSession.SessionOptions options, Path folder)
            throws IOException, OrtException {
        return env.createSession(first(folder, ENCODERS, true).toString(), options);
    }

    /** The first of {@code names} in the folder; null (or, when required, an IOException) when none is there. */
    static Path first(Path folder, List<String> names, boolean required) throws IOException {
        for (String name : names) {
            if (Files.isRegularFile(folder.resolve(name))) {
                return folder.resolve(name);
            }
        }
        if (required) {
            throw new IOException("The model folder " + folder + " has none of " + String.join(", ", names));
        }
        return null;
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
