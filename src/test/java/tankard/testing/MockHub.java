package tankard.testing;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A Hugging Face hub served by Vert.x: each repository's files from a folder, at {@code /<repo>/resolve/main/}. */
public final class MockHub {
    private MockHub() {
    }

    /**
     * Serves the repositories; every request's path is added to {@code requests}. A hub that is not
     * {@code answering} takes requests and never answers them. Answers the hub's origin.
     */
    public static String serve(Vertx vertx, Map<String, Path> repos, List<String> requests, boolean answering) {
        Router router = Router.router(vertx);
        router.route().handler(ctx -> {
            requests.add(ctx.request().path());
            if (answering) {
                ctx.next();
            }
        });
        repos.forEach((repo, folder) -> router.get("/" + repo + "/resolve/main/*").handler(ctx -> {
            Path file = folder.resolve(ctx.pathParam("*"));
            if (Files.isRegularFile(file)) {
                ctx.response().sendFile(file.toString());
            } else {
                ctx.response().setStatusCode(404).end("Entry not found");
            }
        }));
        HttpServer server = TestServer.await(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
        return "http://127.0.0.1:" + server.actualPort();
    }
}
