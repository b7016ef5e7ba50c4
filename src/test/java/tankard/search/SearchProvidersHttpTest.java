package tankard.search;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
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
import tankard.testing.PublicHostsMockTest;

/**
 * The search providers of ST's src/endpoints/search.js against a mock that checks what Tankard sends and answers
 * as each service does; the fixed public hosts are sent to it through {@code tankard.providerOrigins}.
 */
@Timeout(60)
class SearchProvidersHttpTest extends ServerTest {
    private MockCompletionServer mock;
    private Vertx mockVertx;

    @BeforeEach
    void startServers() {
        mockVertx = Vertx.vertx();
        mock = MockCompletionServer.start(mockVertx);
        start(TestServer.providerOrigins(Map.of("https://serpapi.com", mock.origin() + "/serpapi",
                "https://api.tavily.com", mock.origin() + "/tavily",
                "https://google.serper.dev", mock.origin() + "/serper",
                "https://api.z.ai", mock.origin() + "/zai")));
    }

    @AfterEach
    void stopMock() {
        mock.close();
        TestServer.await(mockVertx.close());
    }

    private static void reply(io.vertx.core.http.HttpServerRequest request, int status, String body) {
        PublicHostsMockTest.json(request, status, body);
    }

    private void secret(String key, String value) {
        assertEquals(200, client.post("/api/secrets/write", "{\"key\":\"" + key + "\",\"value\":\"" + value + "\"}")
                .statusCode());
    }

    @Test
    void aServiceThatCannotBeReachedIs502WithTheReason() {
        HttpResponse<Buffer> answer = client.post("/api/search/searxng",
                "{\"baseUrl\":\"http://127.0.0.1:1\",\"query\":\"cats\"}");
        assertEquals(502, answer.statusCode());
        assertTrue(json(answer).get("error").asText().contains("Connection refused"), answer.bodyAsString());
    }

    @Test
    void serpApiGetsTheQueryWithTheKeyAndItsErrorsComeBackAs500() {
        HttpResponse<Buffer> noKey = client.post("/api/search/serpapi", "{\"query\":\"cats\"}");
        assertEquals(400, noKey.statusCode());
        assertEquals("No SerpApi key found", json(noKey).get("error").asText());
        assertEquals(List.of(), mock.calls());

        secret("api_key_serpapi", "sp-key");
        mock.route("/serpapi/search.json", request -> reply(request, 200,
                "{\"organic_results\": [{\"title\": \"Cats\", \"link\": \"https://cats.example\"}]}"));
        HttpResponse<Buffer> found = client.post("/api/search/serpapi", "{\"query\":\"cats & dogs\"}");
        assertEquals(200, found.statusCode());
        assertEquals("{\"organic_results\":[{\"title\":\"Cats\",\"link\":\"https://cats.example\"}]}", found.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("GET /serpapi/search.json", call.method() + " " + call.path());
        assertEquals("q=cats%20%26%20dogs&api_key=sp-key", call.query());

        mock.route("/serpapi/search.json", request -> reply(request, 401, "{\"error\":\"Invalid API key.\"}"));
        HttpResponse<Buffer> refused = client.post("/api/search/serpapi", "{\"query\":\"cats\"}");
        assertEquals(500, refused.statusCode());
        assertEquals("{\"error\":\"Invalid API key.\"}", refused.bodyAsString());

        assertEquals(400, client.post("/api/search/serpapi", "{}").statusCode());
        assertEquals(400, client.post("/api/search/serpapi", "{\"query\":{\"q\":1}}").statusCode());
    }

    @Test
    void tavilyGetsStsSearchSettings() {
        secret("api_key_tavily", "tvly-key");
        mock.route("/tavily/search", request -> reply(request, 200,
                "{\"query\":\"weather\",\"answer\":\"Sunny\",\"images\":[],\"results\":[]}"));
        HttpResponse<Buffer> found = client.post("/api/search/tavily", "{\"query\":\"weather\",\"include_images\":1}");
        assertEquals(200, found.statusCode());
        assertEquals("Sunny", json(found).get("answer").asText());
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("POST /tavily/search", call.method() + " " + call.path());
        assertEquals("application/json", call.headers().get("Content-Type"));
        assertEquals("{\"query\":\"weather\",\"api_key\":\"tvly-key\",\"search_depth\":\"basic\",\"topic\":\"general\","
                + "\"include_answer\":true,\"include_raw_content\":false,\"include_images\":true,"
                + "\"include_image_descriptions\":false,\"include_domains\":[],\"max_results\":10}", call.body());

        mock.route("/tavily/search", request -> reply(request, 432, "{\"detail\":{\"error\":\"Usage limit exceeded\"}}"));
        HttpResponse<Buffer> limited = client.post("/api/search/tavily", "{\"query\":\"weather\"}");
        assertEquals(500, limited.statusCode());
        assertEquals("{\"detail\":{\"error\":\"Usage limit exceeded\"}}", limited.bodyAsString());
    }

    @Test
    void serperSearchesTheWebOrImagesWithItsKeyHeader() {
        assertEquals(400, client.post("/api/search/serper", "{\"query\":\"x\"}").statusCode());
        secret("api_key_serper", "serper-key");
        mock.route("/serper/search", request -> reply(request, 200, "{\"organic\":[{\"title\":\"Web\"}]}"));
        mock.route("/serper/images", request -> reply(request, 200, "{\"images\":[{\"imageUrl\":\"https://i.example/a.png\"}]}"));
        assertEquals("{\"organic\":[{\"title\":\"Web\"}]}",
                client.post("/api/search/serper", "{\"query\":\"owls\"}").bodyAsString());
        MockCompletionServer.Call web = mock.lastCall();
        assertEquals("POST /serper/search {\"q\":\"owls\"}", web.method() + " " + web.path() + " " + web.body());
        assertEquals("serper-key", web.headers().get("X-API-KEY"));
        assertEquals("{\"images\":[{\"imageUrl\":\"https://i.example/a.png\"}]}",
                client.post("/api/search/serper", "{\"query\":\"owls\",\"images\":true}").bodyAsString());
        assertEquals("/serper/images", mock.lastCall().path());

        mock.route("/serper/search", request -> reply(request, 403, "{\"message\":\"Unauthorized.\",\"statusCode\":403}"));
        HttpResponse<Buffer> refused = client.post("/api/search/serper", "{\"query\":\"owls\"}");
        assertEquals(500, refused.statusCode());
        assertEquals("{\"message\":\"Unauthorized.\",\"statusCode\":403}", refused.bodyAsString());
    }

    @Test
    void zaiSearchesWithItsOneEngineAndABearerKey() {
        secret("api_key_zai", "zai-key");
        assertEquals(400, client.post("/api/search/zai", "{}").statusCode());
        mock.route("/zai/api/paas/v4/web_search", request -> reply(request, 200,
                "{\"created\":1,\"id\":\"s1\",\"search_result\":[{\"title\":\"T\",\"link\":\"https://t.example\"}]}"));
        HttpResponse<Buffer> found = client.post("/api/search/zai", "{\"query\":\"tea\"}");
        assertEquals(200, found.statusCode());
        assertEquals("T", json(found).at("/search_result/0/title").asText());
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("POST /zai/api/paas/v4/web_search", call.method() + " " + call.path());
        assertEquals("Bearer zai-key", call.headers().get("Authorization"));
        assertEquals("{\"search_engine\":\"search-prime\",\"search_query\":\"tea\"}", call.body());

        mock.route("/zai/api/paas/v4/web_search", request -> reply(request, 401,
                "{\"error\":{\"code\":\"1000\",\"message\":\"Authentication Failed\"}}"));
        assertEquals(500, client.post("/api/search/zai", "{\"query\":\"tea\"}").statusCode());
        // an answer that is not JSON fails instead of passing for results
        mock.route("/zai/api/paas/v4/web_search", request -> request.response().end("<html>gateway</html>"));
        HttpResponse<Buffer> notJson = client.post("/api/search/zai", "{\"query\":\"tea\"}");
        assertEquals(500, notJson.statusCode());
        assertTrue(notJson.bodyAsString().contains("not JSON"), notJson.bodyAsString());
    }

    @Test
    void koboldCppSearchesThroughTheUsersServerWithItsKey() {
        assertEquals(400, client.post("/api/search/koboldcpp", "{\"query\":\"x\"}").statusCode());
        assertEquals(400, client.post("/api/search/koboldcpp", "{\"query\":\"x\",\"url\":\"file:///etc/passwd\"}").statusCode());
        secret("api_key_koboldcpp", "kcpp-key");
        mock.route("/api/extra/websearch", request -> reply(request, 200,
                "[{\"title\":\"Kobold\",\"url\":\"https://k.example\",\"desc\":\"d\",\"content\":\"c\"}]"));
        HttpResponse<Buffer> found = client.post("/api/search/koboldcpp",
                "{\"query\":\"kobolds\",\"url\":\"" + mock.origin() + "/v1/\",\"api_type\":\"koboldcpp\"}");
        assertEquals(200, found.statusCode());
        assertEquals("Kobold", json(found).at("/0/title").asText());
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("POST /api/extra/websearch {\"q\":\"kobolds\"}", call.method() + " " + call.path() + " " + call.body());
        assertEquals("Bearer kcpp-key", call.headers().get("Authorization"));
        assertEquals("text/plain;charset=UTF-8", call.headers().get("Content-Type"));

        mock.route("/api/extra/websearch", request -> request.response().setStatusCode(503).end("Web search is disabled"));
        HttpResponse<Buffer> disabled = client.post("/api/search/koboldcpp",
                "{\"query\":\"kobolds\",\"url\":\"" + mock.origin() + "\"}");
        assertEquals(500, disabled.statusCode());
        assertEquals("Web search is disabled", disabled.bodyAsString());
        assertEquals(null, mock.lastCall().headers().get("Authorization"), "no api_type, no key, as in ST");
    }

    @Test
    void searxngIsVisitedAsABrowserThenSearched() {
        mock.route("/searx/", request -> request.response().putHeader("Content-Type", "text/html")
                .end("<html><link rel=\"stylesheet\" href=\"/client/abc123.css\" type=\"text/css\"></html>"));
        mock.route("/client/abc123.css", request -> request.response().putHeader("Content-Type", "text/css").end("a{}"));
        mock.route("/search", request -> request.response().putHeader("Content-Type", "text/html")
                .end("<html><article class=\"result\">Owls</article></html>"));
        HttpResponse<Buffer> found = client.post("/api/search/searxng", "{\"baseUrl\":\"" + mock.origin()
                + "/searx/\",\"query\":\"snowy owls\",\"categories\":\"general\",\"preferences\":\"abc\"}");
        assertEquals(200, found.statusCode());
        assertEquals("<html><article class=\"result\">Owls</article></html>", found.bodyAsString());
        List<String> visited = mock.calls().stream().map(c -> c.method() + " " + c.path()).toList();
        assertEquals(List.of("GET /searx/", "GET /client/abc123.css", "GET /search"), visited);
        MockCompletionServer.Call search = mock.lastCall();
        assertEquals("q=snowy+owls&preferences=abc&categories=general", search.query());
        assertEquals("text/html", search.headers().get("Accept"));
        assertTrue(search.headers().get("User-Agent").contains("Chrome/"), search.headers().get("User-Agent"));

        mock.route("/search", request -> request.response().setStatusCode(429).end("Too Many Requests"));
        HttpResponse<Buffer> limited = client.post("/api/search/searxng",
                "{\"baseUrl\":\"" + mock.origin() + "/searx/\",\"query\":\"owls\"}");
        assertEquals(500, limited.statusCode());
        assertEquals("Internal Server Error", limited.bodyAsString());

        assertEquals(400, client.post("/api/search/searxng", "{\"query\":\"owls\"}").statusCode());
        assertEquals(400, client.post("/api/search/searxng", "{\"baseUrl\":\"not a url\",\"query\":\"owls\"}").statusCode());
    }
}
