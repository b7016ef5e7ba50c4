package tankard.outbound;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import tankard.json.JsJson;

/** One call out: method, absolute URL, headers and body (null: none). */
public record UpstreamRequest(HttpMethod method, String url, MultiMap headers, Buffer body) {
    public static UpstreamRequest get(String url, MultiMap headers) {
        return new UpstreamRequest(HttpMethod.GET, url, headers, null);
    }

    /** A POST of a JSON body, laid out compactly as JSON.stringify does. */
    public static UpstreamRequest post(String url, MultiMap headers, JsonNode body) {
        return new UpstreamRequest(HttpMethod.POST, url, headers, Buffer.buffer(JsJson.compactBytes(body)));
    }
}
