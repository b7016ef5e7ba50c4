package tankard.speech;

/**
 * The wavefile package's resampling with its defaults, which ST's getWaveFile uses (ST: src/endpoints/speech.js;
 * wavefile 11, lib/resampler): cubic Hermite interpolation (tension 0, zero outside the samples) behind a 16-stage
 * Butterworth low-pass run forwards then backwards (no phase shift), cut at the lower rate's Nyquist frequency; when
 * downsampling (or keeping the rate, which wavefile filters too) the input is filtered before interpolating, when
 * upsampling the output after. Done in the same order with the same doubles (StrictMath, the fdlibm V8 also uses),
 * so the samples are wavefile's.
 */
final class Resampler {
    private static final int ORDER = 16;

    private Resampler() {
    }

    static double[] resample(double[] samples, int oldRate, int newRate) {
        double rate = ((double) (newRate - oldRate) / oldRate) + 1;
        double[] resampled = new double[(int) (samples.length * rate)];
        double scale = (samples.length - 1.0) / resampled.length;
        if (newRate > oldRate) {
            for (int i = 0; i < resampled.length; i++) {
                resampled[i] = cubic(samples, scale * i);
            }
            filterBothWays(resampled, newRate, oldRate / 2.0);
        } else {
            double[] filtered = samples.clone();
            filterBothWays(filtered, oldRate, newRate / 2.0);
            for (int i = 0; i < resampled.length; i++) {
                resampled[i] = cubic(filtered, scale * i);
            }
        }
        return resampled;
    }

    private static double cubic(double[] x, double t) {
        int k = (int) Math.floor(t);
        double m0 = (at(x, k + 1) - at(x, k - 1)) / 2;
        double m1 = (at(x, k + 2) - at(x, k)) / 2;
        double p0 = at(x, k);
        double p1 = at(x, k + 1);
        t -= k;
        double t2 = t * t;
        double t3 = t * t2;
        return (2 * t3 - 3 * t2 + 1) * p0 + (t3 - 2 * t2 + t) * m0 + (-2 * t3 + 3 * t2) * p1 + (t3 - t2) * m1;
    }

    private static double at(double[] x, int i) {
        return i >= 0 && i < x.length ? x[i] : 0;
    }

    /** The cascade of {@link #ORDER} biquads over the samples in place, forwards, then from a clean state backwards. */
    private static void filterBothWays(double[] samples, double sampleRate, double cutOff) {
        double[][] stages = new double[ORDER][];
        double w = 2 * Math.PI * cutOff / sampleRate;
        for (int i = 0; i < ORDER; i++) {
            double q = 0.5 / StrictMath.sin((Math.PI / (ORDER * 2)) * (i + 0.5));
            double alpha = StrictMath.sin(w) / (2 * q);
            double cw = StrictMath.cos(w);
            double a0 = 1 + alpha;
            double b0 = (1 - cw) / (2 * a0);
            stages[i] = new double[]{b0, 2 * b0, b0, (-2 * cw) / a0, (1 - alpha) / a0};
        }
        double[][] state = new double[ORDER][2];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = filter(stages, state, samples[i]);
        }
        state = new double[ORDER][2];
        for (int i = samples.length - 1; i >= 0; i--) {
            samples[i] = filter(stages, state, samples[i]);
        }
    }

    private static double filter(double[][] stages, double[][] state, double sample) {
        double out = sample;
        for (int s = 0; s < stages.length; s++) {
            double[] c = stages[s];
            double[] z = state[s];
            double temp = out - c[3] * z[0] - c[4] * z[1];
            out = c[0] * temp + c[1] * z[0] + c[2] * z[1];
            z[1] = z[0];
            z[0] = temp;
        }
        return out;
    }
}
