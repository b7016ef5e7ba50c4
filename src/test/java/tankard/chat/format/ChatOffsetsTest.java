package tankard.chat.format;

import org.junit.jupiter.api.Test;
import tankard.store.ReadOnlyChannel;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChatOffsetsTest {
    /** A read-only chat in memory that counts the bytes read from it. */
    private static final class CountingChannel extends ReadOnlyChannel {
        private final byte[] bytes;
        long read;

        CountingChannel(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public int read(ByteBuffer dst) {
            if (position >= bytes.length) {
                return -1;
            }
            int n = (int) Math.min(dst.remaining(), bytes.length - position);
            dst.put(bytes, (int) position, n);
            position += n;
            read += n;
            return n;
        }

        @Override
        public long size() {
            return bytes.length;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    /** A header and {@code lines} messages; answers where each message's line starts. */
    private static byte[] chat(int lines, List<Long> starts) {
        ByteArrayOutputStream chat = new ByteArrayOutputStream();
        chat.writeBytes("{\"header\":true}".getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < lines; i++) {
            chat.write('\n');
            starts.add((long) chat.size());
            chat.writeBytes(("{\"mes\":\"" + "é".repeat(i % 50) + i + "\"}").getBytes(StandardCharsets.UTF_8));
        }
        return chat.toByteArray();
    }

    @Test
    void thePageBeforeAnOffsetStartsCountLinesEarlier() throws IOException {
        List<Long> starts = new ArrayList<>();
        CountingChannel chat = new CountingChannel(chat(500, starts));
        long floor = starts.get(0);
        assertEquals(floor, ChatOffsets.headerEnd(chat));
        for (int before : new int[]{0, 1, 7, 200, 499}) {
            for (int count : new int[]{0, 1, 3, 200, 1000}) {
                long expected = count == 0 ? starts.get(before) : starts.get(Math.max(0, before - count));
                assertEquals(expected, ChatOffsets.linesBefore(chat, floor, starts.get(before), count), before + " " + count);
            }
        }
        assertEquals(starts.get(497), ChatOffsets.linesBefore(chat, floor, chat.size(), 3), "the end is no line start of its own");
        assertEquals(ChatOffsets.lastLines(chat, floor, 3), ChatOffsets.linesBefore(chat, floor, chat.size(), 3));
    }

    @Test
    void anEarlierPageReadsItsOwnBlocksNotTheChat() throws IOException {
        List<Long> starts = new ArrayList<>();
        CountingChannel chat = new CountingChannel(chat(200_000, starts));
        assertTrue(chat.size() > 8_000_000, "a chat of " + chat.size() + " bytes");
        chat.read = 0;
        assertEquals(starts.get(99_950), ChatOffsets.linesBefore(chat, starts.get(0), starts.get(100_000), 50));
        assertTrue(chat.read <= 64 * 1024, "read " + chat.read + " bytes");
    }
}
