package tankard.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import tankard.core.Refusal;
import tankard.http.files.FileSender;
import tankard.json.JsJson;
import tankard.util.MimeTypes;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * What a route answers, written by {@link Routes}. Keeps the content types of ST's Express answers
 * ({@code res.json}, {@code res.send} of a string, {@code res.sendStatus}).
 */
public sealed interface Reply {
    void writeTo(HttpServerResponse response);

    /** JSON body, {@code application/json; charset=utf-8}. */
    static Reply json(JsonNode body) {
        return new Body(200, "application/json; charset=utf-8", JsJson.compactBytes(body));
    }

    /** A JSON body with another status, for the few ST errors with their own shape. */
    static Reply json(int status, JsonNode body) {
        return new Body(status, "application/json; charset=utf-8", JsJson.compactBytes(body));
    }

    static Reply json(Object body) {
        return json(JsJson.tree(body));
    }

    /** An already serialised JSON document. */
    static Reply rawJson(String json) {
        return new Body(200, "application/json; charset=utf-8", json.getBytes(StandardCharsets.UTF_8));
    }

    /** An already serialised JSON document, as UTF-8 bytes. */
    static Reply rawJson(byte[] json) {
        return new Body(200, "application/json; charset=utf-8", json);
    }

    /** A bare string, which Express sends as {@code text/html}; the frontend reads it with {@code text()}. */
    static Reply text(String body) {
        return new Body(200, "text/html; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
    }

    /** A bare string with another status ({@code res.status(n).send(text)}). */
    static Reply text(int status, String body) {
        return new Body(status, "text/html; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
    }

    /** Express's sendStatus: the reason phrase as plain text, or nothing for 204. */
    static Reply status(int status) {
        if (status == 204) {
            return new Body(204, null, new byte[0]);
        }
        String phrase = HttpResponseStatus.valueOf(status).reasonPhrase();
        return new Body(status, "text/plain; charset=utf-8", phrase.getBytes(StandardCharsets.UTF_8));
    }

    static Reply noContent() {
        return status(204);
    }

    static Reply ok() {
        return status(200);
    }

    /**
     * A file download ({@code Content-Disposition: attachment}); the name is encoded as JavaScript's
     * {@code encodeURI} would, which is what ST puts in the header.
     */
    static Reply attachment(String contentType, String fileName, byte[] bytes) {
        return new Attachment(new Body(200, contentType, bytes),
                "attachment; filename=\"" + ContentDisposition.encodeUri(fileName) + "\"");
    }

    /** A reply sent as Express's {@code res.attachment(fileName)} sends it: content-disposition's encoding of the name. */
    static Reply attachment(String fileName, Reply reply) {
        return new Attachment(reply, ContentDisposition.attachment(fileName));
    }

    record Attachment(Reply reply, String disposition) implements Reply {
        @Override
        public void writeTo(HttpServerResponse response) {
            response.putHeader("Content-Disposition", disposition);
            reply.writeTo(response);
        }
    }

    /**
     * A body written piece by piece on a stream thread ({@link StreamThreads}), with backpressure, so its size has
     * no ceiling. Whatever must be able to fail with a proper error should be done before the reply is returned:
     * once the first bytes are out, a failure can only cut the connection.
     */
    static Reply stream(String contentType, StreamBody body) {
        return new Streamed(contentType, -1, body);
    }

    /** {@link #stream(String, StreamBody)} of a body whose length is known: sent with a Content-Length. */
    static Reply stream(String contentType, long length, StreamBody body) {
        return new Streamed(contentType, length, body);
    }

    @FunctionalInterface
    interface StreamBody {
        void writeTo(OutputStream out) throws IOException;
    }

    record Streamed(String contentType, long length, StreamBody body) implements Reply {
        @Override
        public void writeTo(HttpServerResponse response) {
            writeOnStreamThread(response, body, () -> {
                response.setStatusCode(200).putHeader("Content-Type", contentType);
                if (length >= 0) {
                    response.putHeader("Content-Length", String.valueOf(length));
                } else {
                    response.setChunked(true);
                }
            });
        }
    }

    /**
     * A stored file sent as Express's {@code res.download} sends it: {@code Content-Disposition: attachment}
     * (content-disposition's encoding of the name), the type by extension, its length and mtime. The bytes
     * are streamed as {@link #stream} streams them, so the file's size has no ceiling; {@code length} must be exact.
     */
    static Reply download(String fileName, long length, long modifiedMs, StreamBody body) {
        return new Download(fileName, length, modifiedMs, body);
    }

    record Download(String fileName, long length, long modifiedMs, StreamBody body) implements Reply {
        @Override
        public void writeTo(HttpServerResponse response) {
            writeOnStreamThread(response, body, () -> response.setStatusCode(200)
                    .putHeader("Content-Disposition", ContentDisposition.attachment(fileName))
                    .putHeader("Cache-Control", "public, max-age=0")
                    .putHeader("Last-Modified", FileSender.httpDate(modifiedMs))
                    .putHeader("Content-Type", MimeTypes.contentType(fileName))
                    .putHeader("Content-Length", Long.toString(length)));
        }
    }

    /**
     * Sets the head and writes the body on a stream thread (responses may be written from any thread), or
     * answers 503 when every stream thread is busy. A body refused so is still run, into a stream closed as if
     * its client had gone before the first byte: that is how it lets go of what it holds (open files, a temp file).
     */
    private static void writeOnStreamThread(HttpServerResponse response, StreamBody body, Runnable head) {
        Context context = Vertx.currentContext();
        try {
            StreamThreads.run(context, () -> {
                head.run();
                try (ResponseStream out = new ResponseStream(response)) {
                    body.writeTo(out);
                }
                return null;
            }).onFailure(e -> {
                LoggerFactory.getLogger(Reply.class).warn("A streamed response failed: {}", e.toString());
                response.reset();
            });
        } catch (Refusal busy) {
            response.headers().remove("Content-Disposition"); // an attachment's: this answer is no file
            json(FailureHandler.status(busy), JsJson.object().put("error", busy.getMessage())).writeTo(response);
            context.executeBlocking(() -> {
                OutputStream gone = OutputStream.nullOutputStream();
                gone.close(); // its writes throw from now on
                body.writeTo(gone);
                return null;
            }, false);
        }
    }

    record Body(int status, String contentType, byte[] bytes) implements Reply {
        @Override
        public void writeTo(HttpServerResponse response) {
            response.setStatusCode(status);
            if (contentType != null) {
                response.putHeader("Content-Type", contentType);
            }
            response.end(Buffer.buffer(bytes));
        }
    }
}
