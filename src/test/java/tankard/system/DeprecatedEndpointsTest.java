package tankard.system;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** ST's old URLs answer as ST's do (src/server-startup.js, redirectDeprecatedEndpoints): 308 to the new one. */
class DeprecatedEndpointsTest {
    private final TestServer server = TestServer.start();

    @AfterEach
    void stop() {
        server.close();
    }

    /** The redirects of the route table (compat-tests/st-routes.tsv, read from ST), so the list here is ST's. */
    @Test
    void everyOldUrlOfTheRouteTableIsA308ToItsReplacement() throws IOException {
        List<String[]> redirects = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("compat-tests/st-routes.tsv"))) {
            String[] columns = line.split("\t", -1);
            if (!line.startsWith("#") && columns.length > 3 && !columns[3].isEmpty()) {
                redirects.add(columns);
            }
        }
        assertEquals(50, redirects.size());
        assertEquals(50, DeprecatedEndpointsFeature.REDIRECTS.size());
        TestServer.Client client = server.client();
        for (String[] redirect : redirects) {
            String from = redirect[1].replace(":folder", "backgrounds");
            HttpResponse<Buffer> post = client.post(from, "{}");
            assertEquals(308, post.statusCode(), from);
            assertEquals(redirect[3], post.getHeader("Location"), from); // as written, :folder and all
            assertEquals("Permanent Redirect. Redirecting to " + redirect[3], post.bodyAsString(), from);
        }
    }

    @Test
    void anyMethodAndPathBelowAndTheBodyTheAcceptHeaderWants() {
        TestServer.Client client = server.client();
        HttpResponse<Buffer> get = TestServer.Client.send(client.request(HttpMethod.GET, "/getchat/more/below")
                .putHeader("Accept", "text/html,application/xhtml+xml,*/*;q=0.8"), null);
        assertEquals(308, get.statusCode());
        assertEquals("/api/chats/get", get.getHeader("Location"));
        assertEquals("text/html; charset=utf-8", get.getHeader("Content-Type"));
        assertEquals("<p>Permanent Redirect. Redirecting to /api/chats/get</p>", get.bodyAsString());
        HttpResponse<Buffer> json = TestServer.Client.send(client.request(HttpMethod.DELETE, "/savetheme")
                .putHeader("Accept", "application/json"), null);
        assertEquals(308, json.statusCode());
        assertEquals("/api/themes/save", json.getHeader("Location"));
        assertNull(json.bodyAsString());
        // a new URL that starts like an old one is not redirected
        assertNotEquals(308, client.post("/api/content/importURL", "{}").statusCode());
    }

    @Test
    void behindTheCsrfCheckAsInSt() {
        HttpResponse<Buffer> noToken = TestServer.Client.send(server.plainClient().post("/savechat"), null);
        assertEquals(403, noToken.statusCode());
    }
}
