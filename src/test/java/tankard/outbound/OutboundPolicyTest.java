package tankard.outbound;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.config.TankardConfig;
import tankard.testing.TestServer;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Name resolution of the private-address filter, with a resolver that answers what the test needs. */
class OutboundPolicyTest {
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        TestServer.await(vertx.close());
    }

    private static TankardConfig.Outbound filter() {
        return new TankardConfig.Outbound(true, List.of("127.0.0.0/8"), false, true, false, false, "", List.of(), List.of(), false);
    }

    private static InetAddress ip(String text) {
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private RequestOptions prepare(OutboundPolicy policy, String url) {
        return TestServer.await(policy.prepare(vertx, new RequestOptions().setAbsoluteURI(url)));
    }

    @Test
    void theRequestGoesToTheAddressThatWasCheckedNotToALaterDnsAnswer() {
        AtomicInteger lookups = new AtomicInteger();
        // a rebinding name: allowed the first time, private the next
        OutboundPolicy policy = new OutboundPolicy(filter(),
                host -> new InetAddress[]{lookups.getAndIncrement() == 0 ? ip("127.0.0.1") : ip("10.0.0.1")});
        List<String> hosts = new CopyOnWriteArrayList<>();
        HttpServer backend = vertx.createHttpServer().requestHandler(request -> {
            hosts.add(request.getHeader("Host"));
            request.response().end("ok");
        });
        TestServer.await(backend.listen(0, "127.0.0.1"));
        String url = "http://rebind.example:" + backend.actualPort() + "/v1/models";

        RequestOptions options = prepare(policy, url).setMethod(HttpMethod.GET);
        HttpClient client = vertx.createHttpClient();
        String body = TestServer.await(client.request(options)
                .compose(request -> request.send()).compose(response -> response.body())).toString();
        client.close(); // held until the answer is in: Vert.x closes a client no one holds once it is collected

        assertEquals("ok", body);
        assertEquals(List.of("rebind.example:" + backend.actualPort()), hosts);
        assertEquals(1, lookups.get());
    }

    @Test
    void everyAddressOfANameIsChecked() {
        OutboundPolicy policy = new OutboundPolicy(filter(), host -> new InetAddress[]{ip("93.184.216.34"), ip("192.168.0.7")});
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> prepare(policy, "https://mixed.example/v1"));
        assertInstanceOf(OutboundPolicy.Refused.class, e.getCause());
        assertEquals("request to https://mixed.example/v1 failed, reason: Blocked request to private IP address: 192.168.0.7",
                e.getCause().getMessage());
    }

    @Test
    void publicAndUnspecifiedAddresses() {
        OutboundPolicy policy = new OutboundPolicy(filter(), host -> new InetAddress[]{ip("93.184.216.34")});
        SocketAddress server = (SocketAddress) prepare(policy, "https://public.example/v1").getServer();
        assertEquals("93.184.216.34:443", server.hostAddress() + ":" + server.port());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> prepare(policy, "http://0.0.0.0:5000/"));
        assertTrue(e.getCause().getMessage().endsWith("Blocked request to private IP address: 0.0.0.0"), e.getCause().getMessage());
    }
}
