package tankard.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import tankard.json.JsJson;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A test class whose tests each get their own {@link TestServer}, closed after the test. */
public abstract class ServerTest {
    /** This test's server; null until the test starts one. */
    protected TestServer server;
    /** The client of {@link #start(String)}. */
    protected TestServer.Client client;

    /** Starts this test's server with the given config.yaml text (null: none) and returns its client. */
    protected TestServer.Client start(String configYaml) {
        server = TestServer.start(configYaml);
        client = server.client();
        return client;
    }

    @AfterEach
    final void closeServer() {
        if (server != null) {
            server.close();
        }
    }

    /** A path in the default user's folder. */
    protected Path user(String relative) {
        return server.userDir().resolve(relative);
    }

    /**
     * Writes a file of the default user by its path in ST's layout, through the store that keeps that kind
     * ({@link UserFiles}: a document, a chat, a group on PostgreSQL in the database). Answers the file's path in ST's
     * layout, where the file is on files.
     */
    protected Path put(String relative, byte[] bytes) {
        server.files().write(relative, bytes);
        return user(relative);
    }

    /** A file of the default user ({@code "worlds/Sea.json"}) as the server's store holds it; fails when missing. */
    protected byte[] documentBytes(String relative) {
        return server.files().bytes(relative);
    }

    /** {@link #documentBytes} as UTF-8 text. */
    protected String document(String relative) {
        return server.files().read(relative);
    }

    /** Whether the server's store holds that file of the default user. */
    protected boolean hasDocument(String relative) {
        return server.files().exists(relative);
    }

    /** The response body parsed as ST's JSON. */
    protected static JsonNode json(HttpResponse<Buffer> response) {
        return JsJson.parse(response.body().getBytes());
    }
}
