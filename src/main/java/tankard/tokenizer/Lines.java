package tankard.tokenizer;

import java.util.ArrayList;
import java.util.List;

/**
 * A text made by appending lines, each followed by a newline, as ST's world info budget grows the text it counts
 * after each entry it admits (public/scripts/world-info.js, checkWorldInfo: {@code newContent += `${content}\n`}).
 * Equal to another made of equal lines: {@link TokenCounts} finds its count by its lines, each hashed once by its
 * string, instead of hashing and comparing the whole text again at every line. Immutable.
 */
public final class Lines {
    public static final Lines NONE = new Lines(null, null, 0, 0, 0);

    private final Lines before;
    private final String line;
    private final int count;
    private final int length;
    private final int hash;

    private Lines(Lines before, String line, int count, int length, int hash) {
        this.before = before;
        this.line = line;
        this.count = count;
        this.length = length;
        this.hash = hash;
    }

    /** This text with {@code line} and a newline after it. */
    public Lines append(String line) {
        return new Lines(this, line, count + 1, length + line.length() + 1, 31 * hash + line.hashCode());
    }

    /** The text's length in chars. */
    public int length() {
        return length;
    }

    @Override
    public String toString() {
        List<String> lines = new ArrayList<>(count);
        for (Lines at = this; at.count > 0; at = at.before) {
            lines.add(at.line);
        }
        StringBuilder text = new StringBuilder(length);
        for (int i = lines.size() - 1; i >= 0; i--) {
            text.append(lines.get(i)).append('\n');
        }
        return text.toString();
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Lines that) || that.count != count || that.length != length || that.hash != hash) {
            return false;
        }
        for (Lines a = this, b = that; a != b; a = a.before, b = b.before) {
            if (!a.line.equals(b.line)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
