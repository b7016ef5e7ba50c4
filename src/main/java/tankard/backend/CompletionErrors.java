package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import tankard.http.Reply;
import tankard.json.JsJson;

/** The error answers of ST's dedicated OpenAI-shaped senders (st-backends.md §2.5.4–2.5.8); the generic path's are the feature's. */
public enum CompletionErrors {
    /** ST's dedicated senders (Mistral, DeepSeek, xAI...): 500 with the upstream's JSON, else {@code {error:true}}. */
    DEDICATED {
        @Override
        Reply rejected(HttpClientResponse from, byte[] body) {
            JsonNode error = JsJson.tryParse(body);
            return Reply.json(500, error != null && !error.isNull() ? error : DedicatedSenders.errorTrue());
        }

        @Override
        Reply failed(String message) {
            return Reply.json(DedicatedSenders.errorTrue());
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

    /** A whole non-streamed answer: the upstream's JSON, or this sender's error shape. */
    Reply completion(HttpClientResponse from, Buffer body) {
        if (!UpstreamClient.isOk(from)) {
            return rejected(from, body.getBytes());
        }
        JsonNode json = JsJson.tryParse(body.getBytes());
        return json == null ? failed("The backend sent an answer that is not JSON") : Reply.json(json);
    }

    /** A call that failed before anything was sent. */
    Reply failure(Throwable failure) {
        return failed(failure.getMessage() == null ? "Unknown error occurred" : failure.getMessage());
    }

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
