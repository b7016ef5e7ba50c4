package tankard.backend.chat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.backend.common.SecretReader;

/**
 * A source ST has switched off (CometAPI: its branches of src/endpoints/backends/chat-completions.js throw "This
 * provider is temporarily disabled."): generate answers 502 with that message, status ST's {@code {error: true}}.
 */
final class DisabledSource implements ChatCompletionSource {
    private final String id;

    DisabledSource(String id) {
        this.id = id;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public SourceStep generate(ObjectNode body, SecretReader secrets) {
        return new SourceStep.Answered(new JsonAnswer(502, JsonAnswer.errorMessage("This provider is temporarily disabled.")));
    }

    @Override
    public SourceStep models(ObjectNode body, SecretReader secrets) {
        return new SourceStep.Answered(JsonAnswer.ok(JsonAnswer.errorTrue()));
    }
}
