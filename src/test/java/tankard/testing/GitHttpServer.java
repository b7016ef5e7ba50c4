package tankard.testing;

import io.vertx.core.AsyncResult;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.transport.PacketLineOut;
import org.eclipse.jgit.transport.RefAdvertiser;
import org.eclipse.jgit.transport.UploadPack;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Git repositories made by a test, served over git's smart HTTP protocol on loopback (JGit's UploadPack behind
 * a Vert.x server): {@code <origin>/<name>.git} clones the work tree {@code <root>/<name>}. Fetch only.
 */
public final class GitHttpServer implements AutoCloseable {
    public final Path root;
    private final Vertx vertx;
    private final HttpServer server;
    private final AtomicInteger uploads = new AtomicInteger();

    private GitHttpServer(Vertx vertx, Path root) {
        this.vertx = vertx;
        this.root = root;
        this.server = TestServer.await(vertx.createHttpServer(new HttpServerOptions().setDecompressionSupported(true)).requestHandler(this::handle)
                .listen(0, "127.0.0.1"));
    }

    public static GitHttpServer start() {
        return new GitHttpServer(Vertx.vertx(), TestServer.tempDir());
    }

    /** The URL a repository is cloned from. */
    public String url(String name) {
        return "http://127.0.0.1:" + server.actualPort() + "/" + name + ".git";
    }

    /** How many fetches (upload-pack requests) have been served. */
    public int uploads() {
        return uploads.get();
    }

    /** A new repository on branch {@code main} with the files in one commit. */
    public Git create(String name, Map<String, String> files) {
        try {
            Git git = Git.init().setDirectory(root.resolve(name).toFile()).setInitialBranch("main").call();
            commit(git, files, "initial");
            return git;
        } catch (GitAPIException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes the files into the work tree and commits them. */
    public static void commit(Git git, Map<String, String> files, String message) {
        try {
            Path tree = git.getRepository().getWorkTree().toPath();
            for (Map.Entry<String, String> file : files.entrySet()) {
                Files.createDirectories(tree.resolve(file.getKey()).getParent());
                Files.writeString(tree.resolve(file.getKey()), file.getValue());
            }
            git.add().addFilepattern(".").call();
            git.commit().setMessage(message).setAuthor("Tester", "tester@example.com")
                    .setCommitter("Tester", "tester@example.com").setSign(false).call();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GitAPIException e) {
            throw new IllegalStateException(e);
        }
    }

    private void handle(HttpServerRequest request) {
        String path = request.path();
        int dotGit = path.indexOf(".git/");
        Path dir = dotGit < 0 ? null : root.resolve(path.substring(1, dotGit)).resolve(".git");
        String service = dotGit < 0 ? "" : path.substring(dotGit + 5);
        if (dir == null || !Files.isDirectory(dir)) {
            request.response().setStatusCode(404).end("Repository not found");
            return;
        }
        if (service.equals("info/refs") && "git-upload-pack".equals(request.getParam("service"))) {
            vertx.executeBlocking(() -> advertise(dir)).onComplete(done -> reply(request, done,
                    "application/x-git-upload-pack-advertisement"));
        } else if (service.equals("git-upload-pack")) {
            request.body().compose(body -> vertx.executeBlocking(() -> upload(dir, body)))
                    .onComplete(done -> reply(request, done, "application/x-git-upload-pack-result"));
        } else {
            request.response().setStatusCode(403).end("Only fetching is served");
        }
    }

    private static void reply(HttpServerRequest request, AsyncResult<byte[]> done, String type) {
        byte[] body = done.result();
        if (done.failed()) {
            done.cause().printStackTrace();
            request.response().setStatusCode(500).end(String.valueOf(done.cause()));
        } else {
            request.response().putHeader("Content-Type", type).putHeader("Cache-Control", "no-cache").end(Buffer.buffer(body));
        }
    }

    private static byte[] advertise(Path dir) throws IOException {
        try (Repository repo = Git.open(dir.toFile()).getRepository()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PacketLineOut packets = new PacketLineOut(out);
            packets.writeString("# service=git-upload-pack\n");
            packets.end();
            UploadPack pack = new UploadPack(repo);
            pack.setBiDirectionalPipe(false);
            pack.sendAdvertisedRefs(new RefAdvertiser.PacketLineOutRefAdvertiser(packets));
            return out.toByteArray();
        }
    }

    private byte[] upload(Path dir, Buffer body) throws IOException {
        uploads.incrementAndGet();
        try (Repository repo = Git.open(dir.toFile()).getRepository()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            UploadPack pack = new UploadPack(repo);
            pack.setBiDirectionalPipe(false);
            pack.upload(new ByteArrayInputStream(body.getBytes()), out, null);
            return out.toByteArray();
        }
    }

    @Override
    public void close() {
        TestServer.await(vertx.close());
        TestServer.deleteTree(root);
    }
}
