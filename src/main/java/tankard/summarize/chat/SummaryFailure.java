package tankard.summarize.chat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.core.Refusal;
import tankard.json.JsJson;

/**
 * A summary that could not be made, and why: the answer is {@code {error: message, reason}} with the kind's status, and
 * nothing is stored.
 */
public final class SummaryFailure extends Refusal {
    /** Why no summary came back; the {@code reason} of the error answer. */
    public enum Reason {
        /** The backend answered, but with no text. */
        EMPTY("empty"),
        /** The answer was cut off by the output limit: a summary missing its end is not stored. */
        LENGTH("length"),
        /** The backend refused or failed the request, could not be reached, or answered something unreadable. */
        UPSTREAM("upstream");

        private final String code;

        Reason(String code) {
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    private final Reason reason;

    SummaryFailure(Reason reason, String message) {
        super(Kind.UPSTREAM, message);
        this.reason = reason;
    }

    public ObjectNode json() {
        return JsJson.object().put("error", getMessage()).put("reason", reason.code());
    }
}
