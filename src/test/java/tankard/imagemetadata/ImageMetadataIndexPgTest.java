package tankard.imagemetadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.store.BlobStore;
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Folder;
import tankard.store.pg.PgBlobStore;
import tankard.store.pg.PgDocumentStore;
import tankard.testing.ScratchDatabase;
import tankard.testing.TestImages;
import tankard.testing.TestServer;
import tankard.thumbnail.NodeImages;

import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** image-metadata.json and its images on PostgreSQL: generated entries, folders and their images, renames and removals. */
class ImageMetadataIndexPgTest {
    private final ScratchDatabase database = new ScratchDatabase();
    private final DocumentStore documents = new PgDocumentStore(database.db);
    private final BlobStore blobs = new PgBlobStore(database.db, path -> !path.endsWith(".json"));
    private final Path root = TestServer.tempDir();
    private final ImageMetadataIndex index = new ImageMetadataIndex(documents,
            new NodeImages(blobs, (user, name) -> root.resolve(name), root));

    @AfterEach
    void cleanUp() {
        database.close();
        TestServer.deleteTree(root);
    }

    @Test
    void theIndexIsKeptInTheStore() {
        blobs.write("alice", "backgrounds/a.png", new ByteArrayInputStream(TestImages.image("png", 4, 3)));
        String id = ImageFolders.create(index, "alice", "Favourites").get("id").asText();
        ImageFolders.assign(index, "alice", id, List.of("backgrounds/a.png", "backgrounds/missing.png"));

        JsonNode generated = index.getOrGenerate("alice", List.of("backgrounds/a.png"), 0).get("backgrounds/a.png");
        assertEquals(JsJson.array().add(id), generated.get("folderIds"), "generating keeps the image's folders");
        assertTrue(generated.path("mtime").isNumber(), generated.toString());
        assertEquals(1.3333, generated.path("aspectRatio").doubleValue());
        ObjectNode stored = (ObjectNode) JsJson.parse(documents.read("alice", Folder.ROOT, "image-metadata.json")
                .orElseThrow());
        assertEquals(List.of("backgrounds/a.png"), ImageMetadataIndex.images(stored).properties().stream()
                .map(e -> e.getKey()).toList());

        index.rename("alice", "backgrounds/a.png", "backgrounds/b.png");
        assertEquals(JsJson.compact(generated),
                JsJson.compact(ImageMetadataIndex.images(index.read("alice")).get("backgrounds/b.png")));
        index.remove("alice", "backgrounds/b.png");
        assertEquals(JsJson.object(), ImageMetadataIndex.images(index.read("alice")));
        assertEquals("Favourites", ImageFolders.folders(index.read("alice")).path(0).path("name").asText());
    }

    @Test
    void aChangedBlobGetsItsMetadataAgain() {
        blobs.write("alice", "backgrounds/a.png", new ByteArrayInputStream(TestImages.image("png", 4, 3)));
        JsonNode first = index.getOrGenerate("alice", List.of("backgrounds/a.png"), 0).get("backgrounds/a.png");
        assertEquals(JsJson.compact(first),
                JsJson.compact(index.getOrGenerate("alice", List.of("backgrounds/a.png"), 0).get("backgrounds/a.png")));
        blobs.write("alice", "backgrounds/a.png", new ByteArrayInputStream(TestImages.image("png", 8, 2)));
        JsonNode second = index.getOrGenerate("alice", List.of("backgrounds/a.png"), 0).get("backgrounds/a.png");
        assertEquals(4.0, second.path("aspectRatio").doubleValue());
        assertEquals(blobs.stat("alice", "backgrounds/a.png").orElseThrow().modifiedMs(), second.path("mtime").doubleValue(),
                0.001);
    }
}
