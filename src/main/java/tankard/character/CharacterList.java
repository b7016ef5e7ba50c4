package tankard.character;

import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.chat.FolderUsage;
import tankard.json.JsJson;
import tankard.util.StTime;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;

/**
 * The answer of {@code characters/all}: the listed cards' entries with this list's values, written as the same
 * compact JSON array the whole list serialised at once would be, one element at a time.
 */
public final class CharacterList {
    /** A listed card: its entry and the values that come from the file system now. */
    record Item(CardIndex index, CardIndex.Entry entry, double changedMs, FolderUsage usage) {
    }

    private final List<Item> items;
    private final boolean shallow;
    private final byte[] now;

    CharacterList(List<Item> items, boolean shallow, String humanizedNow) {
        this.items = items;
        this.shallow = shallow;
        byte[] quoted = JsJson.compactBytes(TextNode.valueOf(humanizedNow));
        this.now = Arrays.copyOfRange(quoted, 1, quoted.length - 1);
    }

    public int size() {
        return items.size();
    }

    public void writeTo(OutputStream out) throws IOException {
        out.write('[');
        boolean first = true;
        for (Item item : items) {
            if (!first) {
                out.write(',');
            }
            first = false;
            ListTemplate template = shallow ? item.entry().shallow : item.index().full(item.entry());
            template.writeTo(hole -> switch (hole) {
                case NOW -> now;
                case DATE_ADDED -> JsJson.compactBytes(DoubleNode.valueOf(item.changedMs()));
                case CREATE_DATE -> JsJson.compactBytes(TextNode.valueOf(StTime.iso(Math.round(item.changedMs()))));
                case CHAT_SIZE -> JsJson.compactBytes(LongNode.valueOf(item.usage().size()));
                case DATE_LAST_CHAT -> JsJson.compactBytes(DoubleNode.valueOf(item.usage().newestModifiedMs()));
            }, out::write);
        }
        out.write(']');
    }
}
