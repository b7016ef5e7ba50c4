package tankard.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.ConsoleMessage;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.Request;
import com.microsoft.playwright.TimeoutError;
import tankard.json.JsJson;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Debian's headless Chromium driven by Playwright, for UI tests. Each {@link Page} records every response,
 * those with status >= 400 and every console error, so a test can assert a clean page load. Always close it
 * (try-with-resources): that ends Chromium and Playwright's driver and deletes the profile.
 * <p>
 * Playwright dispatches the browser's events on the test's thread while the test calls into it (any page
 * method here), so the recordings grow during those calls, not while the test sleeps.
 */
public final class Browser implements AutoCloseable {
    /** {@code CHROMIUM=/path/to/chrome} overrides the Debian package's binary. */
    private static final Path EXECUTABLE = Path.of(System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium"));
    /** On top of Playwright's own (--headless among them): what this machine needs, and no traffic of Chromium's own. */
    private static final List<String> FLAGS = List.of("--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
            "--enable-precise-memory-info"); // performance.memory in exact bytes, for the UI tests that report it
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration ACTION_TIMEOUT = Duration.ofSeconds(5);
    /** Playwright's Java client takes any expression containing "=>" for a function: scripts go through this one. */
    private static final String EVAL = "script => (0, eval)(script)";
    /** A condition that throws (e.g. ST's globals not defined yet) is not met yet. */
    private static final String CONDITION = "condition => { try { return !!(0, eval)(condition); } catch { return false; } }";

    private final Playwright playwright;
    private final BrowserContext context;
    private final Path profile;

    private Browser(Playwright playwright, BrowserContext context, Path profile) {
        this.playwright = playwright;
        this.context = context;
        this.profile = profile;
    }

    /** Evaluates a script in a Playwright page (awaiting its value if it is a promise); its value as JSON. */
    public static JsonNode evaluate(com.microsoft.playwright.Page page, String script) {
        Object value;
        try {
            value = page.evaluate(EVAL, script);
        } catch (PlaywrightException e) {
            throw new IllegalStateException("JS error in `" + script + "`: " + e.getMessage(), e);
        }
        return value == null ? NullNode.instance : JsJson.MAPPER.valueToTree(value);
    }

    /** Starts a fresh headless Chromium on an empty temp profile; Playwright downloads no browser. */
    public static Browser launch() {
        Playwright playwright = Playwright.create(new Playwright.CreateOptions()
                .setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        Path profile = TestServer.tempDir();
        try {
            BrowserContext context = playwright.chromium().launchPersistentContext(profile,
                    new BrowserType.LaunchPersistentContextOptions().setExecutablePath(EXECUTABLE).setHeadless(true)
                            .setArgs(FLAGS).setViewportSize(1280, 900).setTimeout(millis(COMMAND_TIMEOUT)));
            return new Browser(playwright, context, profile);
        } catch (RuntimeException e) {
            playwright.close();
            TestServer.deleteTree(profile);
            throw e;
        }
    }

    /** Opens a new tab (about:blank). Tabs of one browser share its profile (cookies, storage). */
    public Page newPage() {
        return new Page(context.newPage());
    }

    /** Ends Chromium and Playwright's driver, then deletes the profile. */
    @Override
    public void close() {
        try {
            playwright.close();
        } finally {
            TestServer.deleteTree(profile);
        }
    }

    private static double millis(Duration duration) {
        return duration.toMillis();
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
     * rejection) or "browser" (the browser's own log, such as a failed load, with the URL it names).
     */
    public record ConsoleError(String source, String text) {
        @Override
        public String toString() {
            return "[" + source + "] " + text;
        }
    }

    /** One tab. Its recordings span every document loaded in it (reloads and redirects included). */
    public static final class Page {
        private final com.microsoft.playwright.Page page;
        private final Set<Request> inFlight = new LinkedHashSet<>();
        private final List<Response> responses = new ArrayList<>();
        private final List<FailedResponse> failedResponses = new ArrayList<>();
        private final List<ConsoleError> consoleErrors = new ArrayList<>();

        private Page(com.microsoft.playwright.Page page) {
            this.page = page;
            page.setDefaultTimeout(millis(ACTION_TIMEOUT));
            page.setDefaultNavigationTimeout(millis(COMMAND_TIMEOUT));
            page.onRequest(inFlight::add);
            page.onRequestFinished(inFlight::remove);
            page.onRequestFailed(inFlight::remove);
            page.onResponse(this::record);
            page.onConsoleMessage(this::record);
            page.onPageError(error -> consoleErrors.add(new ConsoleError("exception", describeError(error))));
        }

        /** Opens the URL and waits for its load event (after redirects; not for later fetches). */
        public void navigate(String url) {
            page.navigate(url);
        }

        /** Resizes the tab's viewport (a phone's, say). */
        public void setViewport(int width, int height) {
            page.setViewportSize(width, height);
        }

        /** Reloads the current document and waits for its load event. */
        public void reload() {
            page.reload();
        }

        /** Evaluates a script in the page (awaiting its value if it is a promise) and returns that value as JSON. */
        public JsonNode eval(String script) {
            return evaluate(page, script);
        }

        /** Polls the JS condition until it is truthy; fails with the page's recorded errors on timeout. */
        public void waitFor(String condition, Duration timeout) {
            try {
                page.waitForFunction(CONDITION, condition, new com.microsoft.playwright.Page.WaitForFunctionOptions()
                        .setTimeout(millis(timeout)).setPollingInterval(100));
            } catch (TimeoutError e) {
                String last;
                try {
                    last = eval("!!(" + condition + ")").asText();
                } catch (IllegalStateException error) {
                    last = error.getMessage();
                }
                throw new AssertionError("Timed out after " + timeout + " waiting for " + condition
                        + " (last result: " + last + ")\n" + report());
            }
        }

        /** Waits until the Java condition on the recordings holds, taking the browser's events meanwhile. */
        public void waitUntil(BooleanSupplier condition, Duration timeout, Supplier<String> failure) {
            try {
                page.waitForCondition(condition, new com.microsoft.playwright.Page.WaitForConditionOptions()
                        .setTimeout(millis(timeout)));
            } catch (TimeoutError e) {
                throw new AssertionError(failure.get() + " within " + timeout + "\n" + report());
            }
        }

        /** Waits until no request has been in flight for {@code quiet} (e.g. for debounced saves after boot). */
        public void waitForNetworkIdle(Duration quiet, Duration timeout) {
            long[] idleSince = {System.nanoTime()};
            waitUntil(() -> {
                if (!inFlight.isEmpty()) {
                    idleSince[0] = System.nanoTime();
                }
                return System.nanoTime() - idleSince[0] >= quiet.toNanos();
            }, timeout, () -> "Network still busy: " + inFlight.stream()
                    .map(r -> r.method() + " " + r.url()).toList());
        }

        /**
         * Waits for the first response after the first {@code skip} ones (a count taken from {@link #responses()}
         * before an action) that matches, and returns it.
         */
        public Response awaitResponse(int skip, Predicate<Response> matching, Duration timeout) {
            waitUntil(() -> firstResponse(skip, matching).isPresent(), timeout, () -> "No matching response");
            return firstResponse(skip, matching).orElseThrow();
        }

        private Optional<Response> firstResponse(int skip, Predicate<Response> matching) {
            return responses.stream().skip(skip).filter(matching).findFirst();
        }

        /**
         * Clicks the first element matching the selector with real mouse events, once it is visible, has
         * stopped moving (opening animations), is enabled and is not covered by another element.
         */
        public void click(String selector) {
            act("click", selector, () -> page.click(selector));
        }

        /** Waits until the first element matching the selector could be clicked so (e.g. before a screenshot). */
        public void awaitVisible(String selector) {
            act("see", selector, () -> page.locator(selector).first().click(new Locator.ClickOptions().setTrial(true)));
        }

        /** Focuses the element matching the selector and presses a key there, as a keyboard would ("Alt+Enter", "Tab"). */
        public void press(String selector, String key) {
            act("press " + key + " in", selector, () -> page.press(selector, key));
        }

        /** Presses a key wherever the focus is. */
        public void press(String key) {
            page.keyboard().press(key);
        }

        /** Replaces the content of the field matching the selector with the text, as typing it would. */
        public void type(String selector, String text) {
            act("type into", selector, () -> page.fill(selector, text));
        }

        /** Picks the option with that value in the {@code <select>} matching the selector, as a user would (fires input and change). */
        public void select(String selector, String value) {
            act("select in", selector, () -> page.selectOption(selector, value));
        }

        /** Sets the files of the file input matching the selector, as a user picking them would (fires input and change). */
        public void setInputFiles(String selector, Path... files) {
            act("pick files for", selector, () -> page.setInputFiles(selector, files));
        }

        /**
         * Runs the action, which must open a file chooser (a click on an {@code <input type=file>}, also one made by
         * script and never added to the page), and picks the files in it as a user would.
         */
        public void chooseFiles(Runnable action, Path... files) {
            try {
                page.waitForFileChooser(action).setFiles(files);
            } catch (TimeoutError e) {
                throw new AssertionError("No file chooser opened: " + e.getMessage());
            }
        }

        private void act(String action, String selector, Runnable step) {
            try {
                step.run();
            } catch (TimeoutError e) {
                throw new AssertionError("Cannot " + action + " " + selector + ": " + e.getMessage());
            }
        }

        /** Saves a PNG of the visible viewport. */
        public void screenshot(Path file) {
            page.screenshot(new com.microsoft.playwright.Page.ScreenshotOptions().setPath(file)
                    .setTimeout(millis(COMMAND_TIMEOUT)));
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

        private void record(com.microsoft.playwright.Response response) {
            String method = response.request().method();
            String contentType = response.headers().getOrDefault("content-type", "");
            String mimeType = contentType.split(";", 2)[0].trim().toLowerCase();
            responses.add(new Response(method, response.url(), response.status(), mimeType));
            if (response.status() >= 400) {
                failedResponses.add(new FailedResponse(method, response.url(), response.status()));
            }
        }

        /** The browser's own log entries (a failed load...) come as console messages without arguments. */
        private void record(ConsoleMessage message) {
            if (!"error".equals(message.type())) {
                return;
            }
            consoleErrors.add(message.args().isEmpty()
                    ? new ConsoleError("browser", message.text() + " (" + message.location() + ")")
                    : new ConsoleError("console", message.text()));
        }
    }

    /**
     * Playwright hands a page error as "name: message", followed by its stack (which starts with that line
     * again) when it has one; a rejected value that is no Error has no name.
     */
    private static String describeError(String error) {
        int newline = error.indexOf('\n');
        return newline >= 0 ? error.substring(newline + 1) : error.startsWith(": ") ? error.substring(2) : error;
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
