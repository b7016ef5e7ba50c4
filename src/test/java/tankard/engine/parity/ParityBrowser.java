package tankard.engine.parity;

import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.Request;
import com.microsoft.playwright.TimeoutError;
import com.microsoft.playwright.options.ReducedMotion;
import tankard.json.JsJson;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Headless Chromium for the parity tests: every tab lives in a context of its own with the time zone UTC, the
 * locale en-US and a clock fixed at a given instant, so that ST's date macros and message dates are known in
 * advance. A tab records the bodies ST's frontend posts to Tankard's generate routes, and its console errors.
 */
public final class ParityBrowser implements AutoCloseable {
    private static final Path EXECUTABLE = Path.of(System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium"));
    private static final List<String> FLAGS = List.of("--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage");
    /** The routes a generation posts its body to; the body is what parity compares. */
    public static final Set<String> GENERATE_ROUTES = Set.of("/api/backends/chat-completions/generate",
            "/api/backends/text-completions/generate");
    private static final String CONDITION = "condition => { try { return !!(0, eval)(condition); } catch { return false; } }";

    private final Playwright playwright;
    private final Browser browser;

    private ParityBrowser(Playwright playwright, Browser browser) {
        this.playwright = playwright;
        this.browser = browser;
    }

    public static ParityBrowser launch() {
        Playwright playwright = Playwright.create(new Playwright.CreateOptions()
                .setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        try {
            return new ParityBrowser(playwright, playwright.chromium().launch(new BrowserType.LaunchOptions()
                    .setExecutablePath(EXECUTABLE).setHeadless(true).setArgs(FLAGS)));
        } catch (RuntimeException e) {
            playwright.close();
            throw e;
        }
    }

    /** A new tab in a fresh context (no cookies, no storage) whose clock stands still at {@code now}. */
    public Tab open(Instant now) {
        // reduced motion: jQuery's animations count time with Date.now(), which the fixed clock stops, so an
        // animated step of ST's (the regenerated message's removal) would never end; ST follows the OS setting
        BrowserContext context = browser.newContext(new Browser.NewContextOptions().setTimezoneId("UTC")
                .setLocale("en-US").setViewportSize(1280, 900).setReducedMotion(ReducedMotion.REDUCE));
        context.clock().setFixedTime(now.toEpochMilli());
        return new Tab(context);
    }

    @Override
    public void close() {
        playwright.close();
    }

    /** A POST to a generate route, as the page sent it. */
    public record Generation(String path, JsonNode body) {
    }

    /** One tab and its context; close it at the end of a scenario. */
    public static final class Tab implements AutoCloseable {
        private final BrowserContext context;
        private final Page page;
        private final Set<Request> inFlight = new LinkedHashSet<>();
        private final List<Generation> generations = new ArrayList<>();
        private final List<String> errors = new ArrayList<>();

        private Tab(BrowserContext context) {
            this.context = context;
            this.page = context.newPage();
            page.setDefaultTimeout(10_000);
            page.setDefaultNavigationTimeout(30_000);
            page.onRequest(this::record);
            page.onRequestFinished(inFlight::remove);
            page.onRequestFailed(inFlight::remove);
            page.onConsoleMessage(message -> {
                if ("error".equals(message.type())) {
                    errors.add(message.text());
                }
            });
            page.onPageError(errors::add);
        }

        private void record(Request request) {
            inFlight.add(request);
            if (!"POST".equals(request.method()) || !request.url().startsWith("http")) {
                return;
            }
            String path = URI.create(request.url()).getPath();
            if (GENERATE_ROUTES.contains(path)) {
                generations.add(new Generation(path, JsJson.parse(request.postDataBuffer())));
            }
        }

        public void navigate(String url) {
            page.navigate(url);
        }

        /** Evaluates a script (awaiting a promise) and returns its value as JSON. */
        public JsonNode eval(String script) {
            return tankard.testing.Browser.evaluate(page, script);
        }

        /** Polls the JS condition until it is truthy. */
        public void waitFor(String condition, Duration timeout) {
            waitFor(condition, timeout, "null");
        }

        /** Polls the JS condition until it is truthy; on timeout, tells the value of the state script. */
        public void waitFor(String condition, Duration timeout, String state) {
            try {
                page.waitForFunction(CONDITION, condition, new Page.WaitForFunctionOptions()
                        .setTimeout(timeout.toMillis()).setPollingInterval(100));
            } catch (TimeoutError e) {
                String last;
                try {
                    last = JsJson.compact(eval(state));
                } catch (IllegalStateException error) {
                    last = error.getMessage();
                }
                throw new AssertionError("Timed out after " + timeout + " waiting for " + condition + " (state: "
                        + last + ")\n" + report());
            }
        }

        /** Waits until no request has been in flight for {@code quiet}. */
        public void waitForNetworkIdle(Duration quiet, Duration timeout) {
            long[] idleSince = {System.nanoTime()};
            waitUntil(() -> {
                if (!inFlight.isEmpty()) {
                    idleSince[0] = System.nanoTime();
                }
                return System.nanoTime() - idleSince[0] >= quiet.toNanos();
            }, timeout, "the network to be idle: " + inFlight.stream().map(Request::url).toList());
        }

        /** Waits for the {@code n}th body posted to a generate route (counting from 1) and returns it. */
        public Generation awaitGeneration(int n, Duration timeout) {
            waitUntil(() -> generations.size() >= n, timeout, "generate request #" + n);
            return generations.get(n - 1);
        }

        public List<Generation> generations() {
            return List.copyOf(generations);
        }

        private void waitUntil(java.util.function.BooleanSupplier condition, Duration timeout, String what) {
            try {
                page.waitForCondition(condition, new Page.WaitForConditionOptions().setTimeout(timeout.toMillis()));
            } catch (TimeoutError e) {
                throw new AssertionError("Timed out after " + timeout + " waiting for " + what + "\n" + report());
            }
        }

        /** Fills the field as typing would. */
        public void type(String selector, String text) {
            page.fill(selector, text);
        }

        /** Clicks with real mouse events once the element can be clicked. */
        public void click(String selector) {
            page.click(selector);
        }

        public void screenshot(Path file) {
            page.screenshot(new Page.ScreenshotOptions().setPath(file));
        }

        /** The console errors so far, one a line. */
        public String report() {
            return errors.isEmpty() ? "" : "Console errors:\n  " + String.join("\n  ", errors);
        }

        @Override
        public void close() {
            context.close();
        }
    }
}
