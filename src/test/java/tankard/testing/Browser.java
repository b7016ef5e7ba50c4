package tankard.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import tankard.json.JsJson;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A headless Chromium driven over the DevTools protocol (CDP) through a Vert.x WebSocket, for UI tests.
 * Each {@link Page} records every HTTP response with status >= 400 and every console error, so a test can
 * assert a clean page load. Always close it (try-with-resources): closing kills the whole process tree and
 * deletes the temp profile; a shutdown hook does the killing if the JVM exits first.
 */
public final class Browser implements AutoCloseable {
    /** {@code CHROMIUM=/path/to/chrome} overrides the Debian package's binary. */
    private static final String EXECUTABLE = System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration ACTION_TIMEOUT = Duration.ofSeconds(5);
    private static final int MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
    private static final int OUTPUT_LINES_KEPT = 40;

    private final Process process;
    private final Path profile;
    private final Thread shutdownHook;
    private final Deque<String> output = new ArrayDeque<>();
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final Map<String, Page> pages = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private Vertx vertx;
    /** Held for the browser's lifetime: Vert.x closes a client (and its WebSockets) once it is garbage. */
    private WebSocketClient client;
    private WebSocket socket;

    private Browser(Process process, Path profile) {
        this.process = process;
        this.profile = profile;
        this.shutdownHook = new Thread(this::killProcessTree, "chromium-killer");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        Thread drain = new Thread(this::drainOutput, "chromium-output");
        drain.setDaemon(true);
        drain.start();
    }

    /** Starts a fresh headless Chromium with an empty temp profile and connects to it. */
    public static Browser launch() {
        Path profile = TestServer.tempDir();
        Process process;
        try {
            process = new ProcessBuilder(EXECUTABLE, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--disable-dev-shm-usage", "--window-size=1280,900",
                    "--user-data-dir=" + profile, "--remote-debugging-port=0", "about:blank")
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            TestServer.deleteTree(profile);
            throw new IllegalStateException("Cannot start " + EXECUTABLE + " (apt-get install chromium, or set CHROMIUM)", e);
        }
        Browser browser = new Browser(process, profile);
        try {
            browser.connect();
            return browser;
        } catch (RuntimeException | Error e) {
            browser.close();
            throw e;
        }
    }

    /** Reads the port Chromium chose from {@code DevToolsActivePort} and opens the browser-wide WebSocket. */
    private void connect() {
        Path portFile = profile.resolve("DevToolsActivePort");
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        List<String> lines = List.of();
        while (lines.size() < 2 || !lines.get(1).startsWith("/devtools/browser/")) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Chromium exited with status " + process.exitValue() + ":\n" + output());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Chromium opened no DevTools port within " + START_TIMEOUT + ":\n" + output());
            }
            sleep(50);
            try {
                lines = Files.exists(portFile) ? Files.readAllLines(portFile) : List.of();
            } catch (IOException e) {
                lines = List.of(); // still being written
            }
        }
        vertx = Vertx.vertx();
        client = vertx.createWebSocketClient(new WebSocketClientOptions()
                .setMaxFrameSize(MAX_MESSAGE_BYTES).setMaxMessageSize(MAX_MESSAGE_BYTES));
        // Chromium refuses DevTools connections that carry an Origin header it was not told to allow.
        var options = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(Integer.parseInt(lines.get(0).trim()))
                .setURI(lines.get(1).trim()).setAllowOriginHeader(false).setTimeout(COMMAND_TIMEOUT.toMillis());
        socket = await(client.connect(options).toCompletionStage().toCompletableFuture(), COMMAND_TIMEOUT, "DevTools connection");
        socket.textMessageHandler(this::onMessage);
        socket.closeHandler(v -> pending.values().forEach(reply -> reply.completeExceptionally(disconnected())));
    }

    /** Opens a new tab (about:blank) with the Page, Runtime, Network and Log domains enabled; it becomes the visible one. */
    public Page newPage() {
        String targetId = send(null, "Target.createTarget", JsJson.object().put("url", "about:blank"))
                .path("targetId").asText();
        String sessionId = send(null, "Target.attachToTarget", JsJson.object().put("targetId", targetId).put("flatten", true))
                .path("sessionId").asText();
        Page page = new Page(sessionId);
        pages.put(sessionId, page);
        for (String domain : List.of("Page", "Runtime", "Network", "Log")) {
            page.send(domain + ".enable", JsJson.object());
        }
        return page;
    }

    /** Sends one CDP command (to a page's session, or to the browser when sessionId is null) and awaits its result. */
    private JsonNode send(String sessionId, String method, ObjectNode params) {
        if (closed.get()) {
            throw new IllegalStateException("The browser is closed");
        }
        if (socket.isClosed()) {
            throw disconnected();
        }
        long id = ids.incrementAndGet();
        ObjectNode message = JsJson.object().put("id", id).put("method", method);
        message.set("params", params);
        if (sessionId != null) {
            message.put("sessionId", sessionId);
        }
        CompletableFuture<JsonNode> reply = new CompletableFuture<>();
        pending.put(id, reply);
        try {
            socket.writeTextMessage(JsJson.compact(message)).onFailure(reply::completeExceptionally);
            return await(reply, COMMAND_TIMEOUT, method);
        } finally {
            pending.remove(id);
        }
    }

    /** Runs on the Vert.x event loop: answers go to their waiting command, events to their page. */
    private void onMessage(String text) {
        JsonNode message = JsJson.parse(text);
        if (message.has("id")) {
            CompletableFuture<JsonNode> reply = pending.get(message.get("id").asLong());
            if (reply != null && message.has("error")) {
                reply.completeExceptionally(new IllegalStateException("DevTools: " + message.get("error").path("message").asText()));
            } else if (reply != null) {
                reply.complete(message.path("result"));
            }
            return;
        }
        Page page = pages.get(message.path("sessionId").asText());
        if (page != null) {
            page.onEvent(message.path("method").asText(), message.path("params"));
        }
    }

    /** Kills Chromium and all its helper processes, then deletes the profile. Safe to call twice. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook runs anyway
        }
        killProcessTree();
        try {
            if (vertx != null) {
                await(vertx.close().toCompletionStage().toCompletableFuture(), COMMAND_TIMEOUT, "closing Vert.x");
            }
        } finally {
            TestServer.deleteTree(profile);
        }
    }

    private void killProcessTree() {
        // Collect the helpers (zygote, renderers, GPU/network services) while the parent still links them.
        List<ProcessHandle> tree = process.descendants().toList();
        process.destroyForcibly();
        tree.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle handle : tree) {
            awaitQuietly(handle.onExit());
        }
        awaitQuietly(process.onExit());
    }

    private IllegalStateException disconnected() {
        return new IllegalStateException("The DevTools connection is closed (" + socket.closeStatusCode() + " "
                + socket.closeReason() + "); Chromium " + (process.isAlive() ? "is running" : "exited") + ":\n" + output());
    }

    private void drainOutput() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = reader.readLine()) != null; ) {
                synchronized (output) {
                    output.addLast(line);
                    if (output.size() > OUTPUT_LINES_KEPT) {
                        output.removeFirst();
                    }
                }
            }
        } catch (IOException e) {
            // the process is gone
        }
    }

    private String output() {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    private static <T> T await(CompletableFuture<T> future, Duration timeout, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException(what + ": no answer within " + timeout);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(what, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + ": interrupted", e);
        }
    }

    private static void awaitQuietly(Future<?> future) {
        try {
            future.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // best effort: the process is killed already
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** A response with status >= 400 that the page received (documents, scripts, fetches...). */
    public record FailedResponse(String method, String url, int status) {
        @Override
        public String toString() {
            return method + " " + url + " -> " + status;
        }
    }

    /** A response the page received, with the MIME type of its Content-Type ("image/png", "text/html"...). */
    public record Response(String method, String url, int status, String mimeType) {
    }

    /**
     * A console error: {@code source} is "console" (console.error), "exception" (uncaught error or
     * rejection) or the browser's log source ("network", "javascript", ...).
     */
    public record ConsoleError(String source, String text) {
        @Override
        public String toString() {
            return "[" + source + "] " + text;
        }
    }

    /** One tab. Its recordings span every document loaded in it (reloads and redirects included). */
    public final class Page {
        private final String sessionId;
        /** Requests sent and not yet finished: request id to "METHOD url". */
        private final Map<String, String> inFlight = new ConcurrentHashMap<>();
        private final List<Response> responses = new CopyOnWriteArrayList<>();
        private final List<FailedResponse> failedResponses = new CopyOnWriteArrayList<>();
        private final List<ConsoleError> consoleErrors = new CopyOnWriteArrayList<>();
        private volatile CompletableFuture<Void> loaded = new CompletableFuture<>();

        private Page(String sessionId) {
            this.sessionId = sessionId;
        }

        private JsonNode send(String method, ObjectNode params) {
            return Browser.this.send(sessionId, method, params);
        }

        /** Opens the URL and waits for its load event (after redirects; not for later fetches). */
        public void navigate(String url) {
            CompletableFuture<Void> load = new CompletableFuture<>();
            loaded = load;
            JsonNode result = send("Page.navigate", JsJson.object().put("url", url));
            if (result.hasNonNull("errorText")) {
                throw new IllegalStateException("Cannot open " + url + ": " + result.get("errorText").asText());
            }
            await(load, COMMAND_TIMEOUT, "load event of " + url);
        }

        /** Reloads the current document and waits for its load event. */
        public void reload() {
            CompletableFuture<Void> load = new CompletableFuture<>();
            loaded = load;
            send("Page.reload", JsJson.object());
            await(load, COMMAND_TIMEOUT, "load event after a reload");
        }

        /** Evaluates a JS expression in the page (awaiting it if it is a promise) and returns its JSON value. */
        public JsonNode eval(String expression) {
            JsonNode result = send("Runtime.evaluate", JsJson.object().put("expression", expression)
                    .put("awaitPromise", true).put("returnByValue", true));
            if (result.has("exceptionDetails")) {
                throw new IllegalStateException("JS error in `" + expression + "`: " + describe(result.get("exceptionDetails")));
            }
            JsonNode value = result.path("result").get("value");
            return value == null ? NullNode.instance : value;
        }

        /** Polls the JS condition until it is truthy; fails with the page's recorded errors on timeout. */
        public void waitFor(String condition, Duration timeout) {
            long deadline = System.nanoTime() + timeout.toNanos();
            String last;
            while (true) {
                try {
                    if (eval("!!(" + condition + ")").asBoolean()) {
                        return;
                    }
                    last = "false";
                } catch (IllegalStateException e) {
                    last = e.getMessage(); // e.g. between two documents
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("Timed out after " + timeout + " waiting for " + condition
                            + " (last result: " + last + ")\n" + report());
                }
                sleep(100);
            }
        }

        /** Waits until no request has been in flight for {@code quiet} (e.g. for debounced saves after boot). */
        public void waitForNetworkIdle(Duration quiet, Duration timeout) {
            long deadline = System.nanoTime() + timeout.toNanos();
            long idleSince = System.nanoTime();
            while (System.nanoTime() - idleSince < quiet.toNanos()) {
                if (!inFlight.isEmpty()) {
                    idleSince = System.nanoTime();
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("Network still busy after " + timeout + ": " + inFlight.values() + "\n" + report());
                }
                sleep(50);
            }
        }

        /**
         * Waits for the first response after the first {@code skip} ones (a count taken from {@link #responses()}
         * before an action) that matches, and returns it.
         */
        public Response awaitResponse(int skip, Predicate<Response> matching, Duration timeout) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                List<Response> all = responses();
                for (Response response : all.subList(Math.min(skip, all.size()), all.size())) {
                    if (matching.test(response)) {
                        return response;
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("No matching response within " + timeout + "\n" + report());
                }
                sleep(50);
            }
        }

        /**
         * Clicks the middle of the first element matching the CSS selector with real mouse events, once it
         * is visible, has stopped moving (opening animations) and is not covered by another element.
         */
        public void click(String selector) {
            JsonNode point = awaitVisible(selector, "click");
            for (String type : List.of("mousePressed", "mouseReleased")) {
                send("Input.dispatchMouseEvent", JsJson.object().put("type", type)
                        .put("x", point.get("x").asDouble()).put("y", point.get("y").asDouble())
                        .put("button", "left").put("clickCount", 1));
            }
        }

        /** Waits until the first element matching the selector is visible, still and not covered (e.g. before a screenshot). */
        public void awaitVisible(String selector) {
            awaitVisible(selector, "see");
        }

        /** Returns the element's middle once it is visible, has not moved since the last poll and is on top there. */
        private JsonNode awaitVisible(String selector, String action) {
            String probe = "(() => { const e = document.querySelector(" + jsString(selector) + ");"
                    + " if (!e) return 'not found'; e.scrollIntoView({block: 'center'});"
                    + " const r = e.getBoundingClientRect(); if (!r.width || !r.height) return 'not visible';"
                    + " const p = {x: r.x + r.width / 2, y: r.y + r.height / 2}; const hit = document.elementFromPoint(p.x, p.y);"
                    + " return hit && (hit === e || e.contains(hit)) ? p : 'covered by ' + (hit ? hit.outerHTML.slice(0, 80) : 'nothing'); })()";
            long deadline = System.nanoTime() + ACTION_TIMEOUT.toNanos();
            JsonNode previous = null;
            while (true) {
                JsonNode point = eval(probe);
                if (point.isObject() && point.equals(previous)) {
                    return point;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("Cannot " + action + " " + selector + ": "
                            + (point.isObject() ? "still moving" : point.asText()));
                }
                previous = point;
                sleep(50);
            }
        }

        /** Focuses the field matching the selector, selects its content and types the text over it. */
        public void type(String selector, String text) {
            if (!eval("(() => { const e = document.querySelector(" + jsString(selector) + ");"
                    + " if (!e) return false; e.focus(); e.select?.(); return true; })()").asBoolean()) {
                throw new AssertionError("Nothing to type into at " + selector);
            }
            send("Input.insertText", JsJson.object().put("text", text));
        }

        /** Sets the files of the file input matching the selector, as a user picking them would (fires input and change). */
        public void setInputFiles(String selector, Path... files) {
            int root = send("DOM.getDocument", JsJson.object()).path("root").path("nodeId").asInt();
            int node = send("DOM.querySelector", JsJson.object().put("nodeId", root).put("selector", selector)).path("nodeId").asInt();
            if (node == 0) {
                throw new AssertionError("No file input at " + selector);
            }
            ObjectNode params = JsJson.object().put("nodeId", node);
            var paths = params.putArray("files");
            for (Path file : files) {
                paths.add(file.toAbsolutePath().toString());
            }
            send("DOM.setFileInputFiles", params);
        }

        /** Saves a PNG of the visible viewport. */
        public void screenshot(Path file) {
            byte[] png = Base64.getDecoder().decode(send("Page.captureScreenshot",
                    JsJson.object().put("format", "png")).path("data").asText());
            try {
                Files.createDirectories(file.toAbsolutePath().getParent());
                Files.write(file, png);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Every response received so far, in order (documents, scripts, images, fetches...). */
        public List<Response> responses() {
            return List.copyOf(responses);
        }

        public List<FailedResponse> failedResponses() {
            return List.copyOf(failedResponses);
        }

        public List<ConsoleError> consoleErrors() {
            return List.copyOf(consoleErrors);
        }

        /** Recorded failed responses and console errors, one a line, for assertion messages. */
        public String report() {
            return lines("Failed responses", failedResponses) + lines("Console errors", consoleErrors);
        }

        private void onEvent(String method, JsonNode params) {
            switch (method) {
                case "Page.loadEventFired" -> loaded.complete(null);
                case "Network.requestWillBeSent" -> inFlight.put(params.path("requestId").asText(),
                        params.path("request").path("method").asText() + " " + params.path("request").path("url").asText());
                case "Network.loadingFinished", "Network.loadingFailed" -> inFlight.remove(params.path("requestId").asText());
                case "Network.responseReceived" -> {
                    JsonNode response = params.path("response");
                    String request = inFlight.getOrDefault(params.path("requestId").asText(), "? ");
                    String httpMethod = request.substring(0, request.indexOf(' '));
                    String url = response.path("url").asText();
                    int status = response.path("status").asInt();
                    responses.add(new Response(httpMethod, url, status, response.path("mimeType").asText()));
                    if (status >= 400) {
                        failedResponses.add(new FailedResponse(httpMethod, url, status));
                    }
                }
                case "Runtime.consoleAPICalled" -> {
                    if ("error".equals(params.path("type").asText())) {
                        String text = stream(params.path("args")).map(Page::describeValue).collect(Collectors.joining(" "));
                        consoleErrors.add(new ConsoleError("console", text));
                    }
                }
                case "Runtime.exceptionThrown" -> consoleErrors.add(new ConsoleError("exception",
                        describe(params.path("exceptionDetails"))));
                case "Log.entryAdded" -> {
                    JsonNode entry = params.path("entry");
                    if ("error".equals(entry.path("level").asText())) {
                        String url = entry.path("url").asText("");
                        consoleErrors.add(new ConsoleError(entry.path("source").asText(),
                                entry.path("text").asText() + (url.isEmpty() ? "" : " (" + url + ")")));
                    }
                }
                default -> {
                    // other events of the enabled domains are not needed
                }
            }
        }

        private static String describe(JsonNode exceptionDetails) {
            JsonNode exception = exceptionDetails.path("exception");
            String text = exception.has("description") ? exception.get("description").asText()
                    : exception.has("value") ? exception.get("value").asText() : exceptionDetails.path("text").asText();
            String url = exceptionDetails.path("url").asText("");
            return url.isEmpty() ? text : text + " (" + url + ":" + exceptionDetails.path("lineNumber").asInt() + ")";
        }

        private static String describeValue(JsonNode remoteObject) {
            if (remoteObject.has("value")) {
                JsonNode value = remoteObject.get("value");
                return value.isTextual() ? value.asText() : JsJson.compact(value);
            }
            return remoteObject.path("description").asText(remoteObject.path("type").asText());
        }
    }

    private static Stream<JsonNode> stream(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false);
    }

    /** The items one a line, repeats counted (a page that reloads itself repeats its errors). */
    private static String lines(String title, List<?> items) {
        Map<String, Long> counts = items.stream().map(Object::toString)
                .collect(Collectors.groupingBy(i -> i, LinkedHashMap::new, Collectors.counting()));
        return counts.isEmpty() ? "" : title + ":\n" + counts.entrySet().stream()
                .map(e -> "  " + e.getKey() + (e.getValue() > 1 ? "  (x" + e.getValue() + ")" : ""))
                .collect(Collectors.joining("\n")) + "\n";
    }

    /** A JS string literal (JSON string syntax is valid JS), for building expressions to {@link Page#eval}. */
    public static String jsString(String s) {
        return JsJson.compact(JsJson.MAPPER.getNodeFactory().textNode(s));
    }
}
