package tankard.config;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import tankard.json.JsJson;
import tankard.json.JsonSyntaxException;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Builds {@link TankardConfig} the way ST resolves its settings (ST: src/util.js, getConfigValue): command line, then
 * {@code SILLYTAVERN_*} environment variables, then config.yaml, then the built-in default. Unknown
 * config.yaml keys are ignored; a value of the wrong type stops start-up with a message naming its key.
 */
public final class ConfigLoader {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigLoader.class);

    /** Command-line flags and the config keys they set (ST's names, plus Tankard's own). */
    private static final Map<String, String> FLAGS = Map.ofEntries(
            Map.entry("port", "port"),
            Map.entry("listen", "listen"),
            Map.entry("listenAddressIPv4", "listenAddress.ipv4"),
            Map.entry("listenAddressIPv6", "listenAddress.ipv6"),
            Map.entry("enableIPv4", "protocol.ipv4"),
            Map.entry("enableIPv6", "protocol.ipv6"),
            Map.entry("ssl", "ssl.enabled"),
            Map.entry("certPath", "ssl.certPath"),
            Map.entry("keyPath", "ssl.keyPath"),
            Map.entry("keyPassphrase", "ssl.keyPassphrase"),
            Map.entry("whitelist", "whitelistMode"),
            Map.entry("basicAuthMode", "basicAuthMode"),
            Map.entry("disableCsrf", "disableCsrfProtection"),
            Map.entry("dataRoot", "dataRoot"),
            Map.entry("heartbeatInterval", "heartbeatInterval"),
            Map.entry("enableKeepAlive", "enableKeepAlive"),
            Map.entry("corsProxy", "enableCorsProxy"),
            Map.entry("securityOverride", "securityOverride"),
            Map.entry("configPath", "configPath"),
            Map.entry("requestProxyEnabled", "requestProxy.enabled"),
            Map.entry("requestProxyUrl", "requestProxy.url"),
            Map.entry("requestProxyBypass", "requestProxy.bypass"),
            Map.entry("frontend", "tankard.frontend"),
            Map.entry("frontend-lib", "tankard.frontendLib"),
            Map.entry("instances", "tankard.instances"),
            // SillyTavern-Extras' own flags (its --port is Tankard's, so its port is --extras-port here)
            Map.entry("enable-modules", "tankard.extras.enableModules"),
            Map.entry("summarization-model", "tankard.extras.summarizationModel"),
            Map.entry("secure", "tankard.extras.secure"),
            Map.entry("extras-port", "tankard.extras.port"));

    /** Flags that take no value when given alone ({@code --listen} means {@code --listen true}). */
    private static final List<String> SWITCHES = List.of("listen", "enableIPv4", "enableIPv6", "ssl", "whitelist",
            "basicAuthMode", "disableCsrf", "enableKeepAlive", "corsProxy", "securityOverride", "requestProxyEnabled",
            "secure", "global", "dnsPreferIPv6", "browserLaunchEnabled", "browserLaunchAvoidLocalhost", "autorun",
            "avoidLocalhost");

    /**
     * ST's flags that mean nothing to Tankard, with why: accepted and ignored (ST: src/command-line.js). The
     * browser-launch ones open a browser on ST's machine; Tankard is a server and opens none.
     */
    private static final Map<String, String> IGNORED_FLAGS = Map.ofEntries(
            Map.entry("browserLaunchEnabled", "Tankard opens no browser"),
            Map.entry("browserLaunchHostname", "Tankard opens no browser"),
            Map.entry("browserLaunchPort", "Tankard opens no browser"),
            Map.entry("browserLaunchAvoidLocalhost", "Tankard opens no browser"),
            Map.entry("autorun", "Tankard opens no browser"),
            Map.entry("autorunHostname", "Tankard opens no browser"),
            Map.entry("autorunPortOverride", "Tankard opens no browser"),
            Map.entry("avoidLocalhost", "Tankard opens no browser"),
            Map.entry("dnsPreferIPv6", "Tankard leaves the order of DNS answers to Java"));

    /** ST's flag for the per-user data folder (env-paths' data folder) instead of the working folder's files. */
    private static final String GLOBAL = "global";
    /** A flag that takes every word up to the next flag (yargs' array type), given to Tankard as one text. */
    private static final String LIST_FLAG = "requestProxyBypass";

    private final Map<String, Object> cli;
    private final Map<String, String> env;
    private final Map<String, Object> yaml;
    private final Path workDir;
    private final Path installFolder;
    /** Values of legacy config.yaml keys under their current names. */
    private Map<String, Object> migratedYaml = Map.of();

    private ConfigLoader(Map<String, Object> cli, Map<String, String> env, Map<String, Object> yaml, Path workDir,
                         Path installFolder) {
        this.cli = cli;
        this.env = env;
        this.yaml = yaml;
        this.workDir = workDir;
        this.installFolder = installFolder;
    }

    public static TankardConfig load(String[] args, Map<String, String> env, Path workDir) {
        return load(args, env, workDir, installFolder(ConfigLoader.class.getProtectionDomain().getCodeSource()));
    }

    /** As {@link #load(String[], Map, Path)}, for an installation in {@code installFolder} (null: unknown). */
    static TankardConfig load(String[] args, Map<String, String> env, Path workDir, Path installFolder) {
        Map<String, Object> cli = parseArgs(args);
        if (Boolean.parseBoolean(String.valueOf(cli.remove(GLOBAL)))) {
            useGlobalFolder(cli, env);
        }
        Path configPath = workDir.resolve(String.valueOf(cli.getOrDefault("configPath",
                env.getOrDefault("SILLYTAVERN_CONFIGPATH", "config.yaml"))));
        Map<String, Object> yaml = readYaml(configPath);
        return new ConfigLoader(cli, env, yaml, workDir, installFolder).build();
    }

    /**
     * The folder Tankard is installed in, where its bin/ and public/ are: the parent of the folder holding its
     * code ({@code target/tankard.jar} or, run from the build, {@code target/classes}). Null when unknown.
     */
    static Path installFolder(java.security.CodeSource code) {
        try {
            Path location = code == null || code.getLocation() == null ? null : Path.of(code.getLocation().toURI());
            Path holder = location == null ? null : location.getParent();
            return holder == null ? null : holder.getParent();
        } catch (URISyntaxException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            return null; // not a file location (a nested jar, a custom class loader)
        }
    }

    /**
     * ST's {@code --global}: config.yaml and data/ in the user's application-data folder, whatever
     * {@code --configPath} and {@code --dataRoot} say (ST: src/command-line.js, getDefaultConfig).
     */
    private static void useGlobalFolder(Map<String, Object> cli, Map<String, String> env) {
        Path folder = globalDataFolder(env);
        for (String key : List.of("configPath", "dataRoot")) {
            if (cli.containsKey(key)) {
                LOG.warn("--{} is ignored with --global", key);
            }
        }
        cli.put("configPath", folder.resolve("config.yaml").toString());
        cli.put("dataRoot", folder.resolve("data").toString());
    }

    /** env-paths' data folder for "SillyTavern" (no suffix), the one ST's global mode uses. */
    static Path globalDataFolder(Map<String, String> env) {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        Path home = Path.of(env.getOrDefault("HOME", System.getProperty("user.home")));
        if (os.startsWith("windows")) {
            String local = env.get("LOCALAPPDATA");
            return (local != null ? Path.of(local) : home.resolve("AppData").resolve("Local"))
                    .resolve("SillyTavern").resolve("Data");
        }
        if (os.startsWith("mac")) {
            return home.resolve("Library").resolve("Application Support").resolve("SillyTavern");
        }
        String xdg = env.get("XDG_DATA_HOME");
        return (xdg != null && !xdg.isEmpty() ? Path.of(xdg) : home.resolve(".local").resolve("share"))
                .resolve("SillyTavern");
    }

    /**
     * Reads flags the way ST's yargs parser does: {@code --name value}, {@code --name=value}, switches alone,
     * {@code --no-name} for false and {@code --kebab-name} for {@code --camelName}. Unknown flags and stray words
     * are logged and skipped (an unknown flag's value with it), as ST skips them.
     */
    static Map<String, Object> parseArgs(String[] args) {
        Map<String, Object> out = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                LOG.warn("Ignoring the argument '{}': options look like --port 8000", arg);
                continue;
            }
            String name = arg.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            name = knownName(name);
            if (!isKnown(name) && name.startsWith("no-") && SWITCHES.contains(knownName(name.substring(3)))
                    && value == null) {
                name = knownName(name.substring(3));
                value = "false";
            }
            boolean nextIsValue = i + 1 < args.length && !args[i + 1].startsWith("--");
            if (!isKnown(name)) {
                LOG.warn("Ignoring the unknown option --{}{}", name, value == null && nextIsValue ? " " + args[i + 1] : "");
                if (value == null && nextIsValue) {
                    i++; // its value, not an argument of its own
                }
                continue;
            }
            if (value == null) {
                if (name.equals(LIST_FLAG) && nextIsValue) {
                    List<String> words = new ArrayList<>();
                    while (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                        words.add(args[++i]);
                    }
                    value = String.join(" ", words);
                } else if (nextIsValue && (!SWITCHES.contains(name) || isBooleanWord(args[i + 1]))) {
                    value = args[++i];
                } else if (SWITCHES.contains(name)) {
                    value = "true";
                } else {
                    throw new ConfigException("Option --" + name + " needs a value");
                }
            }
            if (IGNORED_FLAGS.containsKey(name)) {
                LOG.info("Ignoring --{} {}: {}", name, value, IGNORED_FLAGS.get(name));
            } else {
                out.put(name.equals(GLOBAL) ? GLOBAL : FLAGS.get(name), value);
            }
        }
        return out;
    }

    /** Whether {@code --name} (or {@code --name=value}, {@code --no-name}) is a start-up flag, for commands stricter than ST. */
    public static boolean knowsOption(String name) {
        String bare = name.contains("=") ? name.substring(0, name.indexOf('=')) : name;
        return isKnown(knownName(bare)) || bare.startsWith("no-") && SWITCHES.contains(knownName(bare.substring(3)));
    }

    private static boolean isKnown(String name) {
        return FLAGS.containsKey(name) || IGNORED_FLAGS.containsKey(name) || name.equals(GLOBAL);
    }

    /** yargs also takes {@code --data-root} for {@code --dataRoot}; Tankard's own kebab flags stay as they are. */
    private static String knownName(String name) {
        if (isKnown(name) || !name.contains("-")) {
            return name;
        }
        StringBuilder camel = new StringBuilder();
        boolean upper = false;
        for (char c : name.toCharArray()) {
            if (c == '-') {
                upper = true;
            } else {
                camel.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return isKnown(camel.toString()) ? camel.toString() : name;
    }

    private static boolean isBooleanWord(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        return t.equals("true") || t.equals("false");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> readYaml(Path file) {
        if (!Files.isRegularFile(file)) {
            return Map.of();
        }
        try {
            Object doc = new Load(LoadSettings.builder().setLabel(file.toString()).build())
                    .loadFromString(Files.readString(file));
            if (doc == null) {
                return Map.of();
            }
            if (!(doc instanceof Map)) {
                throw new ConfigException(file + ": the top level must be a mapping of keys");
            }
            return (Map<String, Object>) doc;
        } catch (IOException e) {
            throw new ConfigException("Cannot read " + file + ": " + e.getMessage());
        } catch (YamlEngineException e) {
            throw new ConfigException(file + " is not valid YAML: " + e.getMessage());
        }
    }

    private TankardConfig build() {
        migrateLegacyKeys();
        Path dataRoot = path("dataRoot", "./data");
        Path frontendDir = optionalPath("tankard.frontend").orElseGet(this::ownFrontend).toAbsolutePath().normalize();
        Path stInstall = findStInstall(frontendDir);
        boolean stFrontend = has("tankard.frontend");
        Path frontendLib = optionalPath("tankard.frontendLib").orElse(null);
        if (frontendLib != null && !Files.isRegularFile(frontendLib)) {
            throw new ConfigException("--frontend-lib: no such file " + frontendLib);
        }
        if (stFrontend && !Files.isDirectory(frontendDir)) {
            throw new ConfigException("--frontend: no such folder " + frontendDir);
        }
        if (stFrontend && frontendLib == null) {
            frontendLib = findWebpackBundle(stInstall, dataRoot).orElseThrow(() -> new ConfigException(
                    "The ST frontend needs its bundled lib.js, which SillyTavern builds on its first start. "
                            + "Start SillyTavern once from " + (stInstall == null ? "its folder" : stInstall)
                            + " (npm install && node server.js) so that dist/_webpack/*/output/lib.js or "
                            + "<dataRoot>/_webpack/*/output/lib.js exists, or pass --frontend-lib FILE."));
        }
        int cores = Runtime.getRuntime().availableProcessors();
        return new TankardConfig(
                dataRoot,
                frontendDir,
                frontendLib,
                stInstall,
                integer("port", 8000, 0, 65535), // 0: any free port
                bool("listen", false),
                string("listenAddress.ipv4", "0.0.0.0"),
                string("listenAddress.ipv6", "[::]"),
                protocol("protocol.ipv4", true),
                protocol("protocol.ipv6", false),
                new TankardConfig.Ssl(bool("ssl.enabled", false), path("ssl.certPath", "./certs/cert.pem"),
                        path("ssl.keyPath", "./certs/privkey.pem"), string("ssl.keyPassphrase", "")),
                new TankardConfig.Security(
                        bool("whitelistMode", true),
                        whitelist(),
                        bool("enableForwardedWhitelist", false),
                        bool("forwardedHeaders.xRealIp", true),
                        bool("forwardedHeaders.xForwardedFor", true),
                        bool("forwardedHeaders.cfConnectingIp", false),
                        bool("basicAuthMode", false),
                        string("basicAuthUser.username", "user"),
                        string("basicAuthUser.password", "password"),
                        bool("perUserBasicAuth", false),
                        bool("enableUserAccounts", false),
                        bool("enableDiscreetLogin", false),
                        integer("sessionTimeout", -1, Integer.MIN_VALUE, Integer.MAX_VALUE),
                        bool("disableCsrfProtection", false),
                        bool("securityOverride", false),
                        bool("hostWhitelist.enabled", false),
                        stringList("hostWhitelist.hosts", List.of()),
                        bool("sso.autheliaAuth", false),
                        bool("sso.authentikAuth", false),
                        stringList("sso.trustedProxies", List.of("::1", "127.0.0.1")),
                        integer("rateLimiting.basicAuthMaxAttempts", 5, 0, Integer.MAX_VALUE),
                        integer("rateLimiting.accountsLoginMaxAttempts", 5, 0, Integer.MAX_VALUE),
                        integer("rateLimiting.accountsRecoverMaxAttempts", 5, 0, Integer.MAX_VALUE),
                        bool("rateLimiting.preferRealIpHeader", false)),
                cors(),
                new TankardConfig.Backups(
                        bool("backups.allowFullDataBackup", true),
                        integer("backups.common.numberOfBackups", 50, 0, Integer.MAX_VALUE),
                        bool("backups.chat.enabled", true),
                        bool("backups.chat.checkIntegrity", true),
                        integer("backups.chat.maxTotalBackups", -1, Integer.MIN_VALUE, Integer.MAX_VALUE),
                        integer("backups.chat.throttleInterval", 10_000, 0, Integer.MAX_VALUE)),
                new TankardConfig.Thumbnails(
                        bool("thumbnails.enabled", true),
                        string("thumbnails.format", "jpg").equals("png") ? "png" : "jpg",
                        Math.max(1, Math.min(100, integer("thumbnails.quality", 95, Integer.MIN_VALUE, Integer.MAX_VALUE))),
                        dimensions("thumbnails.dimensions.bg", 160, 90),
                        dimensions("thumbnails.dimensions.avatar", 96, 144),
                        dimensions("thumbnails.dimensions.persona", 96, 144)),
                new TankardConfig.Performance(
                        bool("performance.lazyLoadCharacters", false),
                        size("performance.memoryCacheCapacity", "100mb"),
                        bool("performance.useDiskCache", true),
                        bool("performance.requestCompression.enabled", false),
                        size("performance.requestCompression.minPayloadSize", "256kb"),
                        size("performance.requestCompression.maxPayloadSize", "8mb"),
                        integer("performance.requestCompression.timeout", 4000, 0, Integer.MAX_VALUE)),
                bool("extensions.enabled", true),
                bool("extensions.autoUpdate", true),
                bool("allowKeysExposure", false),
                bool("skipContentCheck", false),
                integer("heartbeatInterval", 0, 0, Integer.MAX_VALUE),
                integer("tankard.instances", Math.max(1, cores), 1, 256),
                new TankardConfig.Backends(requestOverrides(),
                        integer("ollama.keepAlive", -1, Integer.MIN_VALUE, Integer.MAX_VALUE),
                        integer("ollama.batchSize", -1, Integer.MIN_VALUE, Integer.MAX_VALUE),
                        string("promptPlaceholder", "[Start a new chat]"), // ST adds it from its default config.yaml at start-up
                        providerOrigins(),
                        integer("tankard.hordePollMillis", 3000, 1, Integer.MAX_VALUE),
                        new TankardConfig.ChatSettings(bool("openai.randomizeUserId", false),
                                bool("mistral.enablePrefix", false), bool("gemini.thoughtSignatures", true),
                                bool("claude.enableSystemPromptCache", false), bool("claude.extendedTTL", false),
                                cachingAtDepth(), bool("claude.enableAdaptiveThinking", false), // shipped config.yaml
                                string("gemini.apiVersion", "v1beta")),
                        string("gemini.image.personGeneration", "allow_adult"),
                        integer("tankard.googleVideoPollMillis", 5000, 1, Integer.MAX_VALUE)),
                outbound(),
                extras(),
                new TankardConfig.Vectors(integer("tankard.vectors.memoryMegabytes", 512, 1, 1 << 20) * (1L << 20),
                        integer("tankard.vectors.foldIdleMillis", 5000, 0, Integer.MAX_VALUE),
                        bool("tankard.vectors.thresholdOnHashes", true)),
                new TankardConfig.Models(string("extensions.models.embedding", "").strip(),
                        bool("extensions.models.autoDownload", true),
                        integer("tankard.vectors.queueSize", 64, 1, 10_000),
                        string("extensions.models.classification", "").strip(),
                        integer("tankard.classify.queueSize", 64, 1, 10_000),
                        string("extensions.models.captioning", "").strip(),
                        integer("tankard.caption.queueSize", 16, 1, 10_000),
                        string("extensions.models.textToSpeech", "").strip(),
                        integer("tankard.speech.synthesisQueueSize", 16, 1, 10_000),
                        string("extensions.models.speechToText", "").strip(),
                        integer("tankard.speech.recognitionQueueSize", 8, 1, 10_000)),
                string("deepl.formality", "default"),
                storage(),
                new TankardConfig.Operations(integer("tankard.shutdownGraceSeconds", 30, 0, 24 * 3600),
                        bool("tankard.metrics.enabled", false),
                        stringList("tankard.metrics.whitelist", List.of("127.0.0.1", "::1"))));
    }

    /** {@code tankard.storage} and, for {@code postgres}, the database it names. */
    private TankardConfig.Storage storage() {
        String key = "tankard.storage";
        String kind = string(key, "files").strip().toLowerCase(Locale.ROOT);
        if (kind.equals("files")) {
            return TankardConfig.Storage.files();
        }
        if (!kind.equals("postgres")) {
            throw invalid(key, raw(key), "files or postgres");
        }
        String password = string("tankard.postgres.password", "");
        Optional<Path> passwordFile = optionalPath("tankard.postgres.passwordFile");
        if (passwordFile.isPresent()) {
            try {
                password = Files.readAllLines(passwordFile.get()).stream().findFirst().orElse("");
            } catch (IOException e) {
                throw new ConfigException("tankard.postgres.passwordFile: cannot read " + passwordFile.get() + ": "
                        + e.getMessage());
            }
        }
        Object ssl = raw("tankard.postgres.ssl");
        String sslMode = switch (ssl == null ? "false" : String.valueOf(ssl).strip().toLowerCase(Locale.ROOT)) {
            case "false", "disable" -> "disable";
            case "true", "require" -> "require";
            case "verify-full" -> "verify-full";
            default -> throw invalid("tankard.postgres.ssl", ssl, "disable, require or verify-full");
        };
        return new TankardConfig.Storage(TankardConfig.Storage.Kind.POSTGRES, new TankardConfig.Postgres(
                string("tankard.postgres.host", "127.0.0.1"),
                integer("tankard.postgres.port", 5432, 1, 65535),
                string("tankard.postgres.database", "tankard"),
                string("tankard.postgres.user", "tankard"),
                password,
                integer("tankard.postgres.poolSize", 16, 1, 1000),
                sslMode,
                optionalPath("tankard.postgres.sslRootCert").orElse(null),
                integer("tankard.postgres.cacheCheckSeconds", TankardConfig.Postgres.DEFAULT_CACHE_CHECK_SECONDS, 1,
                        3600)));
    }

    /** The Extras-compatible module server: its modules, port, model and key. */
    private TankardConfig.Extras extras() {
        String key = "tankard.extras.enableModules";
        Object v = raw(key);
        // Extras: --enable-modules=a,b,c with quotes stripped; a YAML list works too
        List<String> given = v instanceof List ? stringList(key, List.of())
                : List.of(string(key, "").replace("\"", "").replace("'", "").split(","));
        List<String> modules = new ArrayList<>();
        for (String module : given) {
            String name = module.trim();
            if (name.isEmpty() || modules.contains(name)) {
                continue;
            }
            if (!TankardConfig.Extras.MODULES.contains(name)) {
                throw invalid(key, v, "a comma-separated list of " + String.join(", ", TankardConfig.Extras.MODULES)
                        + "; Tankard has no '" + name + "' module");
            }
            modules.add(name);
        }
        return new TankardConfig.Extras(List.copyOf(modules),
                integer("tankard.extras.port", 5100, 0, 65535),
                bool("tankard.extras.secure", false),
                string("tankard.extras.summarizationModel", ""),
                integer("tankard.extras.queueSize", 8, 1, 10_000),
                integer("tankard.extras.maxTextMegabytes", 8, 1, 500));
    }

    private TankardConfig.Outbound outbound() {
        boolean proxy = bool("requestProxy.enabled", false);
        return new TankardConfig.Outbound(
                bool("privateAddressWhitelist.enabled", false),
                stringList("privateAddressWhitelist.allowedRanges", List.of("127.0.0.0/8", "::1/128")),
                bool("privateAddressWhitelist.allowUnresolvedHosts", false),
                bool("privateAddressWhitelist.log.blockedRequests", true),
                bool("privateAddressWhitelist.log.allowedRequests", false),
                proxy,
                proxy ? proxyUrl() : "",
                // --requestProxyBypass gives one text, split like the YAML list's entries ("a,b c")
                cli.get("requestProxy.bypass") instanceof String s ? List.of(s) : stringList("requestProxy.bypass", List.of()),
                stringList("whitelistImportDomains",
                        List.of("localhost", "cdn.discordapp.com", "files.catbox.moe", "raw.githubusercontent.com")),
                bool("enableKeepAlive", false));
    }

    /** The proxy URL, in a scheme Vert.x can speak (ST also takes https and pac+ proxies, which Tankard cannot). */
    private String proxyUrl() {
        String url = string("requestProxy.url", "");
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw invalid("requestProxy.url", url, "a proxy URL such as socks5://user:password@host:1080");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (uri.getHost() == null || !List.of("http", "socks", "socks4", "socks4a", "socks5", "socks5h").contains(scheme)) {
            throw invalid("requestProxy.url", url, "an http://, socks://, socks4:// or socks5:// proxy URL");
        }
        return url;
    }

    /** ST's {@code requestOverrides}: entries without a hosts list and a headers mapping are skipped; hosts and header values become text. */
    private List<TankardConfig.RequestOverride> requestOverrides() {
        Object v = yamlValue("requestOverrides");
        if (!(v instanceof List<?> entries)) {
            return List.of();
        }
        List<TankardConfig.RequestOverride> out = new ArrayList<>();
        for (Object entry : entries) {
            if (entry instanceof Map<?, ?> map && map.get("hosts") instanceof List<?> hosts
                    && map.get("headers") instanceof Map<?, ?> headers) {
                Map<String, String> values = new LinkedHashMap<>();
                headers.forEach((name, value) -> values.put(String.valueOf(name), String.valueOf(value)));
                out.add(new TankardConfig.RequestOverride(
                        hosts.stream().map(String::valueOf).toList(), Collections.unmodifiableMap(values)));
            }
        }
        return List.copyOf(out);
    }

    /** ST's {@code claude.cachingAtDepth}: a whole number from 0, anything else turns it off (-1) as in ST. */
    private int cachingAtDepth() {
        Object v = raw("claude.cachingAtDepth");
        double depth;
        try {
            depth = v instanceof Number n ? n.doubleValue() : v == null ? -1 : Double.parseDouble(String.valueOf(v).trim());
        } catch (NumberFormatException e) {
            return -1;
        }
        return depth >= 0 && depth == Math.rint(depth) && depth <= Integer.MAX_VALUE ? (int) depth : -1;
    }

    /** Tankard's {@code tankard.providerOrigins}: a mapping of origin to origin; other values are skipped. */
    private Map<String, String> providerOrigins() {
        Map<String, String> out = new LinkedHashMap<>();
        if (yamlValue("tankard.providerOrigins") instanceof Map<?, ?> map) {
            map.forEach((from, to) -> {
                if (from instanceof String origin && to instanceof String target) {
                    out.put(origin, target);
                }
            });
        }
        return Collections.unmodifiableMap(out);
    }

    /** ST's deprecated whitelist.txt in the working folder, when present, replaces the configured list. */
    private List<String> whitelist() {
        Path legacy = workDir.resolve("whitelist.txt");
        if (!Files.isRegularFile(legacy)) {
            return stringList("whitelist", List.of("::1", "127.0.0.1"));
        }
        try {
            return Files.readAllLines(legacy).stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
        } catch (IOException e) {
            throw new ConfigException("Cannot read " + legacy + ": " + e.getMessage());
        }
    }

    /**
     * {@code cors.*} as ST passes it to the Express cors middleware: {@code origin} is a list of origins, or
     * one string sent as is (empty: any origin), or {@code false}, which turns CORS off.
     */
    private TankardConfig.Cors cors() {
        Object origin = raw("cors.origin");
        boolean enabled = bool("cors.enabled", true) && !Boolean.FALSE.equals(origin);
        String fixedOrigin = null;
        List<String> origins = List.of();
        if (origin instanceof Boolean) {
            if (enabled) {
                throw invalid("cors.origin", origin, "a list of origins or a single origin");
            }
        } else if (origin instanceof String s && !(env.containsKey("SILLYTAVERN_CORS_ORIGIN") && s.trim().startsWith("["))) {
            fixedOrigin = s.isEmpty() ? "*" : s;
        } else {
            origins = stringList("cors.origin", List.of("null"));
        }
        return new TankardConfig.Cors(enabled, fixedOrigin, origins,
                stringList("cors.methods", List.of("OPTIONS")),
                stringList("cors.allowedHeaders", List.of()),
                stringList("cors.exposedHeaders", List.of()),
                bool("cors.credentials", false),
                optionalInteger("cors.maxAge"),
                bool("enableCorsProxy", false));
    }

    /**
     * Renames the legacy keys ST still accepts (ST: src/config-init.js, addMissingConfigValues) so either spelling
     * works.
     */
    private void migrateLegacyKeys() {
        Map<String, Object> migrated = new HashMap<>();
        legacy(migrated, "disableThumbnails", "thumbnails.enabled", v -> !truthy(v));
        legacy(migrated, "thumbnailsQuality", "thumbnails.quality", v -> v);
        legacy(migrated, "avatarThumbnailsPng", "thumbnails.format", v -> truthy(v) ? "png" : "jpg");
        legacy(migrated, "disableChatBackup", "backups.chat.enabled", v -> !truthy(v));
        legacy(migrated, "numberOfBackups", "backups.common.numberOfBackups", v -> v);
        legacy(migrated, "maxTotalChatBackups", "backups.chat.maxTotalBackups", v -> v);
        legacy(migrated, "chatBackupThrottleInterval", "backups.chat.throttleInterval", v -> v);
        legacy(migrated, "enableExtensions", "extensions.enabled", v -> v);
        legacy(migrated, "enableExtensionsAutoUpdate", "extensions.autoUpdate", v -> v);
        legacy(migrated, "autheliaAuth", "sso.autheliaAuth", v -> v);
        legacy(migrated, "authentikAuth", "sso.authentikAuth", v -> v);
        legacy(migrated, "cardsCacheCapacity", "performance.memoryCacheCapacity", v -> v + "mb");
        migratedYaml = migrated;
    }

    private void legacy(Map<String, Object> out, String oldKey, String newKey, java.util.function.Function<Object, Object> convert) {
        Object old = yamlValue(oldKey);
        if (old != null && yamlValue(newKey) == null) {
            out.put(newKey, convert.apply(old));
        }
    }

    private static boolean truthy(Object v) {
        return v instanceof Boolean b ? b : v != null && !"false".equalsIgnoreCase(String.valueOf(v).trim())
                && !String.valueOf(v).isEmpty() && !"0".equals(String.valueOf(v));
    }

    // ---- value lookup: CLI > environment > config.yaml > default

    private boolean has(String key) {
        return raw(key) != null;
    }

    private Object raw(String key) {
        if (cli.containsKey(key)) {
            return cli.get(key);
        }
        String envName = "SILLYTAVERN_" + key.replace('.', '_').toUpperCase(Locale.ROOT);
        if (env.containsKey(envName)) {
            return env.get(envName);
        }
        Object value = yamlValue(key);
        return value != null ? value : migratedYaml.get(key);
    }

    @SuppressWarnings("unchecked")
    private Object yamlValue(String key) {
        Object node = yaml;
        for (String part : key.split("\\.")) {
            if (!(node instanceof Map)) {
                return null;
            }
            node = ((Map<String, Object>) node).get(part);
        }
        return node;
    }

    private boolean bool(String key, boolean def) {
        Object v = raw(key);
        if (v == null) {
            return def;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        String s = String.valueOf(v).trim().toLowerCase(Locale.ROOT);
        if (s.equals("true")) {
            return true;
        }
        if (s.equals("false")) {
            return false;
        }
        throw invalid(key, v, "true or false");
    }

    /** protocol.ipv4/ipv6 also take "auto": enabled when the machine supports it, which Java assumes. */
    private boolean protocol(String key, boolean def) {
        Object v = raw(key);
        if (v != null && "auto".equalsIgnoreCase(String.valueOf(v).trim())) {
            return true;
        }
        return bool(key, def);
    }

    private int integer(String key, int def, int min, int max) {
        Object v = raw(key);
        if (v == null) {
            return def;
        }
        long n;
        if (v instanceof Number num && num.doubleValue() == Math.rint(num.doubleValue())) {
            n = num.longValue();
        } else {
            try {
                n = Long.parseLong(String.valueOf(v).trim());
            } catch (NumberFormatException e) {
                throw invalid(key, v, "a whole number");
            }
        }
        if (n < min || n > max) {
            throw invalid(key, v, "a number from " + min + " to " + max);
        }
        return (int) n;
    }

    private Integer optionalInteger(String key) {
        return raw(key) == null ? null : integer(key, 0, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    private String string(String key, String def) {
        Object v = raw(key);
        if (v == null) {
            return def;
        }
        if (v instanceof Map || v instanceof List) {
            throw invalid(key, v, "a text value");
        }
        return String.valueOf(v);
    }

    private Path path(String key, String def) {
        return workDir.resolve(string(key, def)).toAbsolutePath().normalize();
    }

    private Optional<Path> optionalPath(String key) {
        return has(key) ? Optional.of(path(key, "")) : Optional.empty();
    }

    @SuppressWarnings("unchecked")
    private List<String> stringList(String key, List<String> def) {
        Object v = raw(key);
        if (v == null) {
            return def;
        }
        if (v instanceof String s && env.containsKey("SILLYTAVERN_" + key.replace('.', '_').toUpperCase(Locale.ROOT))) {
            try {
                v = JsJson.MAPPER.convertValue(JsJson.parse(s), List.class);
            } catch (JsonSyntaxException | IllegalArgumentException e) {
                throw invalid(key, s, "a JSON array");
            }
        }
        if (!(v instanceof List)) {
            throw invalid(key, v, "a list");
        }
        List<String> out = new ArrayList<>();
        for (Object item : (List<Object>) v) {
            if (item != null) {
                out.add(String.valueOf(item));
            }
        }
        return List.copyOf(out);
    }

    private int[] dimensions(String key, int w, int h) {
        Object v = raw(key);
        if (v == null) {
            return new int[]{w, h};
        }
        if (v instanceof List<?> list && list.size() == 2 && list.get(0) instanceof Number a && list.get(1) instanceof Number b
                && a.intValue() > 0 && b.intValue() > 0) {
            return new int[]{a.intValue(), b.intValue()};
        }
        throw invalid(key, v, "[width, height]");
    }

    /** Sizes like "100mb", "256kb", "8MB" or a plain number of bytes. */
    private long size(String key, String def) {
        Object v = raw(key);
        String s = String.valueOf(v == null ? def : v).trim().toLowerCase(Locale.ROOT);
        var m = java.util.regex.Pattern.compile("^(\\d+(?:\\.\\d+)?)\\s*(b|kb|mb|gb|tb)?$").matcher(s);
        if (!m.matches()) {
            throw invalid(key, v, "a size such as 100mb");
        }
        double n = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "b" : m.group(2);
        int power = List.of("b", "kb", "mb", "gb", "tb").indexOf(unit);
        return (long) (n * Math.pow(1024, power));
    }

    private static ConfigException invalid(String key, Object value, String expected) {
        return new ConfigException("Invalid value for config key '" + key + "': '" + value + "' (expected " + expected + ")");
    }

    // ---- frontend discovery

    /**
     * Tankard's own UI: public/ in the working folder when there is one (as before, and for tests that lay their
     * own), else the one beside the installation, so bin/tankard serves it from any working folder.
     */
    private Path ownFrontend() {
        Path local = workDir.resolve("public");
        if (Files.isDirectory(local) || installFolder == null || !Files.isDirectory(installFolder.resolve("public"))) {
            return local;
        }
        return installFolder.resolve("public");
    }

    /** The ST installation that contains a frontend folder: the parent of public/ when it has default/. */
    static Path findStInstall(Path frontendDir) {
        Path parent = frontendDir.getParent();
        if (parent != null && Files.isDirectory(parent.resolve("default").resolve("content"))) {
            return parent;
        }
        return null;
    }

    /** Newest {@code _webpack/<hash>/output/lib.js} under the ST install's dist/ or the data root. */
    static Optional<Path> findWebpackBundle(Path stInstall, Path dataRoot) {
        List<Path> roots = new ArrayList<>();
        if (stInstall != null) {
            roots.add(stInstall.resolve("dist").resolve("_webpack"));
        }
        roots.add(dataRoot.resolve("_webpack"));
        List<Path> found = new ArrayList<>();
        for (Path root : roots) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> hashes = Files.list(root)) {
                hashes.map(h -> h.resolve("output").resolve("lib.js")).filter(Files::isRegularFile).forEach(found::add);
            } catch (IOException e) {
                // unreadable folder: treat as having no bundle
            }
        }
        return found.stream().max(Comparator.comparingLong(ConfigLoader::mtime));
    }

    private static long mtime(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }
}
