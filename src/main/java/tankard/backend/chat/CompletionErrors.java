package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.http.HttpClientResponse;
import tankard.json.JsJson;
import tankard.outbound.OutboundPolicy;
import tankard.outbound.UpstreamClient;

/**
 * How ST's chat-completion senders answer a non-streamed completion and a call that failed: the generic path's
 * shapes, the dedicated OpenAI-shaped senders' and Azure's.
 */
enum CompletionErrors {
    /**
     * ST's generic path: an error status as 200 with its reason and whether the quota ran out, an answer that is not
     * JSON and a failed call as 502 with the message.
     */
    GENERIC {
        @Override
        JsonAnswer rejected(HttpClientResponse from, byte[] body) {
            JsonNode error = JsJson.tryParse(body);
            boolean quotaError = from.statusCode() == 429 && error != null
                    && "insufficient_quota".equals(error.path("error").path("type").asText(null));
            return JsonAnswer.ok(JsonAnswer.errorMessage(reason(from)).put("quota_error", quotaError));
        }

        @Override
        JsonAnswer failed(String message) {
            return new JsonAnswer(502, JsonAnswer.errorMessage(message));
        }

        @Override
        JsonAnswer failure(Throwable failure) {
            JsonAnswer answer = super.failure(failure);
            if (failure instanceof OutboundPolicy.Refused) {
                ((ObjectNode) answer.body().get("error")).put("type", "system"); // node-fetch's FetchError, spread by ST
            }
            return answer;
        }
    },
    /** ST's dedicated senders (Mistral, DeepSeek, xAI...): 500 with the upstream's JSON, else {@code {error:true}}. */
    DEDICATED {
        @Override
        JsonAnswer rejected(HttpClientResponse from, byte[] body) {
            JsonNode error = JsJson.tryParse(body);
            return new JsonAnswer(500, error != null && !error.isNull() ? error : JsonAnswer.errorTrue());
        }

        @Override
        JsonAnswer failed(String message) {
            return JsonAnswer.ok(JsonAnswer.errorTrue());
        }
    },
    /** Azure OpenAI: 500 with the upstream's JSON or its reason; 500 with the reason when the call failed. */
    AZURE {
        @Override
        JsonAnswer rejected(HttpClientResponse from, byte[] body) {
            JsonNode error = JsJson.tryParse(body);
            return new JsonAnswer(500, error != null && !error.isNull() ? error : JsonAnswer.errorMessage(reason(from)));
        }

        @Override
        JsonAnswer failed(String message) {
            return new JsonAnswer(500, JsonAnswer.errorMessage(message));
        }
    };

    /** A whole non-streamed answer: the upstream's JSON, or this sender's error shape. */
    JsonAnswer completion(UpstreamClient.Fetched answer) {
        if (!answer.ok()) {
            return rejected(answer.head(), answer.body().getBytes());
        }
        JsonNode json = JsJson.tryParse(answer.body().getBytes());
        return json == null ? failed("The backend sent an answer that is not JSON") : JsonAnswer.ok(json);
    }

    /** A call that failed before anything was sent. */
    JsonAnswer failure(Throwable failure) {
        return failed(failure.getMessage() == null ? "Unknown error occurred" : failure.getMessage());
    }

    /** The upstream answered with a non-2xx status. */
    abstract JsonAnswer rejected(HttpClientResponse from, byte[] body);

    /** The call failed, or its answer could not be read as JSON. */
    abstract JsonAnswer failed(String message);

    private static String reason(HttpClientResponse from) {
        String reason = from.statusMessage();
        return reason == null || reason.isEmpty() ? "Unknown error occurred" : reason;
    }
}
