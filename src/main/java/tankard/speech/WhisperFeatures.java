package tankard.speech;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Arrays;

/**
 * Whisper's log-mel input as transformers.js's WhisperFeatureExtractor computes it (sillytavern-transformers,
 * src/processors.js, WhisperFeatureExtractor; src/utils/audio.js, spectrogram and mel_filter_bank): the audio padded
 * with zeros to {@code n_samples} (30 s), or cut there; reflect-padded by half a window each side; periodic Hann
 * frames of {@code n_fft} every {@code hop_length} samples, the first {@code nb_max_frames} kept; their power spectra
 * through {@code feature_size} Slaney mel filters from 0 to 8 kHz (or the config's {@code mel_filters}), floored at
 * 1e-10; log10; clamped to the maximum minus 8; {@code (x + 4) / 4}. 32-bit floats where transformers.js keeps them.
 */
final class WhisperFeatures {
    private final int mels;
    private final int nFft;
    private final int hop;
    private final int samples;
    private final int frames;
    private final double[] window;
    private final double[][] filters;
    private final double[] cos;
    private final double[] sin;

    WhisperFeatures(JsonNode config) {
        mels = config.path("feature_size").asInt(80);
        nFft = config.path("n_fft").asInt(400);
        hop = config.path("hop_length").asInt(160);
        int rate = config.path("sampling_rate").asInt(WavAudio.SAMPLE_RATE);
        samples = config.path("n_samples").asInt(config.path("chunk_length").asInt(30) * rate);
        frames = config.path("nb_max_frames").asInt(samples / hop);
        int bins = nFft / 2 + 1;
        filters = config.path("mel_filters").isArray() ? given(config.path("mel_filters"), bins)
                : slaneyFilters(bins, mels, rate);
        window = new double[nFft];
        double factor = Math.PI / nFft; // hanning(n_fft + 1), its last value dropped: periodic
        for (int i = 0; i < nFft; i++) {
            window[i] = 0.5 + 0.5 * Math.cos(factor * (2 * i - nFft));
        }
        cos = new double[nFft];
        sin = new double[nFft];
        for (int i = 0; i < nFft; i++) {
            cos[i] = Math.cos(2 * Math.PI * i / nFft);
            sin[i] = Math.sin(2 * Math.PI * i / nFft);
        }
    }

    int mels() {
        return mels;
    }

    int frames() {
        return frames;
    }

    /** {@code input_features} of one recording at 16 kHz: {@code [mels, frames]}, row-major. */
    float[] extract(float[] audio) {
        float[] waveform = Arrays.copyOf(audio, samples); // zeros after the audio; longer audio is cut at 30 s
        int half = (nFft - 1) / 2 + 1;
        float[] padded = new float[samples + 2 * half];
        System.arraycopy(waveform, 0, padded, half, samples);
        int last = samples - 1;
        for (int i = 1; i <= half; i++) {
            padded[half - i] = waveform[reflect(i, last)];
            padded[last + half + i] = waveform[reflect(last - i, last)];
        }
        int available = 1 + (padded.length - nFft) / hop;
        int used = Math.min(available, frames);
        int bins = nFft / 2 + 1;
        float[] spec = new float[mels * frames];
        double[] frame = new double[nFft];
        double[] power = new double[bins];
        for (int f = 0; f < used; f++) {
            boolean silent = true;
            for (int j = 0; j < nFft; j++) {
                frame[j] = padded[f * hop + j] * window[j];
                silent &= frame[j] == 0;
            }
            if (silent) {
                Arrays.fill(power, 0); // the padding after short audio: its spectrum is zero, no need to compute it
            } else {
                powerSpectrum(frame, power);
            }
            for (int m = 0; m < mels; m++) {
                double[] filter = filters[m];
                double sum = 0;
                for (int k = 0; k < bins; k++) {
                    sum += filter[k] * power[k];
                }
                spec[m * frames + f] = (float) Math.log10((float) Math.max(1e-10, sum));
            }
        }
        float max = Float.NEGATIVE_INFINITY;
        for (float value : spec) {
            max = Math.max(max, value);
        }
        for (int i = 0; i < spec.length; i++) {
            spec[i] = (float) ((Math.max(spec[i], max - 8.0) + 4.0) / 4.0);
        }
        return spec;
    }

    private static int reflect(int i, int w) {
        return Math.abs((i + w) % (2 * w) - w);
    }

    /** |DFT|² of the first {@code n_fft / 2 + 1} bins (a direct DFT: the same values as transformers.js's FFT, to rounding). */
    private void powerSpectrum(double[] frame, double[] power) {
        for (int k = 0; k < power.length; k++) {
            double re = 0;
            double im = 0;
            int index = 0;
            for (int j = 0; j < nFft; j++) {
                re += frame[j] * cos[index];
                im -= frame[j] * sin[index];
                index += k;
                if (index >= nFft) {
                    index -= nFft;
                }
            }
            power[k] = re * re + im * im;
        }
    }

    /** A config's own {@code mel_filters}: {@code [mels][bins]} as transformers.js reads them (or the transpose). */
    private double[][] given(JsonNode rows, int bins) {
        boolean transposed = rows.size() == bins && rows.path(0).size() == mels;
        double[][] filters = new double[mels][bins];
        for (int m = 0; m < mels; m++) {
            for (int k = 0; k < bins; k++) {
                filters[m][k] = (transposed ? rows.path(k).path(m) : rows.path(m).path(k)).asDouble();
            }
        }
        return filters;
    }

    /** mel_filter_bank(bins, mels, 0, 8000, rate, "slaney", "slaney"): triangles in Hz, Slaney-normalized. */
    static double[][] slaneyFilters(int bins, int mels, int rate) {
        double melMin = hertzToMel(0);
        double melMax = hertzToMel(8000);
        double[] filterFreqs = new double[mels + 2];
        double melStep = (melMax - melMin) / (mels + 1);
        for (int i = 0; i < mels + 2; i++) {
            filterFreqs[i] = melToHertz(melMin + melStep * i);
        }
        double[] fftFreqs = new double[bins];
        double fftStep = (double) Math.floorDiv(rate, 2) / (bins - 1);
        for (int j = 0; j < bins; j++) {
            fftFreqs[j] = fftStep * j;
        }
        double[][] filters = new double[mels][bins];
        for (int i = 0; i < mels; i++) {
            double enorm = 2.0 / (filterFreqs[i + 2] - filterFreqs[i]);
            for (int j = 0; j < bins; j++) {
                double down = -(filterFreqs[i] - fftFreqs[j]) / (filterFreqs[i + 1] - filterFreqs[i]);
                double up = (filterFreqs[i + 2] - fftFreqs[j]) / (filterFreqs[i + 2] - filterFreqs[i + 1]);
                filters[i][j] = Math.max(0, Math.min(down, up)) * enorm;
            }
        }
        return filters;
    }

    private static double hertzToMel(double freq) {
        return freq >= 1000.0 ? 15.0 + Math.log(freq / 1000.0) * (27.0 / Math.log(6.4)) : 3.0 * freq / 200.0;
    }

    private static double melToHertz(double mels) {
        return mels >= 15.0 ? 1000.0 * Math.exp(Math.log(6.4) / 27.0 * (mels - 15.0)) : 200.0 * mels / 3.0;
    }
}
