package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import tankard.http.Reply;
import tankard.json.JsJson;

import java.util.concurrent.Callable;

/**
 * One {@code chat_completion_source} of ST's Chat Completion API (st-backends.md §2.3): how its upstream is
 * reached for {@code /generate} and {@code /status}. The HTTP side (relaying) is shared and lives in
 * {@link ChatCompletionsFeature}. A source that must answer without calling upstream (no key, say) throws
 * {@link Proxying.Answered} with ST's reply.
 */
public interface ChatCompletionSource {
    /** The value of {@code chat_completion_source} this source answers. */
    String id();

    /** The upstream completion call for the frontend's generate body. */
    UpstreamRequest generate(ObjectNode body, SecretReader secrets);

    /** The upstream model-list call for the frontend's status body. */
    UpstreamRequest models(ObjectNode body, SecretReader secrets);

    /** The calls a status answer may make: upstream fetches tied to the browser's request, work off the event loop. */
    interface StatusCalls {
        Future<UpstreamClient.Fetched> fetch(UpstreamRequest call);

        <T> Future<T> worker(Callable<T> work);
    }

    /**
     * The {@code /status} answer from the model-list call of {@link #models}: the list reshaped by
     * {@link #modelList}, or ST's {@code {error:true,data:{data:[]}}} when the upstream refuses; a failure is
     * answered {@code {error:true}} by the caller. Sources whose check takes more calls override it.
     */
    default Future<Reply> status(ObjectNode body, UpstreamRequest models, StatusCalls calls) {
        return calls.fetch(models).compose(answer -> calls.worker(() -> answer.ok()
                ? Reply.json(modelList(JsJson.parse(answer.body().getBytes())))
                : Reply.json(JsJson.object().put("error", true).set("data", JsJson.object().set("data", JsJson.array())))));
    }

    /** The upstream's model list as the frontend gets it (some sources reshape it). */
    default JsonNode modelList(JsonNode upstream) {
        return upstream;
    }

    /** How failed non-streamed completions are answered: ST's generic path by default. */
    default CompletionErrors errors() {
        return CompletionErrors.GENERIC;
    }
}
