package tankard.account;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.testing.PgScratch;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** With {@code storage: postgres}, accounts live in the database: another server on it knows them. */
class AccountsOnPostgresHttpTest {
    private final PgScratch database = PgScratch.create();
    private final List<TestServer> servers = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        servers.forEach(TestServer::close);
        database.close();
    }

    private TestServer start() throws IOException {
        Path work = TestServer.tempDir();
        Files.writeString(work.resolve("config.yaml"), "enableUserAccounts: true\n");
        Files.createDirectories(work.resolve("public"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html><title>Tankard test</title>");
        TestServer server = TestServer.startIn(work, database.environment());
        servers.add(server);
        return server;
    }

    private static TestServer.Client login(TestServer server, String handle, String password) {
        TestServer.Client client = server.client();
        HttpResponse<Buffer> r = client.post("/api/users/login",
                new JsonObject().put("handle", handle).put("password", password).encode());
        assertEquals(200, r.statusCode(), r.bodyAsString());
        return client;
    }

    @Test
    void anAccountMadeOnOneServerSignsInOnAnotherAndNoAccountFileIsWritten() throws Exception {
        TestServer first = start();
        HttpResponse<Buffer> created = login(first, "default-user", "").post("/api/users/create", new JsonObject()
                .put("handle", "bob").put("name", "Bob").put("password", "hunter2").put("admin", false).encode());
        assertEquals(200, created.statusCode(), created.bodyAsString());
        Path storage = first.dataRoot.resolve("_storage");
        assertFalse(Files.exists(storage) && Files.list(storage).findAny().isPresent(), "account files in " + storage);

        try (var c = database.connect(); Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT handle FROM accounts ORDER BY created, handle")) {
            List<String> handles = new ArrayList<>();
            while (rows.next()) {
                handles.add(rows.getString(1));
            }
            assertEquals(List.of("default-user", "bob"), handles);
        }

        TestServer second = start();
        TestServer.Client bob = login(second, "bob", "hunter2");
        assertEquals("bob", bob.get("/api/users/me").bodyAsJsonObject().getString("handle"));
        HttpResponse<Buffer> wrong = second.client().post("/api/users/login",
                new JsonObject().put("handle", "bob").put("password", "wrong").encode());
        assertEquals(403, wrong.statusCode(), wrong.bodyAsString());
    }
}
