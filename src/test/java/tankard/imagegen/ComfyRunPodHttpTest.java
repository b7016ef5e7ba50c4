package tankard.imagegen;

import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tankard.testing.MockCompletionServer;
import tankard.testing.ServerTest;
import tankard.testing.StreamingClient;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/sd/comfyrunpod/*} against a mock RunPod serverless endpoint (ST: src/endpoints/stable-diffusion.js). */
@Timeout(60)
class ComfyRunPodHttpTest extends ServerTest {
    private static final String ENDPOINT = "/v2/abc123";

    private MockCompletionServer mock;

    private void startWithKey() {
        start("");
        mock = MockCompletionServer.start(server.vertx);
        client.post("/api/secrets/write", "{\"key\":\"api_key_comfy_runpod\",\"value\":\"rp\"}");
    }

    @AfterEach
    void stopMock() {
        if (mock != null) {
            mock.close();
        }
    }

    private String body(String workflow) {
        StringBuilder prompt = new StringBuilder();
        tankard.json.JsJson.quote("{\"prompt\": " + workflow + "}", prompt);
        return "{\"url\":\"" + mock.origin() + ENDPOINT + "\",\"prompt\":" + prompt + "}";
    }

    private static void json(HttpServerRequest request, String json) {
        request.response().putHeader("Content-Type", "application/json").end(json);
    }

    @Test
    void pingReadsTheHealthWithTheKey() {
        startWithKey();
        mock.route(ENDPOINT + "/health", request -> json(request, "{\"workers\":{\"ready\":1}}"));
        HttpResponse<Buffer> r = client.post("/api/sd/comfyrunpod/ping", "{\"url\":\"" + mock.origin() + ENDPOINT + "\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("Bearer rp", mock.lastCall(ENDPOINT + "/health").headers().get("Authorization"));
    }

    @Test
    void generateWrapsTheWorkflowPollsTheJobAndAnswersItsImage() {
        startWithKey();
        mock.route(ENDPOINT + "/run", request -> json(request, "{\"id\":\"job-1\",\"status\":\"IN_QUEUE\"}"));
        AtomicInteger polls = new AtomicInteger();
        mock.route(ENDPOINT + "/status/job-1", request -> json(request, polls.incrementAndGet() < 2
                ? "{\"id\":\"job-1\",\"status\":\"IN_PROGRESS\"}"
                : "{\"id\":\"job-1\",\"status\":\"COMPLETED\",\"output\":{\"images\":[{\"filename\":\"ComfyUI_0001.webp\","
                + "\"type\":\"base64\",\"data\":\"UklGRg==\"}]}}"));
        HttpResponse<Buffer> r = client.post("/api/sd/comfyrunpod/generate", body("{\"3\":{\"class_type\":\"KSampler\"}}"));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"format\":\"webp\",\"data\":\"UklGRg==\"}", r.bodyAsString());
        MockCompletionServer.Call run = mock.lastCall(ENDPOINT + "/run");
        assertEquals("{\"input\":{\"workflow\":{\"3\":{\"class_type\":\"KSampler\"}}}}", run.body());
        assertEquals("Bearer rp", run.headers().get("Authorization"));
        assertEquals("Bearer rp", mock.lastCall(ENDPOINT + "/status/job-1").headers().get("Authorization"));
        assertEquals(2, polls.get());
    }

    @Test
    void aWorkflowInRunPodsFormIsSentAsItIsAndAFailedJobIsA500Text() {
        startWithKey();
        mock.route(ENDPOINT + "/run", request -> json(request, "{\"id\":\"job-2\"}"));
        mock.route(ENDPOINT + "/status/job-2", request -> json(request, "{\"status\":\"FAILED\",\"error\":\"node 3 failed\"}"));
        HttpResponse<Buffer> r = client.post("/api/sd/comfyrunpod/generate", body("{\"input\":{\"workflow\":{\"3\":{}}}}"));
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsString().startsWith("ComfyUI RunPod job FAILED"), r.bodyAsString());
        assertTrue(r.bodyAsString().contains("node 3 failed"), r.bodyAsString());
        assertEquals("{\"input\":{\"workflow\":{\"3\":{}}}}", mock.lastCall(ENDPOINT + "/run").body());
    }

    @Test
    void whenTheBrowserLeavesTheJobIsCancelled() {
        startWithKey();
        mock.route(ENDPOINT + "/run", request -> json(request, "{\"id\":\"job-3\"}"));
        Promise<Void> polling = Promise.promise();
        mock.route(ENDPOINT + "/status/job-3", request -> {
            polling.tryComplete();
            json(request, "{\"status\":\"IN_PROGRESS\"}");
        });
        Promise<MockCompletionServer.Call> cancelled = Promise.promise();
        mock.route(ENDPOINT + "/cancel/job-3", request -> {
            cancelled.tryComplete(mock.lastCall(ENDPOINT + "/cancel/job-3"));
            json(request, "{}");
        });
        StreamingClient.leaveWhen(server, client, "/api/sd/comfyrunpod/generate", body("{}"), polling.future());
        MockCompletionServer.Call cancel = StreamingClient.await(cancelled.future());
        assertEquals("POST", cancel.method());
        assertEquals("Bearer rp", cancel.headers().get("Authorization"));
    }

    @Test
    void withoutTheKeyOrWithABadPromptItIs400AndNothingIsCalled() {
        start("");
        mock = MockCompletionServer.start(server.vertx);
        assertEquals(400, client.post("/api/sd/comfyrunpod/ping", "{\"url\":\"" + mock.origin() + "\"}").statusCode());
        client.post("/api/secrets/write", "{\"key\":\"api_key_comfy_runpod\",\"value\":\"rp\"}");
        HttpResponse<Buffer> r = client.post("/api/sd/comfyrunpod/generate", "{\"url\":\"" + mock.origin() + "\",\"prompt\":\"{\"}");
        assertEquals(400, r.statusCode());
        assertTrue(r.bodyAsString().contains("prompt"), r.bodyAsString());
        assertTrue(mock.calls().isEmpty(), mock.calls().toString());
    }

    @Test
    void withThePrivateAddressFilterOnALoopbackEndpointIsRefused() {
        start("privateAddressWhitelist:\n  enabled: true\n  allowedRanges: ['10.99.0.0/16']\n");
        mock = MockCompletionServer.start(server.vertx);
        client.post("/api/secrets/write", "{\"key\":\"api_key_comfy_runpod\",\"value\":\"rp\"}");
        assertEquals(403, client.post("/api/sd/comfyrunpod/ping", "{\"url\":\"" + mock.origin() + "\"}").statusCode());
        HttpResponse<Buffer> r = client.post("/api/sd/comfyrunpod/generate", body("{}"));
        assertEquals(403, r.statusCode());
        assertTrue(r.bodyAsString().contains("Blocked request to private IP address"), r.bodyAsString());
        assertTrue(mock.calls().isEmpty(), mock.calls().toString());
    }
}
