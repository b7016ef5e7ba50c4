package tankard.character;

import tankard.json.ByteScan;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Walks the chunks of a PNG file without decoding the image, with the checks of ST's chunk reader
 * (png-chunks-extract, used by ST: src/character-card-parser.js, read): exact signature, IHDR first, CRCs verified,
 * IEND required, bytes after IEND ignored.
 * <p>
 * Bytes in memory (uploads) get every CRC verified, as ST does. A card file on disk is read from chunk header
 * to chunk header and only its {@code tEXt} chunks are read, so only their CRCs are verified: the image data is
 * never read, which is what makes listing thousands of cards cheap. A damaged image still lists, as it would in
 * ST only if its CRCs happened to hold; the card text itself is always checked.
 */
final class PngChunks {
    static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    private static final int READ_BLOCK = 16 << 10;
    private static final ThreadLocal<byte[]> BLOCKS = ThreadLocal.withInitial(() -> new byte[READ_BLOCK]);

    /** One chunk: its type and where its data lies in the file. */
    record Chunk(String type, int offset, int length) {
    }

    /**
     * A {@code tEXt} chunk's keyword and text, both Latin-1. The text stays bytes (those of {@code chunk} from
     * {@code textStart} to {@code textEnd}) until asked for: a card reader decodes only the chunk it uses.
     */
    record Text(String keyword, byte[] chunk, int textStart, int textEnd) {
        String text() {
            return new String(chunk, textStart, textEnd - textStart, StandardCharsets.ISO_8859_1);
        }

        /** The text's bytes, one per char. */
        ByteBuffer bytes() {
            return ByteBuffer.wrap(chunk, textStart, textEnd - textStart);
        }
    }

    /** Random access to the file's bytes: in memory, or positional reads of a file. */
    private interface Source {
        long size() throws IOException;

        /** Exactly {@code length} bytes at {@code position} (the caller checked they exist). */
        byte[] read(long position, int length) throws IOException;
    }

    /**
     * Called for each chunk before IEND with, when {@code wanted(type)}, its type, data and CRC (the data from
     * index 4), else null.
     */
    private interface Visitor {
        boolean wanted(String type);

        void chunk(String type, long offset, int length, byte[] typeDataCrc);
    }

    private PngChunks() {
    }

    static List<Chunk> read(byte[] png) {
        List<Chunk> chunks = new ArrayList<>();
        walk(memory(png), new Visitor() {
            @Override
            public boolean wanted(String type) {
                return true;
            }

            @Override
            public void chunk(String type, long offset, int length, byte[] data) {
                chunks.add(new Chunk(type, (int) offset, length));
            }
        });
        chunks.add(new Chunk("IEND", endOffset(chunks), 0));
        return chunks;
    }

    /** The {@code tEXt} chunks in file order, every CRC of the file verified. */
    static List<Text> texts(byte[] png) {
        return texts(memory(png), true);
    }

    /** The {@code tEXt} chunks of a card held in memory, read as {@link #texts(FileChannel)} reads a file. */
    static List<Text> cardTexts(byte[] png) {
        return texts(memory(png), false);
    }

    /** The {@code tEXt} chunks of a card file, reading nothing but chunk headers and text chunks. */
    static List<Text> texts(FileChannel file) throws IOException {
        try {
            return texts(file(file), false);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** A NUL inside the text makes the file unreadable, as in ST. */
    private static List<Text> texts(Source source, boolean verifyAll) {
        List<Text> texts = new ArrayList<>();
        walk(source, new Visitor() {
            @Override
            public boolean wanted(String type) {
                return verifyAll || type.equals("tEXt");
            }

            @Override
            public void chunk(String type, long offset, int length, byte[] typeDataCrc) {
                if (type.equals("tEXt")) {
                    texts.add(text(typeDataCrc, 4, 4 + length));
                }
            }
        });
        return texts;
    }

    private static Text text(byte[] chunk, int start, int end) {
        int nul = ByteScan.indexOf(chunk, start, end, (byte) 0);
        String keyword = new String(chunk, start, nul - start, StandardCharsets.ISO_8859_1);
        int textStart = Math.min(nul + 1, end);
        if (ByteScan.indexOf(chunk, textStart, end, (byte) 0) < end) { // eight bytes at a time: cards are long
            throw new CardFormatException("NUL character in tEXt chunk");
        }
        return new Text(keyword, chunk, textStart, end);
    }

    private static void walk(Source source, Visitor visitor) {
        try {
            long size = source.size();
            if (size < SIGNATURE.length || !Arrays.equals(source.read(0, SIGNATURE.length), SIGNATURE)) {
                throw new CardFormatException("Not a PNG file");
            }
            long pos = SIGNATURE.length;
            boolean first = true;
            while (pos + 8 <= size) {
                byte[] header = source.read(pos, 8);
                long length = readUint32(header, 0);
                String type = new String(header, 4, 4, StandardCharsets.ISO_8859_1);
                if (first && !type.equals("IHDR")) {
                    throw new CardFormatException("IHDR chunk missing");
                }
                first = false;
                long data = pos + 8;
                if (type.equals("IEND")) {
                    return;
                }
                if (length > size - data - 4L) {
                    throw new CardFormatException("PNG chunk " + type + " is cut short");
                }
                byte[] typeDataCrc = null;
                if (visitor.wanted(type)) {
                    // type, data and CRC in one read, so the CRC covers exactly what was read
                    typeDataCrc = source.read(pos + 4, (int) length + 8);
                    CRC32 crc = new CRC32();
                    crc.update(typeDataCrc, 0, (int) length + 4);
                    if (crc.getValue() != readUint32(typeDataCrc, (int) length + 4)) {
                        throw new CardFormatException("CRC mismatch in PNG chunk " + type);
                    }
                }
                visitor.chunk(type, data, (int) length, typeDataCrc);
                pos = data + length + 4;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new CardFormatException("PNG file has no IEND chunk");
    }

    private static int endOffset(List<Chunk> chunks) {
        Chunk last = chunks.get(chunks.size() - 1);
        return last.offset() + last.length() + 4 + 8;
    }

    private static Source memory(byte[] png) {
        return new Source() {
            @Override
            public long size() {
                return png.length;
            }

            @Override
            public byte[] read(long position, int length) {
                return Arrays.copyOfRange(png, (int) position, (int) position + length);
            }
        };
    }

    /**
     * Positional reads of a file, a block at a time: the chunk headers and text chunks of a card (text just
     * before IEND, as ST writes it) then take two reads or so instead of two per chunk. The block is the
     * thread's own, used again for every card: a first list of a big library would otherwise make most of its
     * garbage here.
     */
    private static Source file(FileChannel channel) {
        return new Source() {
            private final byte[] block = BLOCKS.get();
            private long size = -1;
            private long blockStart;
            private int blockLength;

            @Override
            public long size() throws IOException {
                if (size < 0) {
                    size = channel.size();
                }
                return size;
            }

            @Override
            public byte[] read(long position, int length) throws IOException {
                if (length > block.length) { // a text chunk longer than a block: read on its own
                    byte[] bytes = new byte[length];
                    readFully(ByteBuffer.wrap(bytes), position);
                    return bytes;
                }
                if (position < blockStart || position + length > blockStart + blockLength) {
                    blockStart = position;
                    blockLength = (int) Math.min(block.length, size() - position);
                    readFully(ByteBuffer.wrap(block, 0, blockLength), position);
                }
                int from = (int) (position - blockStart);
                return Arrays.copyOfRange(block, from, from + length);
            }

            private void readFully(ByteBuffer buffer, long position) throws IOException {
                while (buffer.hasRemaining()) { // the buffer starts at 0
                    if (channel.read(buffer, position + buffer.position()) < 0) {
                        throw new EOFException("The card file shrank while being read");
                    }
                }
            }
        };
    }

    private static long readUint32(byte[] b, int pos) {
        return ((b[pos] & 0xffL) << 24) | ((b[pos + 1] & 0xffL) << 16) | ((b[pos + 2] & 0xffL) << 8) | (b[pos + 3] & 0xffL);
    }
}
