package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.chat.ChatFolder;
import tankard.chat.format.ChatHeader;
import tankard.chat.format.ChatMessage;
import tankard.chat.format.LineWriter;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.store.BlobStore;
import tankard.util.SafeZip;
import tankard.util.Sanitize;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Backyard AI archives (src/byaf.js, ByafParser): manifest, character, scenarios, images. */
final class ByafImport {
    private final CardImporter importer;
    private JsonNode character;
    private List<JsonNode> scenarios;
    private final List<Image> images = new ArrayList<>();
    private final List<Background> backgrounds = new ArrayList<>();

    private record Image(String filename, byte[] bytes, String label) {
    }

    private static final class Background {
        final byte[] bytes;
        final List<String> paths = new ArrayList<>();
        String name = "";

        Background(byte[] bytes) {
            this.bytes = bytes;
        }
    }

    ByafImport(CardImporter importer) {
        this.importer = importer;
    }

    CardImporter.Prepared read(Path file) throws IOException {
        try (SafeZip zip = SafeZip.open(file, SafeZip.DEFAULT)) {
            JsonNode manifest = json(zip.readEndingWith("manifest.json"), "manifest.json");
            JsonNode characters = manifest.get("characters");
            if (characters == null || !characters.isArray() || characters.isEmpty() || !characters.get(0).isTextual()) {
                throw new CardFormatException("Invalid BYAF file: missing character path");
            }
            String characterPath = characters.get(0).textValue();
            character = json(zip.readEndingWith(characterPath), "the character JSON");
            scenarios = new ArrayList<>();
            for (JsonNode path : manifest.path("scenarios")) {
                byte[] bytes = path.isTextual() ? zip.readEndingWith(path.textValue()) : null;
                JsonNode scenario = bytes == null ? null : JsJson.tryParse(bytes);
                if (scenario instanceof ObjectNode) {
                    scenarios.add(scenario);
                }
            }
            if (scenarios.isEmpty()) {
                scenarios.add(JsJson.object());
            }
            String folder = characterPath.contains("/") ? characterPath.substring(0, characterPath.lastIndexOf('/')) : "";
            for (JsonNode image : character.path("images")) {
                String path = Js.string(image.get("path"));
                if (!image.path("path").isTextual() || path.isEmpty()) {
                    continue;
                }
                byte[] bytes = zip.readEndingWith(folder.isEmpty() ? path : folder + "/" + path);
                if (bytes != null) {
                    images.add(new Image(path.substring(path.lastIndexOf('/') + 1), bytes,
                            image.path("label").isTextual() ? image.get("label").textValue() : ""));
                }
            }
            for (JsonNode scenario : scenarios) {
                JsonNode bg = scenario.get("backgroundImage");
                byte[] bytes = bg != null && bg.isTextual() && !bg.textValue().isEmpty() ? zip.readEndingWith(bg.textValue()) : null;
                if (bytes != null) {
                    Background same = backgrounds.stream().filter(b -> Arrays.equals(b.bytes, bytes)).findFirst().orElse(null);
                    if (same == null) {
                        same = new Background(bytes);
                        backgrounds.add(same);
                    }
                    same.paths.add(bg.textValue());
                }
            }
            ObjectNode card = CardNormalizer.normalize(card(manifest), importer.humanizedNow());
            byte[] avatar = images.isEmpty() ? null : images.get(0).bytes();
            return new CardImporter.Prepared(card, avatar);
        }
    }

    /** The name the internal file name is allocated from. */
    String fileNameBase() {
        String name = Js.truthy(character.get("displayName")) ? Js.string(character.get("displayName"))
                : Js.string(character.path("name").isTextual() ? character.get("name") : TextNode.valueOf(""));
        String base = Sanitize.filename(Sanitize.filename(name, "_"));
        if (base.isEmpty()) {
            throw new CardFormatException("The BYAF character has no usable name");
        }
        return base;
    }

    /** Chats, backgrounds and alternate icons of a new import; sets the card's {@code chat} to the first chat. */
    void planExtras(String internal, String userName, ObjectNode card, ImportPlan plan) {
        String cardName = Js.string(card.get("name"));
        String bgFolder = BlobStore.child(ImportPlan.USER_IMAGES, internal);
        for (Background bg : backgrounds) {
            String first = bg.paths.get(0);
            String ext = extension(first);
            String file = unique(internal + "_bg", ext, bgFolder, plan);
            plan.write(BlobStore.child(bgFolder, file), bg.bytes);
            bg.name = "/user/images/" + internal + "/" + file;
        }
        List<String> chats = new ArrayList<>();
        for (JsonNode scenario : scenarios) {
            String title = Js.truthy(scenario.get("title")) ? Js.string(scenario.get("title")) : cardName;
            String chatName = Sanitize.filename(Sanitize.filename(title + " - " + importer.humanizedNow() + " imported.jsonl", "_"));
            plan.writeChat(ChatFolder.character(internal), chatName, chat(scenario, userName, cardName));
            chats.add(chatName);
        }
        if (!chats.isEmpty()) {
            card.put("chat", CardNames.baseName(chats.get(0)));
        }
        String spriteFolder = Sanitize.filename(cardName);
        String altFolder = spriteFolder.isEmpty() ? ImportPlan.CHARACTERS
                : BlobStore.child(ImportPlan.CHARACTERS, spriteFolder);
        for (Image icon : images.subList(Math.min(1, images.size()), images.size())) {
            String label = Sanitize.filename(Sanitize.filename(icon.label(), "_"));
            String name = unique(label.isEmpty() ? "alt" : label, extension(icon.filename()), altFolder, plan);
            plan.write(BlobStore.child(altFolder, name), icon.bytes());
        }
    }

    private ObjectNode card(JsonNode manifest) {
        JsonNode first = scenarios.get(0);
        ObjectNode data = JsJson.object();
        String name = Js.truthy(character.get("name")) ? Js.string(character.get("name"))
                : Js.truthy(character.get("displayName")) ? Js.string(character.get("displayName")) : "";
        data.put("name", name);
        data.put("description", macros(character.get("persona")));
        data.put("personality", "");
        data.put("scenario", macros(first.get("narrative")));
        data.put("first_mes", macros(firstMessage(first)));
        data.put("mes_example", examples(first.get("exampleMessages")));
        data.put("creator_notes", Js.truthy(Js.get(manifest, "author.backyardURL")) ? Js.string(Js.get(manifest, "author.backyardURL")) : "");
        data.put("system_prompt", macros(first.get("formattingInstructions")));
        data.put("post_history_instructions", "");
        data.set("alternate_greetings", greetings());
        JsonNode book = book(character.get("loreItems"));
        if (book != null) {
            data.set("character_book", book);
        }
        data.set("tags", Js.truthy(character.get("isNSFW")) ? JsJson.array().add("nsfw") : JsJson.array());
        data.put("creator", Js.truthy(Js.get(manifest, "author.name")) ? Js.string(Js.get(manifest, "author.name")) : "");
        data.put("character_version", "");
        ObjectNode extensions = data.putObject("extensions");
        if (Js.truthy(character.get("displayName"))) {
            extensions.set("display_name", character.get("displayName"));
        }
        ObjectNode card = JsJson.object().put("spec", "chara_card_v2").put("spec_version", "2.0");
        card.set("data", data);
        card.put("create_date", importer.isoNow());
        return card;
    }

    private ArrayNode greetings() {
        Set<String> greetings = new LinkedHashSet<>();
        JsonNode main = firstMessage(scenarios.get(0));
        for (JsonNode scenario : scenarios.subList(1, scenarios.size())) {
            JsonNode text = firstMessage(scenario);
            if (Js.truthy(text) && !Js.strictEquals(text, main)) {
                greetings.add(macros(text));
            }
        }
        ArrayNode list = JsJson.array();
        greetings.forEach(list::add);
        return list;
    }

    private static JsonNode book(JsonNode items) {
        if (items == null || !items.isArray() || items.isEmpty()) {
            return null;
        }
        ObjectNode book = JsJson.object();
        ArrayNode entries = book.putArray("entries");
        book.putObject("extensions");
        for (int i = 0; i < items.size(); i++) {
            JsonNode item = items.get(i);
            if (!Js.truthy(item)) {
                continue;
            }
            ObjectNode entry = entries.addObject();
            ArrayNode keys = entry.putArray("keys");
            for (String key : macros(item.get("key")).split(",")) {
                if (!key.strip().isEmpty()) {
                    keys.add(key.strip());
                }
            }
            entry.put("content", macros(item.get("value")));
            entry.putObject("extensions");
            entry.put("enabled", true);
            entry.put("insertion_order", i);
        }
        return book;
    }

    /** One scenario as a JSONL chat, as ST's BYAF reader builds it (src/byaf.js, ByafParser.getChatFromScenario). */
    private byte[] chat(JsonNode scenario, String userName, String characterName) {
        JsonNode messages = scenario.get("messages");
        ObjectNode meta = JsJson.object();
        meta.set("scenario", Js.coalesce(scenario.get("narrative"), TextNode.valueOf("")));
        meta.put("mes_example", examples(scenario.get("exampleMessages")));
        meta.put("system_prompt", macros(scenario.get("formattingInstructions")));
        meta.set("mes_examples_optional", Js.coalesce(scenario.get("canDeleteExampleMessages"), BooleanNode.FALSE));
        ObjectNode model = meta.putObject("byaf_model_settings");
        setting(model, "model", scenario.get("model"), TextNode.valueOf(""));
        setting(model, "temperature", scenario.get("temperature"), JsJson.parse("1.2"));
        setting(model, "top_k", scenario.get("topK"), JsJson.parse("40"));
        setting(model, "top_p", scenario.get("topP"), JsJson.parse("0.9"));
        setting(model, "min_p", scenario.get("minP"), JsJson.parse("0.1"));
        setting(model, "min_p_enabled", scenario.get("minPEnabled"), JsJson.parse("true"));
        setting(model, "repeat_penalty", scenario.get("repeatPenalty"), JsJson.parse("1.05"));
        setting(model, "repeat_penalty_tokens", scenario.get("repeatLastN"), JsJson.parse("256"));
        setting(model, "by_prompt_template", scenario.get("promptTemplate"), TextNode.valueOf("general"));
        setting(model, "grammar", scenario.get("grammar"), NullNode.getInstance());
        String bgPath = Js.string(Js.or(scenario.get("backgroundImage"), TextNode.valueOf("")));
        String background = backgrounds.stream().filter(b -> b.paths.contains(bgPath)).map(b -> b.name).findFirst().orElse("");
        ArrayNode chatBackgrounds = meta.putArray("chat_backgrounds");
        if (!background.isEmpty()) {
            chatBackgrounds.add(background);
        }
        meta.put("custom_background", background.isEmpty() ? "" : "url(\"" + encodeUri(background) + "\")");

        List<ObjectNode> lines = new ArrayList<>();
        lines.add(ChatHeader.of(meta));
        JsonNode greeting = firstMessage(scenario);
        if (Js.truthy(greeting)) {
            ObjectNode first = ChatMessage.of(characterName, false);
            if (messages != null && messages.isArray() && messages.isEmpty()) {
                first.put("send_date", importer.isoNow());
            } else if (messages != null && messages.isArray()) {
                for (JsonNode m : messages) {
                    if (m.has("createdAt")) {
                        first.set("send_date", m.get("createdAt"));
                        break;
                    }
                }
            }
            first.set("mes", greeting);
            lines.add(first);
        }
        if (messages != null && messages.isArray()) {
            List<JsonNode> human = new ArrayList<>();
            List<JsonNode> ai = new ArrayList<>();
            messages.forEach(m -> (Js.string(m.get("type")).equals("human") ? human : "ai".equals(Js.string(m.get("type"))) ? ai : new ArrayList<JsonNode>()).add(m));
            if (human.size() == ai.size()) {
                for (int i = 0; i < human.size(); i++) {
                    lines.add(userMessage(human.get(i), userName));
                    lines.add(aiMessage(ai.get(i), characterName));
                }
            } else {
                for (JsonNode m : messages) {
                    lines.add(Js.string(m.get("type")).equals("human") ? userMessage(m, userName) : aiMessage(m, characterName));
                }
            }
        }
        return LineWriter.jsonl(lines);
    }

    /** {@code firstMessages[0].text}, or null (BYAF scenarios hold at most one first message). */
    private static JsonNode firstMessage(JsonNode scenario) {
        return scenario.path("firstMessages").path(0).get("text");
    }

    private static ObjectNode userMessage(JsonNode m, String userName) {
        ObjectNode message = userName == null ? JsJson.object() : JsJson.object().put("name", userName);
        message.put("is_user", true);
        message.set("send_date", number(m.get("createdAt")));
        if (m.get("text") != null) {
            message.set("mes", m.get("text"));
        }
        return message;
    }

    private static ObjectNode aiMessage(JsonNode m, String characterName) {
        JsonNode outputs = m.get("outputs");
        if (outputs == null || !outputs.isArray() || outputs.isEmpty()) {
            throw new CardFormatException("Invalid BYAF file: an AI message has no outputs");
        }
        JsonNode newest = outputs.get(0);
        for (int i = 1; i < outputs.size(); i++) {
            double a = time(newest.get("activeTimestamp"));
            double b = time(outputs.get(i).get("activeTimestamp"));
            newest = a >= b ? newest : outputs.get(i);
        }
        ArrayNode swipes = JsJson.array();
        int swipeId = -1;
        for (JsonNode output : outputs) {
            JsonNode text = output.get("text");
            swipes.add(text == null ? NullNode.getInstance() : text);
            if (swipeId < 0 && text != null && Js.strictEquals(text, newest.get("text"))) {
                swipeId = swipes.size() - 1;
            }
        }
        ObjectNode message = ChatMessage.of(characterName, false);
        message.set("send_date", number(newest.get("createdAt")));
        if (newest.get("text") != null) {
            message.set("mes", newest.get("text"));
        }
        message.set("swipes", swipes);
        message.put("swipe_id", swipeId);
        return message;
    }

    /** {@code Number(x)} as JSON.stringify writes it: NaN (and undefined) become null. */
    private static JsonNode number(JsonNode value) {
        JsonNode number = value == null ? null : Js.number(value);
        return number == null ? NullNode.getInstance() : number;
    }

    private static double time(JsonNode value) {
        if (value == null) {
            return Double.NaN;
        }
        if (value.isNumber()) {
            return value.asDouble();
        }
        try {
            return Instant.parse(value.asText()).toEpochMilli();
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    private static void setting(ObjectNode target, String key, JsonNode value, JsonNode fallback) {
        target.set(key, Js.coalesce(value, fallback));
    }

    private static final Pattern USER_LINE = Pattern.compile("#\\{user}:", Pattern.CASE_INSENSITIVE);
    private static final Pattern CHAR_LINE = Pattern.compile("#\\{character}:", Pattern.CASE_INSENSITIVE);
    private static final Pattern CHAR = Pattern.compile("\\{character}(?!})", Pattern.CASE_INSENSITIVE);
    private static final Pattern USER = Pattern.compile("\\{user}(?!})", Pattern.CASE_INSENSITIVE);

    /** BYAF macros to ST's: {@code #{user}:}, {@code #{character}:}, {@code {character}}, {@code {user}}. */
    static String macros(JsonNode value) {
        String text = Js.truthy(value) ? Js.string(value) : "";
        text = USER_LINE.matcher(text).replaceAll(Matcher.quoteReplacement("{{user}}:"));
        text = CHAR_LINE.matcher(text).replaceAll(Matcher.quoteReplacement("{{char}}:"));
        text = CHAR.matcher(text).replaceAll(Matcher.quoteReplacement("{{char}}"));
        return USER.matcher(text).replaceAll(Matcher.quoteReplacement("{{user}}"));
    }

    private static String examples(JsonNode examples) {
        if (examples == null || !examples.isArray()) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        for (JsonNode example : examples) {
            if (Js.truthy(example.get("text"))) {
                out.append("<START>\n").append(macros(example.get("text"))).append('\n');
            }
        }
        return out.toString().stripTrailing();
    }

    /** ST's getUniqueName with its default builder: {@code base (1)}, {@code base (2)}, … */
    private static String unique(String base, String ext, String folder, ImportPlan plan) {
        Set<String> taken = plan.names(folder);
        for (int i = 1; ; i++) {
            String name = base + " (" + i + ")" + ext;
            if (!taken.contains(name) && !plan.writes(BlobStore.child(folder, name))) {
                return name;
            }
        }
    }

    private static String extension(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        int dot = name.lastIndexOf('.');
        return dot <= 0 ? ".png" : name.substring(dot);
    }

    private static JsonNode json(byte[] bytes, String what) {
        if (bytes == null) {
            throw new CardFormatException("Invalid BYAF file: " + what + " is missing");
        }
        JsonNode json = JsJson.tryParse(bytes);
        if (!(json instanceof ObjectNode)) {
            throw new CardFormatException("Invalid BYAF file: " + what + " is not a JSON object");
        }
        return json;
    }

    private static String encodeUri(String text) {
        try {
            return new URI(null, null, text, null).toASCIIString();
        } catch (URISyntaxException e) {
            return text;
        }
    }
}
