package tankard.testing;

import org.junit.jupiter.api.AfterEach;

/**
 * A {@link ServerTest} whose tests choose the server's config.yaml ({@link #startWith}), with a
 * {@link MockCompletionServer} on the server's Vert.x, closed after each test.
 */
public abstract class ConfiguredMockTest extends ServerTest {
    protected MockCompletionServer mock;

    protected void startWith(String configYaml) {
        start(configYaml);
        mock = MockCompletionServer.start(server.vertx);
    }

    @AfterEach
    final void stopMock() {
        if (mock != null) {
            mock.close();
        }
    }
}
