package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.json.ByteScan;
import tankard.json.JsJson;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A character's list object serialised once, with holes for the values that change without the card file
 * changing (its ctime, its chat folder, the current time in a default chat name). Built by serialising the
 * object with sentinel strings where those values go, then cutting the sentinels out, so the bytes written are
 * exactly those the same object with the real values would serialise to.
 *
 * @param holes the byte offsets of the holes, ascending
 * @param kinds the hole at the same index: one of the {@code Hole} ordinals
 */
record ListTemplate(byte[] bytes, int[] holes, byte[] kinds) {
    /** What fills a hole. {@code NOW} sits inside a string; the others replace a whole value. */
    enum Hole { NOW, DATE_ADDED, CREATE_DATE, CHAT_SIZE, DATE_LAST_CHAT }

    /** A card's two templates: its full list object, and the reduced one of lazy loading. */
    record Pair(ListTemplate full, ListTemplate shallow) {
    }

    private static final Hole[] HOLES = Hole.values(); // values() copies its array at every call

    /** Unguessable, so no card text can contain it. */
    private static final String MARK = "@tk" + HexFormat.of().formatHex(new SecureRandom().generateSeed(12));
    private static final byte[] MARK_BYTES = MARK.getBytes(StandardCharsets.US_ASCII);
    /** The kind of the text placeholder's mark (the holes' are their ordinals' digits). */
    private static final char TEXT = 'T';

    /** The placeholder to put in the object where a hole goes. */
    static String sentinel(Hole hole) {
        return MARK + hole.ordinal() + "@";
    }

    static TextNode placeholder(Hole hole) {
        return TextNode.valueOf(sentinel(hole));
    }

    /** The placeholder for a string that {@link #of(JsonNode, byte[])} fills in from its bytes (a card's text). */
    static TextNode textPlaceholder() {
        return TextNode.valueOf(MARK + TEXT + "@");
    }

    static ListTemplate of(JsonNode object) {
        return of(object, null);
    }

    /** With {@code text}, well-formed UTF-8, quoted where the object has the {@link #textPlaceholder()}. */
    static ListTemplate of(JsonNode object, byte[] text) {
        // The marks are ASCII, so they are found in the UTF-8 bytes as they are; the pieces between them are
        // moved down over the cut-out marks, in place when no text goes in.
        byte[] json = JsJson.stringifyAsJsBytes(object); // the card's numbers as JSON.parse read them: doubles
        byte[] quoted = text == null ? null : JsJson.quotedUtf8(text);
        byte[] out = quoted == null ? json : new byte[json.length + quoted.length];
        int[] holes = new int[4];
        byte[] kinds = new byte[4];
        int count = 0;
        int size = 0;
        int from = 0;
        for (int at = indexOfMark(json, 0); at >= 0; at = indexOfMark(json, from)) {
            byte kind = json[at + MARK_BYTES.length];
            int start = at;
            int end = at + MARK_BYTES.length + 2;
            if (kind != '0' + Hole.NOW.ordinal()) { // the placeholder's quotes go too: the value replaces the whole string
                start--;
                end++;
            }
            System.arraycopy(json, from, out, size, start - from);
            size += start - from;
            from = end;
            if (kind == TEXT) {
                System.arraycopy(quoted, 0, out, size, quoted.length);
                size += quoted.length;
                continue;
            }
            if (count == holes.length) {
                holes = Arrays.copyOf(holes, count * 2);
                kinds = Arrays.copyOf(kinds, count * 2);
            }
            holes[count] = size;
            kinds[count++] = (byte) (kind - '0');
        }
        System.arraycopy(json, from, out, size, json.length - from);
        size += json.length - from;
        return new ListTemplate(Arrays.copyOf(out, size), Arrays.copyOf(holes, count), Arrays.copyOf(kinds, count));
    }

    /**
     * Writes a template piece by piece, with the holes where they go (CanonicalCard). A builder made with no size
     * only counts, so that the real one can be made the exact size: write the same pieces to both.
     */
    static final class Builder {
        private final byte[] bytes;
        private int size;
        private int[] holes = new int[4];
        private byte[] kinds = new byte[4];
        private int count;

        /** A builder that only counts the bytes. */
        Builder() {
            this.bytes = null;
        }

        Builder(int size) {
            this.bytes = new byte[size];
        }

        int size() {
            return size;
        }

        Builder write(byte[] source, int from, int to) {
            if (bytes != null) {
                System.arraycopy(source, from, bytes, size, to - from);
            }
            size += to - from;
            return this;
        }

        Builder write(char ascii) {
            if (bytes != null) {
                bytes[size] = (byte) ascii;
            }
            size++;
            return this;
        }

        /** A string of chars below 256, a byte each. */
        Builder latin1(String text) {
            if (bytes != null) {
                for (int i = 0; i < text.length(); i++) {
                    bytes[size + i] = (byte) text.charAt(i);
                }
            }
            size += text.length();
            return this;
        }

        Builder hole(Hole hole) {
            if (count == holes.length) {
                holes = Arrays.copyOf(holes, count * 2);
                kinds = Arrays.copyOf(kinds, count * 2);
            }
            holes[count] = size;
            kinds[count++] = (byte) hole.ordinal();
            return this;
        }

        ListTemplate build() {
            if (bytes == null || size != bytes.length) {
                throw new IllegalStateException("The template was not written to its counted size");
            }
            return new ListTemplate(bytes, Arrays.copyOf(holes, count), Arrays.copyOf(kinds, count));
        }
    }

    private static int indexOfMark(byte[] json, int from) {
        int last = json.length - MARK_BYTES.length;
        // '@' is rare in card text: skip to each one eight bytes at a time (a first list scans every card twice)
        for (int at = ByteScan.indexOf(json, from, json.length, (byte) '@'); at <= last;
             at = ByteScan.indexOf(json, at + 1, json.length, (byte) '@')) {
            if (Arrays.equals(json, at, at + MARK_BYTES.length, MARK_BYTES, 0, MARK_BYTES.length)) {
                return at;
            }
        }
        return -1;
    }

    /** The values of the holes, already serialised ({@code NOW} without its quotes). */
    interface Values {
        byte[] get(Hole hole);
    }

    /** Bytes to write in order: the template's pieces with the hole values between them. */
    void writeTo(Values values, Sink sink) throws IOException {
        int from = 0;
        for (int i = 0; i < holes.length; i++) {
            sink.write(bytes, from, holes[i] - from);
            byte[] value = values.get(HOLES[kinds[i]]);
            sink.write(value, 0, value.length);
            from = holes[i];
        }
        sink.write(bytes, from, bytes.length - from);
    }

    /** Where the serialised list goes. */
    interface Sink {
        void write(byte[] bytes, int offset, int length) throws IOException;
    }

    /** Approximate heap bytes. */
    long weight() {
        return 48L + bytes.length + 5L * holes.length;
    }

    void write(DataOutput out) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
        out.writeInt(holes.length);
        for (int i = 0; i < holes.length; i++) {
            out.writeInt(holes[i]);
            out.writeByte(kinds[i]);
        }
    }

    static ListTemplate read(DataInput in) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        int count = in.readInt();
        int[] holes = new int[count];
        byte[] kinds = new byte[count];
        for (int i = 0; i < count; i++) {
            holes[i] = in.readInt();
            kinds[i] = in.readByte();
            if (holes[i] < 0 || holes[i] > bytes.length || kinds[i] < 0 || kinds[i] >= HOLES.length) {
                throw new IOException("Bad template");
            }
        }
        return new ListTemplate(bytes, holes, kinds);
    }
}
