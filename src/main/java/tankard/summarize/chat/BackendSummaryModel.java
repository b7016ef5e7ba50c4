package tankard.summarize.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.backend.Completions;
import tankard.json.JsJson;
import tankard.summarize.SummaryModel;
import tankard.tokenizer.Tokenizer;

import java.util.List;

/**
 * The user's main backend as a summarization model: each summary is one non-streamed completion, built from the
 * connection's own generate body (as ST's frontend sends it) with the summary instruction as the system turn and
 * the text as one user message, wrapped in the instruct template for text completions. Tokens are counted with
 * the model's tokenizer; the input window is what the context leaves after the output limit and the prompt.
 */
final class BackendSummaryModel implements SummaryModel {
    /** Tokens kept free for what the count cannot see (message framing, special tokens), as ST's extension pads. */
    static final int PADDING = 64;
    /** Generate-body fields a summary request must not carry over from the connection. */
    private static final List<String> DROPPED = List.of("assistant_prefill", "tools", "tool_choice", "json_schema",
            "n", "logprobs", "stop", "stopping_strings", "messages", "prompt", "stream");
    private static final List<String> TEXT_LENGTH_FIELDS = List.of("max_tokens", "max_new_tokens", "n_predict",
            "num_predict");

    private final Completions completions;
    private final String user;
    private final SummaryOptions options;
    private final Tokenizer tokenizer;
    private final InstructTemplate template;
    private final String focus;
    private final int maxTokens;
    private final int contextSize;

    BackendSummaryModel(Completions completions, String user, SummaryOptions options, Tokenizer tokenizer,
                        String userName, String charName) {
        this.completions = completions;
        this.user = user;
        this.options = options;
        this.tokenizer = tokenizer;
        this.template = options.instruct() == null ? null : new InstructTemplate(options.instruct(), userName, charName);
        this.focus = options.focus();
        ModelLimits.Limits known = ModelLimits.of(options.model());
        this.maxTokens = known == null ? options.maxTokens() : Math.min(options.maxTokens(), known.output());
        this.contextSize = contextSize(options, known);
    }

    /** The request's context size, else the text-completion body's, else the known model's, else a default. */
    private static int contextSize(SummaryOptions options, ModelLimits.Limits known) {
        if (options.contextSize() != null) {
            return options.contextSize();
        }
        for (String field : new String[] {"truncation_length", "max_context_length", "num_ctx"}) {
            JsonNode value = options.backend().get(field);
            if (value != null && value.canConvertToInt() && value.intValue() > 0) {
                return value.intValue();
            }
        }
        return known == null ? SummaryOptions.DEFAULT_CONTEXT : known.context();
    }

    @Override
    public int countTokens(String text) {
        return tokenizer.encode(text).length;
    }

    /** What the context leaves for the text of a chunk summary (no summary so far). */
    @Override
    public int inputWindow() {
        return window(null);
    }

    /** What the context leaves for the text, once the instruction, framing and the summary so far are in. */
    int window(String previous) {
        String frame = prompt(SummaryPrompt.instruction(focus, previous != null), SummaryPrompt.content(previous, ""));
        return Math.max(0, contextSize - maxTokens - countTokens(frame) - PADDING);
    }

    /** Whether one request takes the conversation and the summary so far. */
    boolean fits(String previous, String conversation) {
        return countTokens(conversation) <= window(previous);
    }

    /** A summary of a part of the conversation, or of joined summaries (summary of summaries). */
    @Override
    public String summarize(String text) {
        return summarize(null, text);
    }

    /** One request: the text merged into the summary so far (null: none); the summary, or a SummaryFailure. */
    String summarize(String previous, String text) {
        String instruction = SummaryPrompt.instruction(focus, previous != null);
        String content = SummaryPrompt.content(previous, text);
        Completions.Answer answer;
        try {
            answer = options.textCompletion() ? completions.text(user, textBody(instruction, content))
                    : completions.chat(user, chatBody(instruction, content));
        } catch (Completions.Unreachable e) {
            throw new SummaryFailure(SummaryFailure.Reason.UPSTREAM, "The backend could not be reached: " + e.getMessage());
        }
        return SummaryAnswers.summary(answer, maxTokens);
    }

    /** The prompt as the token count sees it: the wrapped text, or the two messages' texts. */
    private String prompt(String instruction, String content) {
        return template != null ? template.prompt(instruction, content) : instruction + "\n\n" + content;
    }

    ObjectNode chatBody(String instruction, String content) {
        ObjectNode body = connection();
        ArrayNode messages = body.putArray("messages");
        messages.addObject().put("role", "system").put("content", instruction);
        messages.addObject().put("role", "user").put("content", content);
        body.put("type", "quiet").put("stream", false).put("max_tokens", maxTokens);
        if (body.has("max_completion_tokens")) {
            body.put("max_completion_tokens", maxTokens);
        }
        return body;
    }

    ObjectNode textBody(String instruction, String content) {
        ObjectNode body = connection();
        // without a template, ST's plain layout for a raw prompt: the instruction, then the text
        body.put("prompt", template != null ? template.prompt(instruction, content) : instruction + "\n" + content + "\n");
        body.put("stream", false);
        TEXT_LENGTH_FIELDS.forEach(field -> body.put(field, maxTokens));
        if (template != null) {
            ArrayNode stops = JsJson.array();
            template.stopStrings().forEach(stops::add);
            body.set("stop", stops);
            body.set("stopping_strings", stops.deepCopy());
        }
        return body;
    }

    private ObjectNode connection() {
        ObjectNode body = options.backend().deepCopy();
        DROPPED.forEach(body::remove);
        return body;
    }
}
