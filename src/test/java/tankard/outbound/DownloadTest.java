package tankard.outbound;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.config.TankardConfig;
import tankard.testing.TestServer;

import java.net.InetAddress;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The download size limit on bodies without a Content-Length, and the blocking filter check JGit uses. */
class DownloadTest {
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        TestServer.await(vertx.close());
    }

    private static TankardConfig.Outbound outbound(boolean filter) {
        return new TankardConfig.Outbound(filter, List.of(), false, true, false, false, "", List.of(), List.of(), false);
    }

    /** A server that streams {@code chunks} chunks of 1 KiB, chunked (no Content-Length). */
    private String streaming(int chunks) {
        HttpServer server = vertx.createHttpServer().requestHandler(request -> {
            request.response().setChunked(true);
            for (int i = 0; i < chunks; i++) {
                request.response().write(Buffer.buffer(new byte[1024]));
            }
            request.response().end();
        });
        TestServer.await(server.listen(0, "127.0.0.1"));
        return "http://127.0.0.1:" + server.actualPort() + "/file";
    }

    private UpstreamClient downloader() {
        return new UpstreamClient(vertx, new OutboundPolicy(outbound(false), InetAddress::getAllByName), new ProviderOrigins(Map.of()));
    }

    @Test
    void aStreamedBodyOverTheLimitIsCutOff() throws Exception {
        String url = streaming(64);
        UpstreamClient downloader = downloader();
        assertEquals(64 * 1024,
                TestServer.await(downloader.get(url, MultiMap.caseInsensitiveMultiMap(), 64 * 1024)).body().length());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> TestServer.await(downloader
                .get(url, MultiMap.caseInsensitiveMultiMap(), 10_000)));
        assertInstanceOf(UpstreamClient.DownloadException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("larger than the limit of 10000 bytes"));

        Path file = Files.createTempDirectory("download").resolve("file");
        e = assertThrows(IllegalStateException.class, () -> TestServer.await(downloader.toFile(url, file, 10_000)));
        assertTrue(e.getCause().getMessage().contains("larger than"));
        assertTrue(Files.size(file) <= 10_000, "stopped writing at the limit; the caller deletes the file");
        Files.delete(file);
        TestServer.await(downloader.toFile(url, file, 64 * 1024));
        assertEquals(64 * 1024, Files.size(file));
    }

    @Test
    void connectionForChecksLikePrepare() throws Exception {
        OutboundPolicy open = new OutboundPolicy(outbound(false), InetAddress::getAllByName);
        assertEquals(java.net.Proxy.NO_PROXY, open.connectionFor(new URL("http://127.0.0.1:1/x")));
        OutboundPolicy filtered = new OutboundPolicy(outbound(true), host -> new InetAddress[]{InetAddress.getByName("10.1.2.3")});
        OutboundPolicy.Refused refused = assertThrows(OutboundPolicy.Refused.class,
                () -> filtered.connectionFor(new URL("https://git.example/x.git")));
        assertTrue(refused.getMessage().contains("Blocked request to private IP address: 10.1.2.3"), refused.getMessage());
        OutboundPolicy publicHost = new OutboundPolicy(outbound(true), host -> new InetAddress[]{InetAddress.getByName("93.184.215.14")});
        assertEquals(java.net.Proxy.NO_PROXY, publicHost.connectionFor(new URL("https://git.example/x.git")));
        assertFalse(assertThrows(OutboundPolicy.Refused.class, () -> filtered.connectionFor(new URL("http://[::1]/x")))
                .getMessage().isEmpty());
    }
}
