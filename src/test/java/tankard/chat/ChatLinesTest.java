package tankard.chat;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

    private static List<String> lines(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        ChatLines.forEachLine(in, line -> lines.add(text(line)));
        return lines;
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
    void aVisitorCanStopEarly() throws IOException {
        List<String> seen = new ArrayList<>();
        ChatLines.forEachLine(trickle("a\nb\nc"), line -> seen.add(text(line)) && seen.size() < 2);
        assertEquals(List.of("a", "b"), seen);
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
        ChatLines.Read read = ChatLines.writeArray(trickle(file), out);
        assertEquals("[{\"a\":1},0.001,[],{\"b\":2.5}]", out.toString(StandardCharsets.UTF_8));
        assertEquals(new ChatLines.Read(4, 5, false), read, "blank lines are neither kept nor dropped");
        out.reset();
        assertEquals(new ChatLines.Read(0, 0, false), ChatLines.writeArray(trickle(""), out));
        assertEquals("[]", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void linesLongerThanTheBufferAreReadWhole() throws IOException {
        String big = "{\"mes\":\"" + "x".repeat(3 << 20) + "\"}";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ChatLines.writeArray(new ByteArrayInputStream((big + "\n" + big).getBytes(StandardCharsets.UTF_8)), out);
        assertEquals("[" + big + "," + big + "]", out.toString(StandardCharsets.UTF_8));
    }
}
