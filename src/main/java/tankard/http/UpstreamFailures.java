package tankard.http;

import io.vertx.core.VertxException;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;

import java.io.IOException;
import java.net.URISyntaxException;

/** What a route that called a backend answers when the call failed. */
public final class UpstreamFailures {
    private UpstreamFailures() {
    }

    /**
     * The answer to a backend call that failed: 400 with the message when the URL it was given is malformed (the
     * input is at fault), 502 with the message when the backend could not be reached or broke off, and otherwise
     * ST's bare 500 (where ST answers every failure so; its frontend only checks {@code response.ok}).
     */
    public static Reply reply(Throwable failure) {
        return reply(failure, Reply.status(500));
    }

    /** As {@link #reply(Throwable)}, with the route's own answer to other failures. */
    public static Reply reply(Throwable failure, Reply otherwise) {
        if (failure instanceof UpstreamClient.UpstreamException e && e.invalidUrl()) {
            return Reply.json(400, JsJson.object().put("error", e.getMessage()));
        }
        if (failure instanceof URISyntaxException e) {
            return Reply.json(400, JsJson.object().put("error", "Invalid URL: " + e.getMessage()));
        }
        if (unreachable(failure)) {
            return Reply.json(502, JsJson.object().put("error", "The backend could not be reached: "
                    + failure.getMessage()));
        }
        return otherwise;
    }

    /** Whether the call failed to reach the backend or broke off (rather than the backend answering an error). */
    public static boolean unreachable(Throwable failure) {
        return failure instanceof UpstreamClient.UpstreamException || failure instanceof IOException
                || failure instanceof VertxException;
    }
}
