package tankard.imagemetadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.store.DocumentStore.Folder;
import tankard.testing.PgDocuments;
import tankard.testing.TestServer;
import tankard.user.UserDirs;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** image-metadata.json on PostgreSQL: generated entries, folders and their images, renames and removals. */
class ImageMetadataIndexPgTest {
    private final PgDocuments pg = new PgDocuments();
    private final Path root = TestServer.tempDir();
    private final UserDirs alice = UserDirs.of(root, "alice");
    private final ImageMetadataIndex index = new ImageMetadataIndex(pg.store);

    @AfterEach
    void cleanUp() {
        pg.close();
        TestServer.deleteTree(root);
    }

    @Test
    void theIndexIsKeptInTheStore() throws Exception {
        Files.createDirectories(alice.backgrounds());
        ImageIO.write(new BufferedImage(4, 3, BufferedImage.TYPE_INT_RGB), "png",
                alice.backgrounds().resolve("a.png").toFile());
        String id = ImageFolders.create(index, "alice", "Favourites").get("id").asText();
        ImageFolders.assign(index, alice, id, List.of("backgrounds/a.png", "backgrounds/missing.png"));

        JsonNode generated = index.getOrGenerate(alice, List.of("backgrounds/a.png"), 0).get("backgrounds/a.png");
        assertEquals(JsJson.array().add(id), generated.get("folderIds"), "generating keeps the image's folders");
        assertTrue(generated.path("mtime").isNumber(), generated.toString());
        ObjectNode stored = (ObjectNode) JsJson.parse(pg.store.read("alice", Folder.ROOT, "image-metadata.json")
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
}
