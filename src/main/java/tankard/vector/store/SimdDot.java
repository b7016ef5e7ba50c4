package tankard.vector.store;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The dot product in SIMD lanes (Java 17's incubating Vector API). Loaded only when the JVM runs with
 * {@code --add-modules=jdk.incubator.vector} and its optimising compiler; else {@link Similarity} runs a plain loop.
 */
final class SimdDot {
    private static final VectorSpecies<Float> LANES = FloatVector.SPECIES_PREFERRED;
    /** As many one-byte codes as {@link #LANES} has floats. */
    private static final VectorSpecies<Byte> CODE_LANES =
            VectorSpecies.of(byte.class, VectorShape.forBitSize(LANES.length() * Byte.SIZE));

    private SimdDot() {
    }

    static double dot(float[] a, float[] b) {
        int n = Math.min(a.length, b.length);
        int step = LANES.length();
        FloatVector first = FloatVector.zero(LANES);
        FloatVector second = FloatVector.zero(LANES);
        int i = 0;
        for (; i + 2 * step <= n; i += 2 * step) {
            first = FloatVector.fromArray(LANES, a, i).fma(FloatVector.fromArray(LANES, b, i), first);
            second = FloatVector.fromArray(LANES, a, i + step).fma(FloatVector.fromArray(LANES, b, i + step), second);
        }
        double sum = first.add(second).reduceLanes(VectorOperators.ADD);
        for (; i < n; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    /** The dot product of a vector with {@code n} one-byte codes from {@code offset}. */
    static double dot(float[] a, byte[] codes, int offset, int n) {
        int step = LANES.length();
        FloatVector sum = FloatVector.zero(LANES);
        int i = 0;
        for (; i + step <= n; i += step) {
            FloatVector widened = (FloatVector) ByteVector.fromArray(CODE_LANES, codes, offset + i)
                    .convertShape(VectorOperators.B2F, LANES, 0);
            sum = widened.fma(FloatVector.fromArray(LANES, a, i), sum);
        }
        double total = sum.reduceLanes(VectorOperators.ADD);
        for (; i < n; i++) {
            total += a[i] * codes[offset + i];
        }
        return total;
    }
}
