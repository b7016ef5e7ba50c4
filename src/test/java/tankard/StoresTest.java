package tankard;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which files of a user's folder are the blob store's: every one that no other store keeps or the node keeps. */
class StoresTest {
    @Test
    void theBlobsAreTheFilesNoOtherStoreKeeps() {
        for (String path : List.of("backgrounds/a.jpg", "user/images/Seraphina/x.png", "user/files/notes.txt",
                "user/workflows/Default_Comfy_Workflow.json", "characters/Seraphina/joy.png", "characters/Seraphina.txt",
                "assets/live2d/model/m.json", "User Avatars/p.png", "content.log", "groups/notes.txt",
                "chats/Seraphina/picture.png", "vectors", "thumbnails.png")) {
            assertTrue(Stores.isBlob(path), path);
        }
    }

    @Test
    void documentsChatsGroupsCardsAndTheNodesFilesAreNotBlobs() {
        for (String path : List.of("settings.json", "stats.json", "image-metadata.json", "worlds/Lore.json",
                "OpenAI Settings/Default.json", "backups/settings_alice_1.json", "backups/chat_Seraphina_1.jsonl",
                "chats/Seraphina/1.jsonl", "group chats/g.jsonl", "groups/g.json", "characters/Seraphina.png",
                "vectors/openai/index.json", "extensions/my-ext/index.js", "thumbnails/bg/a.jpg")) {
            assertFalse(Stores.isBlob(path), path);
        }
    }
}
