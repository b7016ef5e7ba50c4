package tankard.testing;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A {@link ServerTest} with a {@link MockCompletionServer} on the server's Vert.x, closed after each test. */
public abstract class MockServerTest extends ServerTest {
    protected MockCompletionServer mock;
    /** The first server, when a test replaced it: the mock runs on its Vert.x, so it closes after the mock. */
    private TestServer replaced;

    @BeforeEach
    final void startServers() {
        start(null);
        mock = MockCompletionServer.start(server.vertx);
    }

    /** Starts a server with this config.yaml in place of the first, whose Vert.x keeps the mock. */
    protected void startInstead(String configYaml) {
        replaced = server;
        start(configYaml);
    }

    @AfterEach
    final void stopMock() {
        mock.close();
        if (replaced != null) {
            replaced.close();
        }
    }
}
