package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.vertx.core.http.HttpServerRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;
import tankard.testing.UserFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tankard.testing.Browser.jsString;

/**
 * Web search through SearXNG with ST's Web Search extension on ST's own frontend on Tankard: the extension is
 * set up in its panel of the Extensions drawer as a user would (enabled, source SearXNG, the instance's base URL
 * and a preferences string typed in), a question to a character on a mock Chat Completion backend triggers a
 * search, and the test checks that the mock SearXNG instance was visited as ST visits it (main page, the
 * stylesheet it links, then {@code /search} with the query and the preferences; ST: src/endpoints/search.js,
 * searxng) and that the snippets of its result page are in the prompt the backend received, in the extension's
 * insertion template (Extension-WebSearch: index.js, doSearxngQuery and onWebSearchPrompt).
 * <p>
 * The extension is not part of ST's install nor of this repository: it is the official third-party
 * "Extension-WebSearch", which ST's "Install extension" dialog clones into the user's extensions folder. The test
 * copies a checkout of it, named by {@code TANKARD_ST_WEBSEARCH_DIR}, to the same place
 * ({@code data/default-user/extensions/Extension-WebSearch}) before Tankard starts, and is skipped without one:
 * {@code git clone https://github.com/SillyTavern/Extension-WebSearch /tmp/Extension-WebSearch}, then
 * {@code TANKARD_ST_DIR=/path/to/SillyTavern TANKARD_ST_WEBSEARCH_DIR=/tmp/Extension-WebSearch mvn test
 * -Dtest=StFrontendWebSearchUiTest}. Screenshots go to {@code target/ui/}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_WEBSEARCH_DIR", matches = ".+")
class StFrontendWebSearchUiTest {
    private static final String CONTEXT = "SillyTavern.getContext()";
    private static final String SETTINGS = CONTEXT + ".extensionSettings.websearch";
    private static final String EXTENSION = "Extension-WebSearch";
    /** "who was" is one of the extension's default trigger phrases. */
    private static final String QUESTION = "Who was the first keeper of Skerrow Rock lighthouse?";
    /** What the extension searches for: the message lowercased, without punctuation, after the trigger phrase. */
    private static final String QUERY = "the first keeper of skerrow rock lighthouse";
    private static final String PREFERENCES = "eJx1jEEKwzAMBL_jUwv9gyeqa2KIh";
    /** The "link token" stylesheet a SearXNG main page links, fetched to pass its bot limiter. */
    private static final String CLIENT_CSS = "/client7q2xk9m4.css";
    private static final List<String> SNIPPETS = List.of(
            "Skerrow Rock Lighthouse was first kept by Aldous Penhallow, who tended its lamp from 1871 to 1911.",
            "The lamp room of Skerrow Rock was rebuilt after the gale of 1903.");

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();
    private final Path extension = Path.of(System.getenv("TANKARD_ST_WEBSEARCH_DIR")).toAbsolutePath();

    @Test
    void aQuestionIsSearchedOnSearxngAndTheSnippetsAreInThePrompt() throws IOException {
        try (TestServer server = StUi.startTankard(stDir);
             MockCompletionServer mock = MockCompletionServer.start(server.vertx);
             MockCompletionServer searxng = MockCompletionServer.start(server.vertx);
             Browser browser = Browser.launch()) {
            serveSearxng(searxng);
            StUi.writeChatSettings(stDir, server.files(), mock, false);
            markVersionSeen(server);
            Path installed = server.userDir().resolve("extensions").resolve(EXTENSION);
            Files.createDirectories(installed.getParent());
            OwnUi.copyTree(extension, installed);

            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            StUi.withScreenshot(page, "st-websearch-1-settings", () -> {
                StUi.boot(page);
                page.waitFor("typeof globalThis.WebSearch_Intercept === 'function'", StUi.STEP_TIMEOUT);
                setUpSearxng(page, searxng.origin());
                awaitSaved(page, server.files(), searxng.origin());
                StUi.assertClean(page, "Setting up the extension");
            });
            StUi.withScreenshot(page, "st-websearch-2-answered", () -> {
                StUi.closeDrawer(page, "extensions-settings-button");
                StUi.openDrawer(page, "rightNavHolder");
                page.click("#rm_print_characters_block .character_select");
                page.waitFor(CONTEXT + ".chat.length === 1", StUi.STEP_TIMEOUT);
                StUi.closeDrawer(page, "rightNavHolder");
                page.type("#send_textarea", QUESTION);
                page.click("#send_but");
                page.waitFor(CONTEXT + ".chat.at(-1).mes === " + jsString(MockCompletionServer.replyText(1))
                        + " && !$('#mes_stop').is(':visible')", StUi.STEP_TIMEOUT);
                page.waitForNetworkIdle(StUi.QUIET, StUi.STEP_TIMEOUT);
                StUi.assertClean(page, "Asking");
            });

            assertEquals(List.of("GET /", "GET " + CLIENT_CSS, "GET /search"),
                    searxng.calls().stream().map(c -> c.method() + " " + c.path()).toList(), "visited as a browser, then searched");
            Map<String, List<String>> search = new QueryStringDecoder(searxng.lastCall("/search").query(), false).parameters();
            assertEquals(Map.of("q", List.of(QUERY), "preferences", List.of(PREFERENCES)), search);
            String prompt = prompt(mock);
            String inserted = "Relevant information from the web (" + QUERY + "):\n" + String.join("\n", SNIPPETS) + "\n";
            assertTrue(prompt.contains(inserted), "the search results are in the prompt:\n" + prompt);
            assertTrue(prompt.contains(QUESTION), "and so is the question:\n" + prompt);
        }
    }

    /**
     * A SearXNG instance as its "simple" theme answers: a main page linking the limiter's stylesheet, and a result
     * page whose results are {@code #urls article}s, each with its link ({@code .url_header}) and snippet
     * ({@code p.content}).
     */
    private static void serveSearxng(MockCompletionServer searxng) {
        searxng.route("/", request -> html(request, "<!DOCTYPE html><html><head><title>SearXNG</title>"
                + "<link rel=\"stylesheet\" href=\"" + CLIENT_CSS + "\" type=\"text/css\"></head>"
                + "<body><form id=\"search\" method=\"GET\" action=\"/search\"><input name=\"q\"></form></body></html>"));
        searxng.route(CLIENT_CSS, request -> request.response().putHeader("Content-Type", "text/css").end(""));
        StringBuilder results = new StringBuilder();
        for (int i = 0; i < SNIPPETS.size(); i++) {
            String link = "https://lighthouses.example/skerrow/" + i;
            results.append("<article class=\"result result-default category-general\"><a href=\"").append(link)
                    .append("\" class=\"url_header\" rel=\"noreferrer\"><div class=\"url_wrapper\"><span class=\"url_o1\">")
                    .append(link).append("</span></div></a><h3><a href=\"").append(link)
                    .append("\" rel=\"noreferrer\">Skerrow Rock</a></h3><p class=\"content\">\n").append(SNIPPETS.get(i))
                    .append("\n</p><div class=\"engines\"><span>duckduckgo</span></div></article>");
        }
        String page = "<!DOCTYPE html><html><head><title>" + QUERY + " - SearXNG</title></head><body><main id=\"main_results\">"
                + "<div id=\"results\"><div id=\"urls\" role=\"main\">" + results + "</div></div></main></body></html>";
        searxng.route("/search", request -> html(request, page));
    }

    private static void html(HttpServerRequest request, String page) {
        request.response().putHeader("Content-Type", "text/html; charset=utf-8").end(page);
    }

    /**
     * The user ran this version of ST before: on a version change ST's boot auto-updates third-party extensions
     * that ask for it, as this one does, pulling from its remote (ST: public/scripts/extensions.js,
     * loadExtensionSettings).
     */
    private static void markVersionSeen(TestServer server) {
        String version = server.client().get("/version").bodyAsJsonObject().getString("pkgVersion");
        StUi.changeSettings(server.files(), settings -> settings.put("currentVersion", version));
    }

    /** The extension's panel: enabled, source SearXNG, with the instance's URL and a preferences string. */
    private static void setUpSearxng(Browser.Page page, String url) {
        StUi.openDrawer(page, "extensions-settings-button");
        page.click(".websearch_settings .inline-drawer-toggle");
        page.awaitVisible("#websearch_source");
        page.click("#websearch_enabled");
        page.select("#websearch_source", "searxng");
        page.awaitVisible("#websearch_searxng_url");
        page.type("#websearch_searxng_url", url);
        page.type("#websearch_searxng_preferences", PREFERENCES);
        page.waitFor(SETTINGS + ".enabled === true && " + SETTINGS + ".source === 'searxng' && " + SETTINGS
                + ".searxng_url === " + jsString(url) + " && " + SETTINGS + ".searxng_preferences === "
                + jsString(PREFERENCES), StUi.STEP_TIMEOUT);
    }

    /** Waits until ST's debounced save has written the extension's settings into the user's settings.json. */
    private static void awaitSaved(Browser.Page page, UserFiles files, String url) {
        page.waitUntil(() -> {
            JsonNode saved = StUi.settings(files).path("extension_settings").path("websearch");
            return saved.path("enabled").asBoolean() && saved.path("source").asText().equals("searxng")
                    && saved.path("searxng_url").asText().equals(url)
                    && saved.path("searxng_preferences").asText().equals(PREFERENCES);
        }, StUi.STEP_TIMEOUT, () -> "the settings were not saved: " + files.read("settings.json"));
    }

    /** Every message text of the last completion request the backend received. */
    private static String prompt(MockCompletionServer mock) {
        StringBuilder text = new StringBuilder();
        for (JsonNode message : mock.lastCall("/v1/chat/completions").json().get("messages")) {
            text.append(message.path("content").asText()).append('\n');
        }
        return text.toString();
    }
}
