package tankard.chat.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;

/**
 * Where the lines of a chat start, found without reading the chat whole: each LF ends a line, as in
 * {@link ChatLines#split}, except that an LF at the very end starts no (empty) line after it.
 */
public final class ChatOffsets {
    private static final int BLOCK = 64 * 1024;

    private ChatOffsets() {
    }

    /** Where the line after the header starts (after the first LF); the size when the chat is its header alone. */
    public static long headerEnd(SeekableByteChannel chat) throws IOException {
        ByteBuffer block = ByteBuffer.allocate(BLOCK);
        chat.position(0);
        long at = 0;
        for (int n; (n = chat.read(block.clear())) > 0; at += n) {
            for (int i = 0; i < n; i++) {
                if (block.get(i) == '\n') {
                    return at + i + 1;
                }
            }
        }
        return chat.size();
    }

    /** The start of the {@code count}-th last line, reading backwards from the end, never before {@code floor}. */
    public static long lastLines(SeekableByteChannel chat, long floor, int count) throws IOException {
        return linesBefore(chat, floor, chat.size(), count);
    }

    /**
     * The start of the {@code count}-th line before {@code end} (the end, or a line start), reading backwards from
     * {@code end} in blocks, never before {@code floor}: an earlier page costs its own bytes, not the chat's.
     */
    public static long linesBefore(SeekableByteChannel chat, long floor, long end, int count) throws IOException {
        if (count <= 0) {
            return end;
        }
        ByteBuffer block = ByteBuffer.allocate(BLOCK);
        int found = 0;
        for (long blockEnd = end; blockEnd > floor; ) {
            long blockStart = Math.max(floor, blockEnd - BLOCK);
            block.clear().limit((int) (blockEnd - blockStart));
            chat.position(blockStart);
            while (block.hasRemaining() && chat.read(block) > 0) {
                // fill the block
            }
            for (int i = block.position() - 1; i >= 0; i--) {
                // an LF ends the line before it; the one closing the last line before the end starts no line of ours
                if (block.get(i) == '\n' && blockStart + i + 1 < end && ++found == count) {
                    return blockStart + i + 1;
                }
            }
            blockEnd = blockStart;
        }
        return floor;
    }
}
