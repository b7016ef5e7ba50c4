package tankard.engine.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;

/** One chat completion message with its token count (ST: public/scripts/openai.js, class Message). */
final class Message implements ChatItem {
    private final String identifier;
    private final String role;
    private String content;
    private String name;
    private JsonNode signature;
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

    /** Whether ST sends the message: a message without content is left out of the chat. */
    boolean hasContent() {
        return content != null && !content.isEmpty();
    }

    @Override
    public int tokens() {
        return tokens;
    }

    /** The message as the request carries it: role, content, then name and signature when set. */
    ObjectNode toJson() {
        ObjectNode json = JsJson.object().put("role", role).put("content", content);
        if (name != null && !name.isEmpty()) {
            json.put("name", name);
        }
        if (signature != null && tankard.json.Js.truthy(signature)) {
            json.set("signature", signature);
        }
        return json;
    }
}
