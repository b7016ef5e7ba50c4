package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import tankard.backend.common.SecretReader;
import tankard.outbound.UpstreamClient.Fetched;
import tankard.outbound.UpstreamRequest;

import java.util.concurrent.Callable;

/**
 * One {@code chat_completion_source} of ST's Chat Completion API (src/endpoints/backends/chat-completions.js): how
 * its upstream is
 * reached for {@code /generate} and {@code /status}, and what the frontend is answered, as values the route
 * ({@link ChatCompletionsFeature}) sends; a source with a dedicated sender in ST overrides the answers.
 */
public interface ChatCompletionSource {
    /** The value of {@code chat_completion_source} this source answers. */
    String id();

    /** The upstream completion call for the frontend's generate body. */
    SourceStep generate(ObjectNode body, SecretReader secrets);

    /** The upstream model-list call for the frontend's status body. */
    SourceStep models(ObjectNode body, SecretReader secrets);

    /** The answer to a non-streamed completion the upstream sent whole (default: ST's generic path). */
    default JsonAnswer completion(Fetched answer) {
        return CompletionErrors.GENERIC.completion(answer);
    }

    /** The answer when the upstream could not be called or read, before anything was sent (default: 502). */
    default JsonAnswer failure(Throwable failure) {
        return CompletionErrors.GENERIC.failure(failure);
    }

    /** The status answer from the upstream's model list (default: its JSON as is, or ST's error shape). */
    default JsonNode modelList(Fetched answer) {
        return OpenAiCompatible.modelList(answer);
    }

    /** The calls a status answer may make: upstream fetches tied to the browser's request, work off the event loop. */
    interface StatusCalls {
        Future<Fetched> fetch(UpstreamRequest call);

        <T> Future<T> worker(Callable<T> work);
    }

    /**
     * The {@code /status} answer from the model-list call of {@link #models}: by default {@link #modelList} of
     * its answer; when it fails, the route answers {@link #statusFailure}. Sources whose check takes more calls
     * (Azure) override it.
     */
    default Future<JsonAnswer> status(ObjectNode body, UpstreamRequest models, StatusCalls calls) {
        return calls.fetch(models).compose(answer -> calls.worker(() -> JsonAnswer.ok(modelList(answer))));
    }

    /** The status answer when the model list could not be fetched. */
    default JsonNode statusFailure() {
        return JsonAnswer.errorTrue();
    }
}
