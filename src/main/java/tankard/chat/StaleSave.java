package tankard.chat;

import tankard.json.ByteScan;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Whether a whole save (ST's {@code chats/save}) was made from a view of the chat older than the stored one, so that
 * it would replace messages its client never saw: another tab or device saved since. ST's frontend sends nothing of
 * its own per tab, so the save is told apart by its messages alone, compared with the stored ones after the part
 * both share (docs/compatibility.md, "A save from a stale view"): a save is stale when it loses a stored message
 * that it neither keeps, nor replaces at its place the way one tab's edit, swipe or regenerate does, nor leaves out
 * the way a deletion does.
 */
final class StaleSave {
    private static final byte[] IS_USER = "is_user".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SEND_DATE = "send_date".getBytes(StandardCharsets.US_ASCII);

    private StaleSave() {
    }

    /**
     * The messages of a stored chat and of a save after a part both share, with the stored chat's {@code version}
     * (ChatStore#version) they were compared at.
     */
    record Divergence(Object version, Lines stored, Lines saved) {
        boolean losesMessages() {
            return loses(stored, saved);
        }
    }

    /**
     * Whether the save loses a message of the stored chat: after the messages both begin and end with, a stored
     * message is lost unless the save holds it anywhere there (kept, or moved), or the save's messages there are the
     * stored ones with some left out (deleted), or each of the save's messages there takes the place of the stored
     * one at its place (an edit, swipe, continue or regenerate changes a message in place; a user's message keeps its
     * {@code send_date}), the stored ones left over being, if any, the chat's last messages and none a user's (a
     * group's regenerate replaces the last turn by its first reply).
     */
    static boolean loses(Lines stored, Lines saved) {
        int start = 0;
        while (start < stored.size && start < saved.size && stored.hashes[start] == saved.hashes[start]) {
            start++;
        }
        int storedEnd = stored.size;
        int savedEnd = saved.size;
        while (storedEnd > start && savedEnd > start && stored.hashes[storedEnd - 1] == saved.hashes[savedEnd - 1]) {
            storedEnd--;
            savedEnd--;
        }
        if (storedEnd == start || keepsAll(stored, saved, start, storedEnd, savedEnd)
                || leavesOut(stored, saved, start, storedEnd, savedEnd)) {
            return false;
        }
        int paired = Math.min(storedEnd, savedEnd);
        for (int i = start; i < paired; i++) {
            if (!takesThePlaceOf(saved, stored, i)) {
                return true;
            }
        }
        if (savedEnd >= storedEnd) {
            return false;
        }
        if (storedEnd != stored.size) {
            return true; // messages dropped before others the save keeps, and some changed: not one tab's change
        }
        for (int i = savedEnd; i < storedEnd; i++) {
            if (stored.users[i]) {
                return true;
            }
        }
        return false;
    }

    /** Whether every stored message in {@code [start, storedEnd)} is somewhere in the save's {@code [start, savedEnd)}. */
    private static boolean keepsAll(Lines stored, Lines saved, int start, int storedEnd, int savedEnd) {
        Set<Long> held = new HashSet<>();
        for (int i = start; i < savedEnd; i++) {
            held.add(saved.hashes[i]);
        }
        for (int i = start; i < storedEnd; i++) {
            if (!held.contains(stored.hashes[i])) {
                return false;
            }
        }
        return true;
    }

    /** Whether the save's {@code [start, savedEnd)} is the stored {@code [start, storedEnd)} with some left out. */
    private static boolean leavesOut(Lines stored, Lines saved, int start, int storedEnd, int savedEnd) {
        int s = start;
        for (int i = start; i < savedEnd; i++) {
            while (s < storedEnd && stored.hashes[s] != saved.hashes[i]) {
                s++;
            }
            if (s == storedEnd) {
                return false;
            }
            s++;
        }
        return true;
    }

    /**
     * Whether the save's message {@code i} may be the stored one at that place changed by its own tab: another
     * message than a user's for another one (edited, swiped, continued, regenerated), or a user's with the same
     * {@code send_date} (edited: ST's frontend keeps a message's send_date, and a user's message has no swipes).
     */
    private static boolean takesThePlaceOf(Lines saved, Lines stored, int i) {
        if (saved.hashes[i] == stored.hashes[i]) {
            return true;
        }
        return stored.users[i] ? saved.users[i] && Objects.equals(saved.sendDates[i], stored.sendDates[i]) : !saved.users[i];
    }

    /**
     * Chat lines in order, each as what the rule needs: a hash of its bytes, whether it is a user's message and,
     * then, its {@code send_date} as written. Lines that are not objects are left out: ST's frontend drops the falsy
     * ones, and keeps any other as it is.
     */
    static final class Lines {
        private final CRC32C crc = new CRC32C();
        private long[] hashes = new long[16];
        private boolean[] users = new boolean[16];
        private String[] sendDates = new String[16];
        private int size;

        int size() {
            return size;
        }

        void add(byte[] bytes, int from, int to) {
            crc.reset();
            crc.update(bytes, from, to - from);
            add(hash(crc.getValue(), to - from), bytes, from, to);
        }

        /** A line hashed by its reader ({@link #hash}), of which {@code bytes[from, to)} is the start or all. */
        void add(long hash, byte[] bytes, int from, int to) {
            int i = skipWhitespace(bytes, from, to);
            if (i == to || bytes[i] != '{') {
                return;
            }
            if (size == hashes.length) {
                hashes = Arrays.copyOf(hashes, size * 2);
                users = Arrays.copyOf(users, size * 2);
                sendDates = Arrays.copyOf(sendDates, size * 2);
            }
            hashes[size] = hash;
            scan(bytes, i + 1, to, size);
            size++;
        }

        /**
         * Reads the object's top-level members as far as it needs: {@code is_user}, and then {@code send_date}
         * (ST writes them second and fourth). A line cut short yields what its start says.
         */
        private void scan(byte[] b, int i, int to, int line) {
            boolean sawUser = false;
            while (true) {
                i = skipWhitespace(b, i, to);
                if (i < to && b[i] == ',') {
                    i = skipWhitespace(b, i + 1, to);
                }
                if (i >= to || b[i] != '"') {
                    return;
                }
                int keyEnd = stringEnd(b, i, to);
                if (keyEnd < 0) {
                    return;
                }
                boolean isUser = Arrays.equals(b, i + 1, keyEnd, IS_USER, 0, IS_USER.length);
                boolean isSendDate = !isUser && Arrays.equals(b, i + 1, keyEnd, SEND_DATE, 0, SEND_DATE.length);
                i = skipWhitespace(b, keyEnd + 1, to);
                if (i >= to || b[i] != ':') {
                    return;
                }
                int value = skipWhitespace(b, i + 1, to);
                i = valueEnd(b, value, to);
                if (i < 0) {
                    return;
                }
                if (isUser) {
                    sawUser = true;
                    users[line] = i - value == 4 && b[value] == 't';
                } else if (isSendDate) {
                    sendDates[line] = new String(b, value, i - value, StandardCharsets.UTF_8);
                }
                if (sawUser && (!users[line] || sendDates[line] != null)) {
                    return;
                }
            }
        }

        static long hash(long crc32c, long length) {
            return crc32c << 32 ^ length;
        }
    }

    private static int skipWhitespace(byte[] b, int i, int to) {
        while (i < to && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) {
            i++;
        }
        return i;
    }

    /** The index of the quote that ends the string starting at {@code b[i]}; -1 when the line ends first. */
    private static int stringEnd(byte[] b, int i, int to) {
        for (int j = i + 1; (j = ByteScan.quoteOrBackslash(b, j, to)) < to; j += 2) {
            if (b[j] == '"') {
                return j;
            }
        }
        return -1;
    }

    /** Where the value starting at {@code b[i]} ends (exclusive); -1 when the line ends first. */
    private static int valueEnd(byte[] b, int i, int to) {
        if (i >= to) {
            return -1;
        }
        if (b[i] == '"') {
            int end = stringEnd(b, i, to);
            return end < 0 ? -1 : end + 1;
        }
        if (b[i] != '{' && b[i] != '[') {
            while (i < to && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\n') {
                i++;
            }
            return i;
        }
        int depth = 0;
        for (; i < to; i++) {
            byte c = b[i];
            if (c == '"') {
                i = stringEnd(b, i, to);
                if (i < 0) {
                    return -1;
                }
            } else if (c == '{' || c == '[') {
                depth++;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return i + 1;
            }
        }
        return -1;
    }
}
