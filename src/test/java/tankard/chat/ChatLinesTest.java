package tankard.chat;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

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

    @Test
    void linesEndAtLfCrlfAndCrLikeNodesLineReader() throws IOException {
        for (boolean slow : new boolean[]{false, true}) {
            String chat = "head\r\none\rtwo\n\nlast";
            InputStream in = slow ? trickle(chat) : new ByteArrayInputStream(chat.getBytes(StandardCharsets.UTF_8));
            ChatLines.Summary summary = ChatLines.scan(in, true);
            assertEquals("head", text(summary.first()));
            assertEquals("last", text(summary.last()));
            assertEquals(5, summary.lines(), "the blank line in the middle counts");
        }
    }

    @Test
    void trailingBlankLinesAreNotLines() throws IOException {
        ChatLines.Summary summary = ChatLines.scan(trickle("a\nb\r\n\n\r\n"), false);
        assertEquals("b", text(summary.last()));
        assertEquals(2, summary.lines());
        assertNull(summary.first(), "not asked for");
        assertNull(ChatLines.scan(trickle("\n\n"), true).last());
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
