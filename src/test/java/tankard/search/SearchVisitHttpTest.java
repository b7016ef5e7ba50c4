package tankard.search;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tankard.testing.MockCompletionServer;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ST's {@code /api/search/visit}, and the private-address filter on every user-given URL of the search routes.
 * The pages are on a mock on loopback, reached by a host name that providerOrigins maps to it, since /visit
 * takes neither addresses nor ports.
 */
@Timeout(60)
class SearchVisitHttpTest extends ServerTest {
    private static final String SITE = "http://pages.example.com";
    /** The filter on, with no loopback address allowed, so the loopback mock counts as a private address. */
    private static final String FILTER_WITHOUT_LOOPBACK = "privateAddressWhitelist:\n  enabled: true\n"
            + "  allowedRanges: ['10.99.0.0/16']\n";

    private MockCompletionServer mock;
    private Vertx mockVertx;
    private HttpServer other;

    private void startWith(String configYaml) {
        mockVertx = Vertx.vertx();
        mock = MockCompletionServer.start(mockVertx);
        start(configYaml + TestServer.providerOrigins(Map.of(SITE, mock.origin() + "/site")));
    }

    @AfterEach
    void stopMocks() {
        if (other != null) {
            TestServer.await(other.close());
        }
        mock.close();
        TestServer.await(mockVertx.close());
    }

    private HttpResponse<Buffer> visit(String body) {
        return client.post("/api/search/visit", body);
    }

    @Test
    void aPageIsFetchedAsABrowserWouldAndHtmlOnlyWhenAskedFor() {
        startWith("");
        mock.route("/site/article", request -> request.response().putHeader("Content-Type", "text/html; charset=utf-8")
                .end("<html><title>Owls</title></html>"));
        HttpResponse<Buffer> page = visit("{\"url\":\"" + SITE + "/article\"}");
        assertEquals(200, page.statusCode());
        assertEquals("<html><title>Owls</title></html>", page.bodyAsString());
        assertTrue(page.getHeader("Content-Type").startsWith("text/html"));
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("GET /site/article", call.method() + " " + call.path());
        assertEquals("text/html", call.headers().get("Accept"));
        assertEquals("navigate", call.headers().get("Sec-Fetch-Mode"));
        assertTrue(call.headers().get("User-Agent").contains("Chrome/"));

        byte[] png = {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2};
        mock.route("/site/owl.png", request -> request.response().putHeader("Content-Type", "image/png")
                .end(Buffer.buffer(png)));
        assertEquals(500, visit("{\"url\":\"" + SITE + "/owl.png\"}").statusCode(), "not HTML");
        HttpResponse<Buffer> image = visit("{\"url\":\"" + SITE + "/owl.png\",\"html\":false}");
        assertEquals(200, image.statusCode());
        assertEquals("image/png", image.getHeader("Content-Type"));
        assertArrayEquals(png, image.body().getBytes());

        mock.route("/site/gone", request -> request.response().setStatusCode(404).putHeader("Content-Type", "text/html")
                .end("<html>Not here</html>"));
        HttpResponse<Buffer> gone = visit("{\"url\":\"" + SITE + "/gone\"}");
        assertEquals(500, gone.statusCode());
        assertEquals("Internal Server Error", gone.bodyAsString());
    }

    @Test
    void urlsStRefusesAreRefusedWith400AndNeverFetched() {
        startWith("");
        for (String url : List.of("", "not a url", "/relative/page", "ftp://pages.example.com/file",
                "file:///etc/passwd", "http://pages.example.com:8080/", "http://93.184.216.34/", "http://[::1]/",
                "http://2130706433/", "http://0x7f.1/", "http://127.1/", "http://localhost/", "http://app.localhost/")) {
            HttpResponse<Buffer> refused = visit("{\"url\":\"" + url + "\"}");
            assertEquals(400, refused.statusCode(), url);
        }
        assertEquals(400, visit("{}").statusCode());
        assertEquals(400, visit("{\"url\":{\"href\":\"" + SITE + "\"}}").statusCode());
        assertEquals(List.of(), mock.calls());
    }

    @Test
    void aHugePageIsCutOffAtTheLimitNotReadWhole() throws InterruptedException {
        startWith("");
        long total = 64L * 1024 * 1024;
        AtomicLong written = new AtomicLong();
        Buffer piece = Buffer.buffer("<p>" + "x".repeat(64 * 1024 - 7) + "</p>\n");
        mock.route("/site/huge", request -> {
            request.response().setChunked(true).putHeader("Content-Type", "text/html");
            MockCompletionServer.flood(request.response(), piece, total, written);
        });
        HttpResponse<Buffer> capped = visit("{\"url\":\"" + SITE + "/huge\"}");
        assertEquals(500, capped.statusCode());
        assertTrue(json(capped).get("error").asText().contains("larger than the limit of " + Upstream.MAX_BYTES + " bytes"),
                capped.bodyAsString());
        Thread.sleep(300);
        assertTrue(written.get() < total / 2, "the mock went on writing: " + written.get());

        mock.route("/site/declared", request -> request.response().putHeader("Content-Type", "text/html")
                .putHeader("Content-Length", String.valueOf(Upstream.MAX_BYTES + 1)).write("<html>"));
        assertEquals(500, visit("{\"url\":\"" + SITE + "/declared\"}").statusCode());
    }

    @Test
    void userGivenUrlsAtPrivateAddressesAreRefusedByTheFilter() {
        startWith(FILTER_WITHOUT_LOOPBACK);
        HttpResponse<Buffer> page = visit("{\"url\":\"" + SITE + "/article\"}");
        assertEquals(400, page.statusCode());
        assertTrue(json(page).get("error").asText().contains("Blocked request to private IP address: 127.0.0.1"),
                page.bodyAsString());
        HttpResponse<Buffer> searx = client.post("/api/search/searxng",
                "{\"baseUrl\":\"" + mock.origin() + "\",\"query\":\"owls\"}");
        assertEquals(400, searx.statusCode());
        assertTrue(searx.bodyAsString().contains("Blocked request to private IP address"), searx.bodyAsString());
        HttpResponse<Buffer> kobold = client.post("/api/search/koboldcpp",
                "{\"url\":\"http://192.168.1.20:5001\",\"query\":\"owls\"}");
        assertEquals(400, kobold.statusCode());
        assertTrue(kobold.bodyAsString().contains("Blocked request to private IP address: 192.168.1.20"),
                kobold.bodyAsString());
        assertEquals(List.of(), mock.calls());
    }

    @Test
    void aRedirectToAPrivateAddressIsNotFollowed() {
        startWith("privateAddressWhitelist:\n  enabled: true\n  allowedRanges: ['127.0.0.1']\n");
        List<String> hitsOnOtherAddress = new CopyOnWriteArrayList<>();
        other = mockVertx.createHttpServer().requestHandler(request -> {
            hitsOnOtherAddress.add(request.uri());
            request.response().putHeader("Content-Type", "text/html").end("<html>secret</html>");
        });
        TestServer.await(other.listen(0, "127.0.0.2"));
        String target = "http://127.0.0.2:" + other.actualPort() + "/admin";
        mock.route("/site/moved", request -> request.response().setStatusCode(302).putHeader("Location", target).end());
        HttpResponse<Buffer> refused = visit("{\"url\":\"" + SITE + "/moved\"}");
        assertEquals(400, refused.statusCode());
        assertTrue(json(refused).get("error").asText().contains("request to " + target
                + " failed, reason: Blocked request to private IP address: 127.0.0.2"), refused.bodyAsString());
        assertEquals(List.of(), hitsOnOtherAddress);

        // a redirect the filter allows is followed
        mock.route("/site/here", request -> request.response().putHeader("Content-Type", "text/html").end("<html>here</html>"));
        mock.route("/site/moved", request -> request.response().setStatusCode(301).putHeader("Location", SITE + "/here").end());
        assertEquals("<html>here</html>", visit("{\"url\":\"" + SITE + "/moved\"}").bodyAsString());
    }
}
