package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import tankard.json.JsJson;

/** One call to an AI backend, as a source builds it: method, absolute URL, headers and body (null: none). */
public record UpstreamRequest(HttpMethod method, String url, MultiMap headers, Buffer body) {
    /** A POST of a JSON body, laid out compactly as JSON.stringify does. */
    static UpstreamRequest post(String url, MultiMap headers, JsonNode body) {
        return new UpstreamRequest(HttpMethod.POST, url, headers, Buffer.buffer(JsJson.compactBytes(body)));
    }
}
