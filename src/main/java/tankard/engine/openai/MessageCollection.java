package tankard.engine.openai;

import java.util.ArrayList;
import java.util.List;

/** A named group of messages in a chat completion (ST: public/scripts/openai.js, class MessageCollection). */
final class MessageCollection implements ChatItem {
    private final String identifier;
    private final List<ChatItem> items = new ArrayList<>();

    MessageCollection(String identifier) {
        this.identifier = identifier;
    }

    @Override
    public String identifier() {
        return identifier;
    }

    List<ChatItem> items() {
        return items;
    }

    void add(ChatItem item) {
        items.add(item);
    }

    @Override
    public int tokens() {
        return items.stream().mapToInt(ChatItem::tokens).sum();
    }

    /** The messages of this collection and the collections in it, in order. */
    List<Message> flatten() {
        List<Message> messages = new ArrayList<>();
        for (ChatItem item : items) {
            if (item instanceof MessageCollection collection) {
                messages.addAll(collection.flatten());
            } else {
                messages.add((Message) item);
            }
        }
        return messages;
    }
}
