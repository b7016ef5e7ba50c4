package tankard.backend;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;

/** One call to an AI backend, as a source builds it: method, absolute URL, headers and body (null: none). */
public record UpstreamRequest(HttpMethod method, String url, MultiMap headers, Buffer body) {
}
