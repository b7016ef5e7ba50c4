package tankard.testing;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.util.Map;

/**
 * A {@link ServerTest} whose server takes AI Horde's and NovelAI's fixed public hosts to be paths of a
 * {@link MockCompletionServer} on loopback (started first, on its own Vert.x, since the server reads where the
 * hosts are when it starts). Horde jobs are polled every few milliseconds instead of seconds.
 */
public abstract class PublicHostsMockTest extends ServerTest {
    protected static final String HORDE = "/horde/api/v2";
    protected static final String HORDE_MODEL_REFERENCE = "/horde/db.json";
    protected static final String NOVELAI_API = "/nai-api";
    protected static final String NOVELAI_TEXT = "/nai-text";
    protected static final String NOVELAI_IMAGE = "/nai-image";

    protected MockCompletionServer mock;
    private Vertx mockVertx;
    private boolean upstreamDown;

    private Map<String, String> properties() {
        return Map.of("tankard.horde.api", mock.origin() + HORDE,
                "tankard.horde.modelReference", mock.origin() + HORDE_MODEL_REFERENCE,
                "tankard.horde.pollMillis", "10",
                "tankard.novelai.api", mock.origin() + NOVELAI_API,
                "tankard.novelai.text", mock.origin() + NOVELAI_TEXT,
                "tankard.novelai.image", mock.origin() + NOVELAI_IMAGE);
    }

    @BeforeEach
    final void startServers() {
        mockVertx = Vertx.vertx();
        mock = MockCompletionServer.start(mockVertx);
        properties().forEach(System::setProperty);
        start(null);
    }

    @AfterEach
    final void stopMock() {
        properties().keySet().forEach(System::clearProperty);
        if (!upstreamDown) {
            mock.close();
        }
        TestServer.await(mockVertx.close().toCompletionStage().toCompletableFuture());
    }

    /** The mock's origin named as "localhost", which ST's routes rewrite to 127.0.0.1. */
    protected String localhost() {
        return mock.origin().replace("127.0.0.1", "localhost");
    }

    /** Stops the mock, so that the hosts it stands for cannot be reached. */
    protected void takeUpstreamDown() {
        mock.close();
        upstreamDown = true;
    }

    /** Answers a mock request with a JSON body and status. */
    public static void json(HttpServerRequest request, int status, String body) {
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body);
    }
}
