package tankard.http;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The memory is trimmed once per quiet spell: not while requests come, again after the next one; with full
 * collections only under the Serial collector (bin/jvm.options), not under the tests' G1.
 */
class IdleTrimTest {
    private static final long IDLE_MS = 1000;

    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void stop() {
        vertx.close().await();
    }

    @Test
    void trimsOnceAQuietSpellHasLastedAndNotWhileRequestsCome() throws Exception {
        AtomicInteger trims = new AtomicInteger();
        IdleTrim idle = new IdleTrim(IDLE_MS, trims::incrementAndGet);
        Router router = Router.router(vertx);
        router.route().handler(idle).handler(ctx -> ctx.end("ok"));
        HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
        WebClient client = WebClient.create(vertx);
        idle.start(vertx);

        for (long end = System.currentTimeMillis() + 3 * IDLE_MS; System.currentTimeMillis() < end; ) {
            client.get(server.actualPort(), "127.0.0.1", "/").send().await();
            Thread.sleep(IDLE_MS / 10);
        }
        assertEquals(0, trims.get(), "busy: no trim");

        Thread.sleep(3 * IDLE_MS);
        assertEquals(1, trims.get(), "quiet: one trim");
        Thread.sleep(2 * IDLE_MS);
        assertEquals(1, trims.get(), "still quiet: no second trim");

        client.get(server.actualPort(), "127.0.0.1", "/").send().await();
        Thread.sleep(3 * IDLE_MS);
        assertEquals(2, trims.get(), "quiet again after a request: trimmed again");
    }

    @Test
    void aTrimRunsFourFullCollectionsWhenTheCollectorIsSerialAndNoneUnderTheTestsG1() {
        assertFalse(IdleTrim.serialCollector(), "the tests run on G1");
        GarbageCollectorMXBean old = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .filter(collector -> collector.getName().equals("G1 Old Generation")).findFirst().orElseThrow();
        long before = old.getCollectionCount();
        IdleTrim.trim(false).run();
        assertEquals(before, old.getCollectionCount(), "no full collection under G1");
        IdleTrim.trim(true).run();
        assertEquals(before + 4, old.getCollectionCount(), "four when the collector is Serial");
    }
}
