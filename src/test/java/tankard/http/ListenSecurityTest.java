package tankard.http;

import org.junit.jupiter.api.Test;
import tankard.config.ConfigException;
import tankard.testing.TestServer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ST's refusal to serve the network with nothing guarding it, unless securityOverride says so. */
class ListenSecurityTest {
    // listen: true with the bind address kept on loopback, so no test ever opens a port to the network.
    private static final String LISTEN = "listen: true\nlistenAddress:\n  ipv4: 127.0.0.1\n";

    @Test
    void refusesAnUnguardedNetworkListener() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> TestServer.start(LISTEN + "whitelistMode: false\n"));
        ConfigException cause = assertInstanceOf(ConfigException.class, e.getCause());
        assertTrue(cause.getMessage().contains("securityOverride"), cause.getMessage());
    }

    @Test
    void refusesAccountsWhoseAdminHasNoPassword() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> TestServer.start(LISTEN + "whitelistMode: false\nenableUserAccounts: true\n"));
        assertInstanceOf(ConfigException.class, e.getCause());
    }

    @Test
    void startsWhenGuardedOrExplicitlyAllowed() {
        try (TestServer whitelisted = TestServer.start(LISTEN)) {
            assertEquals(200, whitelisted.client().get("/version").statusCode());
        }
        try (TestServer overridden = TestServer.start(LISTEN + "whitelistMode: false\nsecurityOverride: true\n")) {
            assertEquals(200, overridden.client().get("/version").statusCode());
        }
    }
}
