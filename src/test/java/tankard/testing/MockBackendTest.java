package tankard.testing;

import org.junit.jupiter.api.BeforeEach;

/** A {@link MockServerTest} whose mock also speaks the text-completion protocols. */
public abstract class MockBackendTest extends MockServerTest {
    @BeforeEach
    final void speakTextProtocols() {
        TextCompletionProtocols.install(mock);
    }
}
