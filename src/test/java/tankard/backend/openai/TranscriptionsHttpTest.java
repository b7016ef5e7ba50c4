package tankard.backend.openai;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.multipart.MultipartForm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code /api/openai/*transcribe-audio} routes against mocks of the speech-to-text services (ST: src/endpoints/openai.js). */
class TranscriptionsHttpTest extends PublicHostsMockTest {
    private static final String AUDIO = "RIFF$\u0000\u0000\u0000WAVEfmt sound";

    @TempDir
    Path temp;

    private void secret(String key, String value) {
        client.post("/api/secrets/write", "{\"key\":\"" + key + "\",\"value\":\"" + value + "\"}");
    }

    private HttpResponse<Buffer> upload(String route, String model, String language) throws IOException {
        Path file = Files.createTempFile(temp, "record", ".webm");
        Files.writeString(file, AUDIO);
        MultipartForm form = MultipartForm.create().binaryFileUpload("avatar", "record.webm", file.toString(), "audio/webm");
        if (model != null) {
            form.attribute("model", model);
        }
        if (language != null) {
            form.attribute("language", language);
        }
        return client.postForm(route, form);
    }

    /** The parts of a multipart body: name → [headers, content]. */
    private static Map<String, String[]> parts(MockCompletionServer.Call call) {
        String type = call.headers().get("Content-Type");
        assertTrue(type.startsWith("multipart/form-data; boundary="), type);
        String boundary = "--" + type.substring(type.indexOf('=') + 1);
        Map<String, String[]> parts = new LinkedHashMap<>();
        String body = call.body();
        assertTrue(body.endsWith(boundary + "--\r\n"), body);
        for (String part : body.substring(0, body.length() - boundary.length() - 4).split(Pattern.quote(boundary + "\r\n"))) {
            if (part.isEmpty()) {
                continue;
            }
            int split = part.indexOf("\r\n\r\n");
            String head = part.substring(0, split);
            String name = head.replaceAll("(?s).*?; name=\"([^\"]*)\".*", "$1");
            parts.put(name, new String[]{head, part.substring(split + 4, part.length() - 2)});
        }
        return parts;
    }

    @Test
    void openAiGetsTheRecordingAsAudioWavWithModelAndLanguage() throws IOException {
        secret("api_key_openai", "sk-test");
        mock.route("/openai/v1/audio/transcriptions", request -> json(request, 200, "{\"text\":\"Hello world.\"}"));
        HttpResponse<Buffer> r = upload("/api/openai/transcribe-audio", "whisper-1", "en");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"text\":\"Hello world.\"}", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall("/openai/v1/audio/transcriptions");
        assertEquals("POST", call.method());
        assertEquals("Bearer sk-test", call.headers().get("Authorization"));
        Map<String, String[]> parts = parts(call);
        assertEquals(List.of("file", "model", "language"), List.copyOf(parts.keySet()));
        assertTrue(parts.get("file")[0].contains("filename=\"audio.wav\""), parts.get("file")[0]);
        assertTrue(parts.get("file")[0].contains("Content-Type: audio/wav"), parts.get("file")[0]);
        assertEquals(AUDIO, parts.get("file")[1]);
        assertEquals("whisper-1", parts.get("model")[1]);
        assertEquals("en", parts.get("language")[1]);
    }

    @Test
    void groqMistralAndZaiEachGetTheirOwnUrlAndKey() throws IOException {
        String[][] services = {{"groq", "api_key_groq", "/groq/openai/v1/audio/transcriptions"},
                {"mistral", "api_key_mistralai", "/mistral/v1/audio/transcriptions"},
                {"zai", "api_key_zai", "/zai/api/paas/v4/audio/transcriptions"}};
        for (String[] service : services) {
            secret(service[1], service[0] + "-key");
            mock.route(service[2], request -> json(request, 200, "{\"text\":\"From " + service[0] + ".\"}"));
            HttpResponse<Buffer> r = upload("/api/openai/" + service[0] + "/transcribe-audio", "model-x", null);
            assertEquals("{\"text\":\"From " + service[0] + ".\"}", r.bodyAsString());
            MockCompletionServer.Call call = mock.lastCall(service[2]);
            assertEquals("Bearer " + service[0] + "-key", call.headers().get("Authorization"));
            assertEquals(List.of("file", "model"), List.copyOf(parts(call).keySet()));
        }
    }

    @Test
    void chutesGetsTheRecordingAsBase64AtTheModelsHostAndItsChunksAreJoined() throws IOException {
        secret("api_key_chutes", "ch-key");
        mock.route("/chutes-whisper/transcribe", request -> json(request, 200,
                "[{\"start\":0,\"end\":1,\"text\":\" Hello\"},{\"start\":1,\"end\":2,\"text\":\" world. \"}]"));
        HttpResponse<Buffer> r = upload("/api/openai/chutes/transcribe-audio", "whisper", null);
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"text\":\"Hello world.\"}", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall("/chutes-whisper/transcribe");
        assertEquals("Bearer ch-key", call.headers().get("Authorization"));
        assertEquals("{\"audio_b64\":\"" + Base64.getEncoder().encodeToString(AUDIO.getBytes(StandardCharsets.UTF_8))
                + "\"}", call.body());
    }

    @Test
    void aModelThatIsNotAHostLabelIsRefusedAndAnAnswerThatIsNotAListIs500() throws IOException {
        secret("api_key_chutes", "ch-key");
        HttpResponse<Buffer> bad = upload("/api/openai/chutes/transcribe-audio", "evil.example/x#", null);
        assertEquals(400, bad.statusCode());
        assertTrue(mock.calls().isEmpty());
        mock.route("/chutes-whisper/transcribe", request -> json(request, 200, "{\"text\":\"not chunks\"}"));
        assertEquals(500, upload("/api/openai/chutes/transcribe-audio", "whisper", null).statusCode());
    }

    @Test
    void withoutAKeyOrAFileItIs400AndAnUpstreamErrorIs500() throws IOException {
        assertEquals(400, upload("/api/openai/transcribe-audio", "whisper-1", null).statusCode());
        secret("api_key_openai", "sk-test");
        HttpResponse<Buffer> noFile = client.postForm("/api/openai/transcribe-audio", MultipartForm.create().attribute("model", "whisper-1"));
        assertEquals(400, noFile.statusCode());
        assertTrue(noFile.bodyAsString().contains("No audio file"), noFile.bodyAsString());
        assertTrue(mock.calls().isEmpty());
        mock.route("/openai/v1/audio/transcriptions", request -> json(request, 400,
                "{\"error\":{\"message\":\"Invalid file format.\"}}"));
        HttpResponse<Buffer> failed = upload("/api/openai/transcribe-audio", "whisper-1", null);
        assertEquals(500, failed.statusCode());
        assertTrue(failed.bodyAsString().contains("Invalid file format."), failed.bodyAsString());
    }

    @Test
    void aRecordingLargerThanTheLimitIs413AndIsNotSent() throws IOException {
        secret("api_key_openai", "sk-test");
        Path file = Files.createTempFile(temp, "long", ".webm");
        Files.write(file, new byte[(int) Transcriptions.MAX_AUDIO_BYTES + 1]);
        HttpResponse<Buffer> r = client.postForm("/api/openai/transcribe-audio", MultipartForm.create()
                .binaryFileUpload("avatar", "long.webm", file.toString(), "audio/webm").attribute("model", "whisper-1"));
        assertEquals(413, r.statusCode(), r.bodyAsString());
        assertTrue(mock.calls().isEmpty());
    }
}
