package tankard.config;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigLoaderTest {
    private final Path work = TestServer.tempDir();

    @AfterEach
    void cleanUp() {
        TestServer.deleteTree(work);
    }

    private TankardConfig load(String yaml, Map<String, String> env, String... args) throws IOException {
        if (yaml != null) {
            Files.writeString(work.resolve("config.yaml"), yaml);
        }
        return ConfigLoader.load(args, env, work);
    }

    @Test
    void defaultsMatchSillyTavern() throws IOException {
        TankardConfig c = load(null, Map.of());
        assertEquals(8000, c.port());
        assertFalse(c.listen());
        assertEquals(work.resolve("data"), c.dataRoot());
        assertTrue(c.security().whitelistMode());
        assertEquals(List.of("::1", "127.0.0.1"), c.security().whitelist());
        assertFalse(c.security().enableUserAccounts());
        assertEquals(-1, c.security().sessionTimeoutSeconds());
        assertEquals(50, c.backups().numberOfBackups());
        assertArrayEquals(new int[]{160, 90}, c.thumbnails().bg());
        assertEquals(100L * 1024 * 1024, c.performance().memoryCacheCapacityBytes());
        // no public/ here: Tankard's own, beside the build this test runs from (the project folder)
        assertEquals(Path.of("public").toAbsolutePath(), c.frontendDir());
        assertNull(c.frontendLib());
    }

    @Test
    void theLocalSpeechModelsAndTheirQueuesAreReadWithDefaultsWhenAbsent() throws IOException {
        TankardConfig absent = load(null, Map.of());
        assertEquals("", absent.models().textToSpeech());
        assertEquals(16, absent.models().synthesisQueue());
        assertEquals("", absent.models().speechToText());
        assertEquals(8, absent.models().recognitionQueue());
        TankardConfig set = load("extensions:\n  models:\n    textToSpeech: \" Owner/tts \"\n"
                + "    speechToText: ' Xenova/whisper-tiny '\n"
                + "tankard:\n  speech:\n    synthesisQueueSize: 3\n    recognitionQueueSize: 4\n", Map.of());
        assertEquals("Owner/tts", set.models().textToSpeech());
        assertEquals(3, set.models().synthesisQueue());
        assertEquals("Xenova/whisper-tiny", set.models().speechToText());
        assertEquals(4, set.models().recognitionQueue());
    }

    @Test
    void ownUiIsFoundBesideTheInstallation() throws Exception {
        assertEquals(Path.of("/opt/tankard"), ConfigLoader.installFolder(new java.security.CodeSource(
                new java.net.URL("file:/opt/tankard/target/tankard.jar"), (java.security.cert.Certificate[]) null)));
        assertEquals(Path.of("/opt/tankard"), ConfigLoader.installFolder(new java.security.CodeSource(
                new java.net.URL("file:/opt/tankard/target/classes/"), (java.security.cert.Certificate[]) null)));
        assertNull(ConfigLoader.installFolder(null));

        Path install = work.resolve("install");
        Files.createDirectories(install.resolve("public"));
        Path elsewhere = work.resolve("elsewhere");
        Files.createDirectories(elsewhere);
        assertEquals(install.resolve("public"), ConfigLoader.load(new String[0], Map.of(), elsewhere, install).frontendDir());
        Files.createDirectories(elsewhere.resolve("mine"));
        Files.writeString(elsewhere.resolve("lib.js"), "");
        assertEquals(elsewhere.resolve("mine"), ConfigLoader.load(new String[] {"--frontend", "mine", "--frontend-lib",
                "lib.js"}, Map.of(), elsewhere, install).frontendDir());
        // a public/ in the working folder still wins, as before
        Files.createDirectories(elsewhere.resolve("public"));
        assertEquals(elsewhere.resolve("public"), ConfigLoader.load(new String[0], Map.of(), elsewhere, install).frontendDir());
        assertEquals(elsewhere.resolve("public"), ConfigLoader.load(new String[0], Map.of(), elsewhere, null).frontendDir());
    }

    @Test
    void readsAnStStyleConfigAndIgnoresUnknownKeys() throws IOException {
        TankardConfig c = load("""
                dataRoot: ./my-data
                listen: true
                port: 8123
                whitelistMode: false
                whitelist:
                  - 192.168.0.0/16
                  - ::1
                basicAuthMode: true
                basicAuthUser:
                  username: "me"
                  password: "secret"
                enableUserAccounts: true
                sessionTimeout: 3600
                protocol:
                  ipv4: true
                  ipv6: auto
                thumbnails:
                  format: png
                  quality: 150
                  dimensions: { bg: [320, 180], avatar: [96, 144], persona: [96, 144] }
                performance:
                  memoryCacheCapacity: '50mb'
                  requestCompression:
                    enabled: true
                    minPayloadSize: 1kb
                browserLaunch:
                  enabled: true
                someFutureKey: whatever
                """, Map.of());
        assertEquals(work.resolve("my-data"), c.dataRoot());
        assertTrue(c.listen());
        assertEquals(8123, c.port());
        assertFalse(c.security().whitelistMode());
        assertEquals(List.of("192.168.0.0/16", "::1"), c.security().whitelist());
        assertEquals("me", c.security().basicAuthUsername());
        assertEquals(3600, c.security().sessionTimeoutSeconds());
        assertTrue(c.ipv6());
        assertTrue(c.thumbnails().png());
        assertEquals(100, c.thumbnails().quality(), "quality is clamped to 1..100 as ST does");
        assertArrayEquals(new int[]{320, 180}, c.thumbnails().bg());
        assertEquals(50L * 1024 * 1024, c.performance().memoryCacheCapacityBytes());
        assertTrue(c.performance().requestCompression());
        assertEquals(1024, c.performance().minPayloadSize());
    }

    @Test
    void yamlIsVersion12SoYesIsNotABoolean() {
        ConfigException e = assertThrows(ConfigException.class, () -> load("listen: yes\n", Map.of()));
        assertTrue(e.getMessage().contains("'listen'"), e.getMessage());
    }

    @Test
    void invalidValuesStopStartUpNamingTheKey() {
        assertTrue(assertThrows(ConfigException.class, () -> load("port: eighty\n", Map.of()))
                .getMessage().contains("'port'"));
        assertTrue(assertThrows(ConfigException.class, () -> load("port: 70000\n", Map.of()))
                .getMessage().contains("'port'"));
        assertTrue(assertThrows(ConfigException.class, () -> load("whitelist: 127.0.0.1\n", Map.of()))
                .getMessage().contains("'whitelist'"));
        assertTrue(assertThrows(ConfigException.class, () -> load("thumbnails:\n  dimensions:\n    bg: [1]\n", Map.of()))
                .getMessage().contains("'thumbnails.dimensions.bg'"));
        assertTrue(assertThrows(ConfigException.class, () -> load("performance:\n  memoryCacheCapacity: lots\n", Map.of()))
                .getMessage().contains("'performance.memoryCacheCapacity'"));
        assertTrue(assertThrows(ConfigException.class, () -> load("port: [\n", Map.of()))
                .getMessage().contains("not valid YAML"));
    }

    @Test
    void outboundSettingsUseStsKeysAndDefaults() throws IOException {
        TankardConfig.Outbound defaults = load(null, Map.of()).outbound();
        assertEquals(new TankardConfig.Outbound(false, List.of("127.0.0.0/8", "::1/128"), false, true, false,
                false, "", List.of(), List.of("localhost", "cdn.discordapp.com", "files.catbox.moe", "raw.githubusercontent.com"), false),
                defaults);
        TankardConfig.Outbound set = load("""
                privateAddressWhitelist:
                  enabled: true
                  allowUnresolvedHosts: true
                  log: {blockedRequests: false, allowedRequests: true}
                  allowedRanges: ['192.168.1.*']
                requestProxy:
                  enabled: true
                  url: socks5://user:pass@proxy.example:1080
                  bypass: [localhost, .internal]
                whitelistImportDomains: [example.com]
                enableKeepAlive: true
                """, Map.of()).outbound();
        assertEquals(new TankardConfig.Outbound(true, List.of("192.168.1.*"), true, false, true,
                true, "socks5://user:pass@proxy.example:1080", List.of("localhost", ".internal"), List.of("example.com"), true), set);
        TankardConfig.Outbound flags = load(null, Map.of(), "--requestProxyEnabled", "--requestProxyUrl",
                "http://127.0.0.1:3128", "--requestProxyBypass", "localhost,127.0.0.1").outbound();
        assertEquals(List.of("localhost,127.0.0.1"), flags.proxyBypass());
        assertEquals("http://127.0.0.1:3128", flags.proxyUrl());
    }

    @Test
    void invalidOutboundSettingsNameTheirKey() {
        assertTrue(assertThrows(ConfigException.class, () -> load("requestProxy:\n  enabled: true\n  url: pac+http://x/p.pac\n",
                Map.of())).getMessage().contains("'requestProxy.url'"));
        assertTrue(assertThrows(ConfigException.class, () -> load("requestProxy:\n  enabled: true\n", Map.of()))
                .getMessage().contains("'requestProxy.url'"));
        assertTrue(assertThrows(ConfigException.class, () -> load("privateAddressWhitelist:\n  allowedRanges: 10.0.0.1\n",
                Map.of())).getMessage().contains("'privateAddressWhitelist.allowedRanges'"));
        assertTrue(assertThrows(ConfigException.class, () -> load("privateAddressWhitelist:\n  enabled: maybe\n",
                Map.of())).getMessage().contains("'privateAddressWhitelist.enabled'"));
    }

    @Test
    void environmentOverridesFileAndCommandLineOverridesBoth() throws IOException {
        String yaml = "port: 8001\nbackups:\n  chat:\n    enabled: true\nwhitelist: ['127.0.0.1']\n";
        Map<String, String> env = Map.of("SILLYTAVERN_PORT", "8002", "SILLYTAVERN_BACKUPS_CHAT_ENABLED", "false",
                "SILLYTAVERN_WHITELIST", "[\"10.0.0.0/8\"]");
        TankardConfig fromEnv = load(yaml, env);
        assertEquals(8002, fromEnv.port());
        assertFalse(fromEnv.backups().chatEnabled());
        assertEquals(List.of("10.0.0.0/8"), fromEnv.security().whitelist());
        assertEquals(8003, load(yaml, env, "--port", "8003").port());
        assertEquals(8004, load(yaml, env, "--port=8004").port());
    }

    @Test
    void commandLineSwitchesAndUnknownFlags() throws IOException {
        TankardConfig c = load(null, Map.of(), "--listen", "--disableCsrf", "--whitelist", "false");
        assertTrue(c.listen());
        assertTrue(c.security().disableCsrf());
        assertFalse(c.security().whitelistMode());
        // ST's parser skips what it does not know, an unknown flag's value with it
        TankardConfig unknown = load(null, Map.of(), "--bogus", "8123", "stray", "--port", "8124");
        assertEquals(8124, unknown.port());
        // yargs' spellings: --no-flag, --kebab-case, and a list flag taking the words up to the next flag
        TankardConfig yargs = load(null, Map.of(), "--no-whitelist", "--data-root", "elsewhere",
                "--requestProxyBypass", "a.example", "b.example", "--listen");
        assertFalse(yargs.security().whitelistMode());
        assertEquals(work.resolve("elsewhere").toAbsolutePath().normalize(), yargs.dataRoot());
        assertTrue(yargs.listen());
        assertEquals(List.of("a.example b.example"), yargs.outbound().proxyBypass());
        // browser-launch flags are taken with their values and ignored
        assertEquals(8125, load(null, Map.of(), "--browserLaunchPort", "9000", "--autorunHostname", "h",
                "--autorun", "--port", "8125").port());
        assertTrue(assertThrows(ConfigException.class, () -> load(null, Map.of(), "--port"))
                .getMessage().contains("--port"));
    }

    @Test
    void globalModeUsesTheApplicationDataFolder() throws IOException {
        Path xdg = work.resolve("xdg");
        Files.createDirectories(xdg.resolve("SillyTavern"));
        Files.writeString(xdg.resolve("SillyTavern/config.yaml"), "port: 8126\n");
        TankardConfig c = load(null, Map.of("XDG_DATA_HOME", xdg.toString()), "--global", "--dataRoot", "ignored");
        if (!System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).matches("(windows|mac).*")) {
            assertEquals(8126, c.port());
            assertEquals(xdg.resolve("SillyTavern/data").toAbsolutePath(), c.dataRoot());
        }
    }

    @Test
    void legacyKeysStillWork() throws IOException {
        TankardConfig c = load("disableThumbnails: true\nnumberOfBackups: 7\ncardsCacheCapacity: 10\n", Map.of());
        assertFalse(c.thumbnails().enabled());
        assertEquals(7, c.backups().numberOfBackups());
        assertEquals(10L * 1024 * 1024, c.performance().memoryCacheCapacityBytes());
    }

    @Test
    void stFrontendNeedsItsBundleAndFindsTheNewest() throws IOException {
        Path st = work.resolve("st");
        Files.createDirectories(st.resolve("public"));
        Files.createDirectories(st.resolve("default/content"));
        ConfigException missing = assertThrows(ConfigException.class,
                () -> load(null, Map.of(), "--frontend", "st/public"));
        assertTrue(missing.getMessage().contains("lib.js"), missing.getMessage());
        assertTrue(missing.getMessage().contains("--frontend-lib"), missing.getMessage());

        Path older = st.resolve("dist/_webpack/aaa/output/lib.js");
        Path newer = work.resolve("data/_webpack/bbb/output/lib.js");
        Files.createDirectories(older.getParent());
        Files.createDirectories(newer.getParent());
        Files.writeString(older, "old");
        Files.writeString(newer, "new");
        Files.setLastModifiedTime(older, java.nio.file.attribute.FileTime.fromMillis(1_000_000));
        TankardConfig c = load(null, Map.of(), "--frontend", "st/public");
        assertEquals(newer, c.frontendLib());
        assertEquals(st.toAbsolutePath(), c.stInstall());
        assertEquals(st.resolve("default/content"), c.stDefaultContent());

        Path lib = work.resolve("lib.js");
        Files.writeString(lib, "given");
        assertEquals(lib, load(null, Map.of(), "--frontend", "st/public", "--frontend-lib", "lib.js").frontendLib());
        assertThrows(ConfigException.class, () -> load(null, Map.of(), "--frontend", "st/public", "--frontend-lib", "nope.js"));
    }

    @Test
    void extrasModulesTakeExtrasFlagNamesAndTankardExtrasKeys() throws IOException {
        TankardConfig.Extras off = load(null, Map.of()).extras();
        assertFalse(off.enabled());
        assertEquals(5100, off.port());
        assertFalse(off.secure());
        assertEquals(8, off.queueSize());
        assertEquals(8, off.maxTextMegabytes());

        TankardConfig.Extras flags = load(null, Map.of(), "--enable-modules=\"summarize, summarize\"", "--secure",
                "--summarization-model", "/models/bart", "--extras-port", "5101").extras();
        assertEquals(List.of("summarize"), flags.modules());
        assertTrue(flags.secure());
        assertEquals("/models/bart", flags.summarizationModel());
        assertEquals(5101, flags.port());

        TankardConfig.Extras yaml = load("""
                tankard:
                  extras:
                    enableModules: [summarize]
                    queueSize: 2
                    maxTextMegabytes: 1
                """, Map.of()).extras();
        assertEquals(List.of("summarize"), yaml.modules());
        assertEquals(2, yaml.queueSize());
        assertEquals(1, yaml.maxTextMegabytes());
    }

    @Test
    void badExtrasSettingsNameTheirKey() {
        ConfigException module = assertThrows(ConfigException.class,
                () -> load(null, Map.of(), "--enable-modules=summarize,silero-tts"));
        assertTrue(module.getMessage().contains("'tankard.extras.enableModules'")
                && module.getMessage().contains("no 'silero-tts' module"), module.getMessage());
        ConfigException port = assertThrows(ConfigException.class, () -> load(null, Map.of(), "--extras-port", "http"));
        assertTrue(port.getMessage().contains("'tankard.extras.port'"), port.getMessage());
        ConfigException queue = assertThrows(ConfigException.class,
                () -> load("tankard:\n  extras:\n    queueSize: 0\n", Map.of()));
        assertTrue(queue.getMessage().contains("'tankard.extras.queueSize'"), queue.getMessage());
        ConfigException secure = assertThrows(ConfigException.class,
                () -> load(null, Map.of("SILLYTAVERN_TANKARD_EXTRAS_SECURE", "yes")));
        assertTrue(secure.getMessage().contains("'tankard.extras.secure'"), secure.getMessage());
    }

    @Test
    void theOperationsSettingsHaveDefaultsAndTakeTheEnvironment() throws IOException {
        TankardConfig.Operations absent = load(null, Map.of()).operations();
        assertEquals(30, absent.shutdownGraceSeconds());
        assertFalse(absent.metricsEnabled());
        assertEquals(List.of("127.0.0.1", "::1"), absent.metricsWhitelist());
        TankardConfig.Operations set = load("tankard:\n  shutdownGraceSeconds: 5\n  metrics:\n    whitelist: [\"10.0.0.0/8\"]\n",
                Map.of("SILLYTAVERN_TANKARD_METRICS_ENABLED", "true", "SILLYTAVERN_TANKARD_SHUTDOWNGRACESECONDS", "90"))
                .operations();
        assertEquals(90, set.shutdownGraceSeconds());
        assertTrue(set.metricsEnabled());
        assertEquals(List.of("10.0.0.0/8"), set.metricsWhitelist());
        ConfigException negative = assertThrows(ConfigException.class,
                () -> load("tankard:\n  shutdownGraceSeconds: -1\n", Map.of()));
        assertTrue(negative.getMessage().contains("tankard.shutdownGraceSeconds"), negative.getMessage());
    }

    @Test
    void storageIsFilesUnlessPostgresIsChosenWithItsDatabase() throws IOException {
        assertEquals(TankardConfig.Storage.Kind.FILES, load(null, Map.of()).storage().kind());
        Files.writeString(work.resolve("db-password"), "s3cret\nignored\n");
        TankardConfig.Storage pg = load("""
                tankard:
                  storage: postgres
                  postgres:
                    host: db.internal
                    port: 6543
                    database: family
                    user: tavern
                    passwordFile: db-password
                    poolSize: 8
                    ssl: verify-full
                    sslRootCert: ca.pem
                    cacheCheckSeconds: 2
                """, Map.of()).storage();
        assertEquals(TankardConfig.Storage.Kind.POSTGRES, pg.kind());
        assertEquals(new TankardConfig.Postgres("db.internal", 6543, "family", "tavern", "s3cret", 8, "verify-full",
                work.resolve("ca.pem"), 2), pg.postgres());
        assertEquals("tavern@db.internal:6543/family", pg.postgres().describe());

        TankardConfig.Postgres fromEnv = load("", Map.of("SILLYTAVERN_TANKARD_STORAGE", "postgres",
                "SILLYTAVERN_TANKARD_POSTGRES_PASSWORD", "pw", "SILLYTAVERN_TANKARD_POSTGRES_SSL", "true"))
                .storage().postgres();
        assertEquals(new TankardConfig.Postgres("127.0.0.1", 5432, "tankard", "tankard", "pw", 16, "require", null),
                fromEnv);
    }

    @Test
    void badStorageSettingsNameTheirKey() {
        ConfigException kind = assertThrows(ConfigException.class,
                () -> load("tankard:\n  storage: mysql\n", Map.of()));
        assertTrue(kind.getMessage().contains("'tankard.storage'"), kind.getMessage());
        ConfigException ssl = assertThrows(ConfigException.class,
                () -> load("tankard:\n  storage: postgres\n  postgres:\n    ssl: maybe\n", Map.of()));
        assertTrue(ssl.getMessage().contains("'tankard.postgres.ssl'"), ssl.getMessage());
        ConfigException file = assertThrows(ConfigException.class,
                () -> load("tankard:\n  storage: postgres\n  postgres:\n    passwordFile: missing\n", Map.of()));
        assertTrue(file.getMessage().startsWith("tankard.postgres.passwordFile"), file.getMessage());
        ConfigException never = assertThrows(ConfigException.class,
                () -> load("tankard:\n  storage: postgres\n  postgres:\n    cacheCheckSeconds: 0\n", Map.of()));
        assertTrue(never.getMessage().contains("'tankard.postgres.cacheCheckSeconds'"), never.getMessage());
    }
}
