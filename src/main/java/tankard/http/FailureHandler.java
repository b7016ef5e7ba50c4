package tankard.http;

import tankard.core.Refusal;
import io.netty.handler.codec.http.multipart.HttpPostRequestDecoder;
import io.vertx.core.Handler;
import io.vertx.core.impl.NoStackTraceThrowable;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.json.JsJson;
import tankard.json.JsonSyntaxException;

import java.nio.file.FileSystemException;
import java.nio.file.NotDirectoryException;
import java.util.UUID;

/**
 * Turns every failure into a JSON error with a real status: {@link Refusal} as given, framework failures
 * (body too large, bad multipart) with their status, anything else 500 with a request id that is logged.
 * Never a 200 on failure, never a stack trace to the client.
 */
public final class FailureHandler implements Handler<RoutingContext> {
    private static final Logger LOG = LoggerFactory.getLogger(FailureHandler.class);

    @Override
    public void handle(RoutingContext ctx) {
        HttpServerResponse response = ctx.response();
        if (response.ended() || response.closed()) {
            return;
        }
        if (response.headWritten()) {
            // A streamed reply failed midway: the client sees a cut stream, which is the honest signal.
            response.reset();
            return;
        }
        Throwable failure = ctx.failure();
        int status;
        String message;
        if (failure instanceof Refusal refusal) {
            status = status(refusal);
            message = refusal.getMessage();
        } else if (failure instanceof JsonSyntaxException error) {
            status = 400;
            message = "Malformed JSON: " + error.getMessage();
        } else if (failure instanceof HttpException error) {
            status = error.getStatusCode();
            message = error.getPayload() != null ? error.getPayload() : statusText(status);
        } else if (failure instanceof HttpPostRequestDecoder.TooLongFormFieldException
                || failure instanceof HttpPostRequestDecoder.TooManyFormFieldsException) {
            status = 413; // a form field (or a part's headers) over the multipart decoder's limits
            message = statusText(status);
        } else if (failure instanceof HttpPostRequestDecoder.ErrorDataDecoderException) {
            status = 400;
            message = "Malformed form data: " + failure.getMessage();
        } else if (failure instanceof NoStackTraceThrowable && "Streaming aborted".equals(failure.getMessage())) {
            status = 400; // Vert.x's word for an upload whose request broke off (a bad form part, the client gone)
            message = "The upload broke off";
        } else if ((message = pathFault(failure)) != null) {
            status = 400;
        } else if (failure == null) {
            status = ctx.statusCode() > 0 ? ctx.statusCode() : 500;
            message = statusText(status);
        } else {
            status = 500;
            String id = UUID.randomUUID().toString().substring(0, 8);
            LOG.error("Request {} {} failed (id {})", ctx.request().method(), ctx.request().path(), id, failure);
            message = "Internal server error (request id " + id + ")";
        }
        if (status == 413) {
            message = "Payload Too Large";
        }
        var body = JsJson.object().put("error", message);
        response.setStatusCode(status)
                .putHeader("Content-Type", "application/json; charset=utf-8")
                .end(JsJson.compact(body));
    }

    /**
     * What is wrong with a path made of names from the request, when the failure (however wrapped) is one only
     * such a name causes: a file name over the file system's limit (ENAMETOOLONG), or a file where the path needs
     * a folder (ENOTDIR: a card named {@code Foo.png} whose assets go to {@code characters/Foo.png/}); else null.
     * Answered 400 on every route.
     */
    static String pathFault(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof NotDirectoryException) {
                return "A name in the request makes a path through a file where a folder is needed";
            }
            if (cause instanceof FileSystemException e && "File name too long".equals(e.getReason())) {
                return "A name in the request is too long for the file system";
            }
        }
        return null;
    }

    /** The HTTP status of a refusal's kind. */
    public static int status(Refusal refusal) {
        return switch (refusal.kind()) {
            case BAD_REQUEST -> 400;
            case FORBIDDEN -> 403;
            case NOT_FOUND -> 404;
            case CONFLICT -> 409;
            case TOO_LARGE -> 413;
            case TOO_MANY_REQUESTS -> 429;
            case FAILED -> 500;
            case UPSTREAM -> 502;
            case UNAVAILABLE -> 503;
        };
    }

    private static String statusText(int status) {
        return io.netty.handler.codec.http.HttpResponseStatus.valueOf(status).reasonPhrase();
    }
}
