package tankard.engine.worldinfo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.engine.macro.MacroEnv;
import tankard.engine.macro.Macros;
import tankard.engine.prompt.Action;
import tankard.engine.prompt.ExtensionPrompts;
import tankard.engine.prompt.TokenCounter;
import tankard.engine.prompt.WorldInfo;
import tankard.engine.worldinfo.WorldInfoBuffer.ScanState;
import tankard.json.Js;
import tankard.tokenizer.Lines;

import java.util.ArrayDeque;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * ST's world info scan (public/scripts/world-info.js, getWorldInfoPrompt and checkWorldInfo): which entries of the
 * books that apply activate for the chat, within the token budget, and where they go.
 */
public final class WorldInfoScanner {
    /** The author's note's extension prompt key (ST: public/scripts/authors-note.js, NOTE_MODULE_NAME). */
    public static final String AUTHORS_NOTE = "2_floating_prompt";

    /** ST's world_info_position. */
    private static final int BEFORE = 0;
    private static final int AFTER = 1;
    private static final int AN_TOP = 2;
    private static final int AN_BOTTOM = 3;
    private static final int AT_DEPTH = 4;
    private static final int EM_TOP = 5;
    private static final int EM_BOTTOM = 6;
    private static final int OUTLET = 7;

    /**
     * What a scan reads.
     *
     * @param settings          the user's settings.json ({@code world_info_settings}, {@code power_user},
     *                          {@code tag_map})
     * @param character         the character's card with its {@code avatar} file name (in a group, the member who
     *                          speaks), or null
     * @param metadata          the chat's {@code chat_metadata} (chat lore, timed effects)
     * @param books             reads a world info file by name; null when missing
     * @param coreChat          Generate's coreChat: the messages that go into the prompt, oldest first
     * @param card              getCharacterCardFields, for the entries that also match the card and persona
     * @param action            the generation type (the entries' {@code triggers} filter)
     * @param maxContext        the prompt's token budget (the world info budget is a share of it)
     * @param prompts           the extension prompts: those with {@code scan} set are scanned; the author's note
     *                          gets the entries at its top and bottom
     * @param authorsNoteActive ST's shouldWIAddPrompt: whether setFloatingPrompt inserted the note this time
     * @param macros            substituteParams
     * @param tokens            the prompt's token counter
     * @param random            ST's Math.random: probability rolls and inclusion group picks
     */
    public record Input(ObjectNode settings, ObjectNode character, ObjectNode metadata,
                        Function<String, ObjectNode> books, List<ObjectNode> coreChat, MacroEnv.CardFields card,
                        Action action, int maxContext, ExtensionPrompts prompts, boolean authorsNoteActive,
                        Macros macros, TokenCounter tokens, RandomGenerator random) {
    }

    private final Input input;
    private final WorldInfoSettings settings;
    private final List<String> chat;
    private final WorldInfoBuffer buffer;
    private final List<WorldInfoEntry> sortedEntries;
    private final TimedEffects timed;
    private final String characterFile;
    private final Map<String, WorldInfoEntry> allActivated = new LinkedHashMap<>();
    private final Set<WorldInfoEntry> failedProbability = Collections.newSetFromMap(new IdentityHashMap<>());
    private String allActivatedText = "";
    private double budget;
    private boolean budgetOverflowed;

    private WorldInfoScanner(Input input) {
        this.input = input;
        this.settings = WorldInfoSettings.read(input.settings());
        this.chat = chatForWorldInfo(input.coreChat(), settings.includeNames());
        this.buffer = new WorldInfoBuffer(chat, input.card(), settings);
        JsonNode avatar = input.character() == null ? null : input.character().get("avatar");
        this.characterFile = avatar != null && avatar.isTextual() ? avatar.textValue().replaceFirst("\\.[^/.]+\\z", "") : null;
        this.sortedEntries = WorldInfoBooks.sorted(settings, input.settings(), input.character(), characterFile,
                input.metadata(), input.books());
        this.timed = new TimedEffects(input.metadata(), sortedEntries, chat.size());
    }

    /** getWorldInfoPrompt: scans, and (when the note is active) puts the AN top and bottom entries into it. */
    public static WorldInfo scan(Input input) {
        return new WorldInfoScanner(input).check();
    }

    /**
     * Generate's chatForWI: each message as "name: text" or its text alone, newest first; made as the scan reads
     * them, which is only as deep as it scans.
     */
    private static List<String> chatForWorldInfo(List<ObjectNode> coreChat, boolean includeNames) {
        return new AbstractList<>() {
            @Override
            public String get(int index) {
                ObjectNode message = coreChat.get(coreChat.size() - 1 - index);
                String text = Js.string(message.get("mes"));
                return includeNames ? Js.string(message.get("name")) + ": " + text : text;
            }

            @Override
            public int size() {
                return coreChat.size();
            }
        };
    }

    /** ST's checkWorldInfo. */
    private WorldInfo check() {
        for (ExtensionPrompts.Prompt prompt : input.prompts().all().values()) {
            if (prompt.scan()) {
                String value = input.macros().substitute(prompt.value());
                if (!value.isEmpty()) {
                    buffer.addInject(value);
                }
            }
        }
        // Math.round(NaN) is 0 in Java, NaN in JavaScript: either way ST's "|| 1" applies.
        budget = Math.round(settings.budget() * input.maxContext() / 100);
        if (budget == 0) {
            budget = 1;
        }
        if (settings.budgetCap() > 0 && budget > settings.budgetCap()) {
            budget = settings.budgetCap();
        }
        if (sortedEntries.isEmpty()) {
            return WorldInfo.EMPTY;
        }
        scanLoop();
        return build();
    }

    private void scanLoop() {
        Deque<Double> delayLevels = recursionDelayLevels();
        double currentDelayLevel = delayLevels.isEmpty() ? 0 : delayLevels.poll();
        ScanState state = ScanState.INITIAL;
        int count = 0;
        while (state != ScanState.NONE) {
            if (truthy(settings.maxRecursionSteps()) && settings.maxRecursionSteps() <= count) {
                break;
            }
            count++;
            ScanState next = ScanState.NONE;
            List<WorldInfoEntry> activatedNow = new ArrayList<>();
            for (WorldInfoEntry entry : sortedEntries) {
                if (activates(entry, state, currentDelayLevel)) {
                    activatedNow.add(entry);
                }
            }
            // Sticky entries first, then the sorted order (they are already in it).
            List<WorldInfoEntry> newEntries = new ArrayList<>(activatedNow.stream().filter(timed::isSticky).toList());
            activatedNow.stream().filter(entry -> !timed.isSticky(entry)).forEach(newEntries::add);

            int textToScanTokens = input.tokens().count(allActivatedText);
            InclusionGroups.filter(newEntries, allActivated.values(), buffer, state, timed,
                    settings.useGroupScoring(), input.random());
            admit(newEntries, textToScanTokens);

            List<WorldInfoEntry> successful = newEntries.stream().filter(entry -> !failedProbability.contains(entry)).toList();
            List<WorldInfoEntry> forRecursion = successful.stream().filter(entry -> !entry.flag("preventRecursion")).toList();

            if (settings.recursive() && !budgetOverflowed && !forRecursion.isEmpty()) {
                next = ScanState.RECURSION;
            }
            // A min activations step is always followed by a recursive one when the recursion buffer has text.
            if (settings.recursive() && !budgetOverflowed && state == ScanState.MIN_ACTIVATIONS && buffer.hasRecurse()) {
                next = ScanState.RECURSION;
            }
            boolean minActivationsNotSatisfied = settings.minActivations() > 0 && allActivated.size() < settings.minActivations();
            if (next == ScanState.NONE && !budgetOverflowed && minActivationsNotSatisfied) {
                boolean overMax = settings.minActivationsDepthMax() > 0 && buffer.getDepth() > settings.minActivationsDepthMax()
                        || buffer.getDepth() > chat.size();
                if (!overMax) {
                    next = ScanState.MIN_ACTIVATIONS;
                    buffer.advanceScan();
                }
            }
            // Open "delay until recursion" levels get their own recursive step each.
            if (next == ScanState.NONE && !delayLevels.isEmpty()) {
                next = ScanState.RECURSION;
                currentDelayLevel = delayLevels.poll();
            }
            state = next;
            if (state != ScanState.NONE) {
                String text = String.join("\n", forRecursion.stream().map(entry -> entry.content).toList());
                if (!text.isEmpty()) {
                    buffer.addRecurse(text);
                    allActivatedText = text + "\n" + allActivatedText;
                }
            }
        }
    }

    /** The distinct {@code delayUntilRecursion} levels (true is 1), lowest first. */
    private Deque<Double> recursionDelayLevels() {
        Set<Double> levels = new TreeSet<>();
        for (WorldInfoEntry entry : sortedEntries) {
            if (entry.flag("delayUntilRecursion")) {
                levels.add(entry.number("delayUntilRecursion"));
            }
        }
        return new ArrayDeque<>(levels);
    }

    /** One entry's checks in a scan step: filters, timed effects, recursion flags, decorators, then its keys. */
    private boolean activates(WorldInfoEntry entry, ScanState state, double currentDelayLevel) {
        if (failedProbability.contains(entry) || allActivated.containsKey(entry.key())) {
            return false;
        }
        JsonNode disable = entry.get("disable");
        if (disable != null && (disable.isBoolean() ? disable.booleanValue() : WorldInfoSettings.jsNumber(disable) == 1)) {
            return false;
        }
        if (!triggered(entry) || filteredByCharacter(entry)) {
            return false;
        }
        boolean sticky = timed.isSticky(entry);
        if (timed.isDelay(entry) || timed.isCooldown(entry) && !sticky) {
            return false;
        }
        boolean delayedUntilRecursion = entry.flag("delayUntilRecursion");
        if (!sticky && delayedUntilRecursion && (state != ScanState.RECURSION
                || entry.number("delayUntilRecursion") > currentDelayLevel)) {
            return false;
        }
        if (!sticky && state == ScanState.RECURSION && settings.recursive() && entry.flag("excludeRecursion")) {
            return false;
        }
        if (entry.decorators.contains("@@activate")) {
            return true;
        }
        if (entry.decorators.contains("@@dont_activate")) {
            return false;
        }
        if (entry.flag("constant") || sticky) {
            return true;
        }
        List<String> keys = entry.strings("key");
        if (keys == null || keys.isEmpty()) {
            return false;
        }
        String textToScan = buffer.get(entry, state);
        if (keys.stream().noneMatch(key -> matches(textToScan, key, entry))) {
            return false;
        }
        List<String> secondary = entry.strings("keysecondary");
        if (!entry.flag("selective") || secondary == null || secondary.isEmpty()) {
            return true;
        }
        return matchesSecondary(textToScan, secondary, entry);
    }

    /** A key, macros substituted and trimmed, found in the text. */
    private boolean matches(String text, String key, WorldInfoEntry entry) {
        String substituted = input.macros().substitute(key);
        return !substituted.isEmpty() && buffer.matchKeys(text, Js.trim(substituted), entry);
    }

    /** The secondary keys under the entry's selective logic (AND ANY, NOT ALL, NOT ANY, AND ALL). */
    private boolean matchesSecondary(String text, List<String> secondary, WorldInfoEntry entry) {
        JsonNode logicNode = entry.get("selectiveLogic");
        double logic = logicNode == null || logicNode.isNull() ? 0 : logicNode.isNumber() ? logicNode.doubleValue() : Double.NaN;
        boolean anyMatch = false;
        boolean allMatch = true;
        for (String key : secondary) {
            boolean match = matches(text, key, entry);
            anyMatch |= match;
            allMatch &= match;
            if (logic == 0 && match || logic == 1 && !match) {
                return true;
            }
        }
        return logic == 2 && !anyMatch || logic == 3 && allMatch;
    }

    /** The generation type filter ({@code triggers}). */
    private boolean triggered(WorldInfoEntry entry) {
        JsonNode triggers = entry.get("triggers");
        if (triggers == null || !triggers.isArray() || triggers.isEmpty()) {
            return true;
        }
        for (JsonNode trigger : triggers) {
            if (trigger.isTextual() && trigger.textValue().equals(input.action().stName())) {
                return true;
            }
        }
        return false;
    }

    /** The entry's character filter: by the character's file name, then by its tags ({@code tag_map}). */
    private boolean filteredByCharacter(WorldInfoEntry entry) {
        JsonNode filter = entry.get("characterFilter");
        if (!Js.truthy(filter)) {
            return false;
        }
        boolean exclude = Js.truthy(filter.get("isExclude"));
        JsonNode names = filter.get("names");
        if (names != null && names.isArray() && !names.isEmpty()) {
            boolean included = false;
            for (JsonNode name : names) {
                included |= name.isTextual() && name.textValue().equals(characterFile);
            }
            if (exclude == included) {
                return true;
            }
        }
        JsonNode tags = filter.get("tags");
        JsonNode avatar = input.character() == null ? null : input.character().get("avatar");
        if (tags != null && tags.isArray() && !tags.isEmpty() && avatar != null && avatar.isTextual()) {
            // ST's getTagKeyForEntity answers the avatar even without tags, as an empty list.
            JsonNode characterTags = input.settings().path("tag_map").get(avatar.textValue());
            if (characterTags == null || characterTags.isArray()) {
                boolean tagged = false;
                for (JsonNode tag : characterTags == null ? List.<JsonNode>of() : characterTags) {
                    for (JsonNode wanted : tags) {
                        tagged |= Js.strictEquals(tag, wanted);
                    }
                }
                return exclude == tagged;
            }
        }
        return false;
    }

    /** Probability rolls and the token budget for a step's new entries (ST: the loop after the inclusion groups). */
    private void admit(List<WorldInfoEntry> newEntries, int textToScanTokens) {
        Lines newContent = Lines.NONE;
        long ignoresBudget = newEntries.stream().filter(entry -> entry.flag("ignoreBudget")).count();
        for (WorldInfoEntry entry : newEntries) {
            boolean ignoreBudget = entry.flag("ignoreBudget");
            if (ignoreBudget) {
                ignoresBudget--;
            }
            if (budgetOverflowed && !ignoreBudget) {
                if (ignoresBudget > 0) {
                    continue;
                }
                break;
            }
            if (!passesProbability(entry)) {
                failedProbability.add(entry);
                continue;
            }
            entry.content = input.macros().substitute(entry.content);
            newContent = newContent.append(entry.content);
            if (!ignoreBudget && textToScanTokens + input.tokens().count(newContent) >= budget) {
                budgetOverflowed = true;
                continue;
            }
            allActivated.put(entry.key(), entry);
        }
    }

    private boolean passesProbability(WorldInfoEntry entry) {
        if (!entry.flag("useProbability") || entry.is("probability", 100) || timed.isSticky(entry)) {
            return true;
        }
        return input.random().nextDouble() * 100 <= entry.number("probability");
    }

    /** The activated entries by position, lowest order first (ST: checkWorldInfo's "BUILDING PROMPT"). */
    private WorldInfo build() {
        List<String> before = new ArrayList<>();
        List<String> after = new ArrayList<>();
        List<WorldInfo.Example> examples = new ArrayList<>();
        List<String> anTop = new ArrayList<>();
        List<String> anBottom = new ArrayList<>();
        List<WorldInfo.DepthGroup> depth = new ArrayList<>();
        Map<String, List<String>> outlets = new LinkedHashMap<>();
        List<WorldInfoEntry> entries = new ArrayList<>(allActivated.values());
        JsOrder.sort(entries, WorldInfoEntry::byOrder);
        for (WorldInfoEntry entry : entries) {
            String content = entry.content;
            if (content.isEmpty()) {
                continue;
            }
            switch (position(entry)) {
                case BEFORE -> before.add(0, content);
                case AFTER -> after.add(0, content);
                case EM_TOP -> examples.add(0, new WorldInfo.Example(WorldInfo.Example.BEFORE, content));
                case EM_BOTTOM -> examples.add(0, new WorldInfo.Example(WorldInfo.Example.AFTER, content));
                case AN_TOP -> anTop.add(0, content);
                case AN_BOTTOM -> anBottom.add(0, content);
                case AT_DEPTH -> addAtDepth(depth, entry, content);
                case OUTLET -> {
                    String outlet = entry.flag("outletName") ? Js.string(entry.get("outletName")) : null;
                    if (outlet != null) {
                        outlets.computeIfAbsent(outlet, name -> new ArrayList<>()).add(content);
                    }
                }
                default -> {
                }
            }
        }
        if (input.authorsNoteActive()) {
            addToAuthorsNote(anTop, anBottom);
        }
        Map<String, List<String>> orderedOutlets = new LinkedHashMap<>();
        JsOrder.keys(outlets.keySet()).forEach(name -> orderedOutlets.put(name, outlets.get(name)));
        return new WorldInfo(String.join("\n", before), String.join("\n", after), examples, depth, orderedOutlets);
    }

    /** {@code switch (entry.position)}: a strict comparison, so only a number counts. */
    private static int position(WorldInfoEntry entry) {
        JsonNode position = entry.get("position");
        if (position == null || !position.isNumber() || position.doubleValue() != Math.rint(position.doubleValue())) {
            return -1;
        }
        return position.intValue();
    }

    /** Entries at one depth with one role share a group; the first entry (highest order) makes it. */
    private static void addAtDepth(List<WorldInfo.DepthGroup> groups, WorldInfoEntry entry, String content) {
        int depth = (int) entry.numberOr("depth", WorldInfoEntry.DEFAULT_DEPTH);
        int role = (int) entry.numberOr("role", ExtensionPrompts.SYSTEM);
        for (WorldInfo.DepthGroup group : groups) {
            if (group.depth() == depth && group.role() == role) {
                group.entries().add(0, content);
                return;
            }
        }
        List<String> entries = new ArrayList<>();
        entries.add(content);
        groups.add(new WorldInfo.DepthGroup(depth, role, entries));
    }

    /** The author's note with the AN top entries above and the bottom ones below it, one newline trimmed each end. */
    private void addToAuthorsNote(List<String> top, List<String> bottom) {
        ExtensionPrompts.Prompt note = input.prompts().get(AUTHORS_NOTE);
        if (note == null) {
            return;
        }
        String withEntries = String.join("\n", top) + "\n" + note.value() + "\n" + String.join("\n", bottom);
        if (withEntries.startsWith("\n")) {
            withEntries = withEntries.substring(1);
        }
        if (withEntries.endsWith("\n")) {
            withEntries = withEntries.substring(0, withEntries.length() - 1);
        }
        input.prompts().set(AUTHORS_NOTE, withEntries, note.position(), note.depth(), note.scan(), note.role());
    }

    private static boolean truthy(double number) {
        return number != 0 && !Double.isNaN(number);
    }
}
