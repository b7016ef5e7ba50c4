package tankard.classify;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.outbound.UpstreamClient;
import tankard.summarize.onnx.HubDownloader;
import tankard.util.Threads;
import tankard.vector.local.LocalEmbeddings;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The emotion classifier of ST's Character Expressions extension (ST: src/endpoints/classify.js), on the
 * text-classification model of {@code extensions.models.classification} (ST's default when empty). Nothing is
 * loaded until the first request; that request starts the load (a download from the Hugging Face hub into
 * {@code <dataRoot>/_models/<owner>/<name>/} when the model is not there and {@code extensions.models.autoDownload}
 * allows) on a thread of its own, and every request is refused with 503 until the model is ready. A failed load is
 * tried again on the next request. Texts run on a pool of one thread a core, behind a queue of
 * {@code tankard.classify.queueSize}; beyond that, 503. Results are cached per text, as ST's are.
 */
public final class Classifier implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Classifier.class);
    /** ST's default (src/transformers.js, the text-classification task), a go-emotions DistilBERT. */
    public static final String DEFAULT_MODEL = "Cohee/distilbert-base-uncased-go-emotions-onnx";
    /** How many labels ST's classification lists (ST: classify.js asks the pipeline for {@code topk: 5}). */
    public static final int ST_TOP = 5;
    /** ST's cache keeps every text for good; this one the most recent texts. */
    private static final int CACHED = 1000;

    private final String name;
    private final Path models;
    private final boolean autoDownload;
    private final HubDownloader hub;
    private final int capacity;
    private final ThreadPoolExecutor runners;
    private final Map<String, List<Score>> cache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<Score>> eldest) {
            return size() > CACHED;
        }
    };
    private CompletableFuture<ClassifierModel> model;
    private boolean closed;

    public Classifier(TankardConfig config, UpstreamClient downloader) {
        String setting = config.models().classification();
        name = setting.isEmpty() ? DEFAULT_MODEL : setting;
        models = config.dataRoot().resolve("_models");
        autoDownload = config.models().autoDownload();
        hub = new HubDownloader(downloader, LocalEmbeddings.FILES,
                "it is not a transformers.js model (tokenizer.json and an ONNX graph)");
        capacity = config.models().classifyQueue();
        runners = Threads.boundedQueue("classifier", Math.max(1, Runtime.getRuntime().availableProcessors()), capacity);
    }

    /**
     * The {@code top} labels of {@code text} with their scores, highest first. Fails with an {@code UNAVAILABLE}
     * {@link Refusal} while the model is not ready or the queue is full, {@code FAILED} when the model fails.
     */
    public CompletionStage<List<Score>> classify(String text, int top) {
        List<Score> cached;
        synchronized (cache) {
            cached = cache.get(text);
        }
        CompletionStage<List<Score>> ranked = cached != null ? CompletableFuture.completedFuture(cached)
                : submit(ready -> {
                    List<Score> scores = ready.classify(text);
                    synchronized (cache) {
                        cache.put(text, scores);
                    }
                    return scores;
                });
        return ranked.thenApply(scores -> scores.subList(0, Math.min(top, scores.size())));
    }

    /** The model's labels: the keys of its {@code config.json} {@code label2id}. */
    public CompletionStage<List<String>> labels() {
        try {
            return CompletableFuture.completedFuture(ready().labels());
        } catch (Refusal refusal) {
            return CompletableFuture.failedFuture(refusal);
        }
    }

    private interface Work<T> {
        T run(ClassifierModel model) throws Exception;
    }

    private <T> CompletionStage<T> submit(Work<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            ClassifierModel ready = ready();
            runners.execute(() -> {
                try {
                    result.complete(work.run(ready));
                } catch (Exception | Error e) {
                    LOG.warn("The classification model failed", e);
                    result.completeExceptionally(Refusal.failed("The classification model failed: " + e.getMessage()));
                }
            });
        } catch (Refusal refusal) {
            result.completeExceptionally(refusal);
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(Refusal.unavailable(runners.isShutdown() ? "The classifier is stopped"
                    : "The classification model is busy: " + capacity + " requests wait for it already"
                    + " (tankard.classify.queueSize); try again later"));
        }
        return result;
    }

    /** The loaded model; else starts loading it (unless it is loading) and refuses with 503. */
    private synchronized ClassifierModel ready() {
        if (closed) {
            throw Refusal.unavailable("The classifier is stopped");
        }
        if (model != null && model.isDone() && !model.isCompletedExceptionally()) {
            return model.join();
        }
        String failed = model != null && model.isCompletedExceptionally()
                ? model.handle((ok, e) -> String.valueOf(e.getMessage())).join() : null;
        if (!autoDownload) {
            present(); // a quick look at the folder: the clear reason at once rather than "loading"
        }
        if (model == null || failed != null) {
            model = new CompletableFuture<>();
            CompletableFuture<ClassifierModel> loading = model;
            Thread thread = new Thread(() -> load(loading), "classification-model-loader");
            thread.setDaemon(true);
            thread.start();
        }
        throw Refusal.unavailable(failed != null ? "Cannot load the classification model " + name + ": " + failed
                + "; trying again" : "The classification model " + name + " is loading"
                + (autoDownload ? " (downloading it the first time)" : "") + "; try again shortly");
    }

    /** Refuses with the reason when the model's folder lacks a file (downloads are off). */
    private void present() {
        try {
            LocalEmbeddings.hubFolder(hub, models, name, false, "classification", "extensions.models.classification");
        } catch (Refusal refusal) {
            throw refusal;
        } catch (Exception e) {
            throw Refusal.unavailable("The classification model " + name + " cannot be read: " + e.getMessage());
        }
    }

    private void load(CompletableFuture<ClassifierModel> loading) {
        try {
            Path folder = LocalEmbeddings.hubFolder(hub, models, name, autoDownload, "classification",
                    "extensions.models.classification");
            long start = System.nanoTime();
            ClassifierModel loaded = ClassifierModel.load(folder);
            LOG.info("Classification model {} loaded from {} in {} ms", name, folder,
                    (System.nanoTime() - start) / 1_000_000);
            loading.complete(loaded); // freed by close() when it comes after it
        } catch (Exception | Error e) {
            LOG.error("Cannot load the classification model {}: {}", name, e.getMessage());
            loading.completeExceptionally(e);
        }
    }

    /** Takes no more requests, lets those queued end, then frees the model, on a thread of its own. */
    @Override
    public synchronized void close() {
        closed = true;
        runners.shutdown();
        if (model != null) {
            model.thenAcceptAsync(loaded -> {
                try {
                    runners.awaitTermination(30, TimeUnit.SECONDS);
                    loaded.close();
                } catch (Exception e) {
                    LOG.warn("Cannot free the classification model: {}", e.getMessage());
                }
            }, free -> {
                Thread thread = new Thread(free, "classification-model-close");
                thread.setDaemon(true);
                thread.start();
            });
        }
    }
}
