package tankard.chat.format;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ChatLinesTest {
    /** Hands out one byte per read, so every line break crosses a buffer boundary. */
    private static InputStream trickle(String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        return new ByteArrayInputStream(bytes) {
            @Override
            public int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(1, len));
            }
        };
    }

    private static String text(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    /** ChatLines::split or ChatLines::readLines. */
    @FunctionalInterface
    private interface Reader {
        void read(InputStream in, ChatLines.LineVisitor visitor) throws IOException;
    }

    /** The first {@code most} lines the reader gives, as text. */
    private static List<String> lines(Reader reader, InputStream in, int most) throws IOException {
        List<String> lines = new ArrayList<>();
        reader.read(in, (bytes, from, to) ->
                lines.add(new String(bytes, from, to - from, StandardCharsets.UTF_8)) && lines.size() < most);
        return lines;
    }

    private static List<String> lines(InputStream in) throws IOException {
        return lines(ChatLines::readLines, in, Integer.MAX_VALUE);
    }

    private static List<String> split(InputStream in) throws IOException {
        return lines(ChatLines::split, in, Integer.MAX_VALUE);
    }

    @Test
    void linesEndAtLfCrlfAndCrLikeNodesLineReader() throws IOException {
        String chat = "head\r\none\rtwo\n\nlast";
        List<String> expected = List.of("head", "one", "two", "", "last");
        assertEquals(expected, lines(new ByteArrayInputStream(chat.getBytes(StandardCharsets.UTF_8))));
        assertEquals(expected, lines(trickle(chat)), "breaks across buffer boundaries");
        assertEquals(List.of("a", "", ""), lines(trickle("a\n\r\n\r\n")), "a final break starts no line");
        assertEquals(List.of(), lines(trickle("")));
    }

    @Test
    void splitIsJavaScriptsSplitOnLf() throws IOException {
        assertEquals(List.of("head\r", "one\rtwo", "", "last"), split(trickle("head\r\none\rtwo\n\nlast")),
                "only LF ends a line; a CR stays in it");
        assertEquals(List.of("a", "b", ""), split(trickle("a\nb\n")), "a final LF ends the last line and starts an empty one");
        assertEquals(List.of("a", "b"), split(trickle("a\nb")), "a last line without a break is a line");
        assertEquals(List.of(""), split(trickle("")), "an empty file is one empty line");
        assertEquals(List.of("", "", ""), split(trickle("\n\n")));
        String big = "x".repeat(200_000);
        assertEquals(List.of(big, big), split(new ByteArrayInputStream((big + "\n" + big).getBytes(StandardCharsets.UTF_8))),
                "lines longer than the buffer");
    }

    @Test
    void splitKeepingBreaksGivesLinesThatAddUpToTheFile() throws IOException {
        assertEquals(List.of("head\r\n", "one\rtwo\n", "\n", "last"),
                lines(ChatLines::splitKeepingBreaks, trickle("head\r\none\rtwo\n\nlast"), Integer.MAX_VALUE));
        assertEquals(List.of("a\n", "b\n"), lines(ChatLines::splitKeepingBreaks, trickle("a\nb\n"), Integer.MAX_VALUE),
                "a final LF starts no line");
        assertEquals(List.of(), lines(ChatLines::splitKeepingBreaks, trickle(""), Integer.MAX_VALUE));
        assertEquals(List.of("\n", "\n"), lines(ChatLines::splitKeepingBreaks, trickle("\n\n"), Integer.MAX_VALUE));
    }

    @Test
    void valuesAreTheTruthyLinesStKeeps() throws IOException {
        String chat = "\uFEFF{\"chat_metadata\":{}}\n{\"mes\":\"crlf\"}\r\n\n0\nnull\nbroken\n  [1] \n\"x\"\n";
        List<String> values = new ArrayList<>();
        ChatLines.values(trickle(chat), value -> values.add(value.toString()));
        assertEquals(List.of("{\"mes\":\"crlf\"}", "[1]", "\"x\""), values,
                "a BOM is no JSON, as in Node; CR and spaces around a value are JSON whitespace; falsy values are dropped");
    }

    @Test
    void aLineParsesAsNodeDecodesIt() {
        byte[] latin1 = {'"', 'c', 'a', 'f', (byte) 0xe9, '"'};
        assertEquals("caf\uFFFD", ChatLines.parse(latin1).textValue());
        assertNull(ChatLines.parse("\uFEFF{}".getBytes(StandardCharsets.UTF_8)));
        assertNull(ChatLines.parse("{".getBytes(StandardCharsets.UTF_8)));
        assertEquals(2, ChatLines.parse("[1,{\"a\":2}]".getBytes(StandardCharsets.UTF_8), 3, 10).get("a").intValue());
    }

    @Test
    void theLineReaderKeepsAByteOrderMarkAndEndsAtAFinalBreak() throws IOException {
        assertEquals(List.of("\uFEFFhead", "last"), lines(trickle("\uFEFFhead\r\nlast\r\n")));
        assertEquals(List.of("a", "b"), lines(trickle("a\rb\r")));
    }

    @Test
    void aVisitorCanStopEarly() throws IOException {
        assertEquals(List.of("a", "b"), lines(ChatLines::readLines, trickle("a\nb\nc"), 2));
        assertEquals(List.of("a", "b"), lines(ChatLines::split, trickle("a\nb\nc"), 2));
    }

    @Test
    void firstLineStopsAtTheFirstBreak() throws IOException {
        assertEquals("{\"a\":1}", text(ChatLines.firstLine(trickle("{\"a\":1}\r\n{}"))));
        assertEquals("", text(ChatLines.firstLine(trickle(""))));
        assertEquals("only", text(ChatLines.firstLine(trickle("only"))));
    }

    @Test
    void theArrayKeepsTruthyJsonLinesOnlyAsStPrintsThem() throws IOException {
        String file = "{\"a\":1}\n0\n-0.0\n1e-3\n\"\"\nnull\n[]\n{} {}\n  {\"b\" : 2.50}\t\r\n\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ChatArray.Read read = ChatArray.write(trickle(file), out);
        assertEquals("[{\"a\":1},0.001,[],{\"b\":2.5}]", out.toString(StandardCharsets.UTF_8));
        assertEquals(new ChatArray.Read(4, 5, false), read, "blank lines are neither kept nor dropped");
        out.reset();
        assertEquals(new ChatArray.Read(0, 0, false), ChatArray.write(trickle(""), out));
        assertEquals("[]", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aChatEndingWithALineFeedIsNotPlain() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(new ChatArray.Read(2, 0, true), ChatArray.write(trickle("{\"a\":1}\n{\"b\":2}"), out));
        assertEquals(new ChatArray.Read(2, 0, false), ChatArray.write(trickle("{\"a\":1}\n{\"b\":2}\n"), null),
                "its array is not the file with commas for LFs");
        out.reset();
        ChatArray.writePlain(trickle("{\"a\":1}\n{\"b\":2}"), out);
        assertEquals("[{\"a\":1},{\"b\":2}]", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void linesLongerThanTheBufferAreReadWhole() throws IOException {
        String big = "{\"mes\":\"" + "x".repeat(3 << 20) + "\"}";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ChatArray.write(new ByteArrayInputStream((big + "\n" + big).getBytes(StandardCharsets.UTF_8)), out);
        assertEquals("[" + big + "," + big + "]", out.toString(StandardCharsets.UTF_8));
    }
}
