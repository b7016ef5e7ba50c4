package tankard;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.character.CardCache;
import tankard.character.CardImporter;
import tankard.character.CardIndexes;
import tankard.character.CardStore;
import tankard.backend.chat.ChatCompletionSources;
import tankard.backend.chat.ChatCompletionsFeature;
import tankard.backend.Completions;
import tankard.backend.horde.HordeFeature;
import tankard.backend.kobold.KoboldClassicFeature;
import tankard.backend.nanogpt.NanoGptFeature;
import tankard.backend.nanogpt.NanoGptService;
import tankard.backend.novelai.NovelAiFeature;
import tankard.backend.openai.ModelLists;
import tankard.backend.openai.OpenAiCaption;
import tankard.backend.openai.OpenAiFeature;
import tankard.backend.openai.OpenAiImages;
import tankard.backend.openai.OpenAiSpeech;
import tankard.backend.openai.Transcriptions;
import tankard.backend.openrouter.OpenRouterFeature;
import tankard.backend.openrouter.OpenRouterService;
import tankard.backend.common.UpstreamJson;
import tankard.backend.text.TextCompletionBackends;
import tankard.backend.text.TextCompletionsFeature;
import tankard.engine.EngineFeature;
import tankard.engine.EngineService;
import tankard.ops.GracefulStop;
import tankard.ops.Metrics;
import tankard.ops.OpsFeature;
import tankard.outbound.OutboundPolicy;
import tankard.outbound.ProviderOrigins;
import tankard.outbound.RequestOverrides;
import tankard.outbound.UpstreamClient;
import tankard.character.CharacterEditFeature;
import tankard.character.CharacterEditor;
import tankard.character.CharacterFeature;
import tankard.character.CharacterImportFeature;
import tankard.character.CharacterService;
import tankard.chat.ChatBackupFeature;
import tankard.chat.ChatBackupFiles;
import tankard.chat.ChatExport;
import tankard.chat.ChatLocks;
import tankard.chat.ChatFeature;
import tankard.chat.ChatFiles;
import tankard.chat.ChatImporter;
import tankard.chat.ChatSearch;
import tankard.chat.ChatService;
import tankard.chat.ChatStore;
import tankard.config.ConfigException;
import tankard.config.TankardConfig;
import tankard.http.Feature;
import tankard.http.HttpVerticle;
import tankard.http.IdleTrim;
import tankard.http.CsrfFeature;
import tankard.http.security.SecurityChain;
import tankard.http.security.SessionCookies;
import tankard.store.AtomicFiles;
import tankard.store.BlobStore;
import tankard.store.DocumentStore;
import tankard.store.pg.PgDatabase;
import tankard.extras.ExtrasApiKey;
import tankard.extras.ExtrasServer;
import tankard.summarize.SummaryOfSummaries;
import tankard.summarize.SummaryQueue;
import tankard.summarize.chat.ChatSummarizer;
import tankard.summarize.chat.ChatSummaryFeature;
import tankard.summarize.onnx.ModelLoader;
import tankard.vector.local.LocalEmbeddings;
import tankard.user.AccountStore;
import tankard.user.User;
import tankard.user.UserDirs;
import tankard.account.UsersFeature;
import tankard.util.Threads;
import tankard.content.ContentSeeder;
import tankard.content.DefaultContent;
import tankard.datamaid.DataMaid;
import tankard.datamaid.DataMaidFeature;
import tankard.frontend.FrontendFeature;
import tankard.proxy.CorsProxyFeature;
import tankard.google.GoogleFeature;
import tankard.speech.AzureSpeech;
import tankard.speech.ElevenLabsSpeech;
import tankard.speech.MiniMaxSpeech;
import tankard.speech.LocalSpeechRecognizer;
import tankard.speech.PollinationsSpeech;
import tankard.speech.VolcengineSpeech;
import tankard.speech.LocalSpeechSynthesizer;
import tankard.speech.SpeechFeature;
import tankard.caption.CaptionFeature;
import tankard.caption.LocalCaptioner;
import tankard.classify.Classifier;
import tankard.classify.ClassifyFeature;
import tankard.caption.ClaudeCaption;
import tankard.outbound.ServiceCalls;
import tankard.system.DeprecatedEndpointsFeature;
import tankard.system.SystemFeature;
import tankard.comfy.ComfyWorkflowFeature;
import tankard.imagegen.HostedImageFeature;
import tankard.imagegen.ImageGenFeature;
import tankard.extension.ExtensionFeature;
import tankard.group.GroupFeature;
import tankard.group.GroupService;
import tankard.group.GroupStore;
import tankard.preset.PresetFeature;
import tankard.preset.PresetService;
import tankard.recent.RecentChats;
import tankard.recent.RecentChatsFeature;
import tankard.search.PageVisits;
import tankard.search.SearchFeature;
import tankard.search.SearchService;
import tankard.search.YouTubeTranscripts;
import tankard.secrets.SecretStore;
import tankard.secrets.SecretsFeature;
import tankard.settings.SettingsBackups;
import tankard.settings.SettingsFeature;
import tankard.settings.SettingsService;
import tankard.sprite.SpriteFeature;
import tankard.stats.StatsFeature;
import tankard.stats.StatsRebuilder;
import tankard.stats.StatsService;
import tankard.theme.UiPresetFeature;
import tankard.theme.UiPresets;
import tankard.tokenizer.TokenizerFeature;
import tankard.tokenizer.TokenizerFiles;
import tankard.tokenizer.Tokenizers;
import tankard.worldinfo.WorldInfoFeature;
import tankard.thumbnail.NodeImages;
import tankard.thumbnail.ThumbnailFeature;
import tankard.userfiles.ChatImagesFeature;
import tankard.userfiles.DataBankFeature;
import tankard.userfiles.UserFilesFeature;
import tankard.assets.AssetsFeature;
import tankard.content.ContentImportFeature;
import tankard.avatars.AvatarsFeature;
import tankard.backgrounds.BackgroundsFeature;
import tankard.image.AvatarImages;
import tankard.imagemetadata.ImageMetadataFeature;
import tankard.imagemetadata.ImageMetadataIndex;

import java.io.IOException;
import java.io.UncheckedIOException;
import tankard.translate.TranslateFeature;
import tankard.translate.TranslateService;
import tankard.vector.VectorFeature;
import tankard.vector.VectorService;
import tankard.vector.source.EmbeddingSource;
import tankard.vector.source.EmbeddingSources;
import tankard.vector.source.RemoteSources;
import tankard.vector.store.VectorStore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A running Tankard server: prepares the data root, builds the shared services and features once, then
 * deploys one HTTP verticle per event loop, all on the same port.
 */
public final class Tankard {
    private static final Logger LOG = LoggerFactory.getLogger(Tankard.class);
    /** Git operations that may wait on remotes at once (the frontend checks every extension's version at boot). */
    private static final int GIT_THREADS = 8;
    /** The chat engine's pool: prompts that wait on the embedding model, replies and summaries on backends. */
    private static final int ENGINE_THREADS = 8;
    /** A summary's backend may take minutes: Vert.x is not to call such a worker blocked before this. */
    private static final long ENGINE_MAX_MINUTES = 15;
    /** Vector store work (journal writes, queries) of requests whose vectors are there. */
    private static final int VECTOR_THREADS = 4;
    /** Longer than a git operation's own time limit (GitExtensions), so Vert.x never calls a slow one blocked. */
    private static final long GIT_MAX_MINUTES = 10;
    /** The users' libraries are prepared this long after the start (see prepareLibraries). */
    private static final long PREPARE_DELAY_MS = 2000;
    /** The threads that look at the data root for /health/ready: a hung disk holds these, never the shared workers. */
    private static final int HEALTH_PROBE_THREADS = 1;

    private final Vertx vertx;
    private final TankardConfig config;
    private final Stores stores;
    private final AccountStore accounts;
    private final SecurityChain security;
    private final List<Feature> features;
    private final FrontendFeature frontend;
    private final ContentSeeder contentSeeder;
    private final CardIndexes cardIndexes;
    private final CharacterService characterService;
    private final VectorStore vectorStore;
    private volatile int port;
    private final UpstreamClient upstream;
    /** The Extras module server's port; -1 when it is not started. */
    private volatile int extrasPort = -1;
    /** The summarize module's queue and model, when it runs: stopped and freed with the server. */
    private volatile SummaryQueue summaries;
    private volatile ModelLoader summaryModel;
    /** The in-process embedding model (the transformers vector source, the Extras embeddings module): loaded on first use. */
    private final LocalEmbeddings embeddings;
    /** The emotion classifier of Character Expressions: loaded on first use. */
    private final Classifier classifier;
    /** The local image captioner of Image Captioning: loaded on first use. */
    private final LocalCaptioner captioner;
    /** The local text-to-speech model of the TTS extension (SpeechT5): loaded on first use. */
    private final LocalSpeechSynthesizer synthesizer;
    /** The local Whisper speech recognizer of ST's STT extension: loaded on first use. */
    private final LocalSpeechRecognizer speechRecognizer;
    /** Refuses new requests once a stop begins and tells when those under way are done. */
    private final GracefulStop gracefulStop = new GracefulStop();
    /** The close under way or done, so that a second close (a test's, after a stop) waits for the same one. */
    private Future<Void> closing;

    private Tankard(Vertx vertx, TankardConfig config, Metrics metrics) {
        this.vertx = vertx;
        this.config = config;
        prepareDataRoot(config.dataRoot());
        this.stores = Stores.open(vertx, config);
        if (metrics != null) {
            watch(metrics);
        }
        this.accounts = stores.accounts();
        if (accounts.users().isEmpty()) {
            accounts.create(User.defaultUser(System.currentTimeMillis())); // once, when nodes start together
        }
        checkListenSecurity();
        DocumentStore documents = stores.documents();
        SettingsBackups settingsBackups = new SettingsBackups(documents, stores.locks(),
                config.backups().numberOfBackups(),
                (delayMs, task) -> vertx.setTimer(delayMs, id -> vertx.executeBlocking(() -> {
                    task.run();
                    return null;
                }, false)), System::currentTimeMillis);
        this.contentSeeder = new ContentSeeder(config, documents, stores.cards(), stores.blobs());
        if (!config.skipContentCheck()) {
            contentSeeder.seedGlobal();
        }
        for (User user : accounts.users()) {
            UserDirs.of(config.dataRoot(), user.handle()).createAll();
            if (!config.skipContentCheck()) {
                contentSeeder.seedUser(user.handle(), Set.of());
            }
            settingsBackups.backup(user.handle(), true);
        }
        SessionCookies sessions = new SessionCookies(stores.cookieName(), stores.cookieSecret(config.dataRoot()),
                config.security().sessionTimeoutSeconds());
        this.security = new SecurityChain(config, accounts, sessions);
        this.frontend = new FrontendFeature(config);
        CardStore cards = stores.cards();
        ChatStore chats = stores.chats();
        GroupStore groups = stores.groups();
        ChatLocks chatLocks = new ChatLocks(stores.locks());
        ChatFiles chatFiles = new ChatFiles(chats, chatLocks, System::currentTimeMillis);
        ChatService chatService = new ChatService(config.backups(), chats, chatLocks, stores.tickets(),
                Threads.timer("chat-backups"),
                System::currentTimeMillis);
        CardCache cardCache = new CardCache(config.performance().memoryCacheCapacityBytes());
        this.vectorStore = stores.vectors();
        this.cardIndexes = new CardIndexes(config.dataRoot(), config.performance().memoryCacheCapacityBytes(),
                Threads.timer("card-index"));
        this.characterService = new CharacterService(cards, chats, cardCache,
                Threads.boundedPool("card-reader", Math.max(2, Math.min(8, Runtime.getRuntime().availableProcessors()))),
                System::currentTimeMillis, cardIndexes);
        SecretStore secrets = new SecretStore(documents, config.allowKeysExposure());
        OutboundPolicy outbound = new OutboundPolicy(config);
        ProviderOrigins providerOrigins = new ProviderOrigins(config.backends().providerOrigins());
        this.upstream = new UpstreamClient(vertx, outbound, providerOrigins);
        this.embeddings = LocalEmbeddings.start(config, upstream);
        this.classifier = new Classifier(config, upstream);
        this.captioner = new LocalCaptioner(config, upstream);
        this.synthesizer = new LocalSpeechSynthesizer(config, upstream);
        this.speechRecognizer = new LocalSpeechRecognizer(config, upstream);
        Tokenizers tokenizers = new Tokenizers(TokenizerFiles.of(config));
        PresetService presets = new PresetService(documents, DefaultContent.of(config));
        NodeImages nodeImages = new NodeImages(stores.blobs(), stores.cardImages(config.dataRoot())::file,
                config.dataRoot());
        ImageMetadataIndex imageMetadata = new ImageMetadataIndex(documents, nodeImages);
        GroupService groupService = new GroupService(groups, chats, chatFiles);
        VectorService vectorService = new VectorService(vectorStore, embeddingSources(secrets),
                Threads.boundedPool("vector-store", VECTOR_THREADS), config.vectors().thresholdOnHashes());
        Completions completions = new Completions(config, secrets, upstream);
        ChatSummarizer chatSummarizer = new ChatSummarizer(chatService, completions,
                tokenizers);
        Supplier<byte[]> defaultAvatar = AvatarImages.defaultAvatar(config.frontendDir());
        TextCompletionBackends textBackends = new TextCompletionBackends(config.backends());
        UpstreamJson upstreamJson = new UpstreamJson(vertx, upstream);
        ServiceCalls serviceCalls = new ServiceCalls(upstream);
        WorkerExecutor healthProbes = vertx.createSharedWorkerExecutor("health-probe", HEALTH_PROBE_THREADS);
        this.features = List.of(
                // first: its gate sees every request before another feature's handlers
                new OpsFeature(config, gracefulStop, () -> stores.answer(healthProbes, config.dataRoot()), metrics),
                new CsrfFeature(config),
                new SystemFeature(),
                new DeprecatedEndpointsFeature(),
                new UsersFeature(config, accounts, documents, stores.blobs(), stores.tickets(), stores, contentSeeder,
                        security.basicAuth()),
                new SettingsFeature(new SettingsService(config, documents, settingsBackups)),
                new SecretsFeature(config, secrets),
                new PresetFeature(presets),
                new UiPresetFeature(new UiPresets(documents)),
                new ExtensionFeature(config, stores.extensionRecords(), outbound, vertx.createSharedWorkerExecutor("git-remote", GIT_THREADS,
                        GIT_MAX_MINUTES, TimeUnit.MINUTES)),
                new AssetsFeature(config, upstream, stores.blobs()),
                new ContentImportFeature(config, upstream, defaultAvatar),
                new HordeFeature(config, secrets, upstream),
                new KoboldClassicFeature(secrets, upstream, new RequestOverrides(config.backends().requestOverrides()),
                        textBackends),
                new NovelAiFeature(secrets, upstream),
                new OpenRouterFeature(new OpenRouterService(secrets, upstreamJson)),
                new NanoGptFeature(new NanoGptService(secrets, upstreamJson)),
                new ChatCompletionsFeature(secrets, upstream, new ChatCompletionSources(config, upstream)),
                new TextCompletionsFeature(secrets, textBackends, upstream),
                new TranslateFeature(new TranslateService(secrets, upstream, config.deeplFormality())),
                new SpeechFeature(new AzureSpeech(secrets, serviceCalls), new ElevenLabsSpeech(secrets, serviceCalls),
                        new PollinationsSpeech(secrets, serviceCalls), new MiniMaxSpeech(secrets, serviceCalls),
                        new VolcengineSpeech(secrets, serviceCalls), synthesizer, speechRecognizer),
                new GoogleFeature(config, vertx, secrets, upstream),
                new CaptionFeature(captioner, new ClaudeCaption(secrets, serviceCalls)),
                new ClassifyFeature(classifier),
                openAi(secrets, upstream, upstreamJson, config),
                new ComfyWorkflowFeature(stores.blobs()),
                ImageGenFeature.of(vertx, new ServiceCalls(upstream), secrets),
                HostedImageFeature.of(vertx, new ServiceCalls(upstream), secrets),
                new SpriteFeature(stores.blobs()),
                new WorldInfoFeature(documents),
                new GroupFeature(groupService),
                new StatsFeature(new StatsService(documents, new StatsRebuilder(chats, cards),
                        System::currentTimeMillis)),
                new DataMaidFeature(new DataMaid(chats, chatFiles, groups, documents, cards, stores.blobs(),
                        stores.tickets(), config.dataRoot())),
                new TokenizerFeature(tokenizers),
                new ChatSummaryFeature(chatSummarizer, presets),
                new EngineFeature(new EngineService(documents, characterService, groups, chatService, tokenizers,
                        vectorService, completions, () -> ZonedDateTime.now(ZoneOffset.UTC)), upstream,
                        vertx.createSharedWorkerExecutor("chat-engine", ENGINE_THREADS, ENGINE_MAX_MINUTES,
                                TimeUnit.MINUTES)),
                new CharacterFeature(config, characterService, chatService),
                new CharacterEditFeature(new CharacterEditor(cards, chats, documents, cardCache, config.dataRoot(),
                        defaultAvatar, System::currentTimeMillis)),
                new CharacterImportFeature(new CardImporter(cards, chats, stores.blobs(), config.dataRoot(),
                        System::currentTimeMillis, defaultAvatar)),
                new ChatFeature(chatService, new ChatImporter(chats, stores.locks(), System::currentTimeMillis),
                        chatFiles, new ChatSearch(chats, groups::chats),
                        new ChatExport(chats)),
                new RecentChatsFeature(new RecentChats(chats, chatService, cards, groups)),
                new ChatBackupFeature(new ChatBackupFiles(chats)),
                new UserFilesFeature(config, stores.cardImages(config.dataRoot()), stores.blobs()),
                new ChatImagesFeature(stores.blobs()),
                new DataBankFeature(stores.blobs()),
                new ThumbnailFeature(config, nodeImages),
                new AvatarsFeature(config, stores.blobs()),
                new BackgroundsFeature(config, stores.blobs(), imageMetadata),
                new ImageMetadataFeature(config, imageMetadata),
                new SearchFeature(new SearchService(secrets, upstream, textBackends), new YouTubeTranscripts(upstream),
                        new PageVisits(upstream)),
                new VectorFeature(vectorService),
                new CorsProxyFeature(config, upstream));
    }

    /**
     * Makes this node's Vert.x (reporting to the metrics when {@code tankard.metrics.enabled}), prepares the data
     * root and starts listening; fails with a {@link ConfigException} on unusable settings, its Vert.x closed.
     */
    public static Future<Tankard> start(TankardConfig config) {
        Metrics metrics = config.operations().metricsEnabled() ? new Metrics() : null;
        Vertx vertx = metrics == null ? Vertx.vertx() : metrics.newVertx();
        // closed in the background: a close awaited here would wait on the very Vert.x it closes
        return start(vertx, config, metrics).onFailure(failure -> vertx.close());
    }

    private static Future<Tankard> start(Vertx vertx, TankardConfig config, Metrics metrics) {
        long startedMs = System.currentTimeMillis();
        return vertx.executeBlocking(() -> new Tankard(vertx, config, metrics), false)
                .compose(tankard -> tankard.listen()
                        .compose(v -> tankard.startExtras())
                        .map(v -> {
                            tankard.startHeartbeat();
                            tankard.sweepCrashLeftovers(startedMs);
                            tankard.prepareLibraries();
                            return tankard;
                        }));
    }

    /**
     * Removes, in the background, the temp files of writes that a crash cut short: Tankard's own (see
     * {@link AtomicFiles}), written before this process started, so never one of its own writes under way.
     */
    private void sweepCrashLeftovers(long startedMs) {
        vertx.executeBlocking(() -> AtomicFiles.sweepTemps(config.dataRoot(), startedMs), false)
                .onSuccess(deleted -> {
                    if (deleted > 0) {
                        LOG.info("Removed {} temporary files that an interrupted run left behind", deleted);
                    }
                });
    }

    /**
     * Parses, in the background, the cards the users' indexes do not know (all of them on a first start), one
     * user after the other on a thread of its own, from two seconds after the start on, so that the first answers
     * are not slowed: a browser's first page load, which asks for the list after the page's scripts, then finds
     * it in the index.
     */
    private void prepareLibraries() {
        vertx.setTimer(PREPARE_DELAY_MS, id -> {
            ExecutorService preparer = Threads.boundedPool("card-preparer", 1);
            preparer.execute(() -> accounts.users().forEach(user -> prepareLibrary(user.handle())));
            preparer.shutdown();
        });
    }

    private void prepareLibrary(String user) {
        try {
            characterService.prepare(user);
        } catch (IOException e) {
            LOG.warn("Could not prepare the characters of {}: {}", user, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The Extras-compatible module server, on its own port, when modules are enabled. */
    private Future<Void> startExtras() {
        TankardConfig.Extras extras = config.extras();
        if (!extras.enabled()) {
            return Future.succeededFuture();
        }
        return vertx.executeBlocking(() -> extras.secure()
                        ? ExtrasApiKey.loadOrCreate(config.dataRoot().resolve("extras").resolve("api_key.txt")) : null, false)
                .compose(apiKey -> {
                    if (apiKey != null) {
                        LOG.info("Extras API key (--secure): {}", apiKey);
                    } else if (config.listen()) {
                        // As Extras: only its key guards the module port, not Tankard's whitelist or logins.
                        LOG.warn("The Extras modules listen on the network on port {} without an API key: "
                                + "start with --secure (or tankard.extras.secure: true) to require one", extras.port());
                    }
                    return new ExtrasServer(config, apiKey, summaryQueue(extras),
                            extras.modules().contains("embeddings") ? embeddings : null,
                            extras.modules().contains("classify") ? classifier : null,
                            extras.modules().contains("caption") ? captioner : null)
                            .listen(vertx, HttpVerticle.listenOptions(config, extras.port()));
                })
                .map(server -> {
                    extrasPort = server.actualPort();
                    return null;
                });
    }

    /**
     * The summarize module's model, loaded (or downloaded) in the background: until it is ready, or when it cannot
     * be, {@code /api/summarize} answers 503.
     */
    private SummaryQueue summaryQueue(TankardConfig.Extras extras) {
        if (!extras.modules().contains("summarize")) {
            return null;
        }
        ModelLoader model = ModelLoader.start(extras.summarizationModel(), config.dataRoot(), upstream);
        // texts longer than the model's window are split and summarized in levels
        summaryModel = model;
        summaries = new SummaryQueue((text, params) -> new SummaryOfSummaries(model.require()).summarize(text),
                extras.queueSize());
        return summaries;
    }

    /** The summarize module's model (null when the module is off). */
    public ModelLoader summaryModel() {
        return summaryModel;
    }

    /** Rewrites {@code heartbeat.json} every {@code heartbeatInterval} seconds: the container health check. */
    private void startHeartbeat() {
        int seconds = config.heartbeatIntervalSeconds();
        if (seconds <= 0) {
            return;
        }
        Path file = config.dataRoot().resolve("heartbeat.json");
        Runnable beat = () -> vertx.executeBlocking(() -> {
            AtomicFiles.write(file, "{\"timestamp\":" + System.currentTimeMillis() + "}");
            return null;
        }, false).onFailure(e -> LOG.warn("Cannot write {}: {}", file, e.getMessage()));
        beat.run();
        vertx.setPeriodic(seconds * 1000L, id -> beat.run());
    }

    private Future<Void> listen() {
        // The first instance binds (possibly a random port); the others then share that port.
        IdleTrim idle = new IdleTrim();
        idle.start(vertx);
        HttpVerticle.Surface surface = new HttpVerticle.Surface(config, security, features, frontend, idle);
        HttpVerticle first = new HttpVerticle(surface, config.port());
        return vertx.deployVerticle(first)
                .compose(id -> {
                    port = first.actualPort();
                    int instances = config.httpInstances();
                    if (instances <= 1) {
                        return Future.succeededFuture();
                    }
                    return vertx.deployVerticle(() -> new HttpVerticle(surface, port),
                            new DeploymentOptions().setInstances(instances - 1)).mapEmpty();
                });
    }

    /** Tankard's own meters, beside Vert.x's. */
    private void watch(Metrics metrics) {
        metrics.gauge("tankard.streams.open", "Backend streams being relayed to browsers", UpstreamClient::openStreams);
        metrics.gauge("tankard.requests.running", "Requests under way, streams included", gracefulStop::running);
        PgDatabase database = stores.database();
        if (database != null) {
            metrics.counter("tankard.database.errors", "Database calls refused because it did not answer (503)",
                    "unavailable", database::unansweredCalls);
            metrics.counter("tankard.database.errors", "Statements the database failed, constraint violations aside",
                    "statement", database::failedStatements);
        }
    }

    public int port() {
        return port;
    }

    /** This node's Vert.x, closed with it. */
    public Vertx vertx() {
        return vertx;
    }

    public int extrasPort() {
        return extrasPort;
    }

    public TankardConfig config() {
        return config;
    }

    /** The users' JSON documents, in whichever store {@code tankard.storage} chose. */
    public DocumentStore documents() {
        return stores.documents();
    }

    /** The users' chats and chat backups, in whichever store {@code tankard.storage} chose. */
    public ChatStore chats() {
        return stores.chats();
    }

    /** The users' character cards, in whichever store {@code tankard.storage} chose. */
    public CardStore cards() {
        return stores.cards();
    }

    /** The vector indexes of Vector Storage, on files or in the database. */
    public BlobStore blobs() {
        return stores.blobs();
    }

    public VectorStore vectors() {
        return vectorStore;
    }

    /** The users' groups, in whichever store {@code tankard.storage} chose. */
    public GroupStore groups() {
        return stores.groups();
    }

    public AccountStore accounts() {
        return accounts;
    }

    public SecurityChain security() {
        return security;
    }

    /** ST's /api/openai/* services. */
    private OpenAiFeature openAi(SecretStore secrets, UpstreamClient upstream, UpstreamJson upstreamJson,
                                 TankardConfig config) {
        ServiceCalls calls = new ServiceCalls(upstream);
        return new OpenAiFeature(
                new OpenAiCaption(secrets, calls, new RequestOverrides(config.backends().requestOverrides())),
                new OpenAiSpeech(secrets, calls), new OpenAiImages(secrets, calls, vertx),
                new Transcriptions(secrets, calls), new ModelLists(secrets, upstreamJson));
    }

    public List<Feature> features() {
        return features;
    }

    public ContentSeeder contentSeeder() {
        return contentSeeder;
    }

    public FrontendFeature frontend() {
        return frontend;
    }

    private static void prepareDataRoot(Path dataRoot) {
        try {
            Files.createDirectories(dataRoot);
            Path uploads = dataRoot.resolve("_uploads");
            Files.createDirectories(uploads);
            // Leftover multipart uploads from a previous run are never needed again (ST empties it too).
            try (Stream<Path> leftovers = Files.list(uploads)) {
                leftovers.filter(Files::isRegularFile).forEach(AtomicFiles::deleteQuietly);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot prepare the data root " + dataRoot, e);
        }
    }

    /** ST's refusal to listen on the network with nothing guarding it (ST: src/users.js, verifySecuritySettings). */
    private void checkListenSecurity() {
        var s = config.security();
        if (!config.listen() || s.securityOverride() || s.whitelistMode() || s.basicAuthMode()) {
            return;
        }
        if (!s.enableUserAccounts()) {
            throw new ConfigException("Refusing to listen on the network with whitelistMode, basicAuthMode and "
                    + "enableUserAccounts all off: anyone who reaches this machine could use it. Turn one of them on, "
                    + "or set securityOverride: true in config.yaml if you really mean it.");
        }
        boolean openAdmin = accounts.users().stream().anyMatch(u -> u.enabled() && u.admin() && !u.hasPassword());
        if (openAdmin) {
            throw new ConfigException("Refusing to listen on the network: an admin account has no password and "
                    + "neither whitelistMode nor basicAuthMode is on. Set a password, or set securityOverride: true.");
        }
    }

    /** Every vector source: the remote ones, the browser's, and the in-process model as {@code transformers}. */
    private EmbeddingSources embeddingSources(SecretStore secrets) {
        Map<String, EmbeddingSource> sources = new HashMap<>(RemoteSources.all(upstream, secrets, config));
        sources.put("transformers", embeddings.source());
        return new EmbeddingSources(sources);
    }

    /**
     * The graceful stop of SIGTERM (Main's shutdown hook; docs/operations.md): from now on new requests are refused
     * with 503 and {@code /health/ready} answers 503, the requests and streams under way may finish for up to
     * {@code tankard.shutdownGraceSeconds}, then the node {@link #close closes}. Waits for the requests: call it
     * from a plain thread, not an event loop.
     */
    public Future<Void> stop() {
        int grace = config.operations().shutdownGraceSeconds();
        LOG.info("Stopping: new requests are refused; those under way may finish for up to {} s", grace);
        gracefulStop.drain(vertx, Duration.ofSeconds(grace)).toCompletionStage().toCompletableFuture().join();
        return close();
    }

    /**
     * Stops the server, pending card index saves first, and frees the summarization model once no summary uses it
     * (file I/O and waiting: call it from a plain thread, not an event loop). Once: a second call answers the first's.
     */
    public synchronized Future<Void> close() {
        if (closing != null) {
            return closing;
        }
        LOG.info("Stopping Tankard");
        cardIndexes.savePending();
        embeddings.close();
        classifier.close();
        captioner.close();
        synthesizer.close();
        speechRecognizer.close();
        if (summaries != null) {
            try {
                if (summaries.close(Duration.ofSeconds(30))) {
                    summaryModel.close();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        stores.close();
        closing = vertx.close();
        return closing;
    }
}
