package tankard.testing;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.HashMap;
import java.util.Map;

/**
 * A {@link ServerTest} whose server sends the calls for the fixed public hosts of AI Horde, NovelAI, OpenRouter,
 * NanoGPT, Anthropic, Azure, the speech, Google and image services to paths of a {@link MockCompletionServer} on loopback ({@code tankard.providerOrigins}; the mock
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
    protected static final String ELEVENLABS = "/elevenlabs";
    protected static final String POLLINATIONS = "/pollinations";
    protected static final String MINIMAX = "/minimax";
    protected static final String VOLCENGINE = "/volcengine";
    protected static final String GEMINI = "/gemini";
    protected static final String VERTEX = "/vertex-us-central1";
    protected static final String VERTEX_GLOBAL = "/vertex-global";
    protected static final String GOOGLE_OAUTH = "/google-oauth";
    protected static final String GOOGLE_TRANSLATE = "/google-translate";

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
        Map<String, String> origins = new HashMap<>(openAiFamily(origin));
        origins.putAll(Map.ofEntries(Map.entry("https://aihorde.net", origin + "/horde"),
                Map.entry("https://raw.githubusercontent.com", origin + "/github"),
                Map.entry("https://api.novelai.net", origin + NOVELAI_API),
                Map.entry("https://text.novelai.net", origin + NOVELAI_TEXT),
                Map.entry("https://image.novelai.net", origin + NOVELAI_IMAGE),
                Map.entry("https://openrouter.ai", origin + "/openrouter"),
                Map.entry("https://nano-gpt.com", origin + "/nanogpt"),
                Map.entry("https://api.anthropic.com", origin + "/anthropic"),
                Map.entry("https://westeurope.tts.speech.microsoft.com", origin + "/azure-westeurope"),
                Map.entry("https://api.elevenlabs.io", origin + ELEVENLABS),
                Map.entry("https://gen.pollinations.ai", origin + POLLINATIONS),
                Map.entry("https://api.minimax.io", origin + MINIMAX),
                Map.entry("https://openspeech.bytedance.com", origin + VOLCENGINE),
                Map.entry("https://generativelanguage.googleapis.com", origin + GEMINI),
                Map.entry("https://us-central1-aiplatform.googleapis.com", origin + VERTEX),
                Map.entry("https://aiplatform.googleapis.com", origin + VERTEX_GLOBAL),
                Map.entry("https://oauth2.googleapis.com", origin + GOOGLE_OAUTH),
                Map.entry("https://translate.google.com", origin + GOOGLE_TRANSLATE),
                // image generation services (those the OpenAI family does not already map), each under its name
                Map.entry("https://api.together.xyz", origin + "/together"),
                Map.entry("https://api-inference.huggingface.co", origin + "/huggingface"),
                Map.entry("https://api.stability.ai", origin + "/stability"),
                Map.entry("https://image.chutes.ai", origin + "/chutes-image"),
                Map.entry("https://api.aimlapi.com", origin + "/aimlapi"),
                Map.entry("https://api.bfl.ml", origin + "/bfl"),
                Map.entry("https://fal.ai", origin + "/fal"),
                Map.entry("https://queue.fal.run", origin + "/fal-queue")));
        return TestServer.providerOrigins(origins)
                + "  googleVideoPollMillis: 10\n"
                + "  hordePollMillis: 10\n"; // under tankard:, beside providerOrigins
    }

    /**
     * The hosts of ST's src/endpoints/openai.js, each to {@code /<name>} on the mock: {@code openai},
     * {@code groq}, {@code mistral}, {@code zai}, {@code xai}, {@code electronhub}, {@code chutes-api},
     * {@code chutes-llm}, {@code chutes-kokoro}, {@code chutes-whisper} (the {@code whisper} model's host),
     * {@code siliconflow-com}, {@code siliconflow-cn}, {@code cloudflare}.
     */
    private static Map<String, String> openAiFamily(String origin) {
        return Map.ofEntries(Map.entry("https://api.openai.com", origin + "/openai"),
                Map.entry("https://api.groq.com", origin + "/groq"),
                Map.entry("https://api.mistral.ai", origin + "/mistral"),
                Map.entry("https://api.z.ai", origin + "/zai"),
                Map.entry("https://api.x.ai", origin + "/xai"),
                Map.entry("https://api.electronhub.ai", origin + "/electronhub"),
                Map.entry("https://api.chutes.ai", origin + "/chutes-api"),
                Map.entry("https://llm.chutes.ai", origin + "/chutes-llm"),
                Map.entry("https://chutes-kokoro.chutes.ai", origin + "/chutes-kokoro"),
                Map.entry("https://whisper.chutes.ai", origin + "/chutes-whisper"),
                Map.entry("https://api.siliconflow.com", origin + "/siliconflow-com"),
                Map.entry("https://api.siliconflow.cn", origin + "/siliconflow-cn"),
                Map.entry("https://api.cloudflare.com", origin + "/cloudflare"));
    }

    @AfterEach
    final void stopMock() {
        mock.close();
        TestServer.await(mockVertx.close());
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
