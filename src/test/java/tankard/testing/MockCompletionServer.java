package tankard.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import tankard.json.JsJson;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An OpenAI-compatible backend on loopback for tests: {@code GET /v1/models} and {@code POST
 * /v1/chat/completions}, answering "Mock reply N" (N counts the completions), streamed as SSE when asked.
 * It records every call, and a test can replace the completion behaviour.
 */
public final class MockCompletionServer implements AutoCloseable {
    public static final String MODEL = "mock-model";

    /** One request as the mock received it. */
    public record Call(String method, String path, MultiMap headers, String body, String query) {
        public JsonNode json() {
            return JsJson.parse(body);
        }
    }

    private final HttpServer server;
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final AtomicInteger replies = new AtomicInteger();
    private volatile Handler<HttpServerRequest> completions = this::reply;
    private final Map<String, Handler<HttpServerRequest>> routes = new ConcurrentHashMap<>();

    private MockCompletionServer(HttpServer server) {
        this.server = server;
    }

    public static MockCompletionServer start(Vertx vertx) {
        MockCompletionServer[] mock = new MockCompletionServer[1];
        HttpServer server = vertx.createHttpServer().requestHandler(request -> mock[0].handle(request));
        mock[0] = new MockCompletionServer(server);
        TestServer.await(server.listen(0, "127.0.0.1"));
        return mock[0];
    }

    /** The base URL to put in {@code custom_url}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.actualPort() + "/v1";
    }

    /** The server's origin, for backends whose URL has no {@code /v1}. */
    public String origin() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    /** Adds or replaces how a path answers (other protocols than OpenAI's chat; the call is recorded first). */
    public void route(String path, Handler<HttpServerRequest> handler) {
        routes.put(path, handler);
    }

    public List<Call> calls() {
        return calls;
    }

    public Call lastCall() {
        return calls.get(calls.size() - 1);
    }

    /** The last call to that path. */
    public Call lastCall(String path) {
        return calls.stream().filter(c -> c.path().equals(path)).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no call to " + path + " in " + calls));
    }

    /** Replaces how {@code /v1/chat/completions} answers (the request's body has been recorded already). */
    public void onCompletion(Handler<HttpServerRequest> handler) {
        completions = handler;
    }

    public static String replyText(int n) {
        return "Mock reply " + n + ".";
    }

    /** The SSE event of one OpenAI stream chunk carrying a piece of text. */
    public static String deltaEvent(String text) {
        return "data: {\"id\":\"mock\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":"
                + JsJson.compact(JsJson.tree(text)) + "},\"finish_reason\":null}]}\n\n";
    }

    /** Writes the piece as fast as the connection takes it, until the total is out (counted in written). */
    public static void flood(HttpServerResponse response, Buffer piece, long total, AtomicLong written) {
        // A write after the client hung up fails at once without filling the queue: without these checks the loop
        // would count the rest of the flood as written.
        while (written.get() < total && !response.closed()) {
            if (response.write(piece).failed()) {
                return;
            }
            written.addAndGet(piece.length());
            if (response.writeQueueFull()) {
                response.drainHandler(v -> flood(response, piece, total, written));
                return;
            }
        }
        if (!response.closed()) {
            response.end();
        }
    }

    private void handle(HttpServerRequest request) {
        request.body().onSuccess(body -> {
            calls.add(new Call(request.method().name(), request.path(), request.headers(), body.toString(),
                    request.query()));
            Handler<HttpServerRequest> route = routes.get(request.path());
            if (route != null) {
                route.handle(request);
            } else if (request.path().equals("/v1/models")) {
                request.response().putHeader("Content-Type", "application/json")
                        .end("{\"object\":\"list\",\"data\":[{\"id\":\"" + MODEL + "\",\"object\":\"model\"}]}");
            } else if (request.path().equals("/v1/chat/completions")) {
                completions.handle(request);
            } else {
                request.response().setStatusCode(404).end("{\"error\":{\"message\":\"Not found\"}}");
            }
        });
    }

    /** "Mock reply N.", whole or as a stream of two pieces and [DONE]. */
    private void reply(HttpServerRequest request) {
        String text = replyText(replies.incrementAndGet());
        HttpServerResponse response = request.response();
        if (lastCall().json().path("stream").asBoolean()) {
            int half = text.length() / 2;
            response.setChunked(true).putHeader("Content-Type", "text/event-stream");
            response.write(deltaEvent(text.substring(0, half)));
            response.write(deltaEvent(text.substring(half)));
            response.end("data: [DONE]\n\n");
            return;
        }
        response.putHeader("Content-Type", "application/json").end("{\"id\":\"mock\",\"object\":\"chat.completion\","
                + "\"model\":\"" + MODEL + "\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":"
                + JsJson.compact(JsJson.tree(text)) + "},\"finish_reason\":\"stop\"}]}");
    }

    @Override
    public void close() {
        TestServer.await(server.close());
    }
}
