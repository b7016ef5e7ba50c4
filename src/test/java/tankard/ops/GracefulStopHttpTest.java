package tankard.ops;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.ext.web.client.WebClientSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.StreamingClient;
import tankard.testing.TestServer;

import java.net.ConnectException;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stop that SIGTERM starts (Tankard.stop, which Main's shutdown hook calls): over HTTP, with the browser and the
 * backend on a Vert.x of their own, since the node's closes with it.
 */
class GracefulStopHttpTest {
    private static final String GENERATE = "/api/backends/chat-completions/generate";

    private final Vertx side = Vertx.vertx();
    private TestServer server;
    private MockCompletionServer backend;
    /** What the backend's stream has sent before it waits for the test. */
    private final String head = MockCompletionServer.deltaEvent("Once upon");
    private final Promise<HttpServerResponse> streaming = Promise.promise();

    @AfterEach
    void cleanUp() {
        server.close();
        backend.close();
        side.close().await();
    }

    /** A server (with this config.yaml text) and a backend that streams {@link #head}, then waits for the test. */
    private WebClientSession start(String configYaml) {
        server = TestServer.start(configYaml);
        backend = MockCompletionServer.start(side);
        backend.onCompletion(request -> {
            HttpServerResponse response = request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
            response.write(head);
            streaming.complete(response);
        });
        WebClientSession browser = WebClientSession.create(WebClient.create(side, new WebClientOptions()
                .setDefaultHost("127.0.0.1").setDefaultPort(server.port())));
        String token = browser.get("/csrf-token").send().await().bodyAsJsonObject().getString("token");
        browser.addHeader("X-CSRF-Token", token);
        return browser;
    }

    private Future<HttpResponse<Buffer>> generate(WebClientSession browser) {
        return browser.post(GENERATE).putHeader("Content-Type", "application/json")
                .sendBuffer(Buffer.buffer(MetricsHttpTest.generateBody(backend)));
    }

    /** Starts the stop on a thread of its own (it waits for the requests under way), as the shutdown hook does. */
    private CompletableFuture<Void> stopInBackground() {
        return CompletableFuture.runAsync(() -> server.tankard.stop().await());
    }

    @Test
    void aStreamUnderWayFinishesWholeWhileNewRequestsAreRefusedAndTheNodeIsNotReady() throws Exception {
        WebClientSession browser = start(null);
        Future<HttpResponse<Buffer>> generation = generate(browser);
        HttpServerResponse upstream = StreamingClient.await(streaming.future());

        CompletableFuture<Void> stopped = stopInBackground();
        HttpResponse<Buffer> ready;
        for (int tries = 0; (ready = browser.get("/health/ready").send().await()).statusCode() == 200; tries++) {
            assertTrue(tries < 1000, "/health/ready still answers 200 after the stop began");
            Thread.sleep(10);
        }
        assertEquals(503, ready.statusCode());
        assertEquals("{\"status\":\"stopping\"}", ready.bodyAsString());
        HttpResponse<Buffer> refused = browser.get("/version").send().await();
        assertEquals(503, refused.statusCode());
        assertEquals("close", refused.getHeader("Connection"));
        assertEquals("{\"error\":\"This server is stopping; try again in a moment\"}", refused.bodyAsString());
        assertFalse(stopped.isDone(), "the stop waits for the stream under way");

        // megabytes, more than the sockets hold: the connection closed after the response must not cut them
        String tail = MockCompletionServer.deltaEvent(" a time.".repeat(250_000)) + "data: [DONE]\n\n";
        upstream.end(tail);
        HttpResponse<Buffer> whole = StreamingClient.await(generation);
        assertEquals(200, whole.statusCode());
        assertEquals(head.length() + tail.length(), whole.bodyAsString().length());
        assertTrue(whole.bodyAsString().equals(head + tail), "the stream arrives as the backend sent it");
        TestServer.await(stopped);
        assertThrows(ConnectException.class, () -> browser.get("/health/live").send().await(), "the node no longer listens");
    }

    @Test
    void aStopWithNothingUnderWayEndsWithoutWaitingForTheGraceTime() {
        WebClientSession browser = start("tankard:\n  shutdownGraceSeconds: 3600\n");
        assertEquals(200, browser.get("/health/ready").send().await().statusCode());
        // TestServer.await gives up after a minute, far short of the hour of grace
        TestServer.await(server.tankard.stop());
        assertThrows(ConnectException.class, () -> browser.get("/health/live").send().await(), "the node no longer listens");
    }

    @Test
    void aStreamStillRunningWhenTheGraceTimeIsOverIsCut() {
        WebClientSession browser = start("tankard:\n  shutdownGraceSeconds: 1\n");
        Future<HttpResponse<Buffer>> generation = generate(browser);
        StreamingClient.await(streaming.future());
        TestServer.await(stopInBackground());
        assertThrows(RuntimeException.class, generation::await, "a stream cut short must not look whole");
    }
}
