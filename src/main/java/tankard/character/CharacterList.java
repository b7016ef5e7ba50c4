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
    private static final byte[] ZERO = {'0'};

    private final CardIndex index;
    private final List<CardFile> files;
    private final ParsedInOrder entries;
    private final List<FolderUsage> usages;
    private final boolean shallow;
    private final byte[] now;
    private final Runnable afterWrite;

    /**
     * @param entries    the files' list entries, in their order
     * @param usages     per file, its chat folder's usage
     * @param afterWrite run when the list was written, or failed to be
     */
    CharacterList(CardIndex index, List<CardFile> files, ParsedInOrder entries, List<FolderUsage> usages,
                  boolean shallow, String humanizedNow, Runnable afterWrite) {
        this.index = index;
        this.files = files;
        this.entries = entries;
        this.usages = usages;
        this.shallow = shallow;
        this.afterWrite = afterWrite;
        byte[] quoted = JsJson.compactBytes(TextNode.valueOf(humanizedNow));
        this.now = Arrays.copyOfRange(quoted, 1, quoted.length - 1);
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
        for (int i = 0; i < files.size(); i++) {
            CardIndex.Entry entry = entries.get(i);
            if (!entry.listed()) {
                continue;
            }
            if (!first) {
                out.write(',');
            }
            first = false;
            ListTemplate template = shallow ? entry.shallow : index.full(entry);
            CardIndex.Dates dates = entry.dates(files.get(i).changedMs());
            FolderUsage usage = usages.get(i);
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
