package tankard.speech;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;
import tankard.core.Refusal;
import tankard.json.JsJson;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * WAV decoding as ST's getWaveFile does it on wavefile, against src/test/resources/speech/make-tiny-whisper.py's
 * numpy redo of wavefile's resampling (which matched wavefile's own output when the files were made).
 */
class WavAudioTest {
    static final Path SPEECH = Path.of("src/test/resources/speech");

    /** A RIFF WAV: a fmt chunk of this format, then (after a LIST chunk of odd size, padded) the data. */
    static byte[] wav(int format, int channels, int rate, int bits, byte[] data) {
        ByteBuffer out = ByteBuffer.allocate(12 + 24 + 8 + 4 + 8 + data.length).order(ByteOrder.LITTLE_ENDIAN);
        out.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(out.capacity() - 8)
                .put("WAVE".getBytes(StandardCharsets.US_ASCII));
        out.put("fmt ".getBytes(StandardCharsets.US_ASCII)).putInt(16).putShort((short) format)
                .putShort((short) channels).putInt(rate).putInt(rate * channels * bits / 8)
                .putShort((short) (channels * bits / 8)).putShort((short) bits);
        out.put("LIST".getBytes(StandardCharsets.US_ASCII)).putInt(3).put(new byte[]{1, 2, 3, 0});
        out.put("data".getBytes(StandardCharsets.US_ASCII)).putInt(data.length).put(data);
        return out.array();
    }

    static byte[] shorts(int... samples) {
        ByteBuffer out = ByteBuffer.allocate(samples.length * 2).order(ByteOrder.LITTLE_ENDIAN);
        for (int sample : samples) {
            out.putShort((short) sample);
        }
        return out.array();
    }

    static JsonNode dataUrl(byte[] wav) {
        return TextNode.valueOf("data:audio/wav;base64," + Base64.getEncoder().encodeToString(wav));
    }

    @Test
    void sixteenBitSamplesAreOverTheirPositiveOrNegativeFullScale() {
        WavAudio audio = WavAudio.fromDataUrl(dataUrl(wav(1, 1, 16000, 16, shorts(0, 32767, -32768, 16384, -1))));
        assertEquals(16000, audio.rate());
        assertArrayEquals(new float[]{0, 1, -1, (float) (16384 / 32767.0), (float) (-1 / 32768.0)}, audio.channels()[0]);
    }

    @Test
    void eightAndTwentyFourBitAndFloatSamplesAreReadAsWavefileReadsThem() {
        // 8-bit is unsigned around 128
        assertArrayEquals(new float[]{0, 1, -1, (float) (-64 / 128.0)},
                WavAudio.parse(wav(1, 1, 8000, 8, new byte[]{(byte) 128, (byte) 255, 0, 64})).channels()[0]);
        byte[] threeBytes = {(byte) 0xff, (byte) 0xff, 0x7f, 0, 0, (byte) 0x80, 1, 0, 0};
        assertArrayEquals(new float[]{1, -1, (float) (1 / 8388607.0)},
                WavAudio.parse(wav(1, 1, 8000, 24, threeBytes)).channels()[0]);
        ByteBuffer floats = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putFloat(0.25f).putFloat(-1.5f);
        assertArrayEquals(new float[]{0.25f, -1.5f}, WavAudio.parse(wav(3, 1, 8000, 32, floats.array())).channels()[0]);
    }

    @Test
    void stereoIsDeinterleaved() {
        WavAudio audio = WavAudio.parse(wav(1, 2, 16000, 16, shorts(32767, 0, -32768, 16384)));
        assertArrayEquals(new float[]{1, -1}, audio.channels()[0]);
        assertArrayEquals(new float[]{0, (float) (16384 / 32767.0)}, audio.channels()[1]);
    }

    @Test
    void stereo44kIsResampledTo16kAndMergedAsStDoes() throws Exception {
        JsonNode expected = JsJson.parse(Files.readString(SPEECH.resolve("resampled.json")));
        float[] merged = WavAudio.parse(Files.readAllBytes(SPEECH.resolve("stereo44k.wav"))).mono16k();
        assertEquals(expected.get("length").asInt(), merged.length);
        int every = expected.get("every").asInt();
        JsonNode samples = expected.get("samples");
        assertEquals((merged.length + every - 1) / every, samples.size());
        for (int i = 0; i < samples.size(); i++) {
            assertEquals(samples.get(i).asDouble(), merged[i * every], 1e-6, "sample " + i * every);
        }
    }

    @Test
    void sixteenKilohertzIsStillLowPassedAsWavefileDoes() {
        // wavefile filters even when the rate stays: a tone at the Nyquist frequency is taken out, but for the
        // filter's start at either end (run forwards, then backwards)
        int[] nyquist = new int[400];
        for (int i = 0; i < nyquist.length; i++) {
            nyquist[i] = i % 2 == 0 ? 16000 : -16000;
        }
        float[] filtered = WavAudio.parse(wav(1, 1, 16000, 16, shorts(nyquist))).mono16k();
        assertEquals(400, filtered.length);
        assertTrue(Math.abs(filtered[200]) < 0.05, "at the Nyquist frequency: " + filtered[200]);
        assertTrue(filtered[0] > 0.4 && filtered[399] > 0.4, filtered[0] + " " + filtered[399]);
    }

    @Test
    void badAudioIsA400SayingWhy() {
        byte[] adpcm = wav(17, 1, 16000, 4, new byte[8]);
        byte[] twelveBits = wav(1, 1, 16000, 12, new byte[8]);
        byte[] noData = java.util.Arrays.copyOf(wav(1, 1, 16000, 16, new byte[0]), 36);
        for (JsonNode audio : new JsonNode[]{MissingNode.getInstance(), TextNode.valueOf(""),
                TextNode.valueOf("data:audio/wav;base64,%%%"), JsJson.parse("5"),
                dataUrl("hello, no recording here".getBytes(StandardCharsets.UTF_8)), dataUrl(adpcm),
                dataUrl(twelveBits), dataUrl(noData)}) {
            Refusal refusal = assertThrows(Refusal.class, () -> WavAudio.fromDataUrl(audio), String.valueOf(audio));
            assertEquals(Refusal.Kind.BAD_REQUEST, refusal.kind());
        }
        String unsupported = assertThrows(Refusal.class, () -> WavAudio.fromDataUrl(dataUrl(adpcm))).getMessage();
        assertTrue(unsupported.contains("Unsupported WAV format (format 17"), unsupported);
    }
}
