package tankard.vector.local;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.outbound.UpstreamClient;
import tankard.summarize.onnx.HubDownloader;
import tankard.vector.source.EmbeddingSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.regex.Pattern;

/**
 * The in-process embedding model of the {@code transformers} vector source and the Extras {@code embeddings} module,
 * behind one bounded queue. Nothing is loaded until the first request: a user of a remote source never pays the
 * model's memory. Then one thread of its own loads the model (copying the embedded one out, or downloading
 * {@code extensions.models.embedding} once from the Hugging Face hub into {@code <dataRoot>/_models/<owner>/<name>/}
 * as ST's transformers.js does into its cache) and runs it: each time it takes every request waiting and embeds
 * their texts in one batch. Requests wait while the model loads, a download included, as ST's do; when
 * {@code tankard.vectors.queueSize} requests wait already, a request is refused with 503. A failed load fails the
 * requests waiting for it, and the next request tries again.
 */
public final class LocalEmbeddings implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalEmbeddings.class);
    private static final Pattern REPO_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*");
    /** A transformers.js model's files, as {@link LocalEmbeddingModel} loads them. */
    public static final List<HubDownloader.Wanted> FILES = List.of(
            HubDownloader.Wanted.file("config.json", true),
            HubDownloader.Wanted.file("tokenizer.json", true),
            HubDownloader.Wanted.file("tokenizer_config.json", false),
            new HubDownloader.Wanted(LocalEmbeddingModel.GRAPHS, true));

    private record Request(List<String> texts, CompletableFuture<List<float[]>> vectors) {
    }

    private final TankardConfig.Models settings;
    private final Path models;
    private final HubDownloader hub;
    private final BlockingQueue<Request> queue;
    private Thread thread;
    private boolean closed;

    private LocalEmbeddings(TankardConfig config, UpstreamClient downloader) {
        settings = config.models();
        models = config.dataRoot().resolve("_models");
        hub = new HubDownloader(downloader, FILES, "it is not a transformers.js model (tokenizer.json and an ONNX graph)");
        queue = new ArrayBlockingQueue<>(settings.embeddingQueue());
    }

    /** The embeddings of {@code config.models()}; nothing is loaded yet. */
    public static LocalEmbeddings start(TankardConfig config, UpstreamClient downloader) {
        return new LocalEmbeddings(config, downloader);
    }

    /** The {@code transformers} vector source. */
    public EmbeddingSource source() {
        return new TransformersSource(this, settings.embedding());
    }

    /**
     * The unit-length vectors of {@code texts}, in their order, computed on the model's thread. Fails with a
     * {@link Refusal}: {@code UNAVAILABLE} when the queue is full or the model cannot be loaded, {@code FAILED} when
     * the model fails.
     */
    public CompletionStage<List<float[]>> embed(List<String> texts) {
        if (texts.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        Request request = new Request(List.copyOf(texts), new CompletableFuture<>());
        synchronized (this) {
            if (closed) {
                return CompletableFuture.failedFuture(stopped());
            }
            if (!queue.offer(request)) {
                return CompletableFuture.failedFuture(Refusal.unavailable("The embedding model is busy: "
                        + settings.embeddingQueue() + " requests wait for it already (tankard.vectors.queueSize);"
                        + " try again later"));
            }
            if (thread == null) {
                thread = new Thread(this::serve, "embedding-model");
                thread.setDaemon(true);
                thread.start();
            }
        }
        return request.vectors();
    }

    /** The model thread: loads the model, then embeds every waiting request's texts together, until closed. */
    private void serve() {
        LocalEmbeddingModel model = null;
        try {
            while (true) {
                List<Request> batch = new ArrayList<>();
                batch.add(queue.take());
                queue.drainTo(batch);
                if (model == null) {
                    try {
                        model = load();
                    } catch (InterruptedException e) {
                        batch.forEach(request -> request.vectors().completeExceptionally(stopped()));
                        throw e;
                    } catch (Exception | Error e) {
                        LOG.error("Cannot load the embedding model {}: {}", name(), e.getMessage());
                        Refusal refusal = e instanceof Refusal given ? given : Refusal.unavailable(
                                "Cannot load the embedding model " + name() + ": " + e.getMessage());
                        batch.forEach(request -> request.vectors().completeExceptionally(refusal));
                        continue;
                    }
                }
                run(model, batch);
            }
        } catch (InterruptedException e) {
            // closed
        } finally {
            if (model != null) {
                try {
                    model.close();
                } catch (Exception e) {
                    LOG.warn("Cannot free the embedding model: {}", e.getMessage());
                }
            }
            List<Request> left = new ArrayList<>();
            queue.drainTo(left);
            left.forEach(request -> request.vectors().completeExceptionally(stopped()));
        }
    }

    private static Refusal stopped() {
        return Refusal.unavailable("The embedding model is stopped");
    }

    private void run(LocalEmbeddingModel model, List<Request> batch) {
        List<String> texts = new ArrayList<>();
        batch.forEach(request -> texts.addAll(request.texts()));
        long start = System.nanoTime();
        List<float[]> vectors;
        try {
            vectors = model.embed(texts);
        } catch (Exception | Error e) {
            LOG.warn("The embedding model failed on {} texts", texts.size(), e);
            batch.forEach(request -> request.vectors().completeExceptionally(
                    Refusal.failed("The embedding model failed: " + e.getMessage())));
            return;
        }
        LOG.debug("Embedded {} texts of {} requests in {} ms", texts.size(), batch.size(),
                (System.nanoTime() - start) / 1_000_000);
        int from = 0;
        for (Request request : batch) {
            int to = from + request.texts().size();
            request.vectors().complete(List.copyOf(vectors.subList(from, to)));
            from = to;
        }
    }

    private String name() {
        return settings.embedding().isEmpty() ? "all-MiniLM-L6-v2 (embedded)" : settings.embedding();
    }

    /** The model's folder, ready (copied out or downloaded), loaded. */
    private LocalEmbeddingModel load() throws Exception {
        Path folder;
        if (settings.embedding().isEmpty()) {
            folder = EmbeddedModel.extract(models);
        } else {
            folder = hubFolder(hub, models, settings.embedding(), settings.autoDownload(), "embedding",
                    "extensions.models.embedding");
        }
        long start = System.nanoTime();
        LocalEmbeddingModel model = LocalEmbeddingModel.load(folder);
        LOG.info("Embedding model {} loaded from {} in {} ms (at most {} tokens a text)", name(), folder,
                (System.nanoTime() - start) / 1_000_000, model.maxLength());
        return model;
    }

    /**
     * The folder of a transformers.js model of the hub under {@code models} ({@code <owner>/<name>/}), downloaded
     * first when it lacks a file and {@code autoDownload} allows (ST: src/transformers.js, getPipeline, which passes
     * {@code local_files_only} when {@code extensions.models.autoDownload} is false). Blocking: a download takes
     * minutes. Fails with an {@code UNAVAILABLE} {@link Refusal} for a name that is no repository id, or a model not
     * there with downloads off.
     *
     * @param task what the model does, for messages ("embedding")
     * @param key  the config key that names the model, for messages
     */
    /** Whether the text is a Hugging Face repository id ({@code owner/name}), so a folder under the models'. */
    public static boolean isRepoId(String repo) {
        return REPO_ID.matcher(repo).matches();
    }

    public static Path hubFolder(HubDownloader hub, Path models, String repo, boolean autoDownload, String task,
                                 String key) throws IOException, InterruptedException {
        if (!isRepoId(repo)) {
            throw Refusal.unavailable(key + ": \"" + repo + "\" is not a Hugging Face repository id (owner/name)");
        }
        Path folder = models.resolve(repo);
        if (!hub.complete(folder)) {
            if (!autoDownload) {
                // the answer names the folder as the models folder's, never by the server's path; the log has it
                LOG.warn("The {} model {} is not in {} and extensions.models.autoDownload is false", task, repo, folder);
                throw Refusal.unavailable("The " + task + " model " + repo + " is not in the models folder (" + repo
                        + ") and extensions.models.autoDownload is false: download its " + hub.required()
                        + " there, or set autoDownload to true");
            }
            LOG.info("Downloading the {} model {} from the Hugging Face hub into {}", task, repo, folder);
            hub.download(repo, folder, HubDownloader.logging(repo));
        }
        return folder;
    }

    /** Stops the model thread (after the batch it runs) and frees the model; waiting requests are refused. */
    @Override
    public synchronized void close() {
        closed = true;
        if (thread != null) {
            thread.interrupt();
        }
    }
}
