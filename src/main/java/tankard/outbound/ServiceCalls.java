package tankard.outbound;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerResponse;
import tankard.core.Refusal;
import tankard.json.JsJson;

import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * Calls to a web service whose whole answer a route needs (translation, speech, captioning...), through the one
 * {@link UpstreamClient}, and how their failures are told: an address the private-address filter refuses is 403,
 * anything else that goes wrong upstream is ST's 500, with a message naming the service and quoting its answer.
 */
public final class ServiceCalls {
    /** How much of an error answer is quoted in the message. */
    private static final int QUOTED_CHARS = 300;
    /** Far more than any of these services answers; what is larger is not read. */
    private static final long MAX_BYTES = 16L << 20;

    private final UpstreamClient client;

    public ServiceCalls(UpstreamClient client) {
        this.client = client;
    }

    /** The answer of a call, which must have a 2xx status. */
    public CompletionStage<UpstreamClient.Fetched> send(String service, UpstreamRequest call) {
        return send(service, call, MAX_BYTES);
    }

    /** As {@link #send(String, UpstreamRequest)}, for an answer of up to {@code maxBytes} (generated images). */
    public CompletionStage<UpstreamClient.Fetched> send(String service, UpstreamRequest call, long maxBytes) {
        return checked(service, client.fetch(call, maxBytes));
    }

    /**
     * As {@link #send(String, UpstreamRequest, long)} for a browser that waits on it: if the browser disconnects
     * first, the call is reset and {@code onBrowserGone} runs.
     */
    public CompletionStage<UpstreamClient.Fetched> send(String service, UpstreamRequest call, long maxBytes,
                                                        HttpServerResponse browser, Runnable onBrowserGone) {
        return checked(service, client.fetch(call, maxBytes, browser, onBrowserGone));
    }

    /** Fires a call whose answer nobody waits for (an interrupt). */
    public void fire(UpstreamRequest call) {
        client.fire(call);
    }

    /** The answer of a call whatever its status, for a caller that reads the status (an error answer it relays). */
    public CompletionStage<UpstreamClient.Fetched> answer(String service, UpstreamRequest call) {
        return answer(service, call, MAX_BYTES);
    }

    /** As {@link #answer(String, UpstreamRequest)}, of up to {@code maxBytes}. */
    public CompletionStage<UpstreamClient.Fetched> answer(String service, UpstreamRequest call, long maxBytes) {
        return reached(service, client.fetch(call, maxBytes));
    }

    /** A failure naming the service, its status and its answer: ST's 500. */
    public static Refusal failure(String service, UpstreamClient.Fetched answer) {
        return Refusal.failed(service + " answered " + answer.status() + " " + answer.head().statusMessage()
                + ": " + quoted(answer.body().toString()));
    }

    private static CompletionStage<UpstreamClient.Fetched> checked(String service, Future<UpstreamClient.Fetched> call) {
        return reached(service, call).thenApply(answer -> {
            if (!answer.ok()) {
                throw failure(service, answer);
            }
            return answer;
        });
    }

    private static CompletionStage<UpstreamClient.Fetched> reached(String service, Future<UpstreamClient.Fetched> call) {
        return call.toCompletionStage().handle((answer, failure) -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                if (cause instanceof OutboundPolicy.Refused) {
                    throw Refusal.forbidden(cause.getMessage());
                }
                if (cause instanceof UpstreamClient.UpstreamException e && e.invalidUrl()) {
                    throw Refusal.badRequest(service + ": " + cause.getMessage());
                }
                throw Refusal.upstream(service + " could not be reached: " + cause.getMessage());
            }
            return answer;
        });
    }

    /** The answer's body as JSON. */
    public static JsonNode json(String service, UpstreamClient.Fetched answer) {
        JsonNode json = JsJson.tryParse(answer.body().getBytes());
        if (json == null) {
            throw Refusal.failed(service + " answered something that is not JSON: " + quoted(answer.body().toString()));
        }
        return json;
    }

    /** A text field of the service's answer; {@code what} names it in the failure. */
    public static String text(String service, JsonNode field, String what) {
        if (field == null || !field.isTextual()) {
            throw Refusal.failed(service + " answered without " + what);
        }
        return field.textValue();
    }

    /** The start of a service's answer, for a message. */
    public static String quoted(String text) {
        return text.length() <= QUOTED_CHARS ? text : text.substring(0, QUOTED_CHARS) + "…";
    }
}
