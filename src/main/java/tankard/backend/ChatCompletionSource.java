package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

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

    /** The upstream's model list as the frontend gets it (some sources reshape it). */
    default JsonNode modelList(JsonNode upstream) {
        return upstream;
    }

    /** How failed non-streamed completions are answered: ST's generic path by default. */
    default CompletionErrors errors() {
        return CompletionErrors.GENERIC;
    }
}
