package tankard.engine.memory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.engine.macro.Macros;
import tankard.engine.prompt.ExtensionPrompts;
import tankard.engine.prompt.VectorIndex;
import tankard.json.Js;
import tankard.util.StringHash;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

    /** ST: synchronizeChat, all new messages at once: inserts what the collection lacks, deletes what is gone. */
    public void synchronize(List<? extends JsonNode> chat, Macros macros, VectorIndex index) {
        if (enabled()) {
            synchronize(chat, macros, index, Integer.MAX_VALUE);
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
    public Stats synchronize(List<? extends JsonNode> chat, Macros macros, VectorIndex index, int limit) {
        boolean keepHidden = Js.truthy(settings.get("keep_hidden"));
        Set<Long> present = new HashSet<>();
        List<VectorIndex.Item> fresh = new ArrayList<>();
        List<Long> saved = index.saved();
        Set<Long> savedSet = new HashSet<>(saved);
        for (int i = 0; i < chat.size(); i++) {
            JsonNode message = chat.get(i);
            if (!keepHidden && Js.truthy(message.get("is_system"))) {
                continue;
            }
            String mes = jsString(message.get("mes"));
            long hash = hash(mes, macros, index);
            present.add(hash);
            if (!savedSet.contains(hash)) {
                fresh.add(new VectorIndex.Item(hash, macros.substitute(mes), i));
            }
        }
        List<VectorIndex.Item> batch = fresh.subList(0, Math.min(limit, fresh.size()));
        if (!batch.isEmpty()) {
            index.insert(chunks(batch));
        }
        List<Long> gone = new ArrayList<>();
        for (Long hash : saved) {
            if (!present.contains(hash)) {
                gone.add(hash);
            }
        }
        if (!gone.isEmpty()) {
            index.delete(gone);
        }
        Set<Long> missing = new HashSet<>();
        fresh.subList(batch.size(), fresh.size()).forEach(item -> missing.add(item.hash()));
        batch.forEach(item -> missing.remove(item.hash()));
        return new Stats(present.size(), present.size() - missing.size(), fresh.size() - batch.size());
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
     */
    public void rearrange(List<ObjectNode> chat, Macros macros, VectorIndex index,
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
        List<Long> hits = new ArrayList<>(new LinkedHashSet<>(index.query(query, number("insert", 3), threshold)));
        List<ObjectNode> retained = chat.subList(Math.max(0, chat.size() - protect), chat.size());
        List<ObjectNode> found = new ArrayList<>();
        Set<Long> taken = new HashSet<>();
        for (ObjectNode message : chat) {
            if (containsSame(retained, message) || !Js.truthy(message.get("mes"))) {
                continue;
            }
            long hash = hash(jsString(message.get("mes")), macros, index);
            if (hits.contains(hash) && taken.add(hash)) {
                found.add(message);
            }
        }
        found.sort((a, b) -> hits.indexOf(hash(jsString(b.get("mes")), macros, index))
                - hits.indexOf(hash(jsString(a.get("mes")), macros, index)));
        chat.removeIf(message -> containsSame(found, message));
        if (found.isEmpty()) {
            return;
        }
        List<String> lines = new ArrayList<>();
        for (ObjectNode message : found) {
            lines.add(Js.trim((jsString(message.get("name")) + ": " + jsString(message.get("mes"))).replaceAll("\n+", "\n")));
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
            String mes = jsString(message.get("mes"));
            String text = macros.substitute(Js.trim(mes.substring(Math.min(fileLength, mes.length()))));
            if (!text.isEmpty()) {
                texts.add(text);
            }
        }
        return Js.trim(String.join("\n", texts).replaceAll("\n+", "\n"));
    }

    /** getStringHash(substituteParams(mes)); kept with the chat's index where no macro can change it. */
    private long hash(String mes, Macros macros, VectorIndex index) {
        Long known = index.textHashes().get(mes); // looked up first: most texts are there, and plain
        if (known != null) {
            return known;
        }
        if (Macros.plain(mes)) {
            long hash = StringHash.of(mes);
            index.textHashes().put(mes, hash);
            return hash;
        }
        return hashes.computeIfAbsent(mes, text -> StringHash.of(macros.substitute(text)));
    }

    /** JavaScript's {@code includes}: the same object, not an equal one. */
    private static boolean containsSame(List<ObjectNode> messages, ObjectNode message) {
        for (ObjectNode candidate : messages) {
            if (candidate == message) {
                return true;
            }
        }
        return false;
    }

    private static String jsString(JsonNode node) {
        return node == null || node.isNull() || node.isMissingNode() ? "" : Js.string(node);
    }
}
