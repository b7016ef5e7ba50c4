package tankard.testing;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.Map;

/**
 * A {@link ServerTest} whose server sends the calls for AI Horde's, NovelAI's, OpenRouter's and NanoGPT's fixed
 * public hosts to paths of a {@link MockCompletionServer} on loopback ({@code tankard.providerOrigins}; the mock
 * starts first, on its own Vert.x). Horde jobs are polled every few milliseconds instead of seconds.
 */
public abstract class PublicHostsMockTest extends ServerTest {
    protected static final String HORDE = "/horde/api/v2";
    protected static final String HORDE_MODEL_REFERENCE = "/github/db0/AI-Horde-text-model-reference/main/db.json";
    protected static final String NOVELAI_API = "/nai-api";
    protected static final String NOVELAI_TEXT = "/nai-text";
    protected static final String NOVELAI_IMAGE = "/nai-image";
    protected static final String OPENROUTER_API = "/openrouter/api/v1";
    protected static final String NANOGPT_API = "/nanogpt/api";

    protected MockCompletionServer mock;
    private Vertx mockVertx;

    @BeforeEach
    final void startServers() {
        mockVertx = Vertx.vertx();
        mock = MockCompletionServer.start(mockVertx);
        start(config(mock.origin()));
    }

    /** config.yaml sending every public host Tankard calls to the given origin. */
    private static String config(String origin) {
        return TestServer.providerOrigins(Map.ofEntries(Map.entry("https://aihorde.net", origin + "/horde"),
                Map.entry("https://raw.githubusercontent.com", origin + "/github"),
                Map.entry("https://api.novelai.net", origin + NOVELAI_API),
                Map.entry("https://text.novelai.net", origin + NOVELAI_TEXT),
                Map.entry("https://image.novelai.net", origin + NOVELAI_IMAGE),
                Map.entry("https://openrouter.ai", origin + "/openrouter"),
                Map.entry("https://nano-gpt.com", origin + "/nanogpt"),
                Map.entry("https://api.anthropic.com", origin + "/anthropic"),
                Map.entry("https://westeurope.tts.speech.microsoft.com", origin + "/azure-westeurope"),
                // image generation services: each host under its own name
                Map.entry("https://api.together.xyz", origin + "/together"),
                Map.entry("https://gen.pollinations.ai", origin + "/pollinations"),
                Map.entry("https://api-inference.huggingface.co", origin + "/huggingface"),
                Map.entry("https://api.stability.ai", origin + "/stability"),
                Map.entry("https://api.electronhub.ai", origin + "/electronhub"),
                Map.entry("https://api.chutes.ai", origin + "/chutes-api"),
                Map.entry("https://image.chutes.ai", origin + "/chutes-image"),
                Map.entry("https://api.x.ai", origin + "/xai"),
                Map.entry("https://api.aimlapi.com", origin + "/aimlapi"),
                Map.entry("https://api.cloudflare.com", origin + "/cloudflare"),
                Map.entry("https://api.bfl.ml", origin + "/bfl"),
                Map.entry("https://fal.ai", origin + "/fal"),
                Map.entry("https://queue.fal.run", origin + "/fal-queue"),
                Map.entry("https://api.z.ai", origin + "/zai")))
                + "  hordePollMillis: 10\n"; // under tankard:, beside providerOrigins
    }

    @AfterEach
    final void stopMock() {
        mock.close();
        TestServer.await(mockVertx.close().toCompletionStage().toCompletableFuture());
    }

    /** The mock's origin named as "localhost", which ST's routes rewrite to 127.0.0.1. */
    protected String localhost() {
        return mock.origin().replace("127.0.0.1", "localhost");
    }

    /**
     * Restarts Tankard, data kept, with the public hosts sent to a port nothing listens on, so they cannot be
     * reached. (Closing the mock is not enough: another process may be given its port meanwhile.)
     */
    protected void takeUpstreamDown() {
        server = server.restart(config("http://127.0.0.1:1"));
        client = server.client();
    }

    /** Answers a mock request with a JSON body and status. */
    public static void json(HttpServerRequest request, int status, String body) {
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body);
    }
}
