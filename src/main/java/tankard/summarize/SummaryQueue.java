package tankard.summarize;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.util.Threads;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;

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
        CompletableFuture<String> result = new CompletableFuture<>();
        try {
            worker.execute(() -> {
                try {
                    result.complete(summarizer.summarize(text, params));
                } catch (Exception | Error e) {
                    result.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new QueueFullException(capacity));
        }
        return result;
    }

    /** How many texts wait for the model (not counting the one in progress). */
    public int waiting() {
        return worker.getQueue().size();
    }

    public static final class QueueFullException extends RuntimeException {
        QueueFullException(int capacity) {
            super("The summarization queue is full (" + capacity + " waiting); try again later");
        }
    }
}
