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

    private static final Hole[] HOLES = Hole.values(); // values() copies its array at every call

    /** Unguessable, so no card text can contain it. */
    private static final String MARK = "@tk" + HexFormat.of().formatHex(new SecureRandom().generateSeed(12));
    private static final byte[] MARK_BYTES = MARK.getBytes(StandardCharsets.US_ASCII);

    /** The placeholder to put in the object where a hole goes. */
    static String sentinel(Hole hole) {
        return MARK + hole.ordinal() + "@";
    }

    static TextNode placeholder(Hole hole) {
        return TextNode.valueOf(sentinel(hole));
    }

    static ListTemplate of(JsonNode object) {
        // The marks are ASCII, so they are found in the UTF-8 bytes as they are; the pieces between them are
        // moved down over the cut-out marks in place.
        byte[] json = JsJson.compactBytes(object);
        int[] holes = new int[4];
        byte[] kinds = new byte[4];
        int count = 0;
        int size = 0;
        int from = 0;
        for (int at = indexOfMark(json, 0); at >= 0; at = indexOfMark(json, from)) {
            Hole hole = HOLES[json[at + MARK_BYTES.length] - '0'];
            int start = at;
            int end = at + MARK_BYTES.length + 2;
            if (hole != Hole.NOW) { // the placeholder's quotes go too: the value replaces the whole string
                start--;
                end++;
            }
            System.arraycopy(json, from, json, size, start - from);
            size += start - from;
            if (count == holes.length) {
                holes = Arrays.copyOf(holes, count * 2);
                kinds = Arrays.copyOf(kinds, count * 2);
            }
            holes[count] = size;
            kinds[count++] = (byte) hole.ordinal();
            from = end;
        }
        System.arraycopy(json, from, json, size, json.length - from);
        size += json.length - from;
        return new ListTemplate(Arrays.copyOf(json, size), Arrays.copyOf(holes, count), Arrays.copyOf(kinds, count));
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
