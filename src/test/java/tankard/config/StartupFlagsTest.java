package tankard.config;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tankard starts, and answers, with every flag ST's parser knows (ST: src/command-line.js) and with unknown ones. */
class StartupFlagsTest {
    private final Path work = TestServer.tempDir();

    @AfterEach
    void cleanUp() {
        TestServer.deleteTree(work);
    }

    /** Each of ST's 31 options with a value it would take, then flags and words nobody knows. */
    static List<List<String>> flags() {
        return List.of(
                List.of("--global"),
                List.of("--configPath", "other-config.yaml"),
                List.of("--enableIPv6", "true"),
                List.of("--enableIPv4", "auto"),
                List.of("--port", "0"),
                List.of("--dnsPreferIPv6"),
                List.of("--browserLaunchEnabled"),
                List.of("--browserLaunchHostname", "localhost"),
                List.of("--browserLaunchPort", "-1"),
                List.of("--browserLaunchAvoidLocalhost", "true"),
                List.of("--listen", "--listenAddressIPv4", "127.0.0.1"),
                List.of("--listenAddressIPv6", "[::1]"),
                List.of("--listenAddressIPv4", "127.0.0.1"),
                List.of("--corsProxy"),
                List.of("--disableCsrf"),
                List.of("--ssl", "false"), // on, it needs a certificate; ConfigLoaderTest and the SSL tests cover it
                List.of("--certPath", "certs/cert.pem"),
                List.of("--keyPath", "certs/privkey.pem"),
                List.of("--keyPassphrase", "secret"),
                List.of("--whitelist"),
                List.of("--dataRoot", "elsewhere"),
                List.of("--basicAuthMode"),
                List.of("--enableKeepAlive", "false"),
                List.of("--requestProxyEnabled", "--requestProxyUrl", "http://127.0.0.1:9"),
                List.of("--requestProxyUrl", "socks5://127.0.0.1:1080"),
                List.of("--requestProxyBypass", "localhost", "127.0.0.1"),
                List.of("--heartbeatInterval", "1"),
                List.of("--autorun"),
                List.of("--autorunHostname", "auto"),
                List.of("--autorunPortOverride", "8001"),
                List.of("--avoidLocalhost", "false"),
                // yargs' other spellings, and what it skips
                List.of("--no-whitelist"),
                List.of("--data-root", "kebab"),
                List.of("--flagNobodyKnows", "42"),
                List.of("--flagNobodyKnows"),
                List.of("--flag-nobody-knows=x", "stray-word"));
    }

    @ParameterizedTest
    @MethodSource("flags")
    void startsAndAnswers(List<String> flags) throws IOException {
        Files.createDirectories(work.resolve("public"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html><title>t</title>");
        // --global's folder, kept inside the test's own
        Map<String, String> env = Map.of("XDG_DATA_HOME", work.resolve("xdg").toString(),
                "HOME", work.resolve("home").toString(), "LOCALAPPDATA", work.resolve("local").toString());
        try (TestServer server = TestServer.startIn(work, env, flags.toArray(String[]::new))) {
            HttpResponse<Buffer> version = TestServer.Client.send(server.plainClient().get("/version")
                    .putHeader("Authorization", "Basic " + Base64.getEncoder().encodeToString("user:password".getBytes())),
                    null);
            assertEquals(200, version.statusCode(), flags + ": " + version.bodyAsString());
            assertTrue(version.bodyAsJsonObject().containsKey("pkgVersion"), version.bodyAsString());
        }
    }
}
