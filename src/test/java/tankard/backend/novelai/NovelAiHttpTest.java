package tankard.backend.novelai;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;
import tankard.testing.StreamingClient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NovelAiHttpTest extends PublicHostsMockTest {
    private static final String BASE = "/api/novelai";

    private void writeKey() {
        client.post("/api/secrets/write", "{\"key\":\"api_key_novel\",\"value\":\"pst-novel\"}");
    }

    /** A generate body as the frontend sends it (abbreviated). */
    private static String generateBody(String model, boolean streaming) {
        return "{\"input\":\"Once upon a time\",\"model\":\"" + model + "\",\"use_string\":true,\"temperature\":1.35,"
                + "\"max_length\":150,\"min_length\":1,\"top_k\":15,\"top_p\":0.85,\"repetition_penalty\":2.8,"
                + "\"repetition_penalty_range\":2048,\"phrase_rep_pen\":\"medium\",\"stop_sequences\":[[85]],"
                + "\"bad_words_ids\":[[9],[],[\"x\"]],\"logit_bias_exp\":[{\"sequence\":[100],\"bias\":1}],"
                + "\"prefix\":\"vanilla\",\"order\":[2,3,0],\"streaming\":" + streaming + "}";
    }

    private static String event(String token) {
        return "event: newToken\nid: 1\ndata: {\"token\":\"" + token + "\",\"ptr\":0}\n\n";
    }

    @Test
    void withoutAKeyBothRoutesAnswer400() {
        assertEquals(400, client.post(BASE + "/status", "{}").statusCode());
        HttpResponse<Buffer> answer = client.post(BASE + "/generate", generateBody("kayra-v1", false));
        assertEquals(400, answer.statusCode());
        assertTrue(answer.bodyAsString().contains("NovelAI"), answer.bodyAsString());
        assertTrue(mock.calls().isEmpty());
    }

    @Test
    void statusIsTheSubscription() {
        writeKey();
        mock.route(NOVELAI_API + "/user/subscription", r -> json(r, 200, "{\"tier\":3,\"active\":true}"));
        assertEquals("{\"tier\":3,\"active\":true}", client.post(BASE + "/status", "{}").bodyAsString());
        assertEquals("Bearer pst-novel", mock.lastCall(NOVELAI_API + "/user/subscription").headers().get("Authorization"));
        mock.route(NOVELAI_API + "/user/subscription", r -> json(r, 401, "{\"message\":\"Invalid token\"}"));
        assertEquals("{\"error\":true}", client.post(BASE + "/status", "{}").bodyAsString());
        takeUpstreamDown();
        assertEquals("{\"error\":true}", client.post(BASE + "/status", "{}").bodyAsString());
    }

    @Test
    void kayraGeneratesOnTheTextHostWithItsSettings() {
        writeKey();
        mock.route(NOVELAI_TEXT + "/ai/generate", r -> json(r, 201, "{\"output\":\" there was a cat.\"}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/generate", generateBody("kayra-v1", false));
        assertEquals(200, answer.statusCode());
        assertEquals("{\"output\":\" there was a cat.\"}", answer.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(NOVELAI_TEXT + "/ai/generate");
        assertEquals("Bearer pst-novel", call.headers().get("Authorization"));
        JsonNode sent = call.json();
        assertEquals("Once upon a time", sent.get("input").textValue());
        JsonNode parameters = sent.get("parameters");
        assertEquals("use_string,temperature,max_length,min_length,repetition_penalty,repetition_penalty_range,"
                + "repetition_penalty_whitelist,top_p,top_k,phrase_rep_pen,stop_sequences,bad_words_ids,logit_bias_exp,"
                + "prefix,order", String.join(",", (Iterable<String>) parameters::fieldNames));
        // Clio/Kayra's 20 banned sequences, then the request's integer one ([] and ["x"] left out)
        assertEquals(21, parameters.get("bad_words_ids").size());
        assertEquals("[9]", parameters.get("bad_words_ids").get(20).toString());
        assertEquals("[{\"sequence\":[23],\"bias\":-0.08,\"ensure_sequence_finish\":false,\"generate_once\":false},"
                + "{\"sequence\":[21],\"bias\":-0.08,\"ensure_sequence_finish\":false,\"generate_once\":false},"
                + "{\"sequence\":[100],\"bias\":1}]", JsJson.compact(parameters.get("logit_bias_exp")));
        assertEquals(49256, parameters.get("repetition_penalty_whitelist").get(0).intValue());
    }

    @Test
    void olderModelsGenerateOnTheApiHost() {
        writeKey();
        mock.route(NOVELAI_API + "/ai/generate", r -> json(r, 201, "{\"output\":\"x\"}"));
        assertEquals("{\"output\":\"x\"}", client.post(BASE + "/generate", generateBody("clio-v1", false)).bodyAsString());
        JsonNode parameters = mock.lastCall(NOVELAI_API + "/ai/generate").json().get("parameters");
        assertEquals(21, parameters.get("bad_words_ids").size());
    }

    @Test
    void novelAiErrorsAnswer500WithTheirMessage() {
        writeKey();
        mock.route(NOVELAI_TEXT + "/ai/generate", r -> json(r, 400, "{\"statusCode\":400,\"message\":\"Bad input\"}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/generate", generateBody("kayra-v1", false));
        assertEquals(500, answer.statusCode());
        assertEquals("{\"error\":{\"message\":\"Bad input\"}}", answer.bodyAsString());
        mock.route(NOVELAI_TEXT + "/ai/generate", r -> r.response().setStatusCode(502).end("Bad gateway"));
        assertEquals("{\"error\":{\"message\":\"Bad gateway\"}}",
                client.post(BASE + "/generate", generateBody("kayra-v1", false)).bodyAsString());
        takeUpstreamDown();
        answer = client.post(BASE + "/generate", generateBody("kayra-v1", false));
        assertEquals(200, answer.statusCode());
        assertEquals("{\"error\":true}", answer.bodyAsString());
    }

    @Test
    void aStreamIsRelayedAsItArrives() {
        writeKey();
        mock.route(NOVELAI_TEXT + "/ai/generate-stream", r -> {
            r.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
            r.response().write(event(" there"));
            r.response().write(event(" was"));
            r.response().end();
        });
        assertEquals(new StreamingClient.Answer(200, event(" there") + event(" was")),
                StreamingClient.read(server, client, BASE + "/generate", generateBody("erato-v1", true)));
        JsonNode parameters = mock.lastCall(NOVELAI_TEXT + "/ai/generate-stream").json().get("parameters");
        assertEquals("[{\"sequence\":[12488],\"bias\":-0.08,\"ensure_sequence_finish\":false,\"generate_once\":false},"
                + "{\"sequence\":[128041],\"bias\":-0.08,\"ensure_sequence_finish\":false,\"generate_once\":false},"
                + "{\"sequence\":[100],\"bias\":1}]", JsJson.compact(parameters.get("logit_bias_exp")));
    }

    @Test
    void aStalledStreamIsCancelledWhenTheBrowserLeaves() {
        writeKey();
        Promise<Void> upstreamClosed = Promise.promise();
        mock.route(NOVELAI_TEXT + "/ai/generate-stream", r -> {
            r.connection().closeHandler(v -> upstreamClosed.tryComplete());
            r.response().setChunked(true).write(event(" there"));
        });
        assertEquals(event(" there"), StreamingClient.leaveAfterTheFirstChunk(server, client, BASE + "/generate",
                generateBody("kayra-v1", true)).toString());
        StreamingClient.await(upstreamClosed.future());
    }

    @Test
    void aRequestWithoutModelIsRefused() {
        writeKey();
        assertEquals(400, client.post(BASE + "/generate", "{\"input\":\"Hi\"}").statusCode());
    }
}
