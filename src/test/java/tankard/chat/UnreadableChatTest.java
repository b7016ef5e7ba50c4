package tankard.chat;

import tankard.store.StripedLocks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.testing.TestServer;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A chat that is listed but cannot be opened (what root cannot provoke with file modes) is an error, never "no chat". */
class UnreadableChatTest {
    private final Path root = TestServer.tempDir();

    @AfterEach
    void clean() {
        TestServer.deleteTree(root);
    }

    /** The file store, except that every chat refuses to be read. */
    private ChatStore unreadableStore() {
        ChatStore files = new FileChatStore(root);
        return (ChatStore) Proxy.newProxyInstance(ChatStore.class.getClassLoader(), new Class<?>[]{ChatStore.class},
                (proxy, method, args) -> {
                    if (List.of("open", "channel").contains(method.getName())) {
                        throw new AccessDeniedException(String.valueOf(args[2]));
                    }
                    try {
                        return method.invoke(files, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void readersAnswer500WithTheChatsName() throws Exception {
        Files.createDirectories(root.resolve("u/group chats"));
        Files.createDirectories(root.resolve("u/chats/Bramble"));
        Files.writeString(root.resolve("u/group chats/g.jsonl"), "{\"chat_metadata\":{}}");
        Files.writeString(root.resolve("u/chats/Bramble/c.jsonl"), "{\"chat_metadata\":{}}");
        ChatStore store = unreadableStore();

        Refusal info = assertThrows(Refusal.class, () -> new ChatFiles(store,
                new ChatLocks(new StripedLocks(64)), () -> 0).groupInfo("u",
                ChatRef.groupOf(JsJson.parse("{\"id\":\"g\"}"))));
        assertEquals(Refusal.Kind.FAILED, info.kind());
        assertTrue(info.getMessage().contains("group chats/g.jsonl"), info.getMessage());

        Refusal search = assertThrows(Refusal.class, () -> new ChatSearch(store, new tankard.group.FileGroupStore(root)::chats).search("u",
                ChatSearch.Query.of(JsJson.parse("{\"avatar_url\":\"Bramble.png\"}"))));
        assertEquals(Refusal.Kind.FAILED, search.kind());

        ChatExport.Failure export = assertThrows(ChatExport.Failure.class, () -> new ChatExport(store).prepare("u",
                ChatExport.Options.of(JsJson.parse("{\"avatar_url\":\"Bramble.png\",\"file\":\"c.jsonl\",\"format\":\"jsonl\"}"))));
        assertEquals(Refusal.Kind.FAILED, export.kind());
    }
}
