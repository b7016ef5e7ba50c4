package tankard.engine.prompt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import tankard.engine.macro.Macros;
import tankard.json.Js;
import tankard.util.StringHash;

import java.util.Arrays;
import java.util.BitSet;

/**
 * ST's getStringHash of each message of a parsed chat (public/scripts/extensions/vectors/index.js hashes
 * {@code substituteParams(mes)}), made once for all the prompts built from that chat: Vector Storage's
 * synchronization and recall on a long chat then read numbers by position instead of hashing or looking up every
 * text at each prompt. A prompt's list of messages is mostly the parsed chat's own objects at their own positions;
 * {@link #at} knows a message only when it is that very object there. The messages must not change (a parsed chat's
 * are shared read-only). Thread-safe.
 */
public final class ChatHashes {
    /** Knows no message: every hash is made from the text. */
    public static final ChatHashes NONE = new ChatHashes(JsonNodeFactory.instance.arrayNode());

    /** A text with macros: its hash depends on the prompt's macros, so it is not kept. */
    private static final long WITH_MACROS = Long.MIN_VALUE; // StringHash gives 53 bits, never this

    private final ArrayNode messages;
    private volatile Columns columns;

    /**
     * @param hashes     each message's hash, {@link #WITH_MACROS} for a text with macros
     * @param system     the messages ST hides from the prompt ({@code is_system})
     * @param empty      the messages whose text is empty
     * @param shown      the positions of the messages that are not hidden, in order
     * @param sortedAll  the kept hashes of all messages, ascending
     * @param sortedShown the kept hashes of the messages not hidden, ascending
     */
    private record Columns(long[] hashes, BitSet system, BitSet empty, int[] shown, long[] sortedAll,
                           long[] sortedShown) {
    }

    /** @param messages a parsed chat's messages, which nothing changes */
    public ChatHashes(ArrayNode messages) {
        this.messages = messages;
    }

    public int size() {
        return messages.size();
    }

    /** Whether {@code message} is the parsed chat's own object at {@code position}. */
    public boolean is(int position, JsonNode message) {
        return position < messages.size() && messages.get(position) == message;
    }

    /** The hash of the parsed chat's message at this position, if its text has no macro. */
    public boolean kept(int position) {
        return columns().hashes[position] != WITH_MACROS;
    }

    public long hash(int position) {
        return columns().hashes[position];
    }

    public boolean hidden(int position) {
        return columns().system.get(position);
    }

    public boolean empty(int position) {
        return columns().empty.get(position);
    }

    /** The position in the parsed chat of the {@code index}-th message that is not hidden, or -1. */
    public int shown(int index) {
        int[] shown = columns().shown;
        return index < shown.length ? shown[index] : -1;
    }

    /** The kept hashes of the messages (all, or only those not hidden), ascending; the caller must not change it. */
    public long[] sorted(boolean withHidden) {
        return withHidden ? columns().sortedAll : columns().sortedShown;
    }

    /** Makes the hashes now rather than at the first prompt that needs them. */
    public void prepare() {
        columns();
    }

    private Columns columns() {
        Columns made = columns;
        if (made == null) {
            synchronized (this) {
                if (columns == null) {
                    columns = make();
                }
                made = columns;
            }
        }
        return made;
    }

    private Columns make() {
        int size = messages.size();
        long[] hashes = new long[size];
        BitSet system = new BitSet(size);
        BitSet empty = new BitSet(size);
        int[] shown = new int[size];
        int shownCount = 0;
        long[] all = new long[size];
        int allCount = 0;
        long[] visible = new long[size];
        int visibleCount = 0;
        for (int i = 0; i < size; i++) {
            JsonNode message = messages.get(i);
            String text = Js.text(message.get("mes"));
            boolean hidden = Js.truthy(message.get("is_system"));
            system.set(i, hidden);
            empty.set(i, !Js.truthy(message.get("mes")));
            if (!hidden) {
                shown[shownCount++] = i;
            }
            hashes[i] = Macros.plain(text) ? StringHash.of(text) : WITH_MACROS;
            if (hashes[i] != WITH_MACROS) {
                all[allCount++] = hashes[i];
                if (!hidden) {
                    visible[visibleCount++] = hashes[i];
                }
            }
        }
        all = Arrays.copyOf(all, allCount);
        visible = Arrays.copyOf(visible, visibleCount);
        Arrays.sort(all);
        Arrays.sort(visible);
        return new Columns(hashes, system, empty, Arrays.copyOf(shown, shownCount), all, visible);
    }
}
