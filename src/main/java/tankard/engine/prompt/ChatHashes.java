package tankard.engine.prompt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.engine.macro.Macros;
import tankard.json.Js;
import tankard.util.StringHash;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * What every prompt reads of each message of a parsed chat, made once for all the prompts built from it: ST's
 * getStringHash of its text (public/scripts/extensions/vectors/index.js hashes {@code substituteParams(mes)}),
 * whether it is hidden, empty or shown as it is. Vector Storage's synchronization and recall and the prompt's
 * coreChat on a long chat then read by position instead of hashing or looking up every message at each prompt. A
 * prompt's list of messages is mostly the parsed chat's own objects at their own positions; a message is known here
 * only when it is that very object there. The messages must not change (a parsed chat's are shared read-only).
 * Thread-safe.
 */
public final class ChatHashes {
    /** Knows no message: every hash is made from the text. */
    public static final ChatHashes NONE = new ChatHashes(JsonNodeFactory.instance.arrayNode());

    /** A text with macros: its hash depends on the prompt's macros, so it is not kept. */
    private static final long WITH_MACROS = Long.MIN_VALUE; // StringHash gives 53 bits, never this

    private final ArrayNode messages;
    private volatile Columns columns;
    private volatile InStep inStep;

    /**
     * @param messages    the messages, for quick comparison
     * @param hashes      each message's hash, {@link #WITH_MACROS} for a text with macros
     * @param system      the messages ST hides from the prompt ({@code is_system})
     * @param empty       the messages whose text is empty
     * @param asIs        the messages ST shows in the prompt as they are: not hidden, without {@link #titles}
     * @param shown       the positions of the messages that are not hidden, in order
     * @param sortedAll   the kept hashes of all messages, ascending
     * @param sortedShown the kept hashes of the messages not hidden, ascending
     * @param byHash      the positions of the messages with a kept hash, ordered by hash then position
     */
    private record Columns(JsonNode[] messages, long[] hashes, BitSet system, BitSet empty, BitSet asIs, int[] shown,
                           long[] sortedAll, long[] sortedShown, int[] byHash) {
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

    /**
     * ST: Generate's coreChat, of a prompt's copy of this chat (its messages at their places but where the prompt
     * changed them): the messages ST does not hide ({@code is_system}), this chat's own without {@link #titles} as they
     * are, the others as {@code other} makes them (null: hidden).
     */
    public List<ObjectNode> coreChat(ArrayNode chat, Function<ObjectNode, ObjectNode> other) {
        Columns c = columns();
        List<ObjectNode> coreChat = new ArrayList<>(chat.size());
        for (int i = 0; i < chat.size(); i++) {
            JsonNode message = chat.get(i);
            if (i < c.messages.length && message == c.messages[i] && c.asIs.get(i)) {
                coreChat.add((ObjectNode) message);
            } else {
                ObjectNode made = other.apply((ObjectNode) message);
                if (made != null) {
                    coreChat.add(made);
                }
            }
        }
        return coreChat;
    }

    /**
     * ST: Generate's coreChat map: the titles of a message's image ({@code extra.title} with {@code append_title})
     * and of its media ({@code extra.media[].title} with {@code append_title}), appended to its text in the prompt.
     */
    public static List<String> titles(JsonNode message) {
        JsonNode extra = message.path("extra");
        List<String> titles = new ArrayList<>();
        if (Js.truthy(extra.get("append_title")) && Js.truthy(extra.get("title"))) {
            titles.add(Js.text(extra.get("title")));
        }
        for (JsonNode media : extra.path("media")) {
            if (Js.truthy(media.get("title")) && Js.truthy(media.get("append_title"))) {
                titles.add(Js.text(media.get("title")));
            }
        }
        return titles;
    }

    /**
     * The places of {@code chat} (a prompt's copy of this chat's messages) and of this chat where a message is not
     * this chat's own at its own place with a kept hash, ascending: everything else is known here by position.
     */
    public int[] changed(List<? extends JsonNode> chat) {
        Columns c = columns();
        int common = Math.min(chat.size(), c.messages.length);
        IntStream.Builder changed = IntStream.builder();
        for (int i = 0; i < common; i++) {
            if (chat.get(i) != c.messages[i] || c.hashes[i] == WITH_MACROS) {
                changed.add(i);
            }
        }
        for (int i = common; i < Math.max(chat.size(), c.messages.length); i++) {
            changed.add(i);
        }
        return changed.build().toArray();
    }

    /**
     * The places before {@code end} of {@code shownChat} (a prompt's messages that ST does not hide) that do not
     * hold the {@link #shown} message of this chat there, or hold one whose hash is not kept; ascending.
     */
    public int[] changedShown(List<? extends JsonNode> shownChat, int end) {
        Columns c = columns();
        IntStream.Builder changed = IntStream.builder();
        for (int i = 0; i < end; i++) {
            int at = i < c.shown.length ? c.shown[i] : -1;
            if (at < 0 || shownChat.get(i) != c.messages[at] || c.hashes[at] == WITH_MACROS) {
                changed.add(i);
            }
        }
        return changed.build().toArray();
    }

    /** The positions of the messages whose kept hash is {@code hash}, ascending. */
    public int[] positionsOf(long hash) {
        Columns c = columns();
        int low = 0;
        int high = c.byHash.length;
        while (low < high) { // the first place not below hash
            int middle = (low + high) >>> 1;
            if (c.hashes[c.byHash[middle]] < hash) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        int end = low;
        while (end < c.byHash.length && c.hashes[c.byHash[end]] == hash) {
            end++;
        }
        return Arrays.copyOfRange(c.byHash, low, end);
    }

    /** The place among the {@link #shown} messages of the message at {@code position}, or -1 when it is hidden. */
    public int shownIndex(int position) {
        int found = Arrays.binarySearch(columns().shown, position);
        return found >= 0 ? found : -1;
    }

    /** The kept hashes of the messages (all, or only those not hidden), ascending; the caller must not change it. */
    public long[] sorted(boolean withHidden) {
        return withHidden ? columns().sortedAll : columns().sortedShown;
    }

    /**
     * A synchronization of this chat with its collection that found nothing to insert or delete: its inputs (the
     * collection's hashes as one state of the store answered them, whether hidden messages count, the sorted hashes
     * of this chat's messages the prompt left out and of the messages it put in) and the distinct hashes it counted.
     * A later one with the same inputs finds the same: nothing to do.
     */
    public record InStep(long[] saved, boolean keepHidden, long[] removed, long[] added, int present) {
        /** Whether these are the inputs: the very array the store answered, the same hashes around it. */
        public boolean same(long[] saved, boolean keepHidden, long[] removed, long[] added) {
            return this.saved == saved && this.keepHidden == keepHidden && Arrays.equals(this.removed, removed)
                    && Arrays.equals(this.added, added);
        }
    }

    /** The last synchronization found in step, or null. */
    public InStep inStep() {
        return inStep;
    }

    public void inStep(InStep found) {
        inStep = found;
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
        JsonNode[] array = new JsonNode[size];
        long[] hashes = new long[size];
        BitSet system = new BitSet(size);
        BitSet empty = new BitSet(size);
        BitSet asIs = new BitSet(size);
        int[] shown = new int[size];
        int shownCount = 0;
        long[] all = new long[size];
        int allCount = 0;
        long[] visible = new long[size];
        int visibleCount = 0;
        for (int i = 0; i < size; i++) {
            JsonNode message = messages.get(i);
            array[i] = message;
            String text = Js.text(message.get("mes"));
            boolean hidden = Js.truthy(message.get("is_system"));
            system.set(i, hidden);
            empty.set(i, !Js.truthy(message.get("mes")));
            asIs.set(i, !hidden && titles(message).isEmpty());
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
        Integer[] kept = new Integer[allCount];
        for (int i = 0, k = 0; i < size; i++) {
            if (hashes[i] != WITH_MACROS) {
                kept[k++] = i;
            }
        }
        Arrays.sort(kept, (a, b) -> hashes[a] != hashes[b] ? Long.compare(hashes[a], hashes[b]) : Integer.compare(a, b));
        return new Columns(array, hashes, system, empty, asIs, Arrays.copyOf(shown, shownCount), all, visible,
                Arrays.stream(kept).mapToInt(Integer::intValue).toArray());
    }
}
