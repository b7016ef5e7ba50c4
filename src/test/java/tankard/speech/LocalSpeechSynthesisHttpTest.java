package tankard.speech;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.summarize.onnx.HubDownloader;
import tankard.testing.MockHub;
import tankard.testing.TestServer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ST's local text-to-speech route over HTTP on the tiny SpeechT5 of src/test/resources/speech/make-tiny-speecht5.py:
 * its generation stops at step {@code tokens + speaker[0]} (the tokens with the closing {@code </s>}), or at
 * {@code floor(tokens / 2 * 20)}; frame f (from 1, two a step) is {@code f * (1, 2, 3, 4)} and the vocoder makes it
 * the samples {@code 2.5 f * (0.25, -0.5)}; the audio's rate is 22050.
 */
class LocalSpeechSynthesisHttpTest {
    static final Path RESOURCES = Path.of("src/test/resources/speech");
    static final String REPO = "Tankard/tiny-speecht5";
    private static final int RATE = 22050;

    private final Vertx vertx = Vertx.vertx();
    private final List<String> hubRequests = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        TestServer.await(vertx.close());
    }

    /** A working folder: the tiny model and vocoder in the data root (unless {@code download}), and config.yaml. */
    static Path work(String extraConfig, boolean download) throws Exception {
        Path work = TestServer.tempDir();
        if (!download) {
            copy(RESOURCES.resolve("tiny-speecht5"), work.resolve("data/_models").resolve(REPO));
            copy(RESOURCES.resolve("tiny-hifigan"), work.resolve("data/_models").resolve(LocalSpeechSynthesizer.VOCODER));
        }
        Files.createDirectories(work.resolve("public"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html><title>Tankard test</title>");
        Files.writeString(work.resolve("config.yaml"), "extensions:\n  models:\n    textToSpeech: " + REPO
                + "\n    autoDownload: " + download + "\n" + extraConfig);
        return work;
    }

    private static void copy(Path from, Path to) throws Exception {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.copy(file, target);
            }
        }
    }

    static String base64(float... values) {
        ByteBuffer bytes = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float value : values) {
            bytes.putFloat(value);
        }
        return Base64.getEncoder().encodeToString(bytes.array());
    }

    static ObjectNode body(String text, String speaker) {
        return JsJson.object().put("text", text).put("speaker", speaker);
    }

    static HttpResponse<Buffer> synthesize(TestServer.Client client, ObjectNode body) {
        return client.post("/api/speech/synthesize", body.toString());
    }

    /** The first request starts the load and is told so with a 503; then the model answers. */
    static HttpResponse<Buffer> awaitModel(TestServer.Client client, ObjectNode body) throws Exception {
        HttpResponse<Buffer> first = synthesize(client, body);
        assertEquals(503, first.statusCode(), first.bodyAsString());
        assertTrue(first.bodyAsString().contains("is loading"), first.bodyAsString());
        for (int i = 0; i < 300; i++) {
            HttpResponse<Buffer> reply = synthesize(client, body);
            if (reply.statusCode() != 503) {
                return reply;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the text-to-speech model never loaded");
    }

    /** The tiny model's samples after {@code steps} decoder steps. */
    static float[] expectedSamples(int steps) {
        float[] samples = new float[steps * 2 * 2];
        for (int f = 1; f <= steps * 2; f++) {
            samples[2 * (f - 1)] = 2.5f * f * 0.25f;
            samples[2 * (f - 1) + 1] = 2.5f * f * -0.5f;
        }
        return samples;
    }

    /** wavefile's header for 32-bit float mono, written out field by field. */
    static void assertWav(float[] samples, byte[] wav) {
        ByteBuffer in = ByteBuffer.wrap(wav).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(44 + samples.length * 4, wav.length, "44 header bytes, then the samples");
        assertEquals("RIFF", ascii(wav, 0));
        assertEquals(36 + samples.length * 4, in.getInt(4));
        assertEquals("WAVE", ascii(wav, 8));
        assertEquals("fmt ", ascii(wav, 12));
        assertEquals(16, in.getInt(16), "a plain 16-byte fmt chunk");
        assertEquals(3, in.getShort(20), "WAVE_FORMAT_IEEE_FLOAT");
        assertEquals(1, in.getShort(22), "mono");
        assertEquals(RATE, in.getInt(24), "preprocessor_config.json's sampling_rate");
        assertEquals(RATE * 4, in.getInt(28));
        assertEquals(4, in.getShort(32));
        assertEquals(32, in.getShort(34));
        assertEquals("data", ascii(wav, 36), "no fact chunk");
        assertEquals(samples.length * 4, in.getInt(40));
        float[] got = new float[samples.length];
        in.position(44);
        in.asFloatBuffer().get(got);
        assertArrayEquals(samples, got);
    }

    private static String ascii(byte[] bytes, int at) {
        return new String(bytes, at, 4, StandardCharsets.US_ASCII);
    }

    @Test
    void theSpeechStopsWhereTheStopProbabilityCrossesAndTheWavHoldsTheVocodersSamples() throws Exception {
        try (TestServer server = TestServer.startIn(work("", false))) {
            TestServer.Client client = server.client();
            HttpResponse<Buffer> reply = awaitModel(client, body("hello world", base64(1, 0, 0)));
            assertEquals(200, reply.statusCode(), reply.bodyAsString());
            assertEquals("audio/wav", reply.getHeader("Content-Type"));
            assertWav(expectedSamples(3 + 1), reply.body().getBytes());

            // the text's length and the speaker move the stop; a data URL's prefix is let through
            assertWav(expectedSamples(5), synthesize(client, body("hello world tankard ale", base64(0, 7, 7))).body().getBytes());
            assertWav(expectedSamples(2 + 2), synthesize(client, body("hello",
                    "data:application/octet-stream;base64," + base64(2, 0, 0))).body().getBytes());
            // a word out of the vocabulary is <unk>, still a token
            assertWav(expectedSamples(3), synthesize(client, body("mead", base64(1, 0, 0))).body().getBytes());
            // 700 words and </s> are cut to model_max_length, 600 tokens, </s> too: 600 - 590 steps
            String longText = String.join(" ", java.util.Collections.nCopies(700, "ale"));
            assertWav(expectedSamples(10), synthesize(client, body(longText, base64(-590, 0, 0))).body().getBytes());
            // a stop probability that never crosses: maxlenratio 20 of 3 tokens over the reduction factor 2
            assertWav(expectedSamples(30), synthesize(client, body("hello world", base64(100, 0, 0))).body().getBytes());
            // one that crosses at once: the first step is the last (minlenratio 0)
            assertWav(expectedSamples(1), synthesize(client, body("hello world", base64(-9, 0, 0))).body().getBytes());
        }
    }

    @Test
    void badInputIsA400WithAMessage() throws Exception {
        try (TestServer server = TestServer.startIn(work("", false))) {
            TestServer.Client client = server.client();
            assertEquals(200, awaitModel(client, body("hello", base64(1, 0, 0))).statusCode());
            String speaker = base64(1, 0, 0);
            for (String body : List.of("{}", "{\"speaker\": \"" + speaker + "\"}",
                    "{\"text\": \"\", \"speaker\": \"" + speaker + "\"}",
                    "{\"text\": 5, \"speaker\": \"" + speaker + "\"}",
                    "{\"text\": \"hello\"}", "{\"text\": \"hello\", \"speaker\": null}",
                    "{\"text\": \"hello\", \"speaker\": 5}", "{\"text\": \"hello\", \"speaker\": \"\"}",
                    "{\"text\": \"hello\", \"speaker\": \"AAAAAAA=\"}", // 5 bytes: not whole floats
                    "{\"text\": \"hello\", \"speaker\": \"data:application/octet-stream\"}",
                    "{\"text\": \"hello\", \"speaker\": \"" + base64(1, 0) + "\"}", // 2 values, the model takes 3
                    "{\"text\": \"hello\", \"speaker\": \"" + speaker + "\", \"model\": 5}",
                    "{\"text\": \"hello\", \"speaker\": \"" + speaker + "\", \"model\": \"../../outside\"}")) {
                HttpResponse<Buffer> reply = client.post("/api/speech/synthesize", body);
                assertEquals(400, reply.statusCode(), body + " " + reply.bodyAsString());
                assertFalse(JsJson.parse(reply.bodyAsString()).path("error").asText().isEmpty(), reply.bodyAsString());
            }
            HttpResponse<Buffer> wrongSize = client.post("/api/speech/synthesize", body("hello", base64(1, 0)).toString());
            assertEquals("\"speaker\" holds 2 values; this model's speaker embeddings have 3",
                    JsJson.parse(wrongSize.bodyAsString()).path("error").asText());
        }
    }

    @Test
    void theBodysModelReplacesTheLoadedOneAndAMissingOneWithDownloadsOffIsA503WithTheReason() throws Exception {
        try (TestServer server = TestServer.startIn(work("", false))) {
            TestServer.Client client = server.client();
            assertEquals(200, awaitModel(client, body("hello", base64(1, 0, 0))).statusCode());
            HttpResponse<Buffer> missing = synthesize(client, body("hello", base64(1, 0, 0)).put("model", "Nobody/missing-tts"));
            assertEquals(503, missing.statusCode(), missing.bodyAsString());
            String message = JsJson.parse(missing.bodyAsString()).path("error").asText();
            assertTrue(message.contains("Nobody/missing-tts is not in") && message.contains("autoDownload is false")
                    && message.contains("preprocessor_config.json"), message);
            // a body without a model keeps the one last asked for, as ST's getPipeline does
            assertEquals(503, synthesize(client, body("hello", base64(1, 0, 0))).statusCode());
            // and naming the configured one again loads it anew
            HttpResponse<Buffer> back = awaitModel(client, body("hello", base64(1, 0, 0)).put("model", REPO));
            assertEquals(200, back.statusCode(), back.bodyAsString());
            assertWav(expectedSamples(3), back.body().getBytes());
        }
    }

    /** A hub with the tiny model as {@link #REPO} and the tiny vocoder as Xenova's HiFi-GAN, graphs under onnx/. */
    private String mockHub() {
        return MockHub.serve(vertx, Map.of(REPO, RESOURCES.resolve("tiny-speecht5"),
                LocalSpeechSynthesizer.VOCODER, RESOURCES.resolve("tiny-hifigan")), hubRequests, true);
    }

    @Test
    void theModelAndTheVocoderAreDownloadedIntoTheDataRoot() throws Exception {
        Path work = work(TestServer.providerOrigins(Map.of(HubDownloader.HUB, mockHub())), true);
        try (TestServer server = TestServer.startIn(work)) {
            HttpResponse<Buffer> reply = awaitModel(server.client(), body("hello world", base64(1, 0, 0)));
            assertEquals(200, reply.statusCode(), reply.bodyAsString());
            assertWav(expectedSamples(4), reply.body().getBytes());
            Path models = work.resolve("data/_models");
            for (String file : List.of("config.json", "preprocessor_config.json", "tokenizer.json",
                    "tokenizer_config.json", "onnx/encoder_model.onnx", "onnx/decoder_model_merged.onnx")) {
                assertArrayEquals(Files.readAllBytes(RESOURCES.resolve("tiny-speecht5").resolve(file)),
                        Files.readAllBytes(models.resolve(REPO).resolve(file)), file);
            }
            for (String file : List.of("config.json", "onnx/model.onnx")) {
                assertArrayEquals(Files.readAllBytes(RESOURCES.resolve("tiny-hifigan").resolve(file)),
                        Files.readAllBytes(models.resolve(LocalSpeechSynthesizer.VOCODER).resolve(file)), file);
            }
            assertTrue(hubRequests.contains("/Xenova/speecht5_hifigan/resolve/main/onnx/model.onnx"), hubRequests.toString());
        }
    }
}
