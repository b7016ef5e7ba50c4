package tankard.character;

import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.chat.FolderUsage;
import tankard.json.JsJson;

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

    private static final byte[] ZERO = {'0'};

    private final List<Item> items;
    private final boolean shallow;
    private final byte[] now;
    private final Runnable afterWrite;

    /** @param afterWrite run when the list was written, or failed to be */
    CharacterList(List<Item> items, boolean shallow, String humanizedNow, Runnable afterWrite) {
        this.items = items;
        this.shallow = shallow;
        this.afterWrite = afterWrite;
        byte[] quoted = JsJson.compactBytes(TextNode.valueOf(humanizedNow));
        this.now = Arrays.copyOfRange(quoted, 1, quoted.length - 1);
    }

    public int size() {
        return items.size();
    }

    public void writeTo(OutputStream out) throws IOException {
        try {
            write(out);
        } finally {
            afterWrite.run();
        }
    }

    private void write(OutputStream out) throws IOException {
        out.write('[');
        boolean first = true;
        for (Item item : items) {
            if (!first) {
                out.write(',');
            }
            first = false;
            ListTemplate template = shallow ? item.entry().shallow : item.index().full(item.entry());
            CardIndex.Dates dates = item.entry().dates(item.changedMs());
            FolderUsage usage = item.usage();
            template.writeTo(hole -> switch (hole) {
                case NOW -> now;
                case DATE_ADDED -> dates.added();
                case CREATE_DATE -> dates.created();
                case CHAT_SIZE -> usage.size() == 0 ? ZERO : JsJson.compactBytes(LongNode.valueOf(usage.size()));
                case DATE_LAST_CHAT -> usage.newestModifiedMs() == 0 ? ZERO
                        : JsJson.compactBytes(DoubleNode.valueOf(usage.newestModifiedMs()));
            }, out::write);
        }
        out.write(']');
    }
}
