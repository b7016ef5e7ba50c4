package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.stream.Stream;

/** A working folder for tests of Tankard's own UI: this repository's {@code public/} and a config.yaml. */
final class OwnUi {
    private OwnUi() {
    }

    /** The folder, with the config given and the default content seeded, as bin/tankard does. */
    static Path work(String config) throws IOException {
        Path work = TestServer.tempDir();
        copyTree(Path.of(System.getProperty("user.dir"), "public"), work.resolve("public"));
        Files.writeString(work.resolve("config.yaml"), config + "skipContentCheck: false\n");
        return work;
    }

    static final Duration STEP = Duration.ofSeconds(15);

    /** A server on a fresh folder, a mock backend and a browser tab: what most of these tests start with. */
    record Session(TestServer server, MockCompletionServer mock, Browser browser, Browser.Page page)
            implements AutoCloseable {
        static Session start(String config) throws IOException {
            TestServer server = TestServer.startIn(work(config));
            Browser browser = Browser.launch();
            return new Session(server, MockCompletionServer.start(server.vertx), browser, browser.newPage());
        }

        /** The same on a given data root, which outlives the session (for ST's frontend to open after it). */
        static Session startOn(Path dataRoot) throws IOException {
            TestServer server = TestServer.startIn(work(""), "--dataRoot", dataRoot.toString());
            Browser browser = Browser.launch();
            return new Session(server, MockCompletionServer.start(server.vertx), browser, browser.newPage());
        }

        @Override
        public void close() {
            browser.close();
            mock.close();
            server.close();
        }
    }

    /** The session's tab on the library, its first cards shown. */
    static Browser.Page openLibrary(Session session) {
        Browser.Page page = session.page();
        page.navigate(session.server().url("/"));
        boot(page);
        page.waitFor("document.querySelector('.card') !== null", STEP);
        return page;
    }

    static void boot(Browser.Page page) {
        page.waitFor("document.body.dataset.ready === 'true'", STEP);
    }

    static String js(String text) {
        return JsJson.MAPPER.getNodeFactory().textNode(text).toString();
    }

    /** Sets a select's value as a person picking it would (the change event included). */
    static void choose(Browser.Page page, String selector, String value) {
        page.eval("{ const s = document.querySelector(" + js(selector) + "); s.value = " + js(value)
                + "; s.dispatchEvent(new Event('change')); }");
    }

    /** From now on the page's requests to `path` leave `millis` late, as over a slow line. */
    static void sendLate(Browser.Page page, String path, int millis) {
        page.eval("{ const f = window.fetch; window.fetch = (url, options) => String(url).includes(" + js(path) + ")"
                + " ? new Promise((resolve) => setTimeout(resolve, " + millis + ")).then(() => f(url, options)) : f(url, options); }");
    }

    /** The session's tab connected to its mock (a custom OpenAI-compatible source) on the Connection page. */
    static Browser.Page connected(Session session) {
        Browser.Page page = session.page();
        page.navigate(session.server().url("/#/connection"));
        boot(page);
        connect(page, session.mock());
        return page;
    }

    /** On the Connection page: a custom OpenAI-compatible source at the mock, connected. */
    static void connect(Browser.Page page, MockCompletionServer mock) {
        connect(page, mock, "");
    }

    /** The same with an API key (empty: none). */
    static void connect(Browser.Page page, MockCompletionServer mock, String key) {
        page.waitFor("document.querySelector('#connectionForm') !== null", STEP);
        choose(page, "#connApi", "openai");
        choose(page, "#connSource", "custom");
        page.type("#connUrl", mock.baseUrl());
        if (!key.isEmpty()) {
            page.type("#connKey", key);
        }
        page.click("#connect");
        page.waitFor("document.querySelector('#connStatus').className === 'ok'", STEP);
    }

    /** On the Connection page: a text completion source at the mock (llama.cpp, say; see TextCompletionProtocols), connected. */
    static void connectText(Browser.Page page, MockCompletionServer mock, String source) {
        page.waitFor("document.querySelector('#connectionForm') !== null", STEP);
        choose(page, "#connApi", "textgenerationwebui");
        choose(page, "#connSource", source);
        page.type("#connUrl", mock.origin());
        page.click("#connect");
        page.waitFor("document.querySelector('#connStatus').className === 'ok'", STEP);
    }

    /** Types a value into a field and leaves it by Tab, as a user would (its change event fires), then lets it save. */
    static void enter(Browser.Page page, String selector, String value) {
        page.type(selector, value);
        page.press(selector, "Tab");
        page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
    }

    /** Copies a folder to a new one (which must not exist yet), its files and folders as they are. */
    static void copyTree(Path from, Path to) {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path source : (Iterable<Path>) walk::iterator) {
                Files.copy(source, to.resolve(from.relativize(source).toString()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Remembers every file the page offers for download (ST's `download`): its name and its blob. */
    static final String CAPTURE_DOWNLOADS = """
            window.__downloads = [];
            window.__blobs = {};
            { const create = URL.createObjectURL;
              URL.createObjectURL = (blob) => { const url = create(blob); window.__blobs[url] = blob; return url; };
              const click = HTMLAnchorElement.prototype.click;
              HTMLAnchorElement.prototype.click = function () {
                if (!this.download) return click.call(this);
                window.__downloads.push({ name: this.download, href: this.href });
              }; }
            """;

    /** The name and bytes of the page's n-th download. */
    static Map.Entry<String, byte[]> download(Browser.Page page, int n) {
        page.waitFor("window.__downloads.length > " + n, STEP);
        JsonNode file = page.eval("(async () => { const d = window.__downloads[" + n + "];"
                + " const bytes = new Uint8Array(await window.__blobs[d.href].arrayBuffer()); let s = '';"
                + " for (const b of bytes) s += String.fromCharCode(b); return { name: d.name, base64: btoa(s) }; })()");
        return Map.entry(file.path("name").asText(), Base64.getDecoder().decode(file.path("base64").asText()));
    }
}
