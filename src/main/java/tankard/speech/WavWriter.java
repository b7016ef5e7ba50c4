package tankard.speech;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A mono WAVE file of 32-bit float samples, byte for byte as wavefile's {@code fromScratch(1, rate, '32f', samples)}
 * and {@code toBuffer()} write it (ST: src/endpoints/speech.js, synthesize): RIFF, a 16-byte {@code fmt } chunk of
 * format 3 (WAVE_FORMAT_IEEE_FLOAT), no {@code fact} chunk (wavefile writes one only for its extensible and
 * A-law/mu-law headers), then {@code data}: 44 bytes of header, little-endian.
 */
final class WavWriter {
    private static final int HEADER = 44;

    private WavWriter() {
    }

    static byte[] float32Mono(int rate, float[] samples) {
        int data = samples.length * Float.BYTES;
        ByteBuffer out = ByteBuffer.allocate(HEADER + data).order(ByteOrder.LITTLE_ENDIAN);
        out.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(36 + data).put("WAVE".getBytes(StandardCharsets.US_ASCII));
        out.put("fmt ".getBytes(StandardCharsets.US_ASCII)).putInt(16)
                .putShort((short) 3)              // WAVE_FORMAT_IEEE_FLOAT
                .putShort((short) 1)              // channels
                .putInt(rate)
                .putInt(rate * Float.BYTES)       // bytes a second
                .putShort((short) Float.BYTES)    // block align
                .putShort((short) 32);            // bits a sample
        out.put("data".getBytes(StandardCharsets.US_ASCII)).putInt(data);
        for (float sample : samples) {
            out.putFloat(sample);
        }
        return out.array();
    }
}
