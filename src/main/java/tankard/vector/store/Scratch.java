package tankard.vector.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What a loaded index keeps out of memory: each item's id, metadata and full vector, one record after another in a
 * file of this process's own that ST never sees. A query reads the records of its few best candidates, a fold reads
 * them all to write {@code index.json}. The file is made anew each time an index is loaded, so nothing in it has to
 * survive a crash: it is unlinked as soon as it is open (on Windows, deleted when closed, or by {@link #sweep} at the
 * next start). A record is {@code [int n][n floats][int id length][id][metadata JSON]}.
 */
final class Scratch implements Closeable {
    private static final String SUFFIX = ".scratch";

    private final FileChannel channel;
    private long end;

    private Scratch(FileChannel channel) {
        this.channel = channel;
    }

    static Scratch create(Path folder) throws IOException {
        Files.createDirectories(folder);
        Path file = Files.createTempFile(folder, "index-", SUFFIX);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                StandardOpenOption.DELETE_ON_CLOSE);
        try {
            Files.delete(file);
        } catch (IOException stillOpen) {
            // Windows keeps an open file; DELETE_ON_CLOSE takes it away
        }
        return new Scratch(channel);
    }

    /** Deletes what a process that stopped without closing left behind (on file systems that keep open files). */
    static void sweep(Path folder) {
        if (!Files.isDirectory(folder)) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*" + SUFFIX)) {
            for (Path file : files) {
                tankard.store.AtomicFiles.deleteQuietly(file);
            }
        } catch (IOException ignored) {
            // best effort: a stray scratch file is only disk space
        }
    }

    /** Where the next record starts. */
    long end() {
        return end;
    }

    /** Appends an item's record at {@link #end()} (callers serialise appends); its length. */
    int append(VectorItem item) throws IOException {
        byte[] id = item.id().getBytes(StandardCharsets.UTF_8);
        byte[] metadata = JsJson.MAPPER.writeValueAsBytes(item.metadata());
        float[] vector = item.vector();
        ByteBuffer record = ByteBuffer.allocate(8 + 4 * vector.length + id.length + metadata.length);
        record.putInt(vector.length);
        record.asFloatBuffer().put(vector);
        record.position(4 + 4 * vector.length);
        record.putInt(id.length).put(id).put(metadata).flip();
        while (record.hasRemaining()) {
            end += channel.write(record, end);
        }
        return record.limit();
    }

    private ByteBuffer record(long at, int length) throws IOException {
        ByteBuffer record = ByteBuffer.allocate(length);
        while (record.hasRemaining()) {
            if (channel.read(record, at + record.position()) < 0) {
                throw new IOException("the vector scratch file ends early");
            }
        }
        return record.flip();
    }

    float[] vector(long at, int length) throws IOException {
        ByteBuffer record = record(at, length);
        float[] vector = new float[record.getInt()];
        record.asFloatBuffer().get(vector);
        return vector;
    }

    VectorItem item(long at, int length, double norm) throws IOException {
        ByteBuffer record = record(at, length);
        float[] vector = new float[record.getInt()];
        record.asFloatBuffer().get(vector);
        record.position(4 + 4 * vector.length);
        byte[] id = new byte[record.getInt()];
        record.get(id);
        ObjectNode metadata = (ObjectNode) JsJson.MAPPER.readTree(record.array(), record.position(),
                record.remaining());
        return new VectorItem(new String(id, StandardCharsets.UTF_8), metadata, vector, norm);
    }

    /** False once the channel is closed (by {@link #close} or by an interrupt during a read). */
    boolean open() {
        return channel.isOpen();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
