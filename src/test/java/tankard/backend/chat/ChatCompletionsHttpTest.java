package tankard.backend.chat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.MockServerTest;
import tankard.testing.StreamingClient;
import tankard.testing.TestServer;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChatCompletionsHttpTest extends MockServerTest {
    private static final String BASE = "/api/backends/chat-completions";
    private static final String MESSAGES = "[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\",\"content\":\"Hi\"}]";

    /** A generate body as the frontend sends it for the custom source. */
    private String generateBody(boolean stream, String extra) {
        return "{\"type\":\"normal\",\"messages\":" + MESSAGES + ",\"model\":\"mock-model\",\"temperature\":1,"
                + "\"max_tokens\":300,\"stream\":" + stream + ",\"presence_penalty\":0,\"frequency_penalty\":0,"
                + "\"top_p\":1,\"chat_completion_source\":\"custom\",\"user_name\":\"User\",\"char_name\":\"Bramble\","
                + "\"custom_url\":\"" + mock.baseUrl() + "\"" + extra + "}";
    }

    @Test
    void statusListsTheModelsWithTheKeyAndTheYamlHeaders() {
        client.post("/api/secrets/write", "{\"key\":\"api_key_custom\",\"value\":\"sk-custom\"}");
        HttpResponse<Buffer> r = client.post(BASE + "/status", "{\"chat_completion_source\":\"custom\",\"custom_url\":\""
                + mock.baseUrl() + "/\",\"custom_include_headers\":\"X-Extra: one\\nX-Number: 2\"}");
        assertEquals(200, r.statusCode());
        assertEquals("{\"object\":\"list\",\"data\":[{\"id\":\"mock-model\",\"object\":\"model\"}]}", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("GET /v1/models", call.method() + " " + call.path());
        assertEquals("Bearer sk-custom", call.headers().get("Authorization"));
        assertEquals("one", call.headers().get("X-Extra"));
        assertEquals("2", call.headers().get("X-Number"));
    }

    @Test
    void statusFailuresAnswerStsErrorShapes() {
        HttpResponse<Buffer> notFound = client.post(BASE + "/status", "{\"chat_completion_source\":\"custom\","
                + "\"custom_url\":\"" + mock.baseUrl() + "/nowhere\"}");
        assertEquals("{\"error\":true,\"data\":{\"data\":[]}}", notFound.bodyAsString());
        HttpResponse<Buffer> refused = client.post(BASE + "/status", "{\"chat_completion_source\":\"custom\","
                + "\"custom_url\":\"http://127.0.0.1:1/v1\"}");
        assertEquals(200, refused.statusCode());
        assertEquals("{\"error\":true}", refused.bodyAsString());
        HttpResponse<Buffer> noUrl = client.post(BASE + "/status", "{\"chat_completion_source\":\"custom\"}");
        assertEquals("{\"error\":true}", noUrl.bodyAsString());
        HttpResponse<Buffer> unknown = client.post(BASE + "/status", "{\"chat_completion_source\":\"nonesuch\"}");
        assertEquals(400, unknown.statusCode());
        assertEquals("{\"error\":true}", unknown.bodyAsString());
    }

    @Test
    void generateSendsStsUpstreamBodyAndRelaysTheAnswer() {
        HttpResponse<Buffer> r = client.post(BASE + "/generate", generateBody(false, ",\"stop\":[\"\\nUser:\"],"
                + "\"seed\":7,\"n\":1,\"logprobs\":5,\"custom_include_body\":\"temperature: 0.5\\nextra_flag: true\","
                + "\"custom_exclude_body\":\"- seed\",\"custom_include_headers\":\"- X-Extra: 1\\n- Authorization: Token t\""));
        assertEquals(200, r.statusCode());
        assertEquals("{\"id\":\"mock\",\"object\":\"chat.completion\",\"model\":\"mock-model\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"Mock reply 1.\"},\"finish_reason\":\"stop\"}]}",
                r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("POST /v1/chat/completions", call.method() + " " + call.path());
        assertEquals("{\"messages\":" + MESSAGES + ",\"model\":\"mock-model\",\"temperature\":0.5,\"max_tokens\":300,"
                + "\"stream\":false,\"presence_penalty\":0,\"frequency_penalty\":0,\"top_p\":1,\"stop\":[\"\\nUser:\"],"
                + "\"n\":1,\"logprobs\":true,\"top_logprobs\":5,\"extra_flag\":true}", call.body());
        assertEquals("application/json", call.headers().get("Content-Type"));
        assertEquals("Token t", call.headers().get("Authorization"));
        assertEquals("1", call.headers().get("X-Extra"));
    }

    @Test
    void anEmptyKeyIsSentAsABareBearer() {
        client.post(BASE + "/generate", generateBody(false, ""));
        // the header goes out as "Bearer " and the receiving parser drops the trailing space
        assertEquals("Bearer", mock.lastCall().headers().get("Authorization"));
    }

    @Test
    void upstreamErrorsAnswerStsShapes() {
        mock.onCompletion(request -> request.response().setStatusCode(429)
                .end("{\"error\":{\"type\":\"insufficient_quota\",\"message\":\"Out of credit\"}}"));
        HttpResponse<Buffer> quota = client.post(BASE + "/generate", generateBody(false, ""));
        assertEquals(200, quota.statusCode());
        assertEquals("{\"error\":{\"message\":\"Too Many Requests\"},\"quota_error\":true}", quota.bodyAsString());

        mock.onCompletion(request -> request.response().setStatusCode(401).end("{\"error\":{\"message\":\"Bad key\"}}"));
        HttpResponse<Buffer> streamed = client.post(BASE + "/generate", generateBody(true, ""));
        assertEquals(400, streamed.statusCode(), "401 is passed on as 400 so the browser keeps its credentials");
        assertEquals("{\"error\":{\"message\":\"Bad key\"}}", streamed.bodyAsString());

        mock.onCompletion(request -> request.response().end("not json"));
        assertEquals(502, client.post(BASE + "/generate", generateBody(false, "")).statusCode());
    }

    @Test
    void anUnreachableBackendIsA502WithTheReason() {
        HttpResponse<Buffer> r = client.post(BASE + "/generate", generateBody(false, "")
                .replace(mock.baseUrl(), "http://127.0.0.1:1/v1"));
        assertEquals(502, r.statusCode());
        assertTrue(json(r).path("error").path("message").asText().contains("refused"), r.bodyAsString());
        HttpResponse<Buffer> badUrl = client.post(BASE + "/generate", generateBody(false, "")
                .replace(mock.baseUrl(), "not a url"));
        assertEquals(502, badUrl.statusCode());
        assertTrue(json(badUrl).path("error").path("message").asText().startsWith("Invalid URL"), badUrl.bodyAsString());
    }

    @Test
    void unsupportedSourcesAreRejected() {
        HttpResponse<Buffer> r = client.post(BASE + "/generate", "{\"chat_completion_source\":\"nonesuch\"}");
        assertEquals(400, r.statusCode());
        assertEquals("{\"error\":true}", r.bodyAsString());
        assertEquals(0, mock.calls().size());
    }

    @Test
    void aStreamIsRelayedByteForByteAsItArrives() {
        String two = MockCompletionServer.deltaEvent("Hel") + MockCompletionServer.deltaEvent("lo");
        String split = MockCompletionServer.deltaEvent(" there");
        String head = two + split.substring(0, 40);
        String tail = split.substring(40) + "data: [DONE]\n\n";
        Promise<Void> headSeen = Promise.promise();
        mock.onCompletion(request -> {
            HttpServerResponse response = request.response().setChunked(true);
            response.write(two);
            response.write(split.substring(0, 40));
            // the rest only once the browser has the first part: a buffering relay would never get there
            headSeen.future().onSuccess(v -> response.end(tail));
        });
        Buffer received = Buffer.buffer();
        HttpClientResponse response = await(StreamingClient.post(server, client, BASE + "/generate", generateBody(true, "")).compose(r -> {
            r.handler(chunk -> {
                received.appendBuffer(chunk);
                if (received.length() >= head.length()) {
                    headSeen.tryComplete();
                }
            });
            return r.end().map(r);
        }));
        assertEquals(200, response.statusCode());
        assertEquals(head + tail, received.toString());
        assertTrue(mock.lastCall().json().path("stream").asBoolean());
    }

    @Test
    void aBrowserThatGoesAwayCancelsTheUpstreamRequest() {
        Promise<Void> upstreamClosed = Promise.promise();
        mock.onCompletion(request -> {
            request.connection().closeHandler(v -> upstreamClosed.tryComplete());
            request.response().setChunked(true).write(MockCompletionServer.deltaEvent("Once upon"));
        });
        await(StreamingClient.post(server, client, BASE + "/generate", generateBody(true, "")).compose(r -> {
            Promise<Void> first = Promise.promise();
            r.handler(chunk -> first.tryComplete());
            return first.future().onSuccess(v -> r.request().reset());
        }));
        await(upstreamClosed.future());
    }

    @Test
    void aSlowBrowserHoldsBackTheUpstream() throws InterruptedException {
        long total = 64L << 20;
        Buffer piece = Buffer.buffer("data: " + "x".repeat(64 * 1024 - 8) + "\n\n");
        AtomicLong written = new AtomicLong();
        mock.onCompletion(request -> MockCompletionServer.flood(request.response().setChunked(true), piece, total, written));
        assertEquals(total, StreamingClient.readSlowly(StreamingClient.post(server, client, BASE + "/generate", generateBody(true, "")), written, total));
    }

    private static <T> T await(Future<T> future) {
        return TestServer.await(future);
    }
}
