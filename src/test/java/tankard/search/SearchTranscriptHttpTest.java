package tankard.search;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tankard.testing.MockCompletionServer;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ST's {@code /api/search/transcript} against a mock YouTube (www.youtube.com sent to it by providerOrigins). */
@Timeout(60)
class SearchTranscriptHttpTest extends ServerTest {
    private static final String TRACKS = "[{\"baseUrl\":\"https://www.youtube.com/api/timedtext?v=dQw4w9WgXcQ&lang=en\","
            + "\"languageCode\":\"en\"},{\"baseUrl\":\"https://www.youtube.com/api/timedtext?v=dQw4w9WgXcQ&lang=de\","
            + "\"languageCode\":\"de\"}]";
    /** A watch page as YouTube lays it out: the player response inline, captions before videoDetails. */
    private static final String WATCH_PAGE = "<html><script>var ytInitialPlayerResponse = {\"playabilityStatus\":"
            + "{\"status\":\"OK\"},\"captions\":{\"playerCaptionsTracklistRenderer\":{\"captionTracks\":" + TRACKS
            + "}},\"videoDetails\":{\"videoId\":\"dQw4w9WgXcQ\"}};</script></html>";
    /** The classic caption format, its text encoded twice. */
    private static final String CLASSIC = "<?xml version=\"1.0\" encoding=\"utf-8\" ?><transcript>"
            + "<text start=\"0.5\" dur=\"2.1\">We&amp;#39;re no strangers</text>"
            + "<text start=\"2.6\" dur=\"3\">to love &amp;amp; rules</text></transcript>";

    private MockCompletionServer mock;
    private Vertx mockVertx;

    @BeforeEach
    void startServers() {
        mockVertx = Vertx.vertx();
        mock = MockCompletionServer.start(mockVertx);
        start(TestServer.providerOrigins(Map.of("https://www.youtube.com", mock.origin() + "/yt")));
    }

    @AfterEach
    void stopMock() {
        mock.close();
        TestServer.await(mockVertx.close());
    }

    private void watchPage(String html) {
        mock.route("/yt/watch", request -> request.response().putHeader("Content-Type", "text/html").end(html));
    }

    private static void captions(HttpServerRequest request, String xml) {
        request.response().putHeader("Content-Type", "text/xml").end(xml);
    }

    @Test
    void theTranscriptIsReadFromTheVideoPagesCaptionTrack() {
        watchPage(WATCH_PAGE);
        mock.route("/yt/api/timedtext", request -> captions(request, CLASSIC));
        HttpResponse<Buffer> text = client.post("/api/search/transcript", "{\"id\":\"dQw4w9WgXcQ\"}");
        assertEquals(200, text.statusCode());
        assertEquals("We're no strangers to love & rules", text.bodyAsString());
        MockCompletionServer.Call page = mock.calls().get(0);
        assertEquals("GET /yt/watch v=dQw4w9WgXcQ", page.method() + " " + page.path() + " " + page.query());
        assertTrue(page.headers().get("User-Agent").contains("Chrome/"));
        assertEquals(null, page.headers().get("Accept-Language"));
        assertEquals("v=dQw4w9WgXcQ&lang=en", mock.lastCall().query());

        HttpResponse<Buffer> german = client.post("/api/search/transcript",
                "{\"id\":\"dQw4w9WgXcQ\",\"lang\":\"de\",\"json\":true}");
        assertEquals(200, german.statusCode());
        assertEquals("We're no strangers to love & rules", json(german).get("transcript").asText());
        assertEquals(WATCH_PAGE, json(german).get("html").asText());
        assertEquals("v=dQw4w9WgXcQ&lang=de", mock.lastCall().query());
        assertEquals("de", mock.lastCall().headers().get("Accept-Language"));
    }

    @Test
    void aMissingTranscriptIsA500WithItsReasonOrAnEmptyTranscriptInJson() {
        watchPage(WATCH_PAGE);
        HttpResponse<Buffer> french = client.post("/api/search/transcript", "{\"id\":\"dQw4w9WgXcQ\",\"lang\":\"fr\"}");
        assertEquals(500, french.statusCode());
        assertEquals("Transcript not available in this language", french.bodyAsString());
        HttpResponse<Buffer> frenchJson = client.post("/api/search/transcript",
                "{\"id\":\"dQw4w9WgXcQ\",\"lang\":\"fr\",\"json\":true}");
        assertEquals(200, frenchJson.statusCode());
        assertEquals("", json(frenchJson).get("transcript").asText());
        assertEquals(WATCH_PAGE, json(frenchJson).get("html").asText());

        watchPage("<html><div class=\"g-recaptcha\"></div></html>");
        mock.route("/yt/youtubei/v1/player", request -> request.response().setStatusCode(429).end());
        assertEquals("Too many requests", client.post("/api/search/transcript", "{\"id\":\"abc\"}").bodyAsString());
        watchPage("<html>gone</html>");
        assertEquals("Video is not available", client.post("/api/search/transcript", "{\"id\":\"abc\"}").bodyAsString());
    }

    @Test
    void withoutCaptionsOnThePageThePlayerApiIsAskedAsTheYoutubeTranscriptPackageAsks() {
        watchPage("<html>{\"playabilityStatus\":{\"status\":\"LOGIN_REQUIRED\"}}</html>");
        mock.route("/yt/youtubei/v1/player", request -> request.response().putHeader("Content-Type", "application/json")
                .end("{\"captions\":{\"playerCaptionsTracklistRenderer\":{\"captionTracks\":" + TRACKS + "}}}"));
        mock.route("/yt/api/timedtext", request -> captions(request, "<timedtext format=\"3\"><body>"
                + "<p t=\"0\" d=\"1500\"><s>Never</s><s> gonna</s></p><p t=\"1500\" d=\"900\">give &amp; you up</p>"
                + "</body></timedtext>"));
        HttpResponse<Buffer> text = client.post("/api/search/transcript", "{\"id\":\"dQw4w9WgXcQ\"}");
        assertEquals(200, text.statusCode());
        assertEquals("Never gonna give & you up", text.bodyAsString());
        MockCompletionServer.Call player = mock.lastCall("/yt/youtubei/v1/player");
        assertEquals("POST prettyPrint=false", player.method() + " " + player.query());
        assertEquals("{\"context\":{\"client\":{\"clientName\":\"ANDROID\",\"clientVersion\":\"20.10.38\"}},"
                + "\"videoId\":\"dQw4w9WgXcQ\"}", player.body());
        assertEquals("com.google.android.youtube/20.10.38 (Linux; U; Android 14)", player.headers().get("User-Agent"));
    }

    @Test
    void aCaptionTrackOffYoutubeIsNotFetched() {
        watchPage(WATCH_PAGE.replace("https://www.youtube.com/api/timedtext", mock.origin() + "/elsewhere"));
        HttpResponse<Buffer> refused = client.post("/api/search/transcript", "{\"id\":\"dQw4w9WgXcQ\"}");
        assertEquals(500, refused.statusCode());
        assertEquals("Transcript not available", refused.bodyAsString());
        assertEquals(List.of("/yt/watch"), mock.calls().stream().map(MockCompletionServer.Call::path).toList());
    }

    @Test
    void badIdsAndLanguagesAre400() {
        assertEquals(400, client.post("/api/search/transcript", "{}").statusCode());
        assertEquals(400, client.post("/api/search/transcript", "{\"id\":\"abc&list=x\"}").statusCode());
        assertEquals(400, client.post("/api/search/transcript", "{\"id\":\"abc\",\"lang\":\"en\\r\\nX-Evil: 1\"}")
                .statusCode());
        assertEquals(400, client.post("/api/search/transcript", "{\"id\":[\"abc\"]}").statusCode());
        assertEquals(List.of(), mock.calls());
    }
}
