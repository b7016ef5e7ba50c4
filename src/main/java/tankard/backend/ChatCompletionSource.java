package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import tankard.http.Reply;
import tankard.json.JsJson;

import java.util.concurrent.Callable;

/**
 * One {@code chat_completion_source} of ST's Chat Completion API (st-backends.md §2.3): how its upstream is
 * reached for {@code /generate} and {@code /status}. The HTTP side (relaying, error shapes) is shared and lives
 * in {@link ChatCompletionsFeature}; a source with a dedicated sender in ST (§2.5) overrides the answers.
 */
public interface ChatCompletionSource {
    /** The value of {@code chat_completion_source} this source answers. */
    String id();

    /** The upstream completion call for the frontend's generate body. */
    UpstreamRequest generate(ObjectNode body, SecretReader secrets);

    /** The upstream model-list call for the frontend's status body. */
    UpstreamRequest models(ObjectNode body, SecretReader secrets);

    /** The answer to a non-streamed completion the upstream sent whole (default: ST's generic path, §2.4). */
    default Reply completion(HttpClientResponse head, Buffer body) {
        return ChatCompletionsFeature.completion(head, body);
    }

    /** The answer when the upstream could not be called or read, before anything was sent (default: 502). */
    default Reply failure(Throwable failure) {
        return ChatCompletionsFeature.networkError(failure);
    }

    /** The status answer from the upstream's model list (default: its JSON as is, or ST's error shape). */
    default JsonNode modelList(HttpClientResponse head, Buffer body) {
        return ChatCompletionsFeature.models(head, body);
    }

    /** The calls a status answer may make: upstream fetches tied to the browser's request, work off the event loop. */
    interface StatusCalls {
        Future<UpstreamClient.Fetched> fetch(UpstreamRequest call);

        <T> Future<T> worker(Callable<T> work);
    }

    /**
     * The {@code /status} answer from the model-list call of {@link #models}: by default {@link #modelList} of
     * its answer; a failure is answered with {@link #statusFailure}. Sources whose check takes more calls
     * (Azure) override it.
     */
    default Future<Reply> status(ObjectNode body, UpstreamRequest models, StatusCalls calls) {
        return calls.fetch(models).compose(answer -> calls.worker(() -> Reply.json(modelList(answer.head(), answer.body()))));
    }

    /** The status answer when the model list could not be fetched. */
    default JsonNode statusFailure() {
        return JsJson.object().put("error", true);
    }
}
