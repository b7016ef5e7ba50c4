package tankard.testing;

import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;

import java.net.BindException;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on a loopback port to a target, that a test can cut (every relayed connection closed at once, as a
 * network fault or a database restart does) and take down and bring back (connections refused meanwhile).
 */
public final class TcpRelay implements AutoCloseable {
    private final Vertx vertx;
    private final String targetHost;
    private final int targetPort;
    private final NetClient client;
    private final Set<NetSocket> sockets = ConcurrentHashMap.newKeySet();
    private volatile NetServer server;
    private volatile int port;

    public TcpRelay(Vertx vertx, String targetHost, int targetPort) {
        this.vertx = vertx;
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.client = vertx.createNetClient();
        // A port below Linux's ephemeral range (32768 on), so that no outgoing connection takes it while down
        for (int attempt = 0; server == null; attempt++) {
            port = 20_000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(12_000);
            try {
                server = listen();
            } catch (Exception e) {
                if (!bound(e) || attempt == 20) {
                    throw new IllegalStateException("no free port for the relay", e);
                }
            }
        }
    }

    public int port() {
        return port;
    }

    /**
     * Listens again on its port and relays what connects; tried again for a second while the port is still bound
     * (the close of the last listener may not have let it go yet).
     */
    public void up() {
        server = whileBound(this::listen);
    }

    private NetServer listen() {
        NetServer listening = vertx.createNetServer(new NetServerOptions().setHost("127.0.0.1").setPort(port));
        listening.connectHandler(this::relay);
        return listening.listen().await();
    }

    /** Binds with {@code bind}, tried again every 20 ms for a second while its port is still bound. */
    static <T> T whileBound(Callable<T> bind) {
        for (int attempt = 0; ; attempt++) {
            try {
                return bind.call();
            } catch (Exception e) {
                if (!bound(e) || attempt == 50) {
                    throw new IllegalStateException("not bound (port still in use, or another failure)", e);
                }
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the port", e);
            }
        }
    }

    /** Whether a bind failed on a port in use (Vert.x's await rethrows the BindException as it is, a checked one). */
    private static boolean bound(Exception e) {
        return e instanceof BindException || e.getCause() instanceof BindException;
    }

    /** Closes every relayed connection; new ones are still relayed. */
    public void cut() {
        for (NetSocket socket : Set.copyOf(sockets)) {
            socket.close();
        }
    }

    /** Stops listening and cuts: the target cannot be reached until {@link #up}. */
    public void down() {
        server.close().await();
        cut();
    }

    private void relay(NetSocket inbound) {
        inbound.pause();
        sockets.add(inbound);
        inbound.closeHandler(v -> sockets.remove(inbound));
        client.connect(targetPort, targetHost).onComplete(connected -> {
            if (connected.failed()) {
                inbound.close();
                return;
            }
            NetSocket outbound = connected.result();
            sockets.add(outbound);
            outbound.closeHandler(v -> {
                sockets.remove(outbound);
                inbound.close();
            });
            inbound.closeHandler(v -> {
                sockets.remove(inbound);
                outbound.close();
            });
            inbound.pipeTo(outbound);
            outbound.pipeTo(inbound);
            inbound.resume();
        });
    }

    @Override
    public void close() {
        server.close().await();
        cut();
        client.close().await();
    }
}
