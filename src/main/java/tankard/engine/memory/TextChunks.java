package tankard.engine.memory;

import java.util.ArrayList;
import java.util.List;

/** ST's splitRecursive (public/scripts/utils.js): text cut at the first delimiter that makes parts short enough,
 * then short parts merged back up to the length. Lengths count UTF-16 code units, as JavaScript's do. */
public final class TextChunks {
    private TextChunks() {
    }

    public static List<String> split(String input, int length, List<String> delimiters) {
        if (length <= 0) {
            return List.of(input);
        }
        String delimiter = delimiters.isEmpty() ? "" : delimiters.get(0);
        List<String> flat = new ArrayList<>();
        for (String part : jsSplit(input, delimiter)) {
            if (part.length() < length) {
                flat.add(part);
            } else {
                flat.addAll(split(part, length, delimiters.isEmpty() ? delimiters : delimiters.subList(1, delimiters.size())));
            }
        }
        List<String> chunks = new ArrayList<>();
        for (int i = 0; i < flat.size(); ) {
            StringBuilder chunk = new StringBuilder(flat.get(i));
            int j = i + 1;
            while (j < flat.size() && chunk.length() + flat.get(j).length() + delimiter.length() <= length) {
                chunk.append(delimiter).append(flat.get(j));
                j++;
            }
            i = j;
            chunks.add(chunk.toString());
        }
        return chunks;
    }

    /** JavaScript's {@code String.prototype.split} by a string: "" splits into code units. */
    static List<String> jsSplit(String input, String delimiter) {
        List<String> parts = new ArrayList<>();
        if (delimiter.isEmpty()) {
            for (int i = 0; i < input.length(); i++) {
                parts.add(String.valueOf(input.charAt(i)));
            }
            return parts;
        }
        int start = 0;
        for (int at = input.indexOf(delimiter); at >= 0; at = input.indexOf(delimiter, start)) {
            parts.add(input.substring(start, at));
            start = at + delimiter.length();
        }
        parts.add(input.substring(start));
        return parts;
    }
}
