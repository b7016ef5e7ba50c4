package tankard.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.JsJson;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Token counts of chat messages the way ST's {@code /api/tokenizers/openai/count} computes them. */
public final class ChatTokenCounter {
    private ChatTokenCounter() {
    }

    /** ST's estimate when tokenizing fails: one token per 3.35 bytes of UTF-8. */
    public static int guess(String text) {
        return (int) Math.ceil(text.getBytes(StandardCharsets.UTF_8).length / 3.35);
    }

    /** Tokens of {@code messages} (a JSON array of {@code {role, content, name?}}) for {@code model}. */
    public static int count(Tokenizers tokenizers, String model, JsonNode messages) {
        if (!messages.isArray()) {
            return guess(JsJson.compact(messages));
        }
        Tokenizer tokenizer = tokenizers.forCount(model);
        return switch (tokenizer.family()) {
            case HUGGINGFACE -> tokenizer.encode(claudePrompt(messages)).length;
            case SENTENCEPIECE -> tokenizer.encode(joinedValues(messages)).length;
            case TIKTOKEN -> openAi(tokenizer, model, messages);
        };
    }

    /** OpenAI's rule: per message 3 tokens plus its values, 1 per name; 3 for the reply priming. */
    private static int openAi(Tokenizer tokenizer, String model, JsonNode messages) {
        boolean legacy = model.contains("gpt-3.5-turbo-0301");
        int perMessage = legacy ? 4 : 3;
        int perName = legacy ? -1 : 1;
        int tokens = 0;
        for (JsonNode message : messages) {
            tokens += perMessage;
            for (Map.Entry<String, JsonNode> field : message.properties()) {
                if (!field.getValue().isTextual()) {
                    break; // ST's tokenizer throws on a non-string and skips the rest of the message
                }
                tokens += tokenizer.encode(field.getValue().textValue()).length;
                if (field.getKey().equals("name")) {
                    tokens += perName;
                }
            }
        }
        return tokens + 3 + (legacy ? 9 : 0);
    }

    /** SentencePiece models count every value of every message joined by blank lines. */
    private static String joinedValues(JsonNode messages) {
        List<String> values = new ArrayList<>();
        for (JsonNode message : messages) {
            message.forEach(value -> values.add(jsText(value)));
        }
        return String.join("\n\n", values);
    }

    /**
     * The Human/Assistant text ST renders for Claude-style counting (its convertClaudePrompt without
     * system-prompt support, prefill or prefix exclusion).
     */
    static String claudePrompt(JsonNode messages) {
        List<String> roles = new ArrayList<>();
        List<String> contents = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (JsonNode message : messages) {
            String content = jsText(message.get("content"));
            if (message.hasNonNull("tool_calls")) {
                content += JsJson.compact(message.get("tool_calls"));
            }
            roles.add(message.path("role").asText(""));
            contents.add(content);
            names.add(message.hasNonNull("name") ? jsText(message.get("name")) : "");
        }
        if (!roles.isEmpty()) {
            roles.set(0, "user");
            int firstAssistant = -1;
            for (int i = 1; i < roles.size(); i++) {
                if (roles.get(i).equals("assistant")) {
                    firstAssistant = i;
                    break;
                }
            }
            if (firstAssistant > 0) {
                int before = firstAssistant - 1;
                if (before != 0 && roles.get(before).equals("user")) {
                    roles.set(before, "FixHumMsg");
                }
            }
        }
        StringBuilder prompt = new StringBuilder();
        for (int i = 0; i < roles.size(); i++) {
            String role = roles.get(i);
            String name = names.get(i);
            String prefix = switch (role) {
                case "assistant" -> "\n\nAssistant: ";
                case "user" -> "\n\nHuman: ";
                case "system" -> i == 0 ? "" : name.equals("example_assistant") ? "\n\nA: "
                        : name.equals("example_user") ? "\n\nH: " : "\n\n";
                case "FixHumMsg" -> "\n\nFirst message: ";
                default -> "";
            };
            prompt.append(prefix);
            if (!name.isEmpty() && !role.equals("system")) {
                prompt.append(name).append(": ");
            }
            prompt.append(contents.get(i));
        }
        return prompt.toString();
    }

    /** A value as JavaScript's string conversion shows text; other values as their JSON. */
    private static String jsText(JsonNode value) {
        if (value == null || value.isNull()) {
            return "";
        }
        return value.isValueNode() ? value.asText() : JsJson.compact(value);
    }
}
