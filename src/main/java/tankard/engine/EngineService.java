package tankard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.character.CharacterService;
import tankard.chat.ChatRef;
import tankard.chat.ChatService;
import tankard.chat.ChatTail;
import tankard.core.Refusal;
import tankard.engine.prompt.Action;
import tankard.engine.prompt.BuiltPrompt;
import tankard.engine.prompt.PromptInputs;
import tankard.group.GroupService;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.store.DocumentStore;
import tankard.tokenizer.Tokenizers;
import tankard.util.Sanitize;
import tankard.vector.VectorService;

import java.io.IOException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Reads what a prompt is built from (the user's settings, the character or group, the chat, the world info
 * books) and has {@link PromptEngine} build it. Blocking: runs on a worker.
 */
public final class EngineService {
    private final DocumentStore documents;
    private final CharacterService characters;
    private final GroupService groups;
    private final ChatService chats;
    private final Tokenizers tokenizers;
    private final VectorService vectors;
    private final Supplier<ZonedDateTime> clock;

    public EngineService(DocumentStore documents, CharacterService characters, GroupService groups, ChatService chats,
                         Tokenizers tokenizers, VectorService vectors, Supplier<ZonedDateTime> clock) {
        this.documents = documents;
        this.characters = characters;
        this.groups = groups;
        this.chats = chats;
        this.tokenizers = tokenizers;
        this.vectors = vectors;
        this.clock = clock;
    }

    /** The {@code /api/tankard/prompt} answer: the route, the request body and the itemization. */
    public ObjectNode prompt(String user, JsonNode body) throws IOException {
        Action action = Action.parse(body.hasNonNull("action") ? Js.string(body.get("action")) : null);
        BuiltPrompt built = PromptEngine.build(inputs(user, body, action), action);
        ObjectNode answer = JsJson.object();
        answer.put("route", built.route());
        answer.set("request", built.request());
        answer.set("itemization", built.itemization().toJson());
        return answer;
    }

    PromptInputs inputs(String user, JsonNode body, Action action) throws IOException {
        ObjectNode settings = settings(user);
        ZonedDateTime now = now(body.get("now"));
        String text = body.hasNonNull("text") ? Js.string(body.get("text")) : "";
        ObjectNode group = null;
        List<ObjectNode> members = new ArrayList<>();
        ObjectNode character;
        ChatRef chat;
        String chatId = requiredText(body, "file_name");
        if (body.hasNonNull("group_id")) {
            group = group(user, Js.string(body.get("group_id")));
            for (JsonNode member : group.path("members")) {
                members.add(member(user, Js.string(member)));
            }
            character = speaker(group, members, body.get("avatar_url"));
            chat = ChatRef.group(chatId);
        } else {
            String avatar = requiredText(body, "avatar_url");
            character = characters.get(user, avatar);
            chat = ChatRef.character(avatar, chatId);
        }
        ChatTail read = chats.tail(user, chat, Integer.MAX_VALUE);
        JsonNode header = read.header();
        ObjectNode metadata = header != null && header.get("chat_metadata") instanceof ObjectNode object
                ? object : JsJson.object();
        ArrayNode messages = JsJson.array();
        read.messages().forEach(message -> {
            if (message.isObject()) { // a line ST's frontend could not use either
                messages.add(message);
            }
        });
        Function<String, ObjectNode> books = name -> book(user, name);
        return new PromptInputs(settings, character, group, members, messages, metadata, books, text, now, tokenizers,
                EngineVectors.of(vectors, user, settings, chatId));
    }

    private ObjectNode settings(String user) {
        byte[] bytes = documents.read(user, DocumentStore.Folder.ROOT, "settings.json")
                .orElseThrow(() -> Refusal.notFound("The user has no settings.json"));
        try {
            JsonNode settings = JsJson.parse(bytes);
            if (settings instanceof ObjectNode object) {
                return object;
            }
        } catch (RuntimeException e) {
            // answered below
        }
        throw Refusal.badRequest("settings.json does not parse as a JSON object");
    }

    /** A world info book by name; null when there is none or it does not parse (ST then leaves it out). */
    private ObjectNode book(String user, String name) {
        if (name == null || name.isEmpty()) {
            return null;
        }
        String file = Sanitize.filename(name + ".json");
        return documents.read(user, DocumentStore.Folder.WORLDS, file).map(bytes -> {
            try {
                return JsJson.parse(bytes) instanceof ObjectNode object ? object : null;
            } catch (RuntimeException e) {
                return null;
            }
        }).orElse(null);
    }

    private ObjectNode group(String user, String id) throws IOException {
        for (JsonNode group : groups.all(user)) {
            if (id.equals(Js.string(group.get("id")))) {
                return (ObjectNode) group;
            }
        }
        throw Refusal.notFound("No such group: " + id);
    }

    private ObjectNode member(String user, String avatar) throws IOException {
        try {
            return characters.get(user, avatar);
        } catch (Refusal missing) {
            return null;
        }
    }

    /** The member who speaks: the one {@code avatar_url} names, else the first enabled member. */
    private static ObjectNode speaker(ObjectNode group, List<ObjectNode> members, JsonNode avatar) {
        List<String> disabled = new ArrayList<>();
        group.path("disabled_members").forEach(member -> disabled.add(Js.string(member)));
        for (int i = 0; i < members.size(); i++) {
            String member = Js.string(group.path("members").get(i));
            boolean named = Js.truthy(avatar) && member.equals(Js.string(avatar));
            if (members.get(i) != null && (named || !Js.truthy(avatar) && !disabled.contains(member))) {
                return members.get(i);
            }
        }
        throw Refusal.badRequest(Js.truthy(avatar) ? "The group has no member " + Js.string(avatar)
                : "The group has no enabled member");
    }

    private ZonedDateTime now(JsonNode value) {
        if (value == null || value.isNull()) {
            return clock.get();
        }
        try {
            return ZonedDateTime.parse(Js.string(value)).withZoneSameInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw Refusal.badRequest("now must be an ISO-8601 date and time, such as 2026-01-01T10:00:00Z");
        }
    }

    private static String requiredText(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (!Js.truthy(value)) {
            throw Refusal.badRequest(field + " is required");
        }
        return Js.string(value);
    }
}
