package tankard.ops;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.PgScratch;
import tankard.testing.ServerTest;
import tankard.testing.StreamingClient;
import tankard.testing.TcpRelay;
import tankard.testing.TestServer;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /metrics}: off by default; Prometheus text for the whitelisted addresses and admins when enabled. */
class MetricsHttpTest extends ServerTest {
    private static final String ENABLED = "tankard:\n  metrics:\n    enabled: true\n";
    private static final String OUTSIDE_WHITELIST = "enableUserAccounts: true\ntankard:\n  metrics:\n    enabled: true\n"
            + "    whitelist: [\"10.0.0.0/8\"]\n";

    private final Vertx side = Vertx.vertx();

    @AfterEach
    void closeSide() {
        side.close().await();
    }

    @Test
    void metricsAreOffUnlessEnabled() {
        start(null);
        assertEquals(404, server.plainClient().get("/metrics").send().await().statusCode());
    }

    @Test
    void enabledMetricsCountTheRouteJustCalledInPrometheusText() {
        start(ENABLED);
        assertEquals(200, client.get("/version").statusCode());
        HttpResponse<Buffer> metrics = server.plainClient().get("/metrics").send().await();
        assertEquals(200, metrics.statusCode(), metrics.bodyAsString());
        assertTrue(metrics.getHeader("Content-Type").startsWith("text/plain; version=0.0.4"), metrics.getHeader("Content-Type"));
        String text = metrics.bodyAsString();
        assertTrue(Pattern.compile("^vertx_http_server_requests_total\\{code=\"200\",method=\"GET\",route=\"[^\"]*/version\"} 1\\.0$",
                Pattern.MULTILINE).matcher(text).find(), text);
        assertTrue(Pattern.compile("^vertx_http_server_response_time_seconds_count\\{code=\"200\",method=\"GET\",route=\"[^\"]*/version\"} 1$",
                Pattern.MULTILINE).matcher(text).find(), text);
        assertTrue(text.contains("\ntankard_streams_open "), text);
    }

    @Test
    void aCallerOutsideTheWhitelistNeedsAnAdminsSession() {
        start(OUTSIDE_WHITELIST);
        HttpResponse<Buffer> stranger = server.plainClient().get("/metrics").send().await();
        assertEquals(403, stranger.statusCode(), stranger.bodyAsString());
        assertEquals("{\"error\":\"The metrics are for the addresses of tankard.metrics.whitelist and admins\"}",
                stranger.bodyAsString());

        TestServer.Client admin = login("default-user", "");
        assertEquals(200, admin.post("/api/users/create", new JsonObject().put("handle", "bob").put("name", "Bob")
                .put("password", "hunter2").put("admin", false).encode()).statusCode());
        HttpResponse<Buffer> forAdmin = admin.get("/metrics");
        assertEquals(200, forAdmin.statusCode(), forAdmin.bodyAsString());
        assertTrue(forAdmin.bodyAsString().contains("vertx_http_server_requests_total"), forAdmin.bodyAsString());
        assertEquals(403, login("bob", "hunter2").get("/metrics").statusCode());
    }

    @Test
    void aRequestAProxyOnThisMachineForwardsFromElsewhereIsNotWhitelisted() {
        start("enableUserAccounts: true\n" + ENABLED);
        assertEquals(200, server.plainClient().get("/metrics").send().await().statusCode(), "loopback is whitelisted");
        HttpResponse<Buffer> forwarded = server.plainClient().get("/metrics").putHeader("X-Forwarded-For", "203.0.113.9")
                .send().await();
        assertEquals(403, forwarded.statusCode(), forwarded.bodyAsString());
    }

    @Test
    void streamsOpenCountsABackendStreamWhileItIsRelayed() {
        start(ENABLED);
        MockCompletionServer mock = MockCompletionServer.start(side);
        Promise<HttpServerResponse> upstream = Promise.promise();
        mock.onCompletion(request -> {
            HttpServerResponse response = request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
            response.write(MockCompletionServer.deltaEvent("Once upon"));
            upstream.complete(response);
        });
        double before = streamsOpen();
        Promise<Void> first = Promise.promise();
        Buffer received = Buffer.buffer();
        // the handler is set in the turn the head arrives in, so that no chunk goes by unread
        HttpClientResponse answer = StreamingClient.await(StreamingClient.post(server, client,
                "/api/backends/chat-completions/generate", generateBody(mock)).compose(r -> {
            r.handler(chunk -> {
                received.appendBuffer(chunk);
                first.tryComplete();
            });
            return first.future().map(r);
        }));
        assertEquals(before + 1, streamsOpen());

        Future<Void> ended = answer.end(); // asked before the stream can end: asking after it would throw
        StreamingClient.await(upstream.future()).end("data: [DONE]\n\n");
        StreamingClient.await(ended);
        assertEquals(MockCompletionServer.deltaEvent("Once upon") + "data: [DONE]\n\n", received.toString());
        assertEquals(before, streamsOpen());
        mock.close();
    }

    @Test
    void aDatabaseThatDoesNotAnswerCountsAsADatabaseError() throws Exception {
        try (PgScratch database = PgScratch.create(); TcpRelay relay = new TcpRelay(side, PgScratch.HOST, PgScratch.PORT)) {
            server = TestServer.startThrough(relay, database, Map.of("SILLYTAVERN_TANKARD_METRICS_ENABLED", "true"));
            client = server.client();
            assertEquals(0, databaseErrors("unavailable"));
            assertTrue(metricsText().contains("vertx_pool_queue_time_seconds_count{pool_name=\"tankard-pg\",pool_type=\"sql\"}"),
                    "the database pool's waits");

            relay.down();
            assertEquals(503, client.post("/api/users/change-name",
                    new JsonObject().put("handle", "default-user").put("name", "During").encode()).statusCode());
            relay.up();
            // the account's lookup (answered from the node's snapshot then) and the change itself
            assertEquals(2, databaseErrors("unavailable"));
            server.close();
            server = null;
        }
    }

    private double databaseErrors(String kind) {
        return value(metricsText(), "tankard_database_errors_total{kind=\"" + kind + "\"}");
    }

    private double streamsOpen() {
        return value(metricsText(), "tankard_streams_open");
    }

    private String metricsText() {
        HttpResponse<Buffer> metrics = server.plainClient().get("/metrics").send().await();
        assertEquals(200, metrics.statusCode(), metrics.bodyAsString());
        return metrics.bodyAsString();
    }

    private static double value(String text, String meter) {
        Matcher m = Pattern.compile("^" + Pattern.quote(meter) + " (\\S+)$", Pattern.MULTILINE).matcher(text);
        assertTrue(m.find(), meter + " in " + text);
        return Double.parseDouble(m.group(1));
    }

    private TestServer.Client login(String handle, String password) {
        TestServer.Client user = server.client();
        HttpResponse<Buffer> r = user.post("/api/users/login",
                new JsonObject().put("handle", handle).put("password", password).encode());
        assertEquals(200, r.statusCode(), r.bodyAsString());
        return user;
    }

    /** A streamed generate of the custom chat-completion source, as ST's frontend sends it. */
    static String generateBody(MockCompletionServer mock) {
        return "{\"type\":\"normal\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}],\"model\":\"mock-model\","
                + "\"stream\":true,\"chat_completion_source\":\"custom\",\"custom_url\":\"" + mock.baseUrl() + "\"}";
    }
}
