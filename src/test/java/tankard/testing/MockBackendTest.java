package tankard.testing;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A {@link ServerTest} with a {@link MockCompletionServer} that also speaks the text-completion protocols. */
public abstract class MockBackendTest extends ServerTest {
    protected MockCompletionServer mock;

    @BeforeEach
    final void startServers() {
        start(null);
        mock = MockCompletionServer.start(server.vertx);
        TextCompletionProtocols.install(mock);
    }

    @AfterEach
    protected void stopMock() {
        mock.close();
    }
}
