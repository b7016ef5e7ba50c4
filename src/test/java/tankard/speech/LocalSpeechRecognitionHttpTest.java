package tankard.speech;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.TestServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ST's local speech recognition route over HTTP on the tiny Whisper of
 * src/test/resources/speech/make-tiny-whisper.py, laid out in the data root as a downloaded model is, downloads off.
 */
class LocalSpeechRecognitionHttpTest {
    static final Path TINY = WavAudioTest.SPEECH.resolve("tiny-whisper");
    static final String REPO = "Tankard/tiny-whisper";
    static final String PATH = "/api/speech/recognize";

    /** A working folder whose data root holds the tiny model as {@code REPO} (without {@code left out}). */
    static Path work(String configured, String... leftOut) throws Exception {
        Path work = TestServer.tempDir();
        Path folder = work.resolve("data/_models").resolve(REPO);
        try (Stream<Path> files = Files.walk(TINY)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String name = TINY.relativize(file).toString().replace('\\', '/');
                if (List.of(leftOut).contains(name)) {
                    continue;
                }
                Path target = folder.resolve(name);
                Files.createDirectories(target.getParent());
                Files.copy(file, target);
            }
        }
        Files.createDirectories(work.resolve("public"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html><title>Tankard test</title>");
        Files.writeString(work.resolve("config.yaml"), "extensions:\n  models:\n"
                + (configured.isEmpty() ? "" : "    speechToText: " + configured + "\n") + "    autoDownload: false\n");
        return work;
    }

    static String dataUrl(String wav) throws Exception {
        return "data:audio/wav;base64," + Base64.getEncoder().encodeToString(
                Files.readAllBytes(WavAudioTest.SPEECH.resolve(wav)));
    }

    static ObjectNode request(String audio, String lang) {
        ObjectNode body = JsJson.object().put("audio", audio);
        return lang == null ? body : body.put("lang", lang);
    }

    static HttpResponse<Buffer> recognize(TestServer.Client client, JsonNode body) {
        return client.post(PATH, body.toString());
    }

    /** The first request starts the load and is told so with a 503; then the model answers. */
    static void awaitModel(TestServer.Client client, JsonNode body) throws Exception {
        HttpResponse<Buffer> first = recognize(client, body);
        assertEquals(503, first.statusCode(), first.bodyAsString());
        assertTrue(first.bodyAsString().contains("is loading"), first.bodyAsString());
        for (int i = 0; i < 300; i++) {
            HttpResponse<Buffer> reply = recognize(client, body);
            if (reply.statusCode() == 200) {
                return;
            }
            assertEquals(503, reply.statusCode(), reply.bodyAsString());
            Thread.sleep(50);
        }
        throw new AssertionError("the speech recognition model never loaded");
    }

    /** Every recording in every language gets the reference transcript, leading space and all. */
    static void transcribesAsTheReference(TestServer.Client client) throws Exception {
        JsonNode expected = JsJson.parse(Files.readString(TINY.resolve("expected.json")));
        awaitModel(client, request(dataUrl("low.wav"), null));
        for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> wav = it.next();
            String audio = dataUrl(wav.getKey());
            for (Iterator<Map.Entry<String, JsonNode>> langs = wav.getValue().fields(); langs.hasNext(); ) {
                Map.Entry<String, JsonNode> lang = langs.next();
                HttpResponse<Buffer> reply = recognize(client, request(audio,
                        lang.getKey().equals("none") ? null : lang.getKey()));
                assertEquals(200, reply.statusCode(), reply.bodyAsString());
                assertEquals(JsJson.object().put("text", lang.getValue().asText()), JsJson.parse(reply.bodyAsString()),
                        wav.getKey() + " " + lang.getKey());
            }
        }
    }

    @Test
    void eachRecordingGetsTheReferenceTranscriptInItsLanguage() throws Exception {
        try (TestServer server = TestServer.startIn(work(REPO))) {
            transcribesAsTheReference(server.client());
            JsonNode expected = JsJson.parse(Files.readString(TINY.resolve("expected.json")));
            // the tones decide the words, the language the article: the model is not answering one text for all
            assertEquals(" the low hum.", expected.get("low.wav").get("none").asText());
            assertEquals(" the high tone.", expected.get("high.wav").get("none").asText());
            assertEquals(" die low hum.", expected.get("low.wav").get("de").asText());
        }
    }

    @Test
    void aDecoderWithoutCacheGivesTheSameTranscripts() throws Exception {
        try (TestServer server = TestServer.startIn(work(REPO, "onnx/decoder_model_merged_quantized.onnx"))) {
            transcribesAsTheReference(server.client());
        }
    }

    @Test
    void languagesAreTakenByNameAnyCaseOrEmptyAsNone() throws Exception {
        try (TestServer server = TestServer.startIn(work(REPO))) {
            TestServer.Client client = server.client();
            String low = dataUrl("low.wav");
            awaitModel(client, request(low, null));
            for (String lang : List.of("German", "DE", "german")) {
                assertEquals(" die low hum.", JsJson.parse(recognize(client, request(low, lang)).bodyAsString())
                        .path("text").asText(), lang);
            }
            assertEquals(" the low hum.", JsJson.parse(recognize(client, request(low, "")).bodyAsString())
                    .path("text").asText());
            HttpResponse<Buffer> unknown = recognize(client, request(low, "klingon"));
            assertEquals(400, unknown.statusCode(), unknown.bodyAsString());
            assertTrue(unknown.bodyAsString().contains("klingon"), unknown.bodyAsString());
            // Whisper knows French, this model has no <|fr|>
            HttpResponse<Buffer> missing = recognize(client, request(low, "fr"));
            assertEquals(400, missing.statusCode(), missing.bodyAsString());
        }
    }

    @Test
    void badAudioIs400() throws Exception {
        try (TestServer server = TestServer.startIn(work(REPO))) {
            TestServer.Client client = server.client();
            String notWav = Base64.getEncoder().encodeToString("hello, no recording here".getBytes());
            for (String body : List.of("{}", "{\"audio\": null}", "{\"audio\": 5}", "{\"audio\": \"\"}",
                    "{\"audio\": \"data:audio/wav;base64," + notWav + "\"}", "{\"audio\": \"%%%\"}")) {
                HttpResponse<Buffer> reply = client.post(PATH, body);
                assertEquals(400, reply.statusCode(), body + " " + reply.bodyAsString());
                assertTrue(JsJson.parse(reply.bodyAsString()).path("error").asText().contains("audio"),
                        reply.bodyAsString());
            }
            HttpResponse<Buffer> badModel = client.post(PATH, "{\"audio\": \"" + dataUrl("low.wav")
                    + "\", \"model\": \"../../outside\"}");
            assertEquals(400, badModel.statusCode(), badModel.bodyAsString());
            assertTrue(badModel.bodyAsString().contains("repository id"), badModel.bodyAsString());
        }
    }

    @Test
    void theRequestsModelIsLoadedInsteadOfTheConfiguredOne() throws Exception {
        try (TestServer server = TestServer.startIn(work(""))) {
            TestServer.Client client = server.client();
            String low = dataUrl("low.wav");
            // nothing configured: ST's default, not downloaded here
            HttpResponse<Buffer> fallback = recognize(client, request(low, null));
            assertEquals(503, fallback.statusCode(), fallback.bodyAsString());
            assertTrue(fallback.bodyAsString().contains("Xenova/whisper-small is not in"), fallback.bodyAsString());
            ObjectNode named = request(low, null).put("model", REPO);
            awaitModel(client, named);
            assertEquals(" the low hum.", JsJson.parse(recognize(client, named).bodyAsString()).path("text").asText());
            // no model named: the one loaded stays, as ST's getPipeline keeps it
            assertEquals(200, recognize(client, request(low, null)).statusCode());
        }
    }

    @Test
    void withoutTheModelAndDownloadsOffItAnswers503WithTheReason() throws Exception {
        try (TestServer server = TestServer.startIn(work("Nobody/missing-whisper"))) {
            HttpResponse<Buffer> reply = recognize(server.client(), request(dataUrl("low.wav"), null));
            assertEquals(503, reply.statusCode(), reply.bodyAsString());
            String message = JsJson.parse(reply.bodyAsString()).path("error").asText();
            assertTrue(message.contains("Nobody/missing-whisper is not in") && message.contains("autoDownload is false")
                    && message.contains("preprocessor_config.json"), reply.bodyAsString());
        }
    }
}
