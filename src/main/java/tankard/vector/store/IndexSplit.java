package tankard.vector.store;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An {@code index.json} cut, as it is read, into the bytes before its items (through the {@code [} of
 * {@code "items"}), each item's bytes with the bytes between it and the one before, and the bytes after the last
 * item: so that a store which keeps the items apart can give back the very file it was given, whatever its spacing
 * and key order, and add or drop items later. Between two items Vectra writes one comma and nothing else (and
 * nothing between the bracket and the first item): such a gap is handed over as null.
 */
final class IndexSplit {
    private static final byte[] ITEMS = "items".getBytes(StandardCharsets.UTF_8);

    /** The file is not an index this can cut into items (not JSON, or items that are not objects). */
    static final class NotAnIndex extends IOException {
        NotAnIndex(String message) {
            super(message);
        }

        NotAnIndex(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** What the parts go to, in the file's order. */
    interface Parts {
        void head(byte[] head) throws IOException;

        /** An item: its bytes, parsed, and the bytes before it (null: none for the first item, else one comma). */
        void item(byte[] gap, byte[] json, VectraCodec.ParsedItem parsed) throws IOException;

        void tail(byte[] tail) throws IOException;
    }

    private final InputStream in;
    private final byte[] buffer = new byte[1 << 16];
    private int position;
    private int limit;

    private IndexSplit(InputStream in) {
        this.in = in;
    }

    /**
     * Cuts the file read from {@code in}. A file that is not such an index throws {@link NotAnIndex} (possibly after
     * some parts were handed over); a failure to read {@code in} itself is an {@link UncheckedIOException}.
     */
    static void split(InputStream in, Parts parts) throws IOException {
        new IndexSplit(in).run(parts);
    }

    private int next() {
        if (position == limit) {
            try {
                limit = in.read(buffer);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            position = 0;
            if (limit <= 0) {
                limit = 0;
                return -1;
            }
        }
        return buffer[position++] & 0xff;
    }

    private static boolean whitespace(int b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    private void run(Parts parts) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        headUntilItems(head);
        byte[] headBytes = head.toByteArray();
        parts.head(headBytes);
        ByteArrayOutputStream gap = new ByteArrayOutputStream();
        ByteArrayOutputStream item = new ByteArrayOutputStream();
        boolean first = true;
        int b;
        while (true) {
            b = next();
            if (b < 0) {
                throw new NotAnIndex("the items end early");
            }
            if (whitespace(b) || b == ',') {
                gap.write(b);
                continue;
            }
            if (b == ']') {
                break;
            }
            if (b != '{') {
                throw new NotAnIndex("an item that is not an object");
            }
            byte[] gapBytes = gap.toByteArray();
            gap.reset();
            int commas = 0;
            for (byte g : gapBytes) {
                commas += g == ',' ? 1 : 0;
            }
            if (commas != (first ? 0 : 1)) {
                throw new NotAnIndex("items not separated by one comma");
            }
            item.reset();
            item.write(b);
            object(item);
            byte[] json = item.toByteArray();
            VectraCodec.ParsedItem parsed;
            try {
                parsed = VectraCodec.parseItem(json);
            } catch (IOException e) {
                throw new NotAnIndex("an unreadable item: " + e.getMessage(), e);
            }
            boolean plain = first ? gapBytes.length == 0 : gapBytes.length == 1;
            parts.item(plain ? null : gapBytes, json, parsed);
            first = false;
        }
        ByteArrayOutputStream tail = new ByteArrayOutputStream();
        tail.write(gap.toByteArray());
        tail.write(b);
        for (int c = next(); c >= 0; c = next()) {
            tail.write(c);
        }
        byte[] tailBytes = tail.toByteArray();
        // what surrounds the items must be an index of its own, with no items
        byte[] rest = Arrays.copyOf(headBytes, headBytes.length + tailBytes.length);
        System.arraycopy(tailBytes, 0, rest, headBytes.length, tailBytes.length);
        int[] items = {0};
        try {
            VectraCodec.read(new java.io.ByteArrayInputStream(rest), found -> items[0]++);
        } catch (IOException e) {
            throw new NotAnIndex("not a Vectra index: " + e.getMessage(), e);
        }
        if (items[0] != 0 || gap.toString(StandardCharsets.ISO_8859_1).contains(",")) {
            throw new NotAnIndex("more items than one array's");
        }
        parts.tail(tailBytes);
    }

    /** Copies the file up to the {@code [} of its top-level {@code "items"} into {@code head}. */
    private void headUntilItems(ByteArrayOutputStream head) throws NotAnIndex {
        int depth = 0;
        boolean inString = false;
        boolean escaped = false;
        ByteArrayOutputStream key = new ByteArrayOutputStream();
        boolean keyDone = false; // a string at depth 1 just ended
        boolean itemsValue = false; // after "items":
        for (int b = next(); b >= 0; b = next()) {
            head.write(b);
            if (inString) {
                if (escaped) {
                    escaped = false;
                } else if (b == '\\') {
                    escaped = true;
                } else if (b == '"') {
                    inString = false;
                    keyDone = depth == 1;
                    continue;
                }
                if (depth == 1) {
                    key.write(b);
                }
                continue;
            }
            if (whitespace(b)) {
                continue;
            }
            if (itemsValue) {
                if (b == '[') {
                    return;
                }
                itemsValue = false;
            }
            if (b == ':' && keyDone && depth == 1) {
                itemsValue = Arrays.equals(key.toByteArray(), ITEMS);
                keyDone = false;
                continue;
            }
            keyDone = false;
            switch (b) {
                case '"' -> {
                    inString = true;
                    key.reset();
                }
                case '{', '[' -> depth++;
                case '}', ']' -> depth--;
                default -> {
                }
            }
            if (depth <= 0 && (b == '}' || b == ']')) {
                break;
            }
        }
        throw new NotAnIndex("no items array");
    }

    /** Copies an object whose {@code {} was read, through its closing brace. */
    private void object(ByteArrayOutputStream item) throws NotAnIndex {
        int depth = 1;
        boolean inString = false;
        boolean escaped = false;
        for (int b = next(); b >= 0; b = next()) {
            item.write(b);
            if (inString) {
                if (escaped) {
                    escaped = false;
                } else if (b == '\\') {
                    escaped = true;
                } else if (b == '"') {
                    inString = false;
                }
            } else if (b == '"') {
                inString = true;
            } else if (b == '{' || b == '[') {
                depth++;
            } else if ((b == '}' || b == ']') && --depth == 0) {
                return;
            }
        }
        throw new NotAnIndex("an item ends early");
    }
}
