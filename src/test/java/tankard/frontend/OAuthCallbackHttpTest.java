package tankard.frontend;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code GET /callback/:source?}, where OpenRouter's "Authorize" sends the browser back (ST: src/server-main.js). */
class OAuthCallbackHttpTest extends ServerTest {
    private HttpResponse<Buffer> callback(String path) {
        return client.get(path);
    }

    @Test
    void theBrowserGoesBackToTheFrontendWithTheSourceAndTheProvidersQuery() {
        start(null);
        HttpResponse<Buffer> r = callback("/callback/openrouter?code=a%20b&state=x");
        assertEquals(307, r.statusCode());
        assertEquals("/?source=openrouter&query=code%3Da%2520b%26state%3Dx", r.getHeader("Location"));
        assertEquals("/?source=openrouter", callback("/callback/openrouter").getHeader("Location"));
        assertEquals("/?query=code%3D1", callback("/callback?code=1").getHeader("Location"));
        assertEquals("/?query=a%3D1", callback("/callback?a=1?b=2").getHeader("Location"), "as url.split('?')[1]");
    }
}
