package tankard.testing;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * POSTs to a test server over a raw client with the session's cookies and a browser's Accept-Encoding, so a
 * test sees the answer as it streams.
 */
public final class StreamingClient {
    private StreamingClient() {
    }

    public static Future<HttpClientResponse> post(TestServer server, TestServer.Client client, String path, String body) {
        return request(server, client, path).compose(request -> request.send(body));
    }

    /** POSTs and closes the connection, whatever has come back, once {@code when} has completed. */
    public static void leaveWhen(TestServer server, TestServer.Client client, String path, String body, Future<?> when) {
        await(request(server, client, path).onSuccess(request -> {
            request.send(body);
            when.onComplete(v -> request.reset());
        }));
    }

    private static Future<HttpClientRequest> request(TestServer server, TestServer.Client client, String path) {
        HttpClient http = server.streamingClient();
        String cookies = StreamSupport.stream(client.session.cookieStore().get(false, "127.0.0.1", "/").spliterator(), false)
                .map(c -> c.name() + "=" + c.value()).collect(Collectors.joining("; "));
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(server.url(path))
                .putHeader("Content-Type", "application/json").putHeader("X-CSRF-Token", client.csrfToken())
                .putHeader("Cookie", cookies)
                // as a browser does: a stream must not be compressed (the compressor would hold it back)
                .putHeader("Accept-Encoding", "gzip, deflate, br, zstd");
        return http.request(options);
    }

    /** A streamed answer read whole: its status and body. */
    public record Answer(int status, String body) {
    }

    /** POSTs and reads the streamed answer whole (its body handler set as the head arrives, so nothing is lost). */
    public static Answer read(TestServer server, TestServer.Client client, String path, String body) {
        return await(post(server, client, path, body)
                .compose(r -> r.body().map(b -> new Answer(r.statusCode(), b.toString()))));
    }

    /** Starts a streamed POST and closes the connection once the first chunk is in; returns that chunk. */
    public static Buffer leaveAfterTheFirstChunk(TestServer server, TestServer.Client client, String path, String body) {
        return await(post(server, client, path, body).compose(r -> {
            Promise<Buffer> first = Promise.promise();
            r.handler(first::tryComplete);
            return first.future().onSuccess(v -> r.request().reset());
        }));
    }

    /**
     * Reads nothing of the answer for a while, checking that the backend (which counts what it wrote) was held
     * back meanwhile, then reads it all; returns how many bytes arrived.
     */
    public static long readSlowly(Future<HttpClientResponse> answer, AtomicLong written, long total)
            throws InterruptedException {
        // paused on the event loop as it arrives: data delivered before a handler is set would be dropped
        HttpClientResponse response = await(answer.map(r -> r.pause()));
        Thread.sleep(1500);
        long whilePaused = written.get();
        assertTrue(whilePaused < total / 2, "the backend kept writing while the browser read nothing: " + whilePaused);
        AtomicLong received = new AtomicLong();
        response.handler(chunk -> received.addAndGet(chunk.length()));
        response.resume();
        await(response.end());
        return received.get();
    }

    public static <T> T await(Future<T> future) {
        return TestServer.await(future);
    }
}
