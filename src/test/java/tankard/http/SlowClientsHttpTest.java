package tankard.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Slow clients hold stream threads, not the shared workers: while fifty chat saves trickle their bodies, or
 * fifty chat downloads read nothing, a blocking route and both kinds of streamed route still answer. Past the
 * stream threads, one more stream is refused at once with 503. Every client is a raw socket to 127.0.0.1.
 */
class SlowClientsHttpTest extends ServerTest {
    private static final int SLOW = 50;
    /** "Answers promptly": within this, rather than hanging until the slow clients' stall limits run out. */
    private static final long PROMPTLY_SECONDS = 15;
    /** How long the slow clients may take to get under way, on a busy machine. */
    private static final long UNDER_WAY_SECONDS = 60;
    private static final String QUICK_SAVE = "{\"ch_name\":\"Bramble\",\"file_name\":\"quick\",\"avatar_url\":\"Bramble.png\","
            + "\"chat\":[{\"chat_metadata\":{}},{\"mes\":\"quick\"}]}";
    private static final String QUICK_GET = "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"quick\"}";

    private final List<Socket> sockets = new ArrayList<>();

    @AfterEach
    void closeSockets() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
    }

    @Test
    void fiftyTricklingUploadsLeaveTheOtherRoutesAnswering() throws IOException {
        startWithSettings();
        List<Socket> uploads = slowUploads(SLOW);
        assertOtherRoutesAnswer(() -> trickle(uploads));
    }

    @Test
    void fiftyDownloadsThatReadNothingLeaveTheOtherRoutesAnswering() throws IOException {
        startWithSettings();
        // 16 MB: more than a stalled answer can leave in the write queue and the sockets' buffers
        StringBuilder chat = new StringBuilder("{\"chat_metadata\":{}}");
        String message = "\n{\"mes\":\"" + "x".repeat(1000) + "\"}";
        while (chat.length() < 16 << 20) {
            chat.append(message);
        }
        put("chats/Bramble/big.jsonl", chat.toString().getBytes(StandardCharsets.UTF_8));
        String get = "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"big\"}";
        assertEquals(200, client.post("/api/chats/get", get).statusCode()); // read once whole: later reads copy it
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(UNDER_WAY_SECONDS);
        List<String> heads = new ArrayList<>();
        List<Socket> downloads = open(SLOW);
        for (Socket download : downloads) {
            send(download, request("/api/chats/get", get.length()) + "\r\n" + get);
        }
        for (Socket download : downloads) {
            String head = statusLine(download, deadline); // and no more: the rest is left unread
            if (head == null) {
                break;
            }
            heads.add(head);
        }
        assertOtherRoutesAnswer(() -> { });
        assertEquals(Collections.nCopies(SLOW, "HTTP/1.1 200 OK"), heads, "every slow download was under way");
    }

    @Test
    void aStreamPastTheStreamThreadsIsRefusedAtOnceAndAdmittedOnceOneIsFree() throws Exception {
        startWithSettings();
        assertEquals(200, client.post("/api/chats/save", QUICK_SAVE).statusCode());
        List<Socket> uploads = slowUploads(StreamThreads.THREADS);
        assertEquals(200, promptly("/api/settings/get", "{}").statusCode(), "a blocking route");
        HttpResponse<Buffer> save = promptly("/api/chats/save", QUICK_SAVE);
        assertEquals(503, save.statusCode(), "a streamed upload");
        assertTrue(json(save).get("error").asText().contains("busy"), save.bodyAsString());
        assertEquals(503, promptly("/api/chats/get", QUICK_GET).statusCode(), "a streamed answer");

        uploads.get(0).close();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PROMPTLY_SECONDS);
        int status = promptly("/api/chats/save", QUICK_SAVE).statusCode();
        while (status == 503 && System.nanoTime() < deadline) {
            Thread.sleep(100);
            status = promptly("/api/chats/save", QUICK_SAVE).statusCode();
        }
        assertEquals(200, status, "the thread of the client that left is free again");
    }

    private void startWithSettings() throws IOException {
        start("backups:\n  chat:\n    enabled: false\n");
        put("settings.json", "{}".getBytes(StandardCharsets.UTF_8)); // what /api/settings/get answers with
    }

    /** A blocking route, a streamed upload and a streamed answer each answer promptly; {@code meanwhile} runs before each. */
    private void assertOtherRoutesAnswer(Runnable meanwhile) {
        meanwhile.run();
        assertEquals(200, promptly("/api/settings/get", "{}").statusCode(), "a blocking route");
        meanwhile.run();
        assertEquals(200, promptly("/api/chats/save", QUICK_SAVE).statusCode(), "a streamed upload");
        meanwhile.run();
        HttpResponse<Buffer> get = promptly("/api/chats/get", QUICK_GET);
        assertEquals("[{\"chat_metadata\":{}},{\"mes\":\"quick\"}]", get.bodyAsString(), "a streamed answer");
    }

    /** POSTs JSON with the test's client and waits for the answer {@link #PROMPTLY_SECONDS} at most. */
    private HttpResponse<Buffer> promptly(String path, String json) {
        try {
            return client.request(HttpMethod.POST, path).putHeader("Content-Type", "application/json")
                    .sendBuffer(Buffer.buffer(json)).toCompletionStage().toCompletableFuture()
                    .get(PROMPTLY_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            return fail(path + " did not answer within " + PROMPTLY_SECONDS + " s while the slow clients stalled");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Chat saves whose route has taken them (they were told to continue) and that have sent the start of their
     * body, a JSON string left open: the rest comes a few bytes at a time.
     */
    private List<Socket> slowUploads(int count) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(UNDER_WAY_SECONDS);
        List<Socket> uploads = open(count);
        for (int i = 0; i < count; i++) {
            String start = "{\"ch_name\":\"Bramble\",\"file_name\":\"slow" + i + "\",\"avatar_url\":\"Bramble.png\","
                    + "\"chat\":[{\"chat_metadata\":{}},{\"mes\":\"";
            Socket upload = uploads.get(i);
            send(upload, request("/api/chats/save", start.length() + 100_000) + "Expect: 100-continue\r\n\r\n");
            assertEquals("HTTP/1.1 100 Continue", statusLine(upload, deadline), "slow upload " + i);
            send(upload, start);
        }
        return uploads;
    }

    private static void trickle(List<Socket> uploads) {
        for (Socket upload : uploads) {
            send(upload, "abc");
        }
    }

    /** Connections that take in little of what they are sent unless the test reads it; closed after the test. */
    private List<Socket> open(int count) throws IOException {
        List<Socket> opened = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Socket socket = new Socket();
            sockets.add(socket);
            socket.setReceiveBufferSize(4096);
            socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5000);
            opened.add(socket);
        }
        return opened;
    }

    /** A POST's head with the client's session and CSRF token, but for its last, empty line. */
    private String request(String path, int contentLength) {
        List<String> cookies = new ArrayList<>();
        client.session.cookieStore().get(false, "127.0.0.1", "/").forEach(c -> cookies.add(c.name() + "=" + c.value()));
        return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "X-CSRF-Token: " + client.csrfToken() + "\r\nCookie: " + String.join("; ", cookies) + "\r\n"
                + "Content-Length: " + contentLength + "\r\n";
    }

    private static void send(Socket socket, String text) {
        try {
            socket.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads the head of an answer and returns its status line; null when it has not come by the deadline. */
    private static String statusLine(Socket socket, long deadline) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                return null;
            }
            socket.setSoTimeout((int) left);
            int b;
            try {
                b = in.read();
            } catch (SocketTimeoutException e) {
                return null;
            }
            if (b < 0) {
                throw new IOException("The server closed the connection");
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.ISO_8859_1).lines().findFirst().orElseThrow();
    }
}
