package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.chat.format.ChatArray;
import tankard.chat.format.LineWriter;
import tankard.json.ByteScan;
import tankard.json.CanonicalJson;
import tankard.json.JsRespell;
import tankard.json.JsRestringify;
import tankard.json.JsonSyntaxException;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * A chat save request read in one streaming pass: the small members as trees, and the elements of the
 * {@code chat} array written one by one as the lines of the chat file, so a chat of any size never sits in
 * memory. Each line is what ST writes, {@code JSON.stringify(element)} (src/endpoints/chats.js, trySaveChat): an
 * element already in that form (all a browser sends) is copied as it is, anything else is parsed and printed the
 * way JavaScript would. An element that repeats, byte for byte, the line of a stored chat at its place (the chat
 * as this node has it at hand: {@link ChatStore#openAtHand}) was in that form when it was stored, and is copied
 * without checking it again: a save of a long chat that adds one message checks one message
 * (docs/compatibility.md). From the first message that does not repeat its stored line on, the messages of both are
 * noted for the stale-view check ({@link StaleSave}), so that a save that adds one message notes one.
 *
 * @param fields  top-level members other than {@code chat}
 * @param isArray whether {@code chat} is an array (else nothing was written)
 * @param header  the first line written (the chat header), or null
 * @param lines   the lines written, and how many of them ST's loader keeps (truthy) or drops
 * @param divergence the messages of the stored chat at hand and of the save from the first message that differs at
 *                   its place, for {@link StaleSave}; null when no chat was at hand
 */
record ChatBody(Map<String, JsonNode> fields, boolean isArray, byte[] header, ChatArray.Read lines,
                StaleSave.Divergence divergence) {
    /**
     * Reads the body (null: not a JSON request, read as {@code {}} like Express), writing the chat's lines to
     * the draft; a body that is not JSON throws {@link JsonSyntaxException} and leaves the draft unusable.
     */
    static ChatBody read(InputStream json, ChatStore.Draft draft, StoredChat stored) throws IOException {
        ChatBody empty = new ChatBody(new HashMap<>(), false, null, new ChatArray.Read(0, 0, false), null);
        if (json == null) {
            return empty;
        }
        Source in = new Source(json);
        int first = in.skipWhitespace();
        if (first < 0) {
            return empty; // an empty JSON body reads as {}
        }
        if (first != '{') {
            if (first != '[') {
                throw new JsonSyntaxException("the body must be an object or an array");
            }
            JsRestringify.parse(in.capture(), 0, in.captured()); // validates; an array has no members
            in.expectEnd();
            return empty;
        }
        Map<String, JsonNode> fields = new HashMap<>();
        ChatBody chat = empty;
        in.next();
        int c = in.skipWhitespace();
        while (c != '}') {
            if (c != '"') {
                throw new JsonSyntaxException("expected a member name");
            }
            String name = JsRestringify.parse(in.capture(), 0, in.captured()).textValue();
            in.expect(':');
            boolean array = in.skipWhitespace() == '[';
            if (name.equals("chat")) {
                fields.remove(name);
                chat = array ? elements(in, draft, fields, stored.lines(fields)) : empty; // the last "chat" wins, as in JSON.parse
            }
            if (!name.equals("chat") || !array) {
                fields.put(name, JsRestringify.parse(in.capture(), 0, in.captured()));
            }
            c = in.skipWhitespace();
            if (c == ',') {
                in.next();
                c = in.skipWhitespace();
            } else if (c != '}') {
                throw new JsonSyntaxException("expected , or }");
            }
        }
        in.next();
        in.expectEnd();
        fields.remove("chat");
        return new ChatBody(fields, chat.isArray, chat.header, chat.lines, chat.divergence);
    }

    /** The stored chat whose lines the request's elements may repeat, chosen by the members read before {@code chat}. */
    @FunctionalInterface
    interface StoredChat {
        StoredChat NONE = fields -> null;

        /** The chat's bytes, or null when there is none at hand. */
        Stored open(Map<String, JsonNode> fieldsBefore) throws IOException;

        private StoredLines lines(Map<String, JsonNode> fieldsBefore) throws IOException {
            Stored chat = open(fieldsBefore);
            return chat == null ? null : new StoredLines(chat.lines(), chat.canonical());
        }
    }

    /**
     * A stored chat at hand, and whether its lines are known to be as {@code JSON.stringify} prints them (Tankard or
     * ST wrote it): only then is an element that repeats one copied unchecked.
     */
    record Stored(ChatStore.AtHand lines, boolean canonical) {
    }

    private static ChatBody elements(Source in, ChatStore.Draft draft, Map<String, JsonNode> fields,
                                     StoredLines stored) throws IOException {
        try (stored) {
            return writeElements(in, draft, fields, stored);
        }
    }

    private static ChatBody writeElements(Source in, ChatStore.Draft draft, Map<String, JsonNode> fields,
                                          StoredLines stored) throws IOException {
        draft.restart();
        LineWriter out = new LineWriter(draft.out());
        byte[] header = null;
        long kept = 0;
        // the bytes of the leading elements that repeat the stored lines, each with the LF after it in both
        long repeatedBytes = 0;
        boolean repeating = stored != null;
        // the messages from the first one that does not repeat the stored line at its place (the header aside)
        StaleSave.Lines storedAfter = new StaleSave.Lines();
        StaleSave.Lines savedAfter = new StaleSave.Lines();
        boolean diverged = false;
        in.next();
        int c = in.skipWhitespace();
        while (c != ']') {
            // a canonical element (nearly all) is found and checked in one pass over the buffered body, and
            // written from there; any other is captured and checked on its own
            boolean storedLine = stored != null && stored.next();
            // the stored line's own bytes: its value, copied as it is when the stored line is canonical
            boolean asStored = storedLine && in.spelledAs(stored);
            int length = asStored && stored.lineIsCanonical() ? in.skip(stored.end() - stored.start()) : -1;
            boolean repeated = length >= 0; // the stored line's value
            boolean copied = repeated; // and its bytes
            if (length < 0) {
                length = in.canonical();
            }
            byte[] element = in.buffered();
            int offset = in.position() - length;
            boolean truthy = true;
            if (length < 0) {
                // another spelling, re-spelled where it is whole in the buffer, or captured and checked on its own
                element = in.respelled();
                if (element != null) {
                    length = element.length;
                } else {
                    element = in.capture();
                    length = in.captured();
                    if (!JsRestringify.isCanonical(element, 0, length)) {
                        element = JsRestringify.restringify(element, 0, length);
                        length = element.length;
                    }
                }
                offset = 0;
                truthy = CanonicalJson.truthy(element, 0, length);
                // an element in another spelling of the stored line repeats it as well
                copied = storedLine && stored.is(element, 0, length);
                repeated = copied || asStored;
            }
            if (out.lines() == 0) {
                header = Arrays.copyOfRange(element, offset, offset + length);
            } else if (stored != null) {
                diverged = diverged || !repeated;
                if (diverged) {
                    savedAfter.add(element, offset, offset + length);
                    if (storedLine) {
                        stored.addTo(storedAfter);
                    }
                }
            }
            out.line(element, offset, offset + length);
            kept += truthy ? 1 : 0;
            c = in.skipWhitespace();
            repeating = repeating && copied && stored.endsInLineFeed() && c == ',';
            repeatedBytes += repeating ? length + 1 : 0;
            if (c == ',') {
                in.next();
                c = in.skipWhitespace();
            } else if (c != ']') {
                throw new JsonSyntaxException("expected , or ]");
            }
        }
        in.next();
        if (repeatedBytes > 0) {
            draft.repeats(stored.version(), repeatedBytes);
        }
        StaleSave.Divergence divergence = null;
        if (stored != null) {
            while (stored.next()) { // the stored lines past the save's end
                if (stored.index() > 0) {
                    stored.addTo(storedAfter);
                }
            }
            divergence = new StaleSave.Divergence(stored.version(), storedAfter, savedAfter);
        }
        long dropped = out.lines() - kept;
        return new ChatBody(fields, true, header, new ChatArray.Read(kept, dropped, dropped == 0 && kept > 0), divergence);
    }

    JsonNode field(String name) {
        return fields.get(name);
    }

    /** The body's bytes with just enough lexing to find where each value ends; the parser validates values. */
    private static final class Source {
        private static final int BUFFER = 1 << 16;
        /** Before a value is looked for in the buffer, at least this much of the body is in it (if there is). */
        private static final int AHEAD = BUFFER / 2;

        private final InputStream in;
        private final byte[] buffer = new byte[BUFFER];
        private int position;
        private int limit;
        private boolean ended;
        /** The last value captured, in {@code value[0, captured)}. */
        private byte[] value = new byte[1 << 12];
        private int captured;

        Source(InputStream in) {
            this.in = in;
        }

        private boolean fill() throws IOException {
            if (position < limit) {
                return true;
            }
            position = 0;
            limit = 0;
            readMore();
            return limit > 0;
        }

        /** Reads the body on into the buffer after {@code limit}, as far as it goes. */
        private void readMore() throws IOException {
            int n = in.readNBytes(buffer, limit, buffer.length - limit);
            limit += n;
            ended = limit < buffer.length;
        }

        byte[] buffered() {
            return buffer;
        }

        int position() {
            return position;
        }

        /**
         * The length of the object or array at the current position, consumed (it ends at {@link #position()} in
         * {@link #buffered()}), when the buffer holds all of it and it is canonical
         * ({@link JsRestringify#canonicalEnd}); -1, nothing consumed, otherwise. Elements up to
         * {@link #AHEAD} long are always whole in the buffer: the rest of it is moved to its start and the
         * buffer filled behind it first when less is left.
         */
        int canonical() throws IOException {
            readAhead();
            int end = JsRestringify.canonicalEnd(buffer, position, limit);
            if (end < 0) {
                return -1;
            }
            int length = end - position;
            position = end;
            return length;
        }

        /**
         * Whether the object at the current position is the stored line's bytes and the array goes on or ends after
         * it; nothing is consumed.
         */
        boolean spelledAs(StoredLines line) throws IOException {
            readAhead();
            int length = line.end() - line.start();
            if (length <= 0 || line.array()[line.start()] != '{' || limit - position <= length) {
                return false;
            }
            byte after = buffer[position + length];
            return (after == ',' || after == ']')
                    && Arrays.equals(buffer, position, position + length, line.array(), line.start(), line.end());
        }

        /** Consumes {@code length} bytes the caller has looked at; answers the length. */
        int skip(int length) {
            position += length;
            return length;
        }

        /**
         * The value at the current position re-spelled as {@code JSON.stringify} prints it ({@link JsRespell}), and
         * consumed, when the buffer holds all of it and the re-spelling can tell it; null, nothing consumed, otherwise.
         */
        byte[] respelled() throws IOException {
            readAhead();
            JsRespell.Value value = JsRespell.value(buffer, position, limit);
            if (value == null || value.end() == limit) { // a number may go on past the buffer
                return null;
            }
            position = value.end();
            return value.text();
        }

        /** Makes sure at least {@link #AHEAD} bytes are buffered from the position on, where the body has them. */
        private void readAhead() throws IOException {
            if (limit - position < AHEAD && !ended) {
                System.arraycopy(buffer, position, buffer, 0, limit - position);
                limit -= position;
                position = 0;
                readMore();
            }
        }

        /** The next byte that is not JSON whitespace, not consumed; -1 at the end. */
        int skipWhitespace() throws IOException {
            while (fill()) {
                byte b = buffer[position];
                if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                    return b & 0xFF;
                }
                position++;
            }
            return -1;
        }

        void next() {
            position++;
        }

        void expect(char c) throws IOException {
            if (skipWhitespace() != c) {
                throw new JsonSyntaxException("expected " + c);
            }
            next();
        }

        void expectEnd() throws IOException {
            if (skipWhitespace() >= 0) {
                throw new JsonSyntaxException("unexpected data after the JSON value");
            }
        }

        int captured() {
            return captured;
        }

        /** Reads one value at the current position into {@link #value}; answers that array. */
        byte[] capture() throws IOException {
            captured = 0;
            int depth = 0;
            boolean inString = false;
            boolean escaped = false;
            boolean scalar = buffer[position] != '{' && buffer[position] != '[' && buffer[position] != '"';
            while (fill()) {
                int start = position;
                int end = -1;
                for (int i = position; i < limit && end < 0; i++) {
                    if (inString && !escaped) {
                        i = ByteScan.quoteOrBackslash(buffer, i, limit);
                        if (i == limit) {
                            break;
                        }
                    }
                    byte b = buffer[i];
                    if (scalar) {
                        if (b == ',' || b == '}' || b == ']' || b == ' ' || b == '\t' || b == '\n' || b == '\r') {
                            end = i;
                        }
                    } else if (inString) {
                        if (escaped) {
                            escaped = false;
                        } else if (b == '\\') {
                            escaped = true;
                        } else if (b == '"') {
                            inString = false;
                            end = depth == 0 ? i + 1 : -1;
                        }
                    } else if (b == '"') {
                        inString = true;
                    } else if (b == '{' || b == '[') {
                        depth++;
                    } else if (b == '}' || b == ']') {
                        depth--;
                        end = depth <= 0 ? i + 1 : -1;
                    }
                }
                int stop = end < 0 ? limit : end;
                append(start, stop);
                position = stop;
                if (end >= 0) {
                    return value;
                }
            }
            if (!scalar) {
                throw new JsonSyntaxException("unexpected end of the body");
            }
            return value;
        }

        private void append(int from, int to) {
            int n = to - from;
            if (captured + n > value.length) {
                value = Arrays.copyOf(value, Math.max(captured + n, value.length * 2));
            }
            System.arraycopy(buffer, from, value, captured, n);
            captured += n;
        }
    }

    /**
     * A stored chat's lines, one by one beside the elements of a save: {@code array()[start(), end())} is the line
     * of the element being read. A line too long for the buffer is passed over (an element that long is never
     * whole in the body's buffer either): only its hash and start are kept, for {@link #addTo}.
     */
    private static final class StoredLines implements Closeable {
        private static final int BUFFER = 1 << 17;

        private final InputStream in;
        private final Object version;
        /** Whether every line is known to be as {@code JSON.stringify} prints it. */
        private final boolean canonical;
        private final byte[] buffer = new byte[BUFFER];
        private int limit;
        private boolean ended;
        private int start;
        private int end;
        /** Where the next line starts. */
        private int next;
        /** The current line's index (0: the header). */
        private int index = -1;
        /** The hash and start of the current line when it was passed over, else null. */
        private CRC32C passedOver;
        private long passedOverLength;
        private byte[] passedOverStart;

        StoredLines(ChatStore.AtHand chat, boolean canonical) {
            this.in = chat.lines();
            this.version = chat.version();
            this.canonical = canonical;
        }

        /** The line as {@code JSON.stringify} prints it; as it is when it is no JSON (a file from elsewhere). */
        private byte[] restringified() {
            try {
                return JsRestringify.restringify(buffer, start, end);
            } catch (JsonSyntaxException notJson) {
                return Arrays.copyOfRange(buffer, start, end);
            }
        }

        /** Whether the line is as {@code JSON.stringify} prints it. */
        boolean lineIsCanonical() {
            return canonical || JsRestringify.isCanonical(buffer, start, end);
        }

        Object version() {
            return version;
        }

        int index() {
            return index;
        }

        /** Whether the current line is followed by an LF (all but a chat's last line are). */
        boolean endsInLineFeed() {
            return end < limit;
        }

        /** Moves to the next line; false when there is none. */
        boolean next() throws IOException {
            passedOver = null;
            while (true) {
                int lineFeed = ByteScan.indexOf(buffer, next, limit, (byte) '\n');
                if (lineFeed < limit || ended && next < limit) {
                    if (passedOver != null) {
                        passedOver.update(buffer, next, lineFeed - next);
                        passedOverLength += lineFeed - next;
                    }
                    start = passedOver != null ? lineFeed : next;
                    end = lineFeed;
                    next = Math.min(lineFeed + 1, limit);
                    index++;
                    return true;
                }
                if (ended) {
                    return false;
                }
                if (next == 0 && limit == buffer.length) {
                    if (passedOver == null) { // a line longer than the buffer
                        passedOver = new CRC32C();
                        passedOverLength = 0;
                        passedOverStart = Arrays.copyOf(buffer, 1 << 12);
                    }
                    passedOver.update(buffer, 0, limit);
                    passedOverLength += limit;
                    limit = 0;
                }
                System.arraycopy(buffer, next, buffer, 0, limit - next);
                limit -= next;
                next = 0;
                int n = in.readNBytes(buffer, limit, buffer.length - limit);
                limit += n;
                ended = limit < buffer.length;
            }
        }

        /** Whether the current line is these bytes. */
        boolean is(byte[] line, int from, int to) {
            return passedOver == null && Arrays.equals(buffer, start, end, line, from, to);
        }

        /** Adds the current line to the lines, as {@code JSON.stringify} prints it (as the save's lines are). */
        void addTo(StaleSave.Lines lines) {
            if (passedOver == null && !lineIsCanonical()) {
                byte[] line = restringified();
                lines.add(line, 0, line.length);
            } else if (passedOver == null) {
                lines.add(buffer, start, end);
            } else {
                lines.add(StaleSave.Lines.hash(passedOver.getValue(), passedOverLength), passedOverStart, 0,
                        passedOverStart.length);
            }
        }

        byte[] array() {
            return buffer;
        }

        int start() {
            return start;
        }

        int end() {
            return end;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
