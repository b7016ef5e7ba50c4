package tankard.vector.local;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.core.Refusal;
import tankard.summarize.onnx.HubDownloader;
import tankard.util.Threads;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A transformers.js model of ST's {@code extensions.models} loaded when first asked for, as ST's getPipeline loads
 * it (ST: src/transformers.js): nothing is loaded until the first request; that request starts the load (a download
 * from the Hugging Face hub into {@code <dataRoot>/_models/<owner>/<name>/} when the model is not there and
 * {@code extensions.models.autoDownload} allows) on a thread of its own, and every request is refused with 503
 * until the model is ready. A failed load is tried again on the next request. Work runs on a pool of one thread a
 * core, behind a bounded queue; beyond that, 503.
 *
 * @param <M> the loaded model
 */
public final class OnDemandModel<M extends AutoCloseable> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OnDemandModel.class);

    /** Loads a model folder (blocking: seconds, and the model's size in memory). */
    @FunctionalInterface
    public interface Loader<M> {
        M load(Path folder) throws Exception;
    }

    /** What a request does with the loaded model, on the model's pool. */
    @FunctionalInterface
    public interface Work<M, T> {
        T run(M model) throws Exception;
    }

    private final String task;
    private final String key;
    private final String queueKey;
    private final String name;
    private final Path models;
    private final boolean autoDownload;
    private final HubDownloader hub;
    private final Loader<M> loader;
    private final int capacity;
    private final ThreadPoolExecutor runners;
    private CompletableFuture<M> model;
    private boolean closed;

    /**
     * @param task     what the model does, for messages and thread names ("classification")
     * @param key      the config key naming the model ({@code extensions.models.classification})
     * @param queueKey the config key of the queue's size, for messages
     * @param name     the model's Hugging Face repository id
     * @param models   the data root's {@code _models} folder
     */
    public OnDemandModel(String task, String key, String queueKey, String name, Path models, boolean autoDownload,
                         HubDownloader hub, int capacity, Loader<M> loader) {
        this.task = task;
        this.key = key;
        this.queueKey = queueKey;
        this.name = name;
        this.models = models;
        this.autoDownload = autoDownload;
        this.hub = hub;
        this.loader = loader;
        this.capacity = capacity;
        runners = Threads.boundedQueue(task, Math.max(1, Runtime.getRuntime().availableProcessors()), capacity);
    }

    /**
     * Runs {@code work} on the loaded model. Fails with an {@code UNAVAILABLE} {@link Refusal} while the model is
     * not ready or the queue is full, {@code FAILED} when the work fails.
     */
    public <T> CompletionStage<T> submit(Work<M, T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            M ready = ready();
            runners.execute(() -> {
                try {
                    result.complete(work.run(ready));
                } catch (Refusal refusal) {
                    result.completeExceptionally(refusal);
                } catch (Exception | Error e) {
                    LOG.warn("The {} model failed", task, e);
                    result.completeExceptionally(Refusal.failed("The " + task + " model failed: " + e.getMessage()));
                }
            });
        } catch (Refusal refusal) {
            result.completeExceptionally(refusal);
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(Refusal.unavailable(runners.isShutdown() ? "The " + task + " model is stopped"
                    : "The " + task + " model is busy: " + capacity + " requests wait for it already (" + queueKey
                    + "); try again later"));
        }
        return result;
    }

    /** The loaded model; else starts loading it (unless it is loading) and refuses with 503. */
    public synchronized M ready() {
        if (closed) {
            throw Refusal.unavailable("The " + task + " model is stopped");
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
            CompletableFuture<M> loading = model;
            Thread thread = new Thread(() -> load(loading), task + "-model-loader");
            thread.setDaemon(true);
            thread.start();
        }
        throw Refusal.unavailable(failed != null ? "Cannot load the " + task + " model " + name + ": " + failed
                + "; trying again" : "The " + task + " model " + name + " is loading"
                + (autoDownload ? " (downloading it the first time)" : "") + "; try again shortly");
    }

    /** Refuses with the reason when the model's folder lacks a file (downloads are off). */
    private void present() {
        try {
            LocalEmbeddings.hubFolder(hub, models, name, false, task, key);
        } catch (Refusal refusal) {
            throw refusal;
        } catch (Exception e) {
            LOG.warn("The {} model {} cannot be read", task, name, e); // its message may name the server's folders
            throw Refusal.unavailable("The " + task + " model " + name + " cannot be read; the server's log says why");
        }
    }

    private void load(CompletableFuture<M> loading) {
        try {
            Path folder = LocalEmbeddings.hubFolder(hub, models, name, autoDownload, task, key);
            long start = System.nanoTime();
            M loaded = loader.load(folder);
            LOG.info("The {} model {} loaded from {} in {} ms", task, name, folder, (System.nanoTime() - start) / 1_000_000);
            loading.complete(loaded); // freed by close() when it comes after it
        } catch (Exception | Error e) {
            LOG.error("Cannot load the {} model {}: {}", task, name, e.getMessage());
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
                    LOG.warn("Cannot free the {} model: {}", task, e.getMessage());
                }
            }, free -> {
                Thread thread = new Thread(free, task + "-model-close");
                thread.setDaemon(true);
                thread.start();
            });
        }
    }
}
