package tankard.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything Tankard reads from config.yaml, ST's environment variables and the command line, resolved once
 * at start-up (ST: src/command-line.js, CommandLineParser). Immutable, passed down; no globals.
 *
 * @param frontendDir    the folder served as the web frontend: an ST {@code public/} or Tankard's own
 * @param frontendLib    the bundled {@code lib.js} served at {@code /lib.js}, or null to serve the frontend's own
 * @param stInstall      the ST installation that holds {@code frontendDir}, if any (for its default content)
 * @param deeplFormality ST's {@code deepl.formality}: what DeepL translations ask for where the language has it
 */
public record TankardConfig(
        Path dataRoot,
        Path frontendDir,
        Path frontendLib,
        Path stInstall,
        int port,
        boolean listen,
        String listenAddressIpv4,
        String listenAddressIpv6,
        boolean ipv4,
        boolean ipv6,
        Ssl ssl,
        Security security,
        Cors cors,
        Backups backups,
        Thumbnails thumbnails,
        Performance performance,
        boolean extensionsEnabled,
        boolean extensionsAutoUpdate,
        boolean allowKeysExposure,
        boolean skipContentCheck,
        int heartbeatIntervalSeconds,
        int httpInstances,
        Backends backends,
        Outbound outbound,
        Extras extras,
        Vectors vectors,
        Models models,
        String deeplFormality,
        Storage storage,
        Operations operations) {

    public record Ssl(boolean enabled, Path certPath, Path keyPath, String keyPassphrase) {
    }

    public record Security(
            boolean whitelistMode,
            List<String> whitelist,
            boolean enableForwardedWhitelist,
            boolean forwardedXRealIp,
            boolean forwardedXForwardedFor,
            boolean forwardedCfConnectingIp,
            boolean basicAuthMode,
            String basicAuthUsername,
            String basicAuthPassword,
            boolean perUserBasicAuth,
            boolean enableUserAccounts,
            boolean enableDiscreetLogin,
            long sessionTimeoutSeconds,
            boolean disableCsrf,
            boolean securityOverride,
            boolean hostWhitelistEnabled,
            List<String> hostWhitelist,
            boolean autheliaAuth,
            boolean authentikAuth,
            List<String> ssoTrustedProxies,
            int basicAuthMaxAttempts,
            int loginMaxAttempts,
            int recoverMaxAttempts,
            boolean preferRealIpHeader) {
    }

    /**
     * @param fixedOrigin a single {@code cors.origin} string, sent as is; null when {@code origin} lists the
     *                    origins whose requests are answered with their own Origin
     */
    /** @param proxy {@code enableCorsProxy}: {@code /proxy/<url>} forwards requests (off: a 404 that says so) */
    public record Cors(boolean enabled, String fixedOrigin, List<String> origin, List<String> methods,
                       List<String> allowedHeaders, List<String> exposedHeaders, boolean credentials, Integer maxAge,
                       boolean proxy) {
    }

    public record Backups(boolean allowFullDataBackup, int numberOfBackups, boolean chatEnabled,
                          boolean checkIntegrity, int maxTotalChatBackups, long chatThrottleIntervalMs) {
    }

    public record Thumbnails(boolean enabled, String format, int quality, int[] bg, int[] avatar, int[] persona) {
        public boolean png() {
            return "png".equals(format);
        }
    }

    public record Performance(boolean lazyLoadCharacters, long memoryCacheCapacityBytes, boolean useDiskCache,
                              boolean requestCompression, long minPayloadSize, long maxPayloadSize,
                              long compressionTimeoutMs) {
    }

    /**
     * Settings for calls to AI backends: {@code requestOverrides} (extra headers per backend host, first match
     * wins) and Ollama's {@code keepAlive} and {@code batchSize} (ST: src/additional-headers.js, getOverrideHeaders;
     * src/endpoints/backends/text-completions.js, /generate).
     */
    /**
     * @param promptPlaceholder the user message ST's prompt converters put where a prompt would be empty
     * @param providerOrigins Tankard's own: origins of built-in provider URLs mapped to others, so that calls
     *                        meant for {@code https://api.openai.com} go to a gateway (or a test's mock) instead
     * @param hordePollMillis Tankard's own {@code tankard.hordePollMillis}: how often an AI Horde job is checked
     *                        (ST: every 3 s)
     * @param geminiPersonGeneration gemini.image.personGeneration: Imagen's {@code personGeneration} ("" sends none)
     * @param googleVideoPollMillis  Tankard's own {@code tankard.googleVideoPollMillis}: the first wait for a Veo
     *                               video, each later one a fifth of it longer (ST: 5 s, then 1 s more each time)
     */
    public record Backends(List<RequestOverride> requestOverrides, int ollamaKeepAlive, int ollamaBatchSize,
                           String promptPlaceholder, Map<String, String> providerOrigins, int hordePollMillis,
                           ChatSettings chat, String geminiPersonGeneration, int googleVideoPollMillis) {
    }

    /**
     * ST's settings of chat completion requests.
     *
     * @param randomizeUserId         openai.randomizeUserId: a random {@code user} on each OpenAI request
     * @param mistralPrefix           mistral.enablePrefix: a final assistant message continues as the reply
     * @param thoughtSignatures       gemini.thoughtSignatures: stored reasoning signatures go back upstream
     * @param claudeSystemPromptCache claude.enableSystemPromptCache
     * @param claudeExtendedTtl       claude.extendedTTL: cache entries live 1 h instead of 5 min
     * @param claudeCachingAtDepth    claude.cachingAtDepth; -1 (off) unless a whole number from 0
     * @param claudeAdaptiveThinking  claude.enableAdaptiveThinking
     * @param geminiApiVersion        gemini.apiVersion: the Google AI Studio API version in its URLs
     */
    public record ChatSettings(boolean randomizeUserId, boolean mistralPrefix, boolean thoughtSignatures,
                               boolean claudeSystemPromptCache, boolean claudeExtendedTtl, int claudeCachingAtDepth,
                               boolean claudeAdaptiveThinking, String geminiApiVersion) {
        /** Claude's {@code cache_control.ttl}. */
        public String claudeCacheTtl() {
            return claudeExtendedTtl ? "1h" : "5m";
        }
    }

    /**
     * Requests to URLs users give: ST's private-address filter ({@code privateAddressWhitelist.*}, ST:
     * src/private-request-filter.js) and outbound proxy ({@code requestProxy.*}, ST: src/request-proxy.js).
     *
     * @param proxyUrl      an http, socks, socks4(a) or socks5(h) URL when {@code proxyEnabled}
     * @param importDomains {@code whitelistImportDomains}: hosts that assets and cards may be downloaded from
     */
    public record Outbound(boolean filterEnabled, List<String> allowedRanges, boolean allowUnresolvedHosts,
                           boolean logBlocked, boolean logAllowed,
                           boolean proxyEnabled, String proxyUrl, List<String> proxyBypass, List<String> importDomains,
                           boolean keepAlive) {
    }

    /**
     * Tankard's SillyTavern-Extras-compatible module server ({@code tankard.extras.*}, or Extras' own flags).
     *
     * @param modules            the enabled modules ({@code --enable-modules}); none: the server is not started
     * @param port               {@code --extras-port}, Extras' {@code --port}; 0: any free port
     * @param secure             {@code --secure}: every request needs {@code Authorization: Bearer <api_key.txt>}
     * @param summarizationModel {@code --summarization-model}: a Hugging Face repo id or a local folder; empty: default
     * @param queueSize          how many summaries may wait for the model before requests are refused with 503
     * @param maxTextMegabytes   the largest {@code /api/summarize} body, in MiB; larger ones are refused with 413
     */
    public record Extras(List<String> modules, int port, boolean secure, String summarizationModel, int queueSize,
                         int maxTextMegabytes) {
        /** The Extras modules Tankard hosts. */
        public static final List<String> MODULES = List.of("summarize", "embeddings", "classify", "caption");

        public boolean enabled() {
            return !modules.isEmpty();
        }
    }

    /**
     * Tankard's own settings of the vector store ({@code tankard.vectors.*}).
     *
     * @param memoryBytes       how much of the heap loaded indexes may take before the least recently used leave
     *                          memory ({@code memoryMegabytes})
     * @param foldIdleMillis    how long an index goes unchanged before its journal is folded into {@code index.json}
     * @param thresholdOnHashes whether {@code /query}'s {@code hashes} leave out what scores under the threshold,
     *                          as ST's documentation says ({@code false}: every top-K hash, as ST 1.18.0 answers)
     */
    public record Vectors(long memoryBytes, long foldIdleMillis, boolean thresholdOnHashes) {
    }

    /**
     * The in-process models of ST's {@code extensions.models} (ST: src/transformers.js): the {@code transformers}
     * vector source and the Extras {@code embeddings} module, the emotion classifier, the image captioner and the
     * local text-to-speech model and speech recognizer.
     *
     * @param embedding      {@code extensions.models.embedding}: a Hugging Face repo id; empty: the embedded
     *                       all-MiniLM-L6-v2
     * @param autoDownload   {@code extensions.models.autoDownload}: false: a model not yet in the data root fails
     * @param embeddingQueue {@code tankard.vectors.queueSize}: how many embedding requests may wait for the model
     *                       before requests are refused with 503
     * @param classification {@code extensions.models.classification}: the Hugging Face repo id of the Character
     *                       Expressions emotion classifier; empty: ST's default (see {@code tankard.classify})
     * @param classifyQueue  {@code tankard.classify.queueSize}: how many classify requests may wait for the model
     *                       before requests are refused with 503
     * @param captioning     {@code extensions.models.captioning}: the Hugging Face repo id of the local image
     *                       captioning model; empty: ST's default (see {@code tankard.caption})
     * @param captionQueue   {@code tankard.caption.queueSize}: how many caption requests may wait for the model
     *                       before requests are refused with 503
     * @param textToSpeech   {@code extensions.models.textToSpeech}: the Hugging Face repo id of the local SpeechT5
     *                       text-to-speech model; empty: ST's default (see {@code tankard.speech})
     * @param synthesisQueue {@code tankard.speech.synthesisQueueSize}: how many texts may wait for the model before
     *                       requests are refused with 503
     * @param speechToText   {@code extensions.models.speechToText}: the Hugging Face repo id of the local Whisper
     *                       speech recognition model; empty: ST's default (see {@code tankard.speech})
     * @param recognitionQueue {@code tankard.speech.recognitionQueueSize}: how many recordings may wait for the
     *                       model before requests are refused with 503
     */
    public record Models(String embedding, boolean autoDownload, int embeddingQueue, String classification,
                         int classifyQueue, String captioning, int captionQueue, String textToSpeech,
                         int synthesisQueue, String speechToText, int recognitionQueue) {
    }

    /**
     * Where user data lives ({@code tankard.storage}): the data root's files (ST's layout, the default) or a
     * PostgreSQL database ({@code tankard.postgres.*}).
     *
     * @param postgres the database's settings; null with {@code files}
     */
    public record Storage(Kind kind, Postgres postgres) {
        public enum Kind { FILES, POSTGRES }

        public static Storage files() {
            return new Storage(Kind.FILES, null);
        }
    }

    /**
     * The PostgreSQL database of {@code storage: postgres}.
     *
     * @param password    {@code password}, or the first line of {@code passwordFile}
     * @param poolSize    how many connections the node keeps at most
     * @param sslMode     {@code disable}, {@code require} (encrypted, server not verified) or {@code verify-full}
     * @param sslRootCert the CA certificate (PEM) that {@code verify-full} checks the server against; null: the JVM's
     * @param cacheCheckSeconds how often the node compares what it caches with the database's versions, in case it
     *                    missed another node's notification (store.pg.CacheVersions)
     */
    public record Postgres(String host, int port, String database, String user, String password, int poolSize,
                           String sslMode, Path sslRootCert, int cacheCheckSeconds) {
        public static final int DEFAULT_CACHE_CHECK_SECONDS = 5;

        /** With the default {@code cacheCheckSeconds}. */
        public Postgres(String host, int port, String database, String user, String password, int poolSize,
                        String sslMode, Path sslRootCert) {
            this(host, port, database, user, password, poolSize, sslMode, sslRootCert, DEFAULT_CACHE_CHECK_SECONDS);
        }

        /** Names the database for messages, never the password. */
        public String describe() {
            return user + "@" + host + ":" + port + "/" + database;
        }
    }

    /**
     * How a node is run behind a load balancer (docs/operations.md).
     *
     * @param shutdownGraceSeconds {@code tankard.shutdownGraceSeconds}: how long a stopping node lets the requests
     *                             and streams under way finish before it closes
     * @param metricsEnabled       {@code tankard.metrics.enabled}: Prometheus metrics at {@code /metrics}
     * @param metricsWhitelist     {@code tankard.metrics.whitelist}: the addresses (as ST's {@code whitelist}
     *                             entries: CIDRs, ranges, wildcards) that may read them without an admin's session
     */
    public record Operations(int shutdownGraceSeconds, boolean metricsEnabled, List<String> metricsWhitelist) {
    }

    /** One {@code requestOverrides} entry: these headers for calls to these {@code host[:port]} values. */
    public record RequestOverride(List<String> hosts, Map<String, String> headers) {
    }

    /** Where the frontend is an ST install, its {@code default/content} folder; otherwise null. */
    public Path stDefaultContent() {
        return stInstall == null ? null : stInstall.resolve("default").resolve("content");
    }
}
