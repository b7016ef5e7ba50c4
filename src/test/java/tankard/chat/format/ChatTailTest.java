package tankard.chat.format;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.testing.TestServer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ChatTailTest {
    private final Path dir = TestServer.tempDir();

    @AfterEach
    void clean() {
        TestServer.deleteTree(dir);
    }

    private ChatTail.Summary tail(byte[] content, boolean withFirst) throws IOException {
        Path file = Files.write(dir.resolve("chat.jsonl"), content);
        try (FileChannel channel = FileChannel.open(file)) {
            return ChatTail.read(channel, withFirst);
        }
    }

    /** What ST's line reader makes of the file: all its lines, from which the summary follows. */
    private static ChatTail.Summary expected(byte[] content) throws IOException {
        List<byte[]> lines = new ArrayList<>();
        ChatLines.readLines(new ByteArrayInputStream(content), (bytes, from, to) -> lines.add(Arrays.copyOfRange(bytes, from, to)));
        int last = lines.size() - 1;
        while (last >= 0 && lines.get(last).length == 0) {
            last--; // trailing empty lines are ignored
        }
        return last < 0 ? new ChatTail.Summary(null, null, 0)
                : new ChatTail.Summary(lines.get(0), lines.get(last), last + 1);
    }

    @Test
    void agreesWithTheLineReaderOnRandomFilesAcrossChunkBoundaries() throws IOException {
        Random random = new Random(42);
        String[] pieces = {"\n", "\r", "\r\n", "{\"name\":\"a\"}", "x", "é", "\n\n"};
        for (int round = 0; round < 200; round++) {
            ByteArrayOutputStream file = new ByteArrayOutputStream();
            int parts = random.nextInt(40);
            for (int i = 0; i < parts; i++) {
                if (random.nextInt(10) == 0) {
                    file.writeBytes("y".repeat(random.nextInt(70_000)).getBytes(StandardCharsets.UTF_8));
                }
                file.writeBytes(pieces[random.nextInt(pieces.length)].getBytes(StandardCharsets.UTF_8));
            }
            byte[] content = file.toByteArray();
            ChatTail.Summary want = expected(content);
            ChatTail.Summary got = tail(content, true);
            assertEquals(want.lines(), got.lines(), "round " + round);
            assertArrayEquals(want.last(), got.last(), "round " + round);
            if (want.last() != null) {
                assertArrayEquals(want.first(), got.first(), "round " + round);
            }
        }
    }

    @Test
    void aCrlfAstrideTwoChunksCountsOnce() throws IOException {
        byte[] content = ("a".repeat(64 * 1024 - 1) + "\r\nlast").getBytes(StandardCharsets.UTF_8);
        assertEquals(2, tail(content, false).lines());
        assertEquals("last", new String(tail(content, false).last(), StandardCharsets.UTF_8));
    }

    @Test
    void theFirstLineIsReadOnlyWhenAsked() throws IOException {
        byte[] content = "head\nbody\n".getBytes(StandardCharsets.UTF_8);
        assertNull(tail(content, false).first());
        assertEquals("head", new String(tail(content, true).first(), StandardCharsets.UTF_8));
        assertEquals("only", new String(tail("only\r\n".getBytes(StandardCharsets.UTF_8), true).first(), StandardCharsets.UTF_8));
    }
}
