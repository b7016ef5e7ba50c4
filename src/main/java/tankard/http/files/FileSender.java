package tankard.http.files;

import io.vertx.core.Future;
import io.vertx.core.file.FileProps;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

import java.nio.file.AccessDeniedException;
import java.nio.file.Path;

/**
 * Sends a file from disk the way Express's {@code sendFile} does ({@link SendPlan}). Everything is asynchronous: a
 * stat through the Vert.x file system, then {@code sendFile}.
 */
public final class FileSender {
    /** What happened to a send: the file went out, or nothing was written and the caller decides. */
    public enum Outcome { SENT, MISSING, DIRECTORY }

    private FileSender() {
    }

    /**
     * Sends {@code file} if it is a regular file. With {@code firefoxRule}, images sent to Firefox are marked
     * {@code no-store} (ST does this for user images and thumbnails: Firefox otherwise shows stale avatars).
     */
    public static Future<Outcome> send(RoutingContext ctx, Path file, boolean firefoxRule) {
        return ctx.vertx().fileSystem().props(file.toString()).transform(stat -> {
            if (stat.failed()) {
                return isMissing(stat.cause()) ? Future.succeededFuture(Outcome.MISSING) : Future.failedFuture(stat.cause());
            }
            FileProps props = stat.result();
            if (props.isDirectory()) {
                return Future.succeededFuture(Outcome.DIRECTORY);
            }
            if (!props.isRegularFile()) {
                return Future.succeededFuture(Outcome.MISSING);
            }
            write(ctx, file, props, firefoxRule);
            return Future.succeededFuture(Outcome.SENT);
        });
    }

    private static void write(RoutingContext ctx, Path file, FileProps props, boolean firefoxRule) {
        HttpServerResponse response = ctx.response();
        SendPlan plan = SendPlan.of(ctx.request(), file.getFileName().toString(), props.size(),
                props.lastModifiedTime(), firefoxRule);
        if (plan.answerWithoutBytes(response)) {
            return;
        }
        plan.writeHead(response);
        response.sendFile(file.toString(), plan.offset(), plan.length()).onFailure(error -> {
            if (!response.ended() && !response.closed()) {
                ctx.fail(error);
            }
        });
    }

    /** An HTTP date ({@code Last-Modified}), as Express writes it. */
    public static String httpDate(long epochMs) {
        return SendPlan.httpDate(epochMs);
    }

    /** A stat failure that means "no such file here" (ENOENT, ENOTDIR, name too long); Node reports 404 for those. */
    private static boolean isMissing(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof java.nio.file.FileSystemException fs) {
                return !(fs instanceof AccessDeniedException);
            }
        }
        return false;
    }
}
