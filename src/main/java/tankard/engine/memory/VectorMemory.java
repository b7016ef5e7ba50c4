package tankard.engine.memory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.engine.macro.Macros;
import tankard.engine.prompt.ChatHashes;
import tankard.engine.prompt.ExtensionPrompts;
import tankard.engine.prompt.VectorIndex;
import tankard.json.Js;
import tankard.util.StringHash;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;

/**
 * Chat vectorization as ST's Vector Storage extension does it (public/scripts/extensions/vectors/index.js): the
 * chat's messages kept in the chat's collection (synchronizeChat), and the generation interceptor
 * (rearrangeChat) that takes the past messages most like the newest ones out of the chat and puts them in the
 * {@code 3_vectors} extension prompt with the "Past events" template.
 */
public final class VectorMemory {
    public static final String PROMPT_KEY = "3_vectors";

    private final JsonNode settings;
    /** ST's hash of each message text with macros, substituted, by the text: sync and recall both ask. */
    private final Map<String, Long> hashes = new HashMap<>();

    /** @param vectors {@code extension_settings.vectors}; ST's defaults where a setting is missing */
    public VectorMemory(JsonNode vectors) {
        this.settings = vectors == null ? MissingNode.getInstance() : vectors;
    }

    public boolean enabled() {
        return Js.truthy(settings.get("enabled_chats"));
    }

    private int number(String name, int fallback) {
        JsonNode value = settings.get(name);
        return value != null && value.isNumber() ? value.asInt() : fallback;
    }

    private String text(String name, String fallback) {
        JsonNode value = settings.get(name);
        return value != null && value.isTextual() ? value.textValue() : fallback;
    }

    /**
     * ST: synchronizeChat, all new messages at once: inserts what the collection lacks, deletes what is gone. The
     * chat's own messages in their places are counted from the parsed chat's sorted hashes
     * ({@link ChatHashes}) against the collection's: on a long chat nothing is hashed or looked up one by one but
     * the messages this prompt added or changed and the texts with macros.
     */
    public void synchronize(List<? extends JsonNode> chat, ChatHashes known, Macros macros, VectorIndex index) {
        if (enabled()) {
            synchronize(chat, known, macros, index, Integer.MAX_VALUE);
        }
    }

    /**
     * The chat's messages against its collection after a synchronization: how many the chat has to vectorize and
     * how many of them are in the collection (messages with the same text share a hash and count once), and how
     * many are still to insert (ST's synchronizeChat answer, each message counted).
     */
    public record Stats(int messages, int saved, int remaining) {
    }

    /**
     * ST: synchronizeChat(batchSize), as "Vectorize All" calls it: the first {@code limit} messages the collection
     * lacks inserted (0: none, to count only), what is gone deleted.
     */
    public Stats synchronize(List<? extends JsonNode> chat, ChatHashes known, Macros macros, VectorIndex index,
                             int limit) {
        boolean keepHidden = Js.truthy(settings.get("keep_hidden"));
        long[] parsed = known.sorted(keepHidden);
        // kept hashes of parsed messages this chat does not hold in their place
        LongStream.Builder notHere = LongStream.builder();
        List<VectorIndex.Item> others = new ArrayList<>(); // the chat's messages those hashes do not count
        for (int i : known.changed(chat)) { // elsewhere the chat holds its own message there, with its kept hash
            boolean own = i < chat.size() && known.is(i, chat.get(i));
            boolean counted = i < known.size() && known.kept(i) && (keepHidden || !known.hidden(i));
            if (counted && !own) {
                notHere.add(known.hash(i));
            }
            if (i < chat.size() && !(own && known.kept(i))) {
                JsonNode message = chat.get(i);
                if (keepHidden || !Js.truthy(message.get("is_system"))) {
                    String mes = Js.text(message.get("mes"));
                    others.add(new VectorIndex.Item(hash(mes, macros), mes, i));
                }
            }
        }
        long[] removed = notHere.build().sorted().toArray();
        long[] added = others.stream().mapToLong(VectorIndex.Item::hash).sorted().toArray();
        long[] saved = index.saved();
        ChatHashes.InStep inStep = known.inStep();
        if (inStep != null && inStep.same(saved, keepHidden, removed, added)) {
            return new Stats(inStep.present(), inStep.present(), 0); // the same inputs as a walk that found no work
        }

        // one walk over the sorted lists: what the collection has and the chat no longer, and the reverse
        List<Long> gone = new ArrayList<>();
        LongStream.Builder unsaved = LongStream.builder(); // hashes of parsed messages the collection lacks
        int present = 0; // distinct hashes of the chat's messages
        int s = 0;
        int p = 0;
        int a = 0;
        while (s < saved.length || p < parsed.length || a < added.length) {
            long hash = Math.min(s < saved.length ? saved[s] : Long.MAX_VALUE,
                    Math.min(p < parsed.length ? parsed[p] : Long.MAX_VALUE, a < added.length ? added[a] : Long.MAX_VALUE));
            int inSaved = run(saved, s, hash);
            int inParsed = run(parsed, p, hash);
            int inAdded = run(added, a, hash);
            boolean inChat = inParsed - count(removed, hash) + inAdded > 0;
            if (inChat) {
                present++;
            } else {
                for (int k = 0; k < inSaved; k++) {
                    gone.add(hash);
                }
            }
            if (inSaved == 0 && inParsed > 0) {
                unsaved.add(hash);
            }
            s += inSaved;
            p += inParsed;
            a += inAdded;
        }

        List<VectorIndex.Item> fresh = new ArrayList<>();
        long[] lacking = unsaved.build().sorted().toArray();
        Iterator<VectorIndex.Item> other = others.iterator();
        VectorIndex.Item next = other.hasNext() ? other.next() : null;
        for (int i = 0; i < chat.size() && (lacking.length > 0 || next != null); i++) {
            if (next != null && next.index() == i) {
                if (count(saved, next.hash()) == 0) {
                    fresh.add(new VectorIndex.Item(next.hash(), macros.substitute(next.text()), i));
                }
                next = other.hasNext() ? other.next() : null;
            } else if (lacking.length > 0 && known.is(i, chat.get(i)) && known.kept(i)
                    && (keepHidden || !known.hidden(i)) && count(lacking, known.hash(i)) > 0) {
                fresh.add(new VectorIndex.Item(known.hash(i), Js.text(chat.get(i).get("mes")), i));
            }
        }
        List<VectorIndex.Item> batch = fresh.subList(0, Math.min(limit, fresh.size()));
        if (!batch.isEmpty()) {
            index.insert(chunks(batch));
        }
        if (!gone.isEmpty()) {
            index.delete(gone);
        }
        if (fresh.isEmpty() && gone.isEmpty()) {
            known.inStep(new ChatHashes.InStep(saved, keepHidden, removed, added, present));
        }
        Set<Long> missing = new HashSet<>();
        fresh.subList(batch.size(), fresh.size()).forEach(item -> missing.add(item.hash()));
        batch.forEach(item -> missing.remove(item.hash()));
        return new Stats(present, present - missing.size(), fresh.size() - batch.size());
    }

    /** How many times {@code value} is in the sorted array from {@code from} on (0 when it is not there). */
    private static int run(long[] sorted, int from, long value) {
        int end = from;
        while (end < sorted.length && sorted[end] == value) {
            end++;
        }
        return end - from;
    }

    /** How many times {@code value} is in the sorted array. */
    private static int count(long[] sorted, long value) {
        int low = 0;
        int high = sorted.length;
        while (low < high) { // the first place not below value
            int middle = (low + high) >>> 1;
            if (sorted[middle] < value) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return run(sorted, low, value);
    }

    /** ST: splitByChunks with getChunkDelimiters. */
    private List<VectorIndex.Item> chunks(List<VectorIndex.Item> items) {
        int size = number("message_chunk_size", 400);
        if (size <= 0) {
            return items;
        }
        List<String> delimiters = new ArrayList<>(List.of("\n\n", "\n", " ", ""));
        String forced = text("force_chunk_delimiter", "");
        if (!forced.isEmpty()) {
            delimiters.add(0, forced);
        }
        List<VectorIndex.Item> chunked = new ArrayList<>();
        for (VectorIndex.Item item : items) {
            for (String chunk : TextChunks.split(item.text(), size, delimiters)) {
                chunked.add(new VectorIndex.Item(item.hash(), chunk, item.index()));
            }
        }
        return chunked;
    }

    /**
     * ST: rearrangeChat on the prompt's messages: with at least {@code protect} of them, queries the collection
     * with the last {@code query} messages, moves the hits outside the newest {@code protect} out of the chat
     * and into the extension prompt, most relevant last.
     *
     * @param chat the prompt's messages, each a distinct object (ST's {@code retainedMessages.includes(message)} is
     *             then the message's place among the newest {@code protect})
     */
    public void rearrange(List<ObjectNode> chat, ChatHashes known, Macros macros, VectorIndex index,
                          ExtensionPrompts prompts) {
        int position = number("position", ExtensionPrompts.IN_PROMPT);
        int depth = number("depth", 2);
        boolean includeWorldInfo = Js.truthy(settings.get("include_wi"));
        prompts.set(PROMPT_KEY, "", position, depth, includeWorldInfo, null);
        int protect = number("protect", 5);
        if (!enabled() || chat.size() < protect) {
            return;
        }
        String query = queryText(chat, macros);
        if (query.isEmpty()) {
            return;
        }
        double threshold = settings.path("score_threshold").isNumber() ? settings.get("score_threshold").asDouble() : 0.25;
        long[] hits = new LinkedHashSet<>(index.query(query, number("insert", 3), threshold)).stream()
                .mapToLong(Long::longValue).toArray();
        // the first message outside the retained ones with each hit's hash, by the hit's rank
        int retainedFrom = chat.size() - protect;
        int[] changed = known.changedShown(chat, retainedFrom);
        int[] foundAt = new int[hits.length];
        Arrays.fill(foundAt, Integer.MAX_VALUE);
        for (int rank = 0; rank < hits.length; rank++) {
            // the parsed chat's own messages in their places among those ST does not hide
            for (int at : known.positionsOf(hits[rank])) {
                int i = known.shownIndex(at);
                if (i >= 0 && i < retainedFrom && Arrays.binarySearch(changed, i) < 0 && !known.empty(at)) {
                    foundAt[rank] = i;
                    break;
                }
            }
        }
        for (int i : changed) { // the others, hashed from their text
            ObjectNode message = chat.get(i);
            if (Js.truthy(message.get("mes"))) {
                int rank = indexOf(hits, hash(Js.text(message.get("mes")), macros));
                if (rank >= 0) {
                    foundAt[rank] = Math.min(foundAt[rank], i);
                }
            }
        }
        int[] places = Arrays.stream(foundAt).filter(at -> at != Integer.MAX_VALUE).sorted().toArray();
        if (places.length == 0) {
            return;
        }
        List<String> lines = new ArrayList<>();
        for (int rank = hits.length - 1; rank >= 0; rank--) { // the least relevant first
            if (foundAt[rank] != Integer.MAX_VALUE) {
                ObjectNode message = chat.get(foundAt[rank]);
                lines.add(Js.trim((Js.text(message.get("name")) + ": " + Js.text(message.get("mes"))).replaceAll("\n+", "\n")));
            }
        }
        for (int k = places.length - 1; k >= 0; k--) {
            chat.remove(places[k]);
        }
        String template = text("template", "Past events:\n{{text}}");
        prompts.set(PROMPT_KEY, macros.substitute(template, new Macros.Options(null, null, null, null, true,
                Map.of("text", String.join("\n\n", lines)))), position, depth, includeWorldInfo, null);
    }

    /** ST: getQueryText: the last {@code query} non-empty messages, newest first, newlines collapsed. */
    private String queryText(List<ObjectNode> chat, Macros macros) {
        int count = number("query", 2);
        List<String> texts = new ArrayList<>();
        for (int i = chat.size() - 1; i >= 0 && texts.size() < count; i--) {
            ObjectNode message = chat.get(i);
            int fileLength = message.path("extra").path("fileLength").asInt(0);
            String mes = Js.text(message.get("mes"));
            String text = macros.substitute(Js.trim(mes.substring(Math.min(fileLength, mes.length()))));
            if (!text.isEmpty()) {
                texts.add(text);
            }
        }
        return Js.trim(String.join("\n", texts).replaceAll("\n+", "\n"));
    }

    /** getStringHash(substituteParams(mes)); a text with macros hashed once per prompt. */
    private long hash(String mes, Macros macros) {
        if (Macros.plain(mes)) {
            return StringHash.of(mes);
        }
        return hashes.computeIfAbsent(mes, text -> StringHash.of(macros.substitute(text)));
    }

    /** Where {@code value} is in {@code values}, or -1. */
    private static int indexOf(long[] values, long value) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == value) {
                return i;
            }
        }
        return -1;
    }
}
