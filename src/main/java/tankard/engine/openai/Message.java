package tankard.engine.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.List;

/** One chat completion message with its token count (ST: public/scripts/openai.js, class Message). */
final class Message implements ChatItem {
    private final String identifier;
    private final String role;
    private String content;
    private String name;
    private JsonNode signature;
    private ArrayNode toolCalls;
    private String reasoning;
    private int tokens;

    private Message(String role, String content, String identifier) {
        this.identifier = identifier;
        this.role = role == null || role.isEmpty() ? "system" : role;
        this.content = content;
    }

    /** Message.createAsync: a non-empty text content is counted. */
    static Message create(String role, String content, String identifier, MessageTokens counter) {
        Message message = new Message(role, content, identifier);
        if (content != null && !content.isEmpty()) {
            message.tokens = counter.count(JsJson.object().put("role", message.role).put("content", content));
        }
        return message;
    }

    /** Message.fromPromptAsync. */
    static Message fromPrompt(ManagedPrompt prompt, MessageTokens counter) {
        return create(prompt.role, prompt.content, prompt.identifier, counter);
    }

    /** setName: the message is counted again with its name. */
    void setName(String name, MessageTokens counter) {
        this.name = name;
        ObjectNode counted = JsJson.object().put("role", role);
        if (content != null) {
            counted.put("content", content);
        }
        if (name != null) {
            counted.put("name", name);
        }
        tokens = counter.count(counted);
    }

    /** Squashing appends another system message's text and counts the result again. */
    void append(String text, MessageTokens counter) {
        content = content + "\n" + text;
        tokens = counter.count(JsJson.object().put("role", role).put("content", content));
    }

    /**
     * setToolCalls: the message carries the calls of tool invocations (and, when asked, the first invocation's
     * reasoning), counted as their JSON.
     */
    void setToolCalls(List<ObjectNode> invocations, boolean includeSignature, boolean includeReasoning,
                      MessageTokens counter) {
        toolCalls = JsJson.array();
        String fallbackReasoning = null;
        for (ObjectNode invocation : invocations) {
            ObjectNode call = toolCalls.addObject();
            copyDefined(invocation, "id", call, "id");
            call.put("type", "function");
            ObjectNode function = call.putObject("function");
            copyDefined(invocation, "parameters", function, "arguments");
            copyDefined(invocation, "name", function, "name");
            if (includeSignature && Js.truthy(invocation.get("signature"))) {
                call.set("signature", invocation.get("signature"));
            }
            JsonNode invocationReasoning = invocation.get("reasoning");
            if (fallbackReasoning == null && invocationReasoning != null && invocationReasoning.isTextual()
                    && !invocationReasoning.textValue().isEmpty()) {
                fallbackReasoning = invocationReasoning.textValue();
            }
        }
        reasoning = includeReasoning ? fallbackReasoning : null;
        ObjectNode counted = JsJson.object().put("role", role).put("tool_calls", JsJson.compact(toolCalls));
        if (reasoning != null) {
            counted.put("reasoning", reasoning);
        }
        tokens = counter.count(counted);
    }

    /** A field JSON.stringify would write: one that is not undefined. */
    private static void copyDefined(ObjectNode from, String fromKey, ObjectNode to, String toKey) {
        if (from.has(fromKey)) {
            to.set(toKey, from.get(fromKey));
        }
    }

    void setSignature(JsonNode signature) {
        this.signature = signature;
    }

    @Override
    public String identifier() {
        return identifier;
    }

    String role() {
        return role;
    }

    String content() {
        return content;
    }

    String name() {
        return name;
    }

    /** Whether the message has text. */
    boolean hasContent() {
        return content != null && !content.isEmpty();
    }

    /** Whether ST sends the message: one without text or tool calls is left out of the chat. */
    boolean isSent() {
        return hasContent() || toolCalls != null;
    }

    @Override
    public int tokens() {
        return tokens;
    }

    /**
     * The message as the request carries it (ST: MessageCollection.getChat): role and content, then what is set of
     * name, tool calls, the id of the call a tool message answers, signature and reasoning.
     */
    ObjectNode toJson() {
        ObjectNode json = JsJson.object().put("role", role);
        if (content != null) {
            json.put("content", content);
        }
        if (name != null && !name.isEmpty()) {
            json.put("name", name);
        }
        if (toolCalls != null) {
            json.set("tool_calls", toolCalls);
        }
        if (role.equals("tool") && identifier != null) {
            json.put("tool_call_id", identifier);
        }
        if (Js.truthy(signature)) {
            json.set("signature", signature);
        }
        if (reasoning != null && !reasoning.isEmpty()) {
            json.put("reasoning", reasoning);
        }
        return json;
    }
}
