package tankard.chat.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;

/**
 * What a chat listing needs from a chat file, without parsing it or holding it whole: the last line, read
 * backwards from the end; the line count, by a byte scan of what precedes it; the first line only when asked.
 * Lines end at LF, CRLF or CR, as with Node's line reader ({@link ChatLines#readLines}). Trailing empty lines are
 * not lines: ST's listing never answers for a chat whose last line is empty (src/endpoints/chats.js, getChatInfo,
 * {@code if (lastLine)}), so a file of only line breaks has no last line.
 */
public final class ChatTail {
    private static final int CHUNK = 64 * 1024;
    private static final long LOW_BITS = 0x7f7f7f7f7f7f7f7fL;
    private static final long CRS = 0x0d0d0d0d0d0d0d0dL;
    private static final long LFS = 0x0a0a0a0a0a0a0a0aL;

    /** The first line (null unless asked), the last non-empty line (null when there is none), the line count. */
    public record Summary(byte[] first, byte[] last, long lines) {
    }

    private ChatTail() {
    }

    public static Summary read(SeekableByteChannel chat, boolean withFirst) throws IOException {
        long size = chat.size();
        ByteBuffer buffer = ByteBuffer.allocate(CHUNK).order(ByteOrder.LITTLE_ENDIAN); // first byte lowest
        long end = skipBack(chat, buffer, size, true);
        if (end == 0) {
            return new Summary(null, null, 0);
        }
        long start = skipBack(chat, buffer, end, false);
        byte[] last = readRange(chat, start, end);
        byte[] first = null;
        if (withFirst) {
            first = start == 0 ? last : ChatLines.firstLine(Channels.newInputStream(chat.position(0)));
        }
        return new Summary(first, last, countBreaks(chat, buffer, start) + 1);
    }

    /**
     * Walks back from {@code from} over line breaks ({@code breaks}) or over everything else (not {@code breaks})
     * and answers where that run starts.
     */
    private static long skipBack(SeekableByteChannel chat, ByteBuffer buffer, long from, boolean breaks)
            throws IOException {
        long position = from;
        while (position > 0) {
            int length = (int) Math.min(CHUNK, position);
            fill(chat, buffer, position - length, length);
            for (int i = length - 1; i >= 0; i--) {
                if (isBreak(buffer.get(i)) != breaks) {
                    return position - length + i + 1;
                }
            }
            position -= length;
        }
        return 0;
    }

    /** Line breaks before {@code end}, a CRLF counting once; eight bytes at a time where there is no CR. */
    private static long countBreaks(SeekableByteChannel chat, ByteBuffer buffer, long end) throws IOException {
        Breaks breaks = new Breaks();
        for (long position = 0; position < end; position += CHUNK) {
            int length = (int) Math.min(CHUNK, end - position);
            fill(chat, buffer, position, length);
            int i = 0;
            for (; i + Long.BYTES <= length; i += Long.BYTES) {
                long word = buffer.getLong(i);
                if (matching(word, CRS) == 0) {
                    breaks.count += Long.bitCount(matching(word, LFS));
                    if (breaks.afterCr && (word & 0xff) == '\n') {
                        breaks.count--; // the LF of a CRLF whose CR ended the previous word
                    }
                    breaks.afterCr = false;
                } else {
                    for (int j = i; j < i + Long.BYTES; j++) {
                        breaks.add(buffer.get(j));
                    }
                }
            }
            for (; i < length; i++) {
                breaks.add(buffer.get(i));
            }
        }
        return breaks.count;
    }

    /** The high bit of every byte of the word that equals the pattern's byte (exact, no false positives). */
    private static long matching(long word, long pattern) {
        long bytes = word ^ pattern;
        return ~(((bytes & LOW_BITS) + LOW_BITS) | bytes | LOW_BITS);
    }

    /** Line breaks counted byte by byte: CR ends a line, LF too unless it follows a CR. */
    private static final class Breaks {
        long count;
        boolean afterCr;

        void add(byte b) {
            if (b == '\r') {
                count++;
                afterCr = true;
            } else {
                if (b == '\n' && !afterCr) {
                    count++;
                }
                afterCr = false;
            }
        }
    }

    private static byte[] readRange(SeekableByteChannel chat, long start, long end) throws IOException {
        if (end - start > Integer.MAX_VALUE - 8) {
            throw new IOException("The last line of the chat is too long to read");
        }
        ByteBuffer line = ByteBuffer.allocate((int) (end - start));
        readFully(chat.position(start), line);
        return line.array();
    }

    private static void fill(SeekableByteChannel chat, ByteBuffer buffer, long position, int length) throws IOException {
        buffer.clear().limit(length);
        readFully(chat.position(position), buffer);
    }

    private static void readFully(SeekableByteChannel chat, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            if (chat.read(buffer) < 0) {
                throw new IOException("The chat file was cut short while it was read");
            }
        }
    }

    private static boolean isBreak(byte b) {
        return b == '\n' || b == '\r';
    }
}
