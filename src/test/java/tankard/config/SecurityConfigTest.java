package tankard.config;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Config keys of the security layer: CORS origins, the legacy whitelist.txt, rate limiting. */
class SecurityConfigTest {
    private final Path work = TestServer.tempDir();

    @AfterEach
    void cleanUp() {
        TestServer.deleteTree(work);
    }

    private TankardConfig load(String yaml, Map<String, String> env) throws IOException {
        Files.writeString(work.resolve("config.yaml"), yaml);
        return ConfigLoader.load(new String[0], env, work);
    }

    @Test
    void corsDefaultsToTheNullOriginList() throws IOException {
        TankardConfig.Cors cors = load("", Map.of()).cors();
        assertTrue(cors.enabled());
        assertNull(cors.fixedOrigin());
        assertEquals(List.of("null"), cors.origin());
        assertEquals(List.of("OPTIONS"), cors.methods());
        assertNull(cors.maxAge());
    }

    @Test
    void corsOriginMayBeOneStringOrFalse() throws IOException {
        assertEquals("*", load("cors:\n  origin: '*'\n", Map.of()).cors().fixedOrigin());
        assertEquals("*", load("cors:\n  origin: ''\n", Map.of()).cors().fixedOrigin());
        assertFalse(load("cors:\n  origin: false\n", Map.of()).cors().enabled());
        assertEquals(List.of("https://a.test"), load("", Map.of("SILLYTAVERN_CORS_ORIGIN", "[\"https://a.test\"]")).cors().origin());
        ConfigException e = assertThrows(ConfigException.class, () -> load("cors:\n  origin: true\n", Map.of()));
        assertTrue(e.getMessage().contains("'cors.origin'"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> load("cors:\n  maxAge: soon\n", Map.of()));
        assertTrue(e.getMessage().contains("'cors.maxAge'"), e.getMessage());
    }

    @Test
    void legacyWhitelistFileReplacesTheList() throws IOException {
        Files.writeString(work.resolve("whitelist.txt"), "10.0.0.0/8\n\n  192.168.1.5  \n");
        assertEquals(List.of("10.0.0.0/8", "192.168.1.5"), load("whitelist: ['127.0.0.1']\n", Map.of()).security().whitelist());
    }

    @Test
    void rateLimitSettings() throws IOException {
        TankardConfig.Security s = load("rateLimiting:\n  preferRealIpHeader: true\n  accountsLoginMaxAttempts: 0\n", Map.of()).security();
        assertTrue(s.preferRealIpHeader());
        assertEquals(0, s.loginMaxAttempts());
        ConfigException e = assertThrows(ConfigException.class, () -> load("rateLimiting:\n  basicAuthMaxAttempts: -1\n", Map.of()));
        assertTrue(e.getMessage().contains("'rateLimiting.basicAuthMaxAttempts'"));
    }
}
