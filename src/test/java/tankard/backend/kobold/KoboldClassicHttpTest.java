package tankard.backend.kobold;

import io.vertx.core.Promise;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.multipart.MultipartForm;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;
import tankard.testing.StreamingClient;
import tankard.testing.TestServer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KoboldClassicHttpTest extends PublicHostsMockTest {
    private static final String BASE = "/api/backends/kobold";
    private static final String SAMPLERS = "\"rep_pen\":1.1,\"rep_pen_range\":600,\"rep_pen_slope\":0.7,"
            + "\"temperature\":0.7,\"tfs\":1,\"top_a\":0,\"top_k\":40,\"top_p\":0.9,\"min_p\":0.05,\"typical\":1,"
            + "\"sampler_order\":[6,0,1,3,4,2,5]";

    /** A generate body as the frontend sends it, for the mock named as "localhost". */
    private String generateBody(boolean streaming, String extra) {
        return "{\"prompt\":\"User: Hi\\nBot:\",\"gui_settings\":false," + SAMPLERS + ",\"max_context_length\":4096,"
                + "\"max_length\":200,\"use_world_info\":false,\"singleline\":false,\"stop_sequence\":[\"\\nUser:\"],"
                + "\"streaming\":" + streaming + ",\"can_abort\":true,\"mirostat\":0,\"mirostat_tau\":5,"
                + "\"mirostat_eta\":0.1,\"use_default_badwordsids\":false,\"grammar\":\"\",\"sampler_seed\":-1,"
                + "\"api_server\":\"" + localhost() + "/api\"" + extra + "}";
    }

    private static String event(String token) {
        return "event: message\ndata: {\"token\":\"" + token + "\"}\n\n";
    }

    // ---- status

    @Test
    void statusNamesBothVersionsAndTheModel() {
        mock.route("/api/v1/info/version", r -> json(r, 200, "{\"result\":\"1.2.5\"}"));
        mock.route("/api/extra/version", r -> json(r, 200, "{\"result\":\"KoboldCpp\",\"version\":\"1.80\"}"));
        mock.route("/api/v1/model", r -> json(r, 200, "{\"result\":\"koboldcpp/Mistral-7B\"}"));
        HttpResponse<Buffer> status = client.post(BASE + "/status",
                "{\"main_api\":\"kobold\",\"api_server\":\"" + localhost() + "/api\"}");
        assertEquals("{\"koboldUnitedVersion\":\"1.2.5\",\"koboldCppVersion\":\"KoboldCpp\","
                + "\"model\":\"koboldcpp/Mistral-7B\"}", status.bodyAsString());
    }

    @Test
    void statusOfAServerThatIsNoKoboldSaysNoConnection() {
        // the mock answers 404 to all three
        assertEquals("{\"koboldUnitedVersion\":\"0.0.0\",\"model\":\"no_connection\"}",
                client.post(BASE + "/status", "{\"api_server\":\"" + mock.origin() + "/api\"}").bodyAsString());
        mock.route("/api/v1/model", r -> json(r, 200, "{\"result\":\"ReadOnly\"}"));
        assertEquals("no_connection", client.post(BASE + "/status",
                "{\"api_server\":\"" + mock.origin() + "/api\"}").bodyAsJsonObject().getString("model"));
        assertEquals("{\"koboldUnitedVersion\":\"0.0.0\",\"model\":\"no_connection\"}",
                client.post(BASE + "/status", "{\"api_server\":\"http://127.0.0.1:1/api\"}").bodyAsString());
    }

    @Test
    void aRequestWithoutServerIsRefused() {
        HttpResponse<Buffer> answer = client.post(BASE + "/generate", "{\"prompt\":\"Hi\"}");
        assertEquals(400, answer.statusCode());
        assertTrue(answer.bodyAsString().contains("api_server"), answer.bodyAsString());
        assertEquals(400, client.post(BASE + "/status", "{}").statusCode());
    }

    // ---- generate

    @Test
    void generateSendsTheFrontendsSamplersAndAnswersKoboldsJson() {
        mock.route("/api/v1/generate", r -> json(r, 200, "{\"results\":[{\"text\":\" Hello!\"}]}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/generate", generateBody(false, ""));
        assertEquals(200, answer.statusCode());
        assertEquals("{\"results\":[{\"text\":\" Hello!\"}]}", answer.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall("/api/v1/generate");
        assertEquals("{\"prompt\":\"User: Hi\\nBot:\",\"use_story\":false,\"use_memory\":false,"
                + "\"use_authors_note\":false,\"use_world_info\":false,\"max_context_length\":4096,\"max_length\":200,"
                + SAMPLERS + ",\"singleline\":false,\"use_default_badwordsids\":false,\"mirostat\":0,"
                + "\"mirostat_eta\":0.1,\"mirostat_tau\":5,\"grammar\":\"\",\"sampler_seed\":-1,"
                + "\"stop_sequence\":[\"\\nUser:\"]}", call.body());
        assertEquals("application/json", call.headers().get("Content-Type"));
        assertNull(call.headers().get("Authorization"));
    }

    @Test
    void guiSettingsSendOnlyThePromptAndLengths() {
        mock.route("/api/v1/generate", r -> json(r, 200, "{\"results\":[{\"text\":\"x\"}]}"));
        client.post(BASE + "/generate", generateBody(false, ",\"gui_settings\":true"));
        assertEquals("{\"prompt\":\"User: Hi\\nBot:\",\"use_story\":false,\"use_memory\":false,"
                + "\"use_authors_note\":false,\"use_world_info\":false,\"max_context_length\":4096,\"max_length\":200}",
                mock.lastCall("/api/v1/generate").body());
    }

    @Test
    void koboldErrorsAnswer400WithTheirMessage() {
        mock.route("/api/v1/generate", r -> json(r, 422,
                "{\"detail\":{\"msg\":\"max_length must be at most 512\",\"type\":\"value_error\"}}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/generate", generateBody(false, ""));
        assertEquals(400, answer.statusCode());
        assertEquals("{\"error\":{\"message\":\"max_length must be at most 512\"}}", answer.bodyAsString());
        mock.route("/api/v1/generate", r -> r.response().setStatusCode(503).end("Server busy"));
        assertEquals("{\"error\":{\"message\":\"Server busy\"}}",
                client.post(BASE + "/generate", generateBody(false, "")).bodyAsString());
    }

    @Test
    void anUnreachableServerAnswersErrorTrue() {
        HttpResponse<Buffer> answer = client.post(BASE + "/generate",
                generateBody(false, "").replace(localhost(), "http://127.0.0.1:1"));
        assertEquals(200, answer.statusCode());
        assertEquals("{\"error\":true}", answer.bodyAsString());
        mock.route("/api/v1/generate", r -> r.response().end("not json"));
        assertEquals("{\"error\":true}", client.post(BASE + "/generate", generateBody(false, "")).bodyAsString());
    }

    @Test
    void aStreamIsRelayedAsItArrives() {
        mock.route("/api/extra/generate/stream", r -> {
            r.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
            r.response().write(event(" Hel"));
            r.response().write(event("lo"));
            r.response().end();
        });
        StreamingClient.Answer answer = StreamingClient.read(server, client, BASE + "/generate", generateBody(true, ""));
        assertEquals(new StreamingClient.Answer(200, event(" Hel") + event("lo")), answer);
        assertTrue(mock.lastCall("/api/extra/generate/stream").body().startsWith("{\"prompt\""));
    }

    @Test
    void aStreamThatFailsUpstreamRelaysTheStatusAndBody() {
        mock.route("/api/extra/generate/stream", r -> r.response().setStatusCode(401).end("{\"detail\":\"no\"}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/generate", generateBody(true, ""));
        assertEquals(400, answer.statusCode(), "401 becomes 400 so the browser keeps its credentials");
        assertEquals("{\"detail\":\"no\"}", answer.bodyAsString());
    }

    @Test
    void koboldIsToldToAbortWhenTheBrowserLeaves() {
        Promise<Void> aborted = Promise.promise();
        Promise<Void> upstreamClosed = Promise.promise();
        mock.route("/api/extra/generate/stream", r -> {
            r.connection().closeHandler(v -> upstreamClosed.tryComplete());
            r.response().setChunked(true).write(event("Once"));
        });
        mock.route("/api/extra/abort", r -> {
            r.response().end("{\"success\":true}");
            aborted.tryComplete();
        });
        assertEquals(event("Once"), StreamingClient.leaveAfterTheFirstChunk(server, client, BASE + "/generate",
                generateBody(true, "")).toString());
        StreamingClient.await(aborted.future());
        StreamingClient.await(upstreamClosed.future());
        assertEquals("POST", mock.lastCall("/api/extra/abort").method());
    }

    @Test
    void withoutCanAbortKoboldIsNotToldToAbort() {
        mock.route("/api/extra/generate/stream", r -> r.response().setChunked(true).write(event("Once")));
        StreamingClient.leaveAfterTheFirstChunk(server, client, BASE + "/generate",
                generateBody(true, ",\"can_abort\":false"));
        client.post(BASE + "/status", "{\"api_server\":\"" + mock.origin() + "/api\"}");
        assertTrue(mock.calls().stream().noneMatch(c -> c.path().equals("/api/extra/abort")));
    }

    // ---- KoboldCpp's extras

    @Test
    void embeddingsComeInInputOrderWithKoboldCppsKey() {
        client.post("/api/secrets/write", "{\"key\":\"api_key_koboldcpp\",\"value\":\"sk-kcpp\"}");
        mock.route("/api/extra/embeddings", r -> json(r, 200, "{\"object\":\"list\",\"model\":\"nomic\",\"data\":["
                + "{\"index\":1,\"embedding\":[0.5,0.25]},[{\"index\":0,\"embedding\":[1,0]}]]}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/embed",
                "{\"server\":\"" + mock.origin() + "/api\",\"items\":[\"first\",\"second\"]}");
        assertEquals("{\"model\":\"nomic\",\"embeddings\":[[1,0],[0.5,0.25]]}", answer.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall("/api/extra/embeddings");
        assertEquals("{\"input\":[\"first\",\"second\"]}", call.body());
        assertEquals("Bearer sk-kcpp", call.headers().get("Authorization"));
        mock.route("/api/extra/embeddings", r -> json(r, 200, "{\"error\":\"no model\"}"));
        assertEquals(500, client.post(BASE + "/embed", "{\"server\":\"" + mock.origin() + "\",\"items\":[]}")
                .statusCode());
        assertEquals(400, client.post(BASE + "/embed", "{\"items\":[]}").statusCode());
        answer = client.post(BASE + "/embed", "{\"server\":\"http://127.0.0.1:1\",\"items\":[]}");
        assertEquals(502, answer.statusCode());
        assertTrue(answer.bodyAsString().startsWith("{\"error\":\"The backend could not be reached: "), answer.bodyAsString());
        answer = client.post(BASE + "/embed", "{\"server\":\"../../etc\",\"items\":[]}");
        assertEquals(400, answer.statusCode());
        assertTrue(answer.bodyAsString().contains("Invalid URL"), answer.bodyAsString());
    }

    @Test
    void anUploadedSoundIsTranscribed() {
        mock.route("/api/extra/transcribe", r -> json(r, 200, "{\"text\":\" Hello there.\"}"));
        MultipartForm form = MultipartForm.create().attribute("server", mock.origin() + "/api")
                .binaryFileUpload("avatar", "record.wav", Buffer.buffer("RIFF sound"), "audio/wav");
        HttpResponse<Buffer> answer = TestServer.await(client.request(HttpMethod.POST, BASE + "/transcribe-audio")
                .sendMultipartForm(form));
        assertEquals("{\"text\":\" Hello there.\"}", answer.bodyAsString());
        assertEquals("{\"prompt\":\"\",\"audio_data\":\"UklGRiBzb3VuZA==\"}", mock.lastCall("/api/extra/transcribe").body());
        mock.route("/api/extra/transcribe", r -> r.response().setStatusCode(503).end("Whisper not loaded"));
        answer = TestServer.await(client.request(HttpMethod.POST, BASE + "/transcribe-audio")
                .sendMultipartForm(form));
        assertEquals(500, answer.statusCode());
        assertEquals("Whisper not loaded", answer.bodyAsString());
        MultipartForm noFile = MultipartForm.create().attribute("server", mock.origin());
        assertEquals(400, TestServer.await(client.request(HttpMethod.POST, BASE + "/transcribe-audio")
                .sendMultipartForm(noFile)).statusCode());
    }
}
