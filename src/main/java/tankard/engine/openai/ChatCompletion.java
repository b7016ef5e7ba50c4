package tankard.engine.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import tankard.json.JsJson;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The chat completion under construction: message collections placed at the prompt manager's positions, and the
 * token budget they draw from (ST: public/scripts/openai.js, class ChatCompletion). Positions are indexes into a
 * list that may have holes, as ST's sparse array does.
 */
final class ChatCompletion {
    /** Thrown when a message that must go in does not fit (ST's TokenBudgetExceededError). */
    static final class BudgetExceeded extends RuntimeException {
        BudgetExceeded(String identifier) {
            super("Token budget exceeded. Message: " + identifier, null, false, false);
        }
    }

    private static final Set<String> NOT_SQUASHED = Set.of("newMainChat", "newChat", "groupNudge");

    private List<ChatItem> items = new ArrayList<>();
    private int tokenBudget;

    /** setTokenBudget: the context less the response. */
    void setTokenBudget(int context, int response) {
        tokenBudget = context - response;
    }

    /** add: a collection at a position (replacing what is there), or at the end for -1. */
    void add(MessageCollection collection, int position) {
        checkTokenBudget(collection, collection.identifier());
        if (position >= 0) {
            while (items.size() <= position) {
                items.add(null);
            }
            items.set(position, collection);
        } else {
            items.add(collection);
        }
        tokenBudget -= collection.tokens();
    }

    void add(MessageCollection collection) {
        add(collection, -1);
    }

    void insertAtStart(Message message, String identifier) {
        insert(message, identifier, "start");
    }

    void insertAtEnd(Message message, String identifier) {
        insert(message, identifier, "end");
    }

    /**
     * insert: into a collection at its start or end; a message without content is left out. A position ST does
     * not know places nothing but still takes the message's tokens, as ST's does.
     */
    void insert(Message message, String identifier, String position) {
        checkTokenBudget(message, message.identifier());
        MessageCollection collection = collection(identifier);
        if (message.isSent()) {
            if (position.equals("start")) {
                collection.items().add(0, message);
            } else if (position.equals("end")) {
                collection.items().add(message);
            }
            tokenBudget -= message.tokens();
        }
    }

    boolean canAfford(ChatItem item) {
        return tokenBudget - item.tokens() >= 0;
    }

    boolean canAffordAll(List<? extends ChatItem> all) {
        return tokenBudget - all.stream().mapToInt(ChatItem::tokens).sum() >= 0;
    }

    boolean has(String identifier) {
        return items.stream().anyMatch(item -> item != null && identifier.equals(item.identifier()));
    }

    void reserveBudget(ChatItem item) {
        tokenBudget -= item.tokens();
    }

    void reserveBudget(int tokens) {
        tokenBudget -= tokens;
    }

    void freeBudget(ChatItem item) {
        tokenBudget += item.tokens();
    }

    /** The top-level collections, holes left out (what the prompt manager counts tokens by). */
    List<ChatItem> placed() {
        return items.stream().filter(item -> item != null).toList();
    }

    /**
     * squashSystemMessages: consecutive system messages without a name (other than the new-chat and group-nudge
     * markers) become one, joined by a newline; empty system messages go.
     */
    void squashSystemMessages(MessageTokens counter) {
        List<ChatItem> squashed = new ArrayList<>();
        Message last = null;
        MessageCollection root = new MessageCollection("root");
        placed().forEach(root::add);
        for (Message message : root.flatten()) {
            if (message.role().equals("system") && !message.hasContent()) {
                continue;
            }
            if (squashable(message) && last != null && squashable(last)) {
                last.append(message.content(), counter);
                continue;
            }
            squashed.add(message);
            last = message;
        }
        items = squashed;
    }

    private static boolean squashable(Message message) {
        return !NOT_SQUASHED.contains(message.identifier()) && message.role().equals("system")
                && (message.name() == null || message.name().isEmpty());
    }

    /** getChat: the messages with content, in order. */
    ArrayNode getChat() {
        ArrayNode chat = JsJson.array();
        for (ChatItem item : items) {
            if (item instanceof MessageCollection collection) {
                for (ChatItem inner : collection.items()) {
                    if (inner instanceof Message message && message.isSent()) {
                        chat.add(message.toJson());
                    }
                }
            } else if (item instanceof Message message && message.isSent()) {
                chat.add(message.toJson());
            }
        }
        return chat;
    }

    private MessageCollection collection(String identifier) {
        for (ChatItem item : items) {
            if (item instanceof MessageCollection collection && identifier.equals(collection.identifier())) {
                return collection;
            }
        }
        throw new IllegalStateException("Identifier " + identifier + " not found.");
    }

    private void checkTokenBudget(ChatItem item, String identifier) {
        if (!canAfford(item)) {
            throw new BudgetExceeded(identifier);
        }
    }
}
