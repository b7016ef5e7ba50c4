package tankard.speech;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;

import java.nio.file.Files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The log-mel against src/test/resources/speech/make-tiny-whisper.py's numpy one (numpy's FFT, its own Slaney
 * filters) of a 1 kHz sine, with Whisper's preprocessor_config.json (no mel_filters: they are computed).
 */
class WhisperFeaturesTest {
    private static final WhisperFeatures WHISPER = new WhisperFeatures(JsJson.object().put("feature_size", 80)
            .put("hop_length", 160).put("n_fft", 400).put("n_samples", 480000).put("nb_max_frames", 3000)
            .put("sampling_rate", 16000).put("chunk_length", 30));

    private static float[] sine(double hz, double amplitude, int samples) {
        float[] audio = new float[samples];
        for (int i = 0; i < samples; i++) {
            audio[i] = (float) (amplitude * Math.sin(2 * Math.PI * hz * i / 16000));
        }
        return audio;
    }

    @Test
    void aSinesLogMelIsNumpysToFloatPrecision() throws Exception {
        JsonNode expected = JsJson.parse(Files.readString(WavAudioTest.SPEECH.resolve("features.json")));
        JsonNode sine = expected.get("sine");
        float[] features = WHISPER.extract(sine(sine.get("hz").asDouble(), sine.get("amplitude").asDouble(),
                16000 * sine.get("seconds").asInt()));
        assertEquals(80 * 3000, features.length);
        for (JsonNode point : expected.get("points")) {
            int mel = point.get(0).asInt();
            int frame = point.get(1).asInt();
            assertEquals(point.get(2).asDouble(), features[mel * 3000 + frame], 2e-5, "mel " + mel + ", frame " + frame);
        }
        for (int mel = 0; mel < 80; mel++) {
            double sum = 0;
            for (int frame = 0; frame < 3000; frame++) {
                sum += features[mel * 3000 + frame];
            }
            assertEquals(expected.get("rowSums").get(mel).asDouble(), sum, 1e-2, "mel " + mel);
        }
    }

    @Test
    void audioLongerThanThirtySecondsIsCutThere() {
        float[] longer = sine(440, 0.3, 16000 * 31);
        float[] first30 = java.util.Arrays.copyOf(longer, 480000);
        assertArrayEquals(WHISPER.extract(first30), WHISPER.extract(longer));
    }

    @Test
    void theConfigsOwnMelFiltersAreUsedWhenItShipsThem() {
        double[][] slaney = WhisperFeatures.slaneyFilters(201, 80, 16000);
        com.fasterxml.jackson.databind.node.ArrayNode rows = JsJson.array();
        for (int m = 0; m < 80; m++) {
            com.fasterxml.jackson.databind.node.ArrayNode row = rows.addArray();
            for (int k = 0; k < 201; k++) {
                row.add(m == 0 ? 0.0 : slaney[m][k]); // the first filter emptied
            }
        }
        WhisperFeatures given = new WhisperFeatures(JsJson.object().put("feature_size", 80).set("mel_filters", rows));
        float[] audio = sine(100, 0.5, 16000); // in the first filters
        float[] computed = WHISPER.extract(audio);
        float[] shipped = given.extract(audio);
        assertEquals(computed[1 * 3000 + 50], shipped[1 * 3000 + 50], 1e-6);
        assertEquals(true, shipped[50] < computed[50], "the emptied filter's band is at the floor");
    }
}
