package tankard.engine.worldinfo;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.engine.macro.MacroEnv;
import tankard.json.Js;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The text one scan matches keys against (ST: public/scripts/world-info.js, WorldInfoBuffer): the chat by depth,
 * the card fields an entry asks for, the scanned extension prompts and what recursion added.
 */
final class WorldInfoBuffer {
    static final int MAX_SCAN_DEPTH = 1000;
    private static final String MATCHER = "\u0001";
    private static final String JOINER = "\n" + MATCHER;

    /** ST's scan_state. */
    enum ScanState { NONE, INITIAL, RECURSION, MIN_ACTIVATIONS }

    private final WorldInfoSettings settings;
    private final MacroEnv.CardFields card;
    /** ST's chatForWI, newest first, as deep as ST reads it */
    private final List<String> messages;
    /**
     * ST's depthBuffer, read only as deep as a scan asks: the messages, trimmed; null where ST leaves a hole (an
     * empty message).
     */
    private final List<String> depthBuffer = new ArrayList<>();
    /** The deepest non-empty message read into {@link #depthBuffer}, or -1 */
    private int deepest = -1;
    private final List<String> recurseBuffer = new ArrayList<>();
    private final List<String> injectBuffer = new ArrayList<>();
    private int skew;

    /** @param messages ST's chatForWI: the messages' texts, newest first */
    WorldInfoBuffer(List<String> messages, MacroEnv.CardFields card, WorldInfoSettings settings) {
        this.settings = settings;
        this.card = card;
        this.messages = messages.subList(0, Math.min(messages.size(), MAX_SCAN_DEPTH));
    }

    /**
     * {@code Math.min(depth, depthBuffer.length)} as ST has it, its depthBuffer being the messages down to the
     * deepest non-empty one: here read as far as that needs.
     */
    private int end(int depth) {
        while (depthBuffer.size() < Math.min(depth, messages.size())) {
            readMessage();
        }
        while (deepest < depth && depthBuffer.size() < messages.size()) { // whether ST's buffer reaches past depth
            readMessage();
        }
        return Math.min(depth, deepest + 1);
    }

    private void readMessage() {
        String message = messages.get(depthBuffer.size());
        if (!message.isEmpty()) {
            deepest = depthBuffer.size();
        }
        depthBuffer.add(message.isEmpty() ? null : Js.trim(message));
    }

    /** ST's WorldInfoBuffer.get: the text an entry's keys are matched against. */
    String get(WorldInfoEntry entry, ScanState state) {
        double depth = entry.numberOr("scanDepth", getDepth());
        if (depth <= 0) {
            return "";
        }
        depth = Math.min(depth, MAX_SCAN_DEPTH);
        int end = Double.isNaN(depth) ? 0 : end((int) depth);
        int matched = 0;
        for (int i = 0; i < MATCH_FLAGS.length; i++) {
            matched |= entry.flag(MATCH_FLAGS[i]) ? 1 << i : 0;
        }
        int recursed = state != ScanState.MIN_ACTIVATIONS ? recurseBuffer.size() : -1;
        // most entries read the same text: it is built once and is the same string, whose lower case is kept
        List<Integer> shape = List.of(end, matched, injectBuffer.size(), recursed);
        if (!shape.equals(lastShape)) {
            lastShape = shape;
            lastText = text(end, matched, state);
        }
        return lastText;
    }

    /** The entry fields that add a card's text to the haystack, in ST's order. */
    private static final String[] MATCH_FLAGS = {"matchPersonaDescription", "matchCharacterDescription",
            "matchCharacterPersonality", "matchCharacterDepthPrompt", "matchScenario", "matchCreatorNotes"};

    private List<Integer> lastShape;
    private String lastText;

    private String text(int end, int matched, ScanState state) {
        List<String> slice = new ArrayList<>();
        for (String message : depthBuffer.subList(0, end)) {
            slice.add(message == null ? "" : message);
        }
        StringBuilder result = new StringBuilder(MATCHER).append(String.join(JOINER, slice));
        String[] texts = {card.persona(), card.description(), card.personality(), card.charDepthPrompt(),
                card.scenario(), card.creatorNotes()};
        for (int i = 0; i < texts.length; i++) {
            if ((matched & 1 << i) != 0 && texts[i] != null && !texts[i].isEmpty()) {
                result.append(JOINER).append(texts[i]);
            }
        }
        if (!injectBuffer.isEmpty()) {
            result.append(JOINER).append(String.join(JOINER, injectBuffer));
        }
        // Min activations should not include the recursion buffer
        if (!recurseBuffer.isEmpty() && state != ScanState.MIN_ACTIVATIONS) {
            result.append(JOINER).append(String.join(JOINER, recurseBuffer));
        }
        return result.toString();
    }

    /** ST's matchKeys: a /regex/ key by itself, else plain text with the entry's case and whole-word settings. */
    boolean matchKeys(String haystack, String needle, WorldInfoEntry entry) {
        JsRegex regex = JsRegex.parse(needle);
        if (regex != null) {
            return regex.test(haystack);
        }
        boolean caseSensitive = setting(entry, "caseSensitive", settings.caseSensitive());
        String text = caseSensitive ? haystack : lowerCase(haystack);
        String key = caseSensitive ? needle : needle.toLowerCase(Locale.ROOT);
        TextIndex index = index(text);
        if (!setting(entry, "matchWholeWords", settings.matchWholeWords()) || hasJsWhitespace(key)) {
            return index.indexOf(key, 0) >= 0;
        }
        // ST: (?:^|\W)(key)(?:$|\W), with \W anything but an ASCII word character
        for (int at = index.indexOf(key, 0); at >= 0; at = at < text.length() ? index.indexOf(key, at + 1) : -1) {
            int after = at + key.length();
            if ((at == 0 || !isWordChar(text.charAt(at - 1))) && (after == text.length() || !isWordChar(text.charAt(after)))) {
                return true;
            }
        }
        return false;
    }

    /** The text's index, made once for all the keys looked for in the same text. */
    private TextIndex index(String text) {
        if (index == null || index.text() != text) {
            index = new TextIndex(text);
        }
        return index;
    }

    private TextIndex index;

    /** The haystack in lower case, made once for all the keys tested against the same text. */
    private String lowerCase(String haystack) {
        if (haystack != lowered) {
            lowered = haystack;
            lowerCased = haystack.toLowerCase(Locale.ROOT);
        }
        return lowerCased;
    }

    private String lowered;
    private String lowerCased;

    /** {@code entry[field] ?? global}, as a truthy test. */
    private static boolean setting(WorldInfoEntry entry, String field, boolean global) {
        JsonNode value = entry.get(field);
        return value == null || value.isNull() ? global : Js.truthy(value);
    }

    /** Whether {@code key.split(/\s+/)} gives more than one word. */
    private static boolean hasJsWhitespace(String key) {
        for (int i = 0; i < key.length(); i++) {
            if (Js.isWhitespace(key.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isWordChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
    }

    void addRecurse(String message) {
        recurseBuffer.add(message);
    }

    void addInject(String message) {
        injectBuffer.add(message);
    }

    boolean hasRecurse() {
        return !recurseBuffer.isEmpty();
    }

    void advanceScan() {
        skew++;
    }

    /** The global scan depth plus the min-activations skew. */
    double getDepth() {
        return settings.depth() + skew;
    }

    /** ST's getScore: how many of an entry's keys match, for inclusion group scoring. */
    int getScore(WorldInfoEntry entry, ScanState state) {
        String text = get(entry, state);
        List<String> primary = entry.strings("key");
        List<String> secondary = entry.strings("keysecondary");
        if (primary == null || primary.isEmpty()) {
            return 0;
        }
        int primaryScore = count(text, primary, entry);
        if (secondary != null && !secondary.isEmpty()) {
            int secondaryScore = count(text, secondary, entry);
            if (entry.is("selectiveLogic", 0)) {
                return primaryScore + secondaryScore;
            }
            if (entry.is("selectiveLogic", 3)) {
                return secondaryScore == secondary.size() ? primaryScore + secondaryScore : primaryScore;
            }
        }
        return primaryScore;
    }

    private int count(String text, List<String> keys, WorldInfoEntry entry) {
        int score = 0;
        for (String key : keys) {
            if (matchKeys(text, key, entry)) {
                score++;
            }
        }
        return score;
    }
}
