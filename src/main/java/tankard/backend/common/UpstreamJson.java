package tankard.backend.common;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;

/**
 * Calls to a provider's JSON API whose whole answer is read (at most {@link #MAX_BYTES}) and parsed on a worker:
 * nothing waits on a thread meanwhile, and no large list is parsed on the event loop.
 */
public final class UpstreamJson {
    /** Model lists run to a few MB; a generated image comes back base64 in the JSON. */
    public static final long MAX_BYTES = 32L << 20;

    private final Vertx vertx;
    private final UpstreamClient upstream;

    public UpstreamJson(Vertx vertx, UpstreamClient upstream) {
        this.vertx = vertx;
        this.upstream = upstream;
    }

    /** An answer's status and JSON body (null when the body is not JSON). */
    public record Answer(int status, JsonNode json) {
        public boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    /** The call's answer, whatever its status; an unreachable or oversized one fails as {@link Refusal#upstream}. */
    public Future<Answer> call(UpstreamRequest call, String provider) {
        return upstream.fetch(call, MAX_BYTES)
                .recover(e -> Future.failedFuture(Refusal.upstream(provider + " could not be called: " + e.getMessage())))
                .compose(fetched -> vertx.executeBlocking(() ->
                        new Answer(fetched.status(), JsJson.tryParse(fetched.body().getBytes())), false));
    }
}
