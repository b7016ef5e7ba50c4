package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import tankard.json.JsJson;

import java.util.function.Supplier;

/**
 * One call to an AI backend, as a source builds it: method, absolute URL, headers and body (null: none); or a call
 * that an asynchronous step must make first ({@link #later}).
 */
public record UpstreamRequest(HttpMethod method, String url, MultiMap headers, Buffer body,
                              Supplier<Future<UpstreamRequest>> pending) {
    public UpstreamRequest(HttpMethod method, String url, MultiMap headers, Buffer body) {
        this(method, url, headers, body, null);
    }

    /** A POST of a JSON body, laid out compactly as JSON.stringify does. */
    static UpstreamRequest post(String url, MultiMap headers, JsonNode body) {
        return new UpstreamRequest(HttpMethod.POST, url, headers, Buffer.buffer(JsJson.compactBytes(body)));
    }

    /**
     * A call known only once {@code make} has completed (Vertex AI's service-account token is fetched first), so
     * that no thread waits for that step; its failure is the call's failure.
     */
    static UpstreamRequest later(Supplier<Future<UpstreamRequest>> make) {
        return new UpstreamRequest(null, null, null, null, make);
    }

    /** The call to send: this one, or the one its pending step makes. */
    Future<UpstreamRequest> ready() {
        return pending == null ? Future.succeededFuture(this) : pending.get();
    }
}
