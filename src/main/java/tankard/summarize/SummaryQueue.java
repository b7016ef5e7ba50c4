package tankard.summarize;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.util.Threads;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The bounded line in front of one shared {@link Summarizer}: one summary is made at a time on a worker thread,
 * at most {@code capacity} more wait, and any beyond that are refused at once rather than piling up.
 */
public final class SummaryQueue {
    private final Summarizer summarizer;
    private final int capacity;
    private final ThreadPoolExecutor worker;

    public SummaryQueue(Summarizer summarizer, int capacity) {
        this.summarizer = summarizer;
        this.capacity = capacity;
        this.worker = Threads.boundedQueue("summarizer", 1, capacity);
    }

    /** The summary, or a future failed with {@link QueueFullException} when the queue is full. */
    public CompletableFuture<String> submit(String text, JsonNode params) {
        Job job = new Job(text, params);
        try {
            worker.execute(job);
        } catch (RejectedExecutionException e) {
            job.result.completeExceptionally(worker.isShutdown() ? shuttingDown() : new QueueFullException(capacity));
        }
        return job.result;
    }

    /**
     * Stops taking texts, fails the waiting ones, interrupts the one in progress (it stops between chunks) and
     * waits up to {@code wait} for it; whether the model is no longer in use.
     */
    public boolean close(Duration wait) throws InterruptedException {
        for (Runnable waiting : worker.shutdownNow()) {
            ((Job) waiting).result.completeExceptionally(shuttingDown());
        }
        return worker.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static SummaryUnavailableException shuttingDown() {
        return new SummaryUnavailableException("Tankard is shutting down");
    }

    private final class Job implements Runnable {
        private final String text;
        private final JsonNode params;
        private final CompletableFuture<String> result = new CompletableFuture<>();

        Job(String text, JsonNode params) {
            this.text = text;
            this.params = params;
        }

        @Override
        public void run() {
            try {
                result.complete(summarizer.summarize(text, params));
            } catch (Exception | Error e) {
                result.completeExceptionally(e);
            }
        }
    }

    /** How many texts wait for the model (not counting the one in progress). */
    public int waiting() {
        return worker.getQueue().size();
    }

    /** A 503 like any summary that cannot be made now. */
    public static final class QueueFullException extends SummaryUnavailableException {
        QueueFullException(int capacity) {
            super("The summarization queue is full (" + capacity + " waiting); try again later");
        }
    }
}
