package tankard.summarize;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The queue in front of the model stops so that the model can be freed (its bounds: ExtrasServerTest). */
class SummaryQueueTest {
    @Test
    void closingStopsTheRunningSummaryFailsTheWaitingOnesAndRefusesNewOnes() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        SummaryQueue queue = new SummaryQueue((text, params) -> {
            running.countDown();
            new CountDownLatch(1).await(); // a long summary; the stop interrupts it
            return "never";
        }, 2);
        CompletableFuture<String> first = queue.submit("first", null);
        CompletableFuture<String> second = queue.submit("second", null);
        assertTrue(running.await(10, TimeUnit.SECONDS));
        assertEquals(1, queue.waiting());

        assertTrue(queue.close(Duration.ofSeconds(10)), "the model is no longer in use");
        assertInstanceOf(InterruptedException.class, cause(first));
        assertEquals("Tankard is shutting down", cause(second).getMessage());
        assertEquals("Tankard is shutting down", cause(queue.submit("third", null)).getMessage());
    }

    private static Throwable cause(CompletableFuture<String> result) {
        return assertThrows(ExecutionException.class, () -> result.get(10, TimeUnit.SECONDS)).getCause();
    }
}
