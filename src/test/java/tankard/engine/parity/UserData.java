package tankard.engine.parity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;
import tankard.testing.Fixtures;
import tankard.testing.MockCompletionServer;
import tankard.testing.UserFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario's user data, written into a Tankard's user folder before ST's frontend boots: settings.json,
 * character cards, their chats, world info books, groups and group chats. All of it is this test's own data; only
 * the settings start from the ST install's default settings.json, read at run time, as Tankard seeds a new user.
 */
public final class UserData {
    public static final String USER = "Tester";
    public static final String USER_AVATAR = "user-default.png";

    private final ObjectNode settings;
    /** The files besides settings.json by their path in ST's layout; a later write of a path replaces the earlier. */
    private final Map<String, byte[]> files = new LinkedHashMap<>();
    /** Cards' JSON by their card's path, for the copy other tests read. */
    private final Map<String, ObjectNode> cards = new LinkedHashMap<>();

    private UserData(ObjectNode settings) {
        this.settings = settings;
    }

    /** ST's default settings with the first-run questions answered and auto-connect on. */
    public static UserData fromDefaults(Path stDir) {
        ObjectNode settings;
        try {
            settings = (ObjectNode) JsJson.parse(Files.readAllBytes(stDir.resolve("default/content/settings.json")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        settings.put("firstRun", false).put("username", USER).put("user_avatar", USER_AVATAR);
        powerUser(settings).put("auto_connect", true);
        return new UserData(settings);
    }

    public ObjectNode settings() {
        return settings;
    }

    public static ObjectNode powerUser(ObjectNode settings) {
        return (ObjectNode) settings.get("power_user");
    }

    public ObjectNode powerUser() {
        return powerUser(settings);
    }

    public ObjectNode oai() {
        return (ObjectNode) settings.get("oai_settings");
    }

    public ObjectNode textgen() {
        return (ObjectNode) settings.get("textgenerationwebui_settings");
    }

    public ObjectNode extensionSettings() {
        return (ObjectNode) settings.get("extension_settings");
    }

    /** Chat Completion, custom source at the mock, without streaming, with the default prompt manager order. */
    public UserData chatCompletion(MockCompletionServer mock) {
        settings.put("main_api", "openai");
        oai().put("chat_completion_source", "custom").put("custom_url", mock.baseUrl())
                .put("custom_model", MockCompletionServer.MODEL).put("stream_openai", false);
        return this;
    }

    /**
     * Text Completion on llama.cpp at the mock, without streaming, instruct mode on with that template, and the
     * LLaMA tokenizer chosen outright (best match would ask the mock's tokenizer, which Tankard cannot ask offline).
     */
    public UserData textCompletion(MockCompletionServer mock, ObjectNode instruct) {
        settings.put("main_api", "textgenerationwebui");
        textgen().put("type", "llamacpp").put("streaming", false);
        JsonNode urls = textgen().get("server_urls");
        (urls instanceof ObjectNode object ? object : textgen().putObject("server_urls")).put("llamacpp", mock.origin());
        powerUser().put("tokenizer", 3);
        powerUser().set("instruct", instruct);
        return this;
    }

    /** Writes everything into the user's folder (settings last, so they win over seeding). */
    public void writeTo(UserFiles userFiles) {
        files.forEach(userFiles::write);
        userFiles.write("settings.json", JsJson.prettyBytes(settings));
    }

    /**
     * Writes the same data under the folder, for tests that build prompts from it without a browser: the files in
     * ST's layout, with each card as its JSON ({@code characters/Bramble.json}) instead of a PNG.
     */
    public void copyTo(Path folder) throws IOException {
        Map<String, byte[]> copy = new LinkedHashMap<>(files);
        cards.forEach((path, card) -> {
            copy.remove(path);
            copy.put(path.replaceFirst("\\.png$", ".json"), JsJson.prettyBytes(card));
        });
        copy.put("settings.json", JsJson.prettyBytes(settings));
        for (Map.Entry<String, byte[]> file : copy.entrySet()) {
            Path target = folder.resolve(file.getKey());
            Files.createDirectories(target.getParent());
            Files.write(target, file.getValue());
        }
    }

    /** A card file of that avatar name; the card's {@code chat} names the chat ST opens with it. */
    public UserData card(String avatar, ObjectNode card) {
        String path = "characters/" + avatar;
        files.put(path, Fixtures.card(JsJson.compact(card)));
        cards.put(path, card);
        return this;
    }

    /** A character's chat file: header then messages. */
    public UserData chat(String characterFolder, String fileName, ObjectNode metadata, List<ObjectNode> messages) {
        files.put("chats/" + characterFolder + "/" + fileName + ".jsonl", jsonl(metadata, messages));
        return this;
    }

    public UserData groupChat(String chatId, ObjectNode metadata, List<ObjectNode> messages) {
        files.put("group chats/" + chatId + ".jsonl", jsonl(metadata, messages));
        return this;
    }

    public UserData group(ObjectNode group) {
        files.put("groups/" + group.get("id").asText() + ".json", JsJson.prettyBytes(group));
        return this;
    }

    public UserData world(String name, ObjectNode book) {
        files.put("worlds/" + name + ".json", JsJson.prettyBytes(book));
        return this;
    }

    /** ST's chat file: a header line with the metadata, then a message a line. */
    private static byte[] jsonl(ObjectNode metadata, List<ObjectNode> messages) {
        ObjectNode header = JsJson.object().put("user_name", "unused").put("character_name", "unused");
        header.set("chat_metadata", metadata);
        StringBuilder out = new StringBuilder(JsJson.compact(header));
        messages.forEach(message -> out.append('\n').append(JsJson.compact(message)));
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A V2 card with those fields (V1 copies at the top level, as ST writes them). */
    public static ObjectNode card(String name, String chat, String description, String personality, String scenario,
                                  String firstMes, String mesExample) {
        ObjectNode data = JsJson.object().put("name", name).put("description", description)
                .put("personality", personality).put("scenario", scenario).put("first_mes", firstMes)
                .put("mes_example", mesExample).put("creator_notes", "").put("system_prompt", "")
                .put("post_history_instructions", "").put("creator", "parity").put("character_version", "1");
        data.putArray("tags");
        data.putArray("alternate_greetings");
        ObjectNode extensions = data.putObject("extensions").put("talkativeness", "0.5").put("fav", false)
                .put("world", "");
        extensions.putObject("depth_prompt").put("prompt", "").put("depth", 4).put("role", "system");
        ObjectNode card = JsJson.object().put("name", name).put("description", description)
                .put("personality", personality).put("scenario", scenario).put("first_mes", firstMes)
                .put("mes_example", mesExample).put("creatorcomment", "").put("avatar", "none").put("chat", chat)
                .put("talkativeness", "0.5").put("fav", false).put("create_date", "2026-01-01T09:00:00.000Z")
                .put("spec", "chara_card_v2").put("spec_version", "2.0");
        card.putArray("tags");
        card.set("data", data);
        return card;
    }

    /** A chat message of the character or the user, sent at that ISO time, with one swipe when the bot's. */
    public static ObjectNode message(String name, boolean isUser, String sendDate, String text) {
        ObjectNode message = JsJson.object().put("name", name).put("is_user", isUser).put("is_system", false)
                .put("send_date", sendDate).put("mes", text);
        message.putObject("extra");
        if (!isUser) {
            message.putArray("swipes").add(text);
            message.put("swipe_id", 0);
            ArrayNode info = message.putArray("swipe_info");
            info.addObject().put("send_date", sendDate).putObject("extra");
        }
        return message;
    }

    /** Chat metadata with an integrity id (ST adds one, and saves the chat, when a chat has none). */
    public static ObjectNode metadata(String integrity) {
        return JsJson.object().put("integrity", integrity);
    }
}
