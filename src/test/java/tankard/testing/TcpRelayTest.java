package tankard.testing;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The relay the database tests cut: it comes back up on its port once another listener lets the port go. */
class TcpRelayTest {
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void stop() {
        vertx.close().await();
    }

    @Test
    void upWaitsForItsPortWhileAnotherListenerHoldsItAndThenRelays() throws Exception {
        NetServer echo = vertx.createNetServer().connectHandler(socket -> socket.handler(socket::write))
                .listen(0, "127.0.0.1").await();
        try (TcpRelay relay = new TcpRelay(vertx, "127.0.0.1", echo.actualPort())) {
            relay.down();
            // the port the relay has just closed, itself tried again while that close lets it go
            ServerSocket holder = TcpRelay.whileBound(() -> new ServerSocket(relay.port(), 1, InetAddress.getLoopbackAddress()));
            new Thread(() -> { // lets the port go while up() is trying it
                try {
                    Thread.sleep(300);
                    holder.close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }).start();
            relay.up();

            NetSocket client = vertx.createNetClient().connect(relay.port(), "127.0.0.1").await();
            CompletableFuture<String> echoed = new CompletableFuture<>();
            client.handler(data -> echoed.complete(data.toString()));
            client.write(Buffer.buffer("ping"));
            assertEquals("ping", echoed.get(5, TimeUnit.SECONDS), "relayed to the target once up");
        }
    }
}
