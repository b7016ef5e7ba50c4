package tankard.speech;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.multipart.MultipartForm;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;

import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/speech/elevenlabs/*} against a mock of ElevenLabs' API (ST: src/endpoints/speech.js). */
class ElevenLabsHttpTest extends PublicHostsMockTest {
    private static final String API = ELEVENLABS + "/v1";
    private static final String ROUTES = "/api/speech/elevenlabs";

    private void key() {
        client.post("/api/secrets/write", "{\"key\":\"api_key_elevenlabs\",\"value\":\"xi-key\"}");
    }

    private void get(String path, String answer) {
        mock.route(API + path, request -> json(request, 200, answer));
    }

    @Test
    void theListsComeFromElevenLabsWithTheKey() {
        key();
        get("/voices", "{\"voices\":[{\"voice_id\":\"v1\",\"name\":\"Rachel\"}]}");
        get("/voices/settings/default", "{\"stability\":0.5,\"similarity_boost\":0.75}");
        get("/history", "{\"history\":[{\"history_item_id\":\"h1\"}],\"has_more\":false}");
        assertEquals("{\"voices\":[{\"voice_id\":\"v1\",\"name\":\"Rachel\"}]}", client.post(ROUTES + "/voices", "{}").bodyAsString());
        assertEquals("{\"stability\":0.5,\"similarity_boost\":0.75}",
                client.post(ROUTES + "/voice-settings", "{}").bodyAsString());
        assertEquals("{\"history\":[{\"history_item_id\":\"h1\"}],\"has_more\":false}",
                client.post(ROUTES + "/history", "{}").bodyAsString());
        for (String path : new String[] {"/voices", "/voices/settings/default", "/history"}) {
            MockCompletionServer.Call call = mock.lastCall(API + path);
            assertEquals("GET", call.method());
            assertEquals("xi-key", call.headers().get("xi-api-key"));
        }
    }

    @Test
    void synthesisSendsTheRequestOnToTheVoiceAndAnswersMp3() {
        key();
        byte[] mp3 = {'I', 'D', '3', 4, 0};
        mock.route(API + "/text-to-speech/voice42", request ->
                request.response().putHeader("Content-Type", "audio/mpeg").end(Buffer.buffer(mp3)));
        String request = "{\"text\":\"Hello\",\"model_id\":\"eleven_multilingual_v2\",\"voice_settings\":{\"stability\":0.3}}";
        HttpResponse<Buffer> r = client.post(ROUTES + "/synthesize", "{\"voiceId\":\"voice42\",\"request\":" + request + "}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("audio/mpeg", r.getHeader("Content-Type"));
        assertArrayEquals(mp3, r.body().getBytes());
        MockCompletionServer.Call call = mock.lastCall(API + "/text-to-speech/voice42");
        assertEquals("POST", call.method());
        assertEquals("xi-key", call.headers().get("xi-api-key"));
        assertEquals("application/json", call.headers().get("Content-Type"));
        assertEquals(JsJson.parse(request), call.json());
    }

    @Test
    void aHistoryItemsAudioIsFetchedByItsId() {
        key();
        byte[] mp3 = {'I', 'D', '3', 9};
        mock.route(API + "/history/item-7/audio", request -> request.response().end(Buffer.buffer(mp3)));
        HttpResponse<Buffer> r = client.post(ROUTES + "/history-audio", "{\"historyItemId\":\"item-7\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("audio/mpeg", r.getHeader("Content-Type"));
        assertArrayEquals(mp3, r.body().getBytes());
        assertEquals("GET", mock.lastCall(API + "/history/item-7/audio").method());
    }

    @Test
    void aClonedVoiceIsSentAsAFormWithTheSamplesAsFiles() {
        key();
        mock.route(API + "/voices/add", request -> json(request, 200, "{\"voice_id\":\"new-voice\"}"));
        String sample = Base64.getEncoder().encodeToString("RIFFsample".getBytes());
        HttpResponse<Buffer> r = client.post(ROUTES + "/voices/add", "{\"name\":\"Narrator\",\"labels\":\"{\\\"accent\\\":\\\"british\\\"}\","
                + "\"files\":[\"data:audio/mpeg;base64," + sample + "\",\"not a data url\"]}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"voice_id\":\"new-voice\"}", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(API + "/voices/add");
        assertEquals("xi-key", call.headers().get("xi-api-key"));
        String type = call.headers().get("Content-Type");
        assertTrue(type.startsWith("multipart/form-data; boundary="), type);
        String body = call.body();
        assertTrue(body.contains("name=\"name\"\r\n\r\nNarrator\r\n"), body);
        assertTrue(body.contains("name=\"description\"\r\n\r\nUploaded via SillyTavern\r\n"), body);
        assertTrue(body.contains("name=\"labels\"\r\n\r\n{\"accent\":\"british\"}\r\n"), body);
        assertTrue(body.contains("name=\"files\"; filename=\"audio.mp3\"\r\nContent-Type: audio/mpeg\r\n\r\nRIFFsample\r\n"), body);
        assertEquals(1, body.split("name=\"files\"", -1).length - 1, "the sample that is not a data URL is skipped");
    }

    @Test
    void tooManySamplesAre413BeforeAnyCall() {
        key();
        StringBuilder files = new StringBuilder("[");
        for (int i = 0; i <= ElevenLabsSpeech.MAX_SAMPLES; i++) {
            files.append(i == 0 ? "" : ",").append("\"data:audio/wav;base64,UklGRg==\"");
        }
        HttpResponse<Buffer> r = client.post(ROUTES + "/voices/add", "{\"files\":" + files + "]}");
        assertEquals(413, r.statusCode(), r.bodyAsString());
        assertTrue(mock.calls().isEmpty());
    }

    @Test
    void anUploadedRecordingIsTranscribedWithTheModel() {
        key();
        mock.route(API + "/speech-to-text", request -> json(request, 200, "{\"language_code\":\"en\",\"text\":\"Hello there\"}"));
        MultipartForm form = MultipartForm.create()
                .binaryFileUpload("avatar", "record.wav", Buffer.buffer("RIFFvoice"), "audio/wav")
                .attribute("model", "scribe_v1");
        HttpResponse<Buffer> r = client.postForm(ROUTES + "/recognize", form);
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"language_code\":\"en\",\"text\":\"Hello there\"}", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(API + "/speech-to-text");
        assertEquals("POST", call.method());
        assertEquals("xi-key", call.headers().get("xi-api-key"));
        assertTrue(call.body().contains("name=\"file\"; filename=\"audio.wav\"\r\nContent-Type: audio/wav\r\n\r\nRIFFvoice\r\n"),
                call.body());
        assertTrue(call.body().contains("name=\"model_id\"\r\n\r\nscribe_v1\r\n"), call.body());
        HttpResponse<Buffer> none = client.post(ROUTES + "/recognize", "{\"model\":\"scribe_v1\"}");
        assertEquals(400, none.statusCode());
    }

    @Test
    void withoutAKeyOrWithABadIdItIs400AndNothingIsCalled() {
        HttpResponse<Buffer> noKey = client.post(ROUTES + "/voices", "{}");
        assertEquals(400, noKey.statusCode());
        assertTrue(noKey.bodyAsString().contains("ElevenLabs API key"), noKey.bodyAsString());
        key();
        assertEquals(400, client.post(ROUTES + "/synthesize", "{\"voiceId\":\"v1\"}").statusCode());
        HttpResponse<Buffer> path = client.post(ROUTES + "/synthesize", "{\"voiceId\":\"../history\",\"request\":{}}");
        assertEquals(400, path.statusCode());
        assertTrue(path.bodyAsString().contains("voiceId"), path.bodyAsString());
        assertEquals(400, client.post(ROUTES + "/history-audio", "{\"historyItemId\":\"a/b?c\"}").statusCode());
        assertEquals(400, client.post(ROUTES + "/history-audio", "{}").statusCode());
        assertTrue(mock.calls().isEmpty());
    }

    @Test
    void anElevenLabsErrorIsA500ThatSaysSo() {
        key();
        mock.route(API + "/voices", request -> json(request, 401, "{\"detail\":{\"status\":\"invalid_api_key\"}}"));
        HttpResponse<Buffer> r = client.post(ROUTES + "/voices", "{}");
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsString().contains("ElevenLabs answered 401"), r.bodyAsString());
        assertTrue(r.bodyAsString().contains("invalid_api_key"), r.bodyAsString());
    }
}
