package tankard.summarize.chat;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.backend.Completions;
import tankard.json.Js;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * The summary text of a backend's whole (non-streamed) answer, in the shape each source family answers in:
 * OpenAI-compatible chat and text completions ({@code choices[0].message.content} / {@code .text}), Claude
 * ({@code content[]} text blocks), Google ({@code candidates[0].content.parts}, thoughts left out), Cohere v2
 * ({@code message.content[]}), llama.cpp ({@code content}), Ollama ({@code response}) and KoboldAI
 * ({@code results[0].text}). An answer that is no usable summary fails with its {@link SummaryFailure.Reason}.
 */
final class SummaryAnswers {
    /** What each family reports when the output limit cut the answer. */
    private static final Set<String> LENGTH_REASONS = Set.of("length", "max_tokens", "model_length", "limit");
    /** Reasoning some models write before the answer, which ST strips from summaries too. */
    private static final Pattern LEADING_THINKING = Pattern.compile("^\\s*<think(?:ing)?>.*?</think(?:ing)?>",
            Pattern.DOTALL);

    private SummaryAnswers() {
    }

    /** The trimmed summary of the answer; throws {@link SummaryFailure} when there is none to store. */
    static String summary(Completions.Answer answer, int maxTokens) {
        JsonNode json = answer.json();
        if (!answer.ok()) {
            throw new SummaryFailure(SummaryFailure.Reason.UPSTREAM, "The backend answered " + answer.status()
                    + ": " + errorMessage(json, answer));
        }
        if (json == null || !json.isObject()) {
            throw new SummaryFailure(SummaryFailure.Reason.UPSTREAM, "The backend's answer is not a JSON object");
        }
        if (Js.truthy(json.get("error"))) {
            // OpenRouter and some proxies answer 200 with an error object
            throw new SummaryFailure(SummaryFailure.Reason.UPSTREAM, "The backend answered with an error: "
                    + errorMessage(json, answer));
        }
        if (json.has("candidates") && json.path("candidates").isEmpty()) {
            JsonNode blocked = json.path("promptFeedback").get("blockReason");
            throw new SummaryFailure(SummaryFailure.Reason.UPSTREAM, "The backend returned no candidate"
                    + (Js.truthy(blocked) ? ": the prompt was blocked (" + Js.string(blocked) + ")" : ""));
        }
        String finish = finishReason(json);
        if (finish != null && LENGTH_REASONS.contains(finish.toLowerCase(java.util.Locale.ROOT))
                || json.path("stopped_limit").asBoolean(false)) {
            throw new SummaryFailure(SummaryFailure.Reason.LENGTH, "The summary was cut off at the output limit ("
                    + maxTokens + " tokens); nothing was stored. Raise max_tokens or ask for a shorter summary");
        }
        String text = LEADING_THINKING.matcher(text(json)).replaceFirst("").trim();
        if (text.isEmpty()) {
            throw new SummaryFailure(SummaryFailure.Reason.EMPTY, "The backend answered with an empty summary"
                    + (finish == null ? "" : " (finish reason: " + finish + ")"));
        }
        return text;
    }

    private static String text(JsonNode json) {
        JsonNode choice = json.path("choices").path(0);
        if (!choice.isMissingNode()) {
            JsonNode content = choice.path("message").get("content");
            return content != null ? joined(content) : choice.path("text").asText("");
        }
        if (json.get("candidates") != null) {
            StringBuilder text = new StringBuilder();
            for (JsonNode part : json.path("candidates").path(0).path("content").path("parts")) {
                if (!Js.truthy(part.get("thought")) && part.path("text").isTextual()) {
                    text.append(text.isEmpty() ? "" : "\n\n").append(part.get("text").textValue());
                }
            }
            return text.toString();
        }
        if (json.path("message").has("content")) {
            return joined(json.path("message").get("content")); // Cohere v2
        }
        if (json.has("content")) {
            return joined(json.get("content")); // Claude's blocks, llama.cpp's string
        }
        if (json.has("response")) {
            return json.path("response").asText(""); // Ollama
        }
        return json.path("results").path(0).path("text").asText(""); // KoboldAI
    }

    /** A string, or the text of an array of content blocks (reasoning blocks left out). */
    private static String joined(JsonNode content) {
        if (content.isTextual()) {
            return content.textValue();
        }
        StringBuilder text = new StringBuilder();
        for (JsonNode block : content) {
            String type = block.path("type").asText("text");
            if (type.equals("text") && block.path("text").isTextual()) {
                text.append(block.get("text").textValue());
            }
        }
        return text.toString();
    }

    private static String finishReason(JsonNode json) {
        for (JsonNode reason : new JsonNode[] {json.path("choices").path(0).get("finish_reason"),
                json.get("stop_reason"), json.path("candidates").path(0).get("finishReason"), json.get("finish_reason"),
                json.get("done_reason"), json.get("stop_type"), json.path("results").path(0).get("finish_reason")}) {
            if (reason != null && reason.isTextual()) {
                return reason.textValue();
            }
        }
        return null;
    }

    /** The error's message in the answer (null: not JSON), else the HTTP reason. */
    private static String errorMessage(JsonNode json, Completions.Answer answer) {
        JsonNode error = json == null ? null : json.get("error");
        if (error != null && error.path("message").isTextual()) {
            return error.get("message").textValue();
        }
        if (error != null && error.isTextual()) {
            return error.textValue();
        }
        if (json != null && json.path("message").isTextual()) {
            return json.get("message").textValue();
        }
        return answer.reason() == null || answer.reason().isEmpty() ? "no error message" : answer.reason();
    }
}
