package tankard.speech;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.core.Refusal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * A WAV recording as ST reads the one the speech recognizer is sent (ST: src/endpoints/speech.js, getWaveFile, on
 * the wavefile package): samples converted to 32-bit float (integers over their positive or negative full scale,
 * as wavefile's toBitDepth), resampled to 16 kHz (wavefile's toSampleRate, see {@link Resampler}), and channels
 * merged as ST merges them: {@code sqrt(2) * (first + second) / 2}, further channels ignored.
 *
 * @param rate     samples a second, per channel
 * @param channels each channel's samples, as 32-bit floats
 */
record WavAudio(int rate, float[][] channels) {
    /** What Whisper hears (transformers.js's feature extractor's {@code sampling_rate}, which ST resamples to). */
    static final int SAMPLE_RATE = 16000;
    private static final Pattern DATA_URL_PREFIX = Pattern.compile("^data:[^,]*;base64,");
    private static final int PCM = 1;
    private static final int FLOAT = 3;
    private static final int EXTENSIBLE = 0xFFFE;

    /** The body's {@code audio}: a base64 data URL of a WAV file (bare base64 is let through too); else a 400. */
    static WavAudio fromDataUrl(JsonNode audio) {
        if (!audio.isTextual() || audio.asText().isEmpty()) {
            throw Refusal.badRequest("\"audio\" must be a WAV file as a base64 data URL");
        }
        byte[] bytes;
        try {
            // as Node's base64 decoding: characters outside the alphabet (line breaks) are skipped
            bytes = Base64.getMimeDecoder().decode(DATA_URL_PREFIX.matcher(audio.asText()).replaceFirst(""));
        } catch (IllegalArgumentException e) {
            throw Refusal.badRequest("\"audio\" is not base64: " + e.getMessage());
        }
        return parse(bytes);
    }

    /** A RIFF WAV file of PCM (8, 16, 24 or 32 bits) or float (32 or 64 bits) samples; else a 400 saying why. */
    static WavAudio parse(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length < 12 || !tag(bytes, 0).equals("RIFF") || !tag(bytes, 8).equals("WAVE")) {
            throw Refusal.badRequest("\"audio\" is not a WAV file (no RIFF WAVE header)");
        }
        int format = -1;
        int channels = 0;
        int rate = 0;
        int bits = 0;
        int dataStart = -1;
        int dataLength = 0;
        int at = 12;
        while (at + 8 <= bytes.length) {
            String id = tag(bytes, at);
            long size = Integer.toUnsignedLong(in.getInt(at + 4));
            int body = at + 8;
            if (id.equals("fmt ") && size >= 16 && body + 16 <= bytes.length) {
                format = Short.toUnsignedInt(in.getShort(body));
                channels = Short.toUnsignedInt(in.getShort(body + 2));
                rate = in.getInt(body + 4);
                bits = Short.toUnsignedInt(in.getShort(body + 14));
                if (format == EXTENSIBLE && size >= 26 && body + 26 <= bytes.length) {
                    format = Short.toUnsignedInt(in.getShort(body + 24)); // the sub-format GUID's first two bytes
                }
            } else if (id.equals("data")) {
                dataStart = body;
                // a recording streamed to its end may give a size past it: what is there is read, as wavefile does
                dataLength = (int) Math.min(size, bytes.length - body);
                break;
            }
            at = (int) Math.min(Integer.MAX_VALUE, body + size + (size & 1)); // chunks are word-aligned
        }
        if (format < 0 || dataStart < 0) {
            throw Refusal.badRequest("\"audio\" is not a WAV file: it has no " + (format < 0 ? "fmt" : "data") + " chunk");
        }
        boolean supported = (format == PCM && (bits == 8 || bits == 16 || bits == 24 || bits == 32))
                || (format == FLOAT && (bits == 32 || bits == 64));
        if (!supported || channels < 1 || rate < 1) {
            throw Refusal.badRequest("Unsupported WAV format (format " + format + ", " + bits + " bits, " + channels
                    + " channels, " + rate + " Hz): send PCM of 8, 16, 24 or 32 bits, or 32- or 64-bit float");
        }
        int width = bits / 8;
        int frames = dataLength / width / channels;
        float[][] samples = new float[channels][frames];
        for (int i = 0; i < frames; i++) {
            for (int c = 0; c < channels; c++) {
                samples[c][i] = sample(in, dataStart + (i * channels + c) * width, format, bits);
            }
        }
        return new WavAudio(rate, samples);
    }

    /** One sample as wavefile's toBitDepth('32f') makes it: an integer over 2^(bits-1) - 1 when positive, else 2^(bits-1). */
    private static float sample(ByteBuffer in, int at, int format, int bits) {
        if (format == FLOAT) {
            return bits == 32 ? in.getFloat(at) : (float) in.getDouble(at);
        }
        long value = switch (bits) {
            case 8 -> Byte.toUnsignedInt(in.get(at)) - 128; // 8-bit WAV is unsigned
            case 16 -> in.getShort(at);
            case 24 -> (in.get(at) & 0xff) | (in.get(at + 1) & 0xff) << 8 | in.get(at + 2) << 16;
            default -> in.getInt(at);
        };
        double half = Math.pow(2, bits) / 2;
        return (float) (value > 0 ? value / (half - 1) : value / half);
    }

    private static String tag(byte[] bytes, int at) {
        return new String(bytes, at, Math.min(4, bytes.length - at), StandardCharsets.ISO_8859_1);
    }

    /** What ST hands the pipeline: each channel at 16 kHz (kept as 32-bit floats), then the first two merged. */
    float[] mono16k() {
        float[][] resampled = new float[channels.length][];
        int used = Math.min(2, channels.length); // ST reads no further channel
        for (int c = 0; c < used; c++) {
            double[] samples = Resampler.resample(toDoubles(channels[c]), rate, SAMPLE_RATE);
            resampled[c] = new float[samples.length];
            for (int i = 0; i < samples.length; i++) {
                resampled[c][i] = (float) samples[i];
            }
        }
        if (used == 1) {
            return resampled[0];
        }
        float[] merged = new float[resampled[0].length];
        double scale = Math.sqrt(2);
        for (int i = 0; i < merged.length; i++) {
            merged[i] = (float) (scale * ((double) resampled[0][i] + resampled[1][i]) / 2);
        }
        return merged;
    }

    private static double[] toDoubles(float[] samples) {
        double[] doubles = new double[samples.length];
        for (int i = 0; i < samples.length; i++) {
            doubles[i] = samples[i];
        }
        return doubles;
    }
}
