package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.http.HttpClientResponse;
import tankard.http.Reply;
import tankard.json.JsJson;

/** ST's answers to a non-streamed completion that failed, which differ between its senders (st-backends.md §2.4, §2.5). */
public enum CompletionErrors {
    /**
     * The generic path: 200 with the upstream's reason and whether the quota ran out; a call that failed or an
     * answer that is not JSON is 502 with the reason.
     */
    GENERIC {
        @Override
        Reply rejected(HttpClientResponse from, byte[] body) {
            JsonNode error = JsJson.tryParse(body);
            boolean quotaError = from.statusCode() == 429 && error != null
                    && "insufficient_quota".equals(error.path("error").path("type").asText(null));
            return Reply.json(message(reason(from)).put("quota_error", quotaError));
        }

        @Override
        Reply failed(String message) {
            return Reply.json(502, message(message));
        }
    },
    /** ST's dedicated senders (Mistral, DeepSeek, xAI...): 500 with the upstream's JSON, else {@code {error:true}}. */
    DEDICATED {
        @Override
        Reply rejected(HttpClientResponse from, byte[] body) {
            JsonNode error = JsJson.tryParse(body);
            return Reply.json(500, error != null && !error.isNull() ? error : JsJson.object().put("error", true));
        }

        @Override
        Reply failed(String message) {
            return Reply.json(JsJson.object().put("error", true));
        }
    },
    /** Azure OpenAI: 500 with the upstream's JSON or its reason; 500 with the reason when the call failed. */
    AZURE {
        @Override
        Reply rejected(HttpClientResponse from, byte[] body) {
            JsonNode error = JsJson.tryParse(body);
            return Reply.json(500, error != null && !error.isNull() ? error : message(reason(from)));
        }

        @Override
        Reply failed(String message) {
            return Reply.json(500, message(message));
        }
    };

    /** The upstream answered with a non-2xx status. */
    abstract Reply rejected(HttpClientResponse from, byte[] body);

    /** The call failed, or its answer could not be read as JSON. */
    abstract Reply failed(String message);

    static ObjectNode message(String message) {
        ObjectNode error = JsJson.object();
        error.set("error", JsJson.object().put("message", message));
        return error;
    }

    private static String reason(HttpClientResponse from) {
        String reason = from.statusMessage();
        return reason == null || reason.isEmpty() ? "Unknown error occurred" : reason;
    }
}
