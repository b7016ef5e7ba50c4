package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.util.FileNames;
import tankard.util.Sanitize;

/**
 * A chat a request names: its folder, its file name (sanitized, as ST names chat files) and the name its
 * backups go by (the character's folder, or the group chat's id).
 */
public record ChatRef(ChatFolder folder, String file, String backupName) {
    /** A character chat: ST's {@code sanitize(String(file_name) + '.jsonl')} in the card's chat folder. */
    public static ChatRef character(String avatarUrl, String chatName) {
        ChatFolder folder = ChatService.characterFolder(avatarUrl);
        return new ChatRef(folder, ChatService.chatFile(chatName), folder.character());
    }

    /** A group chat: ST's {@code sanitize(String(id) + '.jsonl')} in the group chats folder. */
    public static ChatRef group(String id) {
        return new ChatRef(ChatFolder.groups(), ChatService.chatFile(id), id);
    }

    /** Tankard's own naming (ChatWindow): truthy {@code avatar_url} + {@code file_name}, else {@code id}. */
    public static ChatRef of(JsonNode body) {
        if (Js.truthy(body.get("avatar_url"))) {
            if (!Js.truthy(body.get("file_name"))) {
                throw Refusal.badRequest("file_name is required");
            }
            return character(Js.string(body.get("avatar_url")), Js.string(body.get("file_name")));
        }
        if (!Js.truthy(body.get("id"))) {
            throw Refusal.badRequest("avatar_url and file_name, or id, are required");
        }
        return group(Js.string(body.get("id")));
    }

    /** A group chat by the truthy {@code id} (src/endpoints/chats.js, the /group/info and /group/delete routes). */
    public static ChatRef groupOf(JsonNode body) {
        JsonNode id = body.get("id");
        if (!Js.truthy(id)) {
            throw Refusal.badRequest("Missing group chat id");
        }
        return group(Js.string(id));
    }

    /** The character chat {@code chatfile} (".jsonl" added when it has no extension; the /delete route). */
    public static ChatRef ofChatFile(JsonNode body) {
        JsonNode chatFile = body.get("chatfile");
        if (chatFile == null || !chatFile.isTextual()) {
            throw Refusal.badRequest("Missing chatfile");
        }
        String name = chatFile.textValue();
        ChatFolder folder = characterFolder(body);
        return new ChatRef(folder, fileName(FileNames.ext(name).isEmpty() ? name + ".jsonl" : name), folder.character());
    }

    /** The folder of {@code avatar_url}'s character (validated like ST's middleware, then contained). */
    static ChatFolder characterFolder(JsonNode body) {
        JsonNode avatar = body.get("avatar_url");
        if (Js.isUndefined(avatar) || avatar.isNull() || avatar.isContainerNode()) {
            throw Refusal.badRequest("Missing avatar_url");
        }
        return ChatService.characterFolder(Js.string(avatar));
    }

    /** A chat file name from a request, sanitized as ST does; one that sanitizes to nothing is refused. */
    static String fileName(JsonNode name) {
        if (!name.isTextual()) {
            throw Refusal.badRequest("Chat file names must be text");
        }
        return fileName(name.textValue());
    }

    private static String fileName(String name) {
        String file = Sanitize.filename(name);
        if (!Sanitize.isSafeSegment(file)) {
            throw Refusal.badRequest("Invalid chat file name");
        }
        return file;
    }
}
