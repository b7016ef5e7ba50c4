package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import tankard.chat.ChatStore;
import tankard.image.AvatarImages;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.store.BlobStore;
import tankard.thumbnail.ThumbnailType;
import tankard.thumbnail.Thumbnails;
import tankard.util.LenientBase64;
import tankard.util.Sanitize;
import tankard.util.StTime;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * {@code /api/characters/import} (ST: src/endpoints/characters.js, /import): turns an uploaded PNG, JSON, YAML, CharX
 * or BYAF file into a card PNG in {@code characters/}, with the files that come with it (sprites, chats,
 * backgrounds). Everything is parsed and checked before the first file is written; bad input is a
 * {@link CardFormatException} (or {@link tankard.util.SafeZip.BadZipException}) and writes nothing.
 */
public final class CardImporter {
    /** Largest card JSON accepted (ST has no limit; a card with a big lorebook is a few MB). */
    public static final int MAX_CARD_BYTES = 32 << 20;
    private static final String NOTES_PLACEHOLDER = "Creator's notes go here.";

    private final CardStore cards;
    private final ChatStore chats;
    private final BlobStore blobs;
    private final Path dataRoot;
    private final LongSupplier clock;
    private final Supplier<byte[]> defaultAvatar;

    /**
     * @param cards         where the card goes
     * @param chats         where the chats that come with a card go
     * @param blobs         where the sprites and images that come with a card go
     * @param dataRoot      where the users' thumbnails are, on this node
     * @param defaultAvatar the prepared image of cards that come without one
     */
    public CardImporter(CardStore cards, ChatStore chats, BlobStore blobs, Path dataRoot, LongSupplier clock,
                        Supplier<byte[]> defaultAvatar) {
        this.cards = cards;
        this.chats = chats;
        this.blobs = blobs;
        this.dataRoot = dataRoot;
        this.clock = clock;
        this.defaultAvatar = defaultAvatar;
    }

    /** An upload to import. {@code preservedName}: the internal name of a card to replace, or null. */
    public record Upload(Path file, String format, String preservedName, String userName) {
    }

    /** A card read from an archive: its JSON and the image to write it into (null: the default avatar). */
    record Prepared(ObjectNode card, byte[] image) {
    }

    /**
     * Imports the file into the folder of the user of that handle and returns the card's internal name (file name
     * without {@code .png}). Blocking.
     */
    public String importCard(String user, Upload upload) throws IOException {
        String format = upload.format() == null ? "" : upload.format().toLowerCase(Locale.ROOT);
        ImportPlan plan = new ImportPlan(chats, cards, blobs, user);
        ObjectNode card;
        byte[] image;
        ByafImport byaf = null;
        boolean keepUndecodable = false;
        switch (format) {
            case "png" -> {
                byte[] png = Files.readAllBytes(upload.file());
                CardData data = CardCodec.readPng(png);
                checkSize(data.utf8().length);
                card = fromCardJson(data.json().deepCopy(), plan, true);
                image = png;
                keepUndecodable = true; // ST keeps an uploaded file it cannot decode (e.g. APNG) as it is
            }
            case "json" -> {
                card = fromCardJson(parseObject(readBytes(upload.file())), plan, false);
                image = null;
            }
            case "yaml", "yml" -> {
                card = fromYaml(readText(upload.file()));
                image = null;
            }
            case "charx" -> {
                Prepared prepared = new CharxImport(this).read(upload.file(), plan);
                card = prepared.card();
                image = prepared.image();
            }
            case "byaf" -> {
                byaf = new ByafImport(this);
                Prepared prepared = byaf.read(upload.file());
                card = prepared.card();
                image = prepared.image();
            }
            default -> throw new CardFormatException("Unsupported format: " + (format.isEmpty() ? "(none)" : format));
        }
        byte[] avatar = image == null ? defaultAvatar.get() : AvatarImages.toPng(image, null);
        if (avatar == null) {
            avatar = keepUndecodable ? image : defaultAvatar.get();
        }
        if (upload.preservedName() != null) {
            String internal = upload.preservedName();
            plan.commit();
            cards.write(user, internal + ".png", CardWriter.write(avatar, JsJson.compact(card)));
            Thumbnails.invalidate(dataRoot, user, ThumbnailType.AVATAR, internal + ".png");
            return internal;
        }
        // The name is taken by storing the card; a BYAF card then gets its extras, named after it, and is stored
        // again with the first chat they name. What fails after the name was taken leaves no card behind.
        String internal = CardNames.claim(byaf != null ? byaf.fileNameBase() : Js.string(card.get("name")), cards, user,
                CardWriter.write(avatar, JsJson.compact(card)));
        try {
            if (byaf != null) {
                byaf.planExtras(internal, upload.userName(), card, plan);
                cards.write(user, internal + ".png", CardWriter.write(avatar, JsJson.compact(card)));
            }
            plan.commit();
        } catch (IOException | RuntimeException e) {
            cards.delete(user, internal + ".png");
            throw e;
        }
        return internal;
    }

    /** The rules shared by PNG and JSON (and CharX) cards: V2/V3 with {@code spec}, else V1 with {@code name}. */
    private ObjectNode fromCardJson(ObjectNode json, ImportPlan plan, boolean png) {
        if (json.has("spec")) {
            sanitizeNames(json);
            RisuSprites.plan(json, plan);
            CardNormalizer.unsetPrivateFields(json);
            ObjectNode card = CardNormalizer.normalize(json, humanizedNow());
            card.put("create_date", isoNow());
            return card;
        }
        if (json.has("name")) {
            if (png) {
                sanitizeNames(json);
            } else {
                json.put("name", requireName(json.get("name")));
            }
            return fromV1(json, json.get("name"), v1Fields(json, "description", "personality", "first_mes",
                    "mes_example", "scenario"));
        }
        if (!png && json.has("char_name")) {
            // Pygmalion/Gradio; ST builds the chat name from the (usually absent) "name", hence "undefined - "
            String name = requireName(json.get("char_name"));
            ObjectNode fields = JsJson.object();
            fields.set("description", json.get("char_persona"));
            fields.set("first_mes", json.get("char_greeting"));
            fields.set("mes_example", json.get("example_dialogue"));
            fields.set("scenario", json.get("world_scenario"));
            ObjectNode card = fromV1(json, TextNode.valueOf(name), fields);
            card.put("personality", "");
            return card;
        }
        throw new CardFormatException("The file is not a character card (no spec, name or char_name)");
    }

    private static ObjectNode v1Fields(ObjectNode json, String... names) {
        ObjectNode fields = JsJson.object();
        for (String name : names) {
            fields.set(name, json.get(name));
        }
        return fields;
    }

    /** ST's V1 import object, then the editor's V2 conversion. */
    private ObjectNode fromV1(ObjectNode source, JsonNode name, ObjectNode fields) {
        ObjectNode v1 = JsJson.object();
        v1.set("name", name);
        v1.set("description", text(fields.get("description")));
        v1.set("creatorcomment", creatorNotes(source));
        v1.set("personality", text(fields.get("personality")));
        v1.set("first_mes", text(fields.get("first_mes")));
        v1.put("avatar", "none");
        v1.put("chat", chatName(source.has("char_name") ? source.get("name") : name));
        v1.set("mes_example", text(fields.get("mes_example")));
        v1.set("scenario", text(fields.get("scenario")));
        v1.put("create_date", isoNow());
        v1.set("talkativeness", nullish(source.get("talkativeness")) ? DecimalNode.valueOf(new BigDecimal("0.5"))
                : source.get("talkativeness"));
        v1.set("creator", text(source.get("creator")));
        v1.set("tags", text(source.get("tags")));
        return CardNormalizer.normalize(v1, humanizedNow());
    }

    /** {@code creatorcomment ?? creator_notes ?? ""}, the notes with ST's placeholder text removed once. */
    private static JsonNode creatorNotes(ObjectNode source) {
        JsonNode notes = source.get("creator_notes");
        if (notes != null && notes.isTextual()) {
            notes = TextNode.valueOf(notes.textValue().replaceFirst(
                    java.util.regex.Pattern.quote(NOTES_PLACEHOLDER), ""));
        }
        return text(nullish(source.get("creatorcomment")) ? notes : source.get("creatorcomment"));
    }

    /** YAML cards (Agnai/Tavern exports): {@code name}, {@code context}, {@code greeting}. */
    private ObjectNode fromYaml(String text) {
        Object yaml;
        try {
            yaml = new Load(LoadSettings.builder().setAllowDuplicateKeys(true).build()).loadFromString(text);
        } catch (YamlEngineException e) {
            throw new CardFormatException("The file is not valid YAML: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (!(yaml instanceof java.util.Map<?, ?>)) {
            throw new CardFormatException("The YAML file does not hold a character (a mapping with a name)");
        }
        JsonNode tree;
        try {
            tree = JsJson.tree(yaml);
        } catch (IllegalArgumentException e) {
            throw new CardFormatException("The YAML file holds values that are not JSON data");
        }
        String name = requireName(tree.get("name"));
        ObjectNode fields = JsJson.object();
        fields.set("description", tree.get("context"));
        fields.set("first_mes", tree.get("greeting"));
        return fromV1(JsJson.object(), TextNode.valueOf(name), fields);
    }

    /** {@code data.name} and {@code name} sanitized; {@code name} taken from {@code data.name} when that is set. */
    static void sanitizeNames(ObjectNode card) {
        JsonNode data = card.get("data");
        if (data instanceof ObjectNode object && Js.truthy(object.get("name"))) {
            object.put("name", requireName(object.get("name")));
            card.set("name", object.get("name"));
        } else {
            card.put("name", requireName(card.get("name")));
        }
    }

    static String requireName(JsonNode name) {
        if (name == null || !name.isTextual()) {
            throw new CardFormatException("The card has no name");
        }
        return CardNames.sanitized(name.textValue());
    }

    /**
     * {@code preserved_name} as ST reads it ({@code path.parse(x).name}), or null when absent; a name that is
     * not a plain file name is refused.
     */
    public static String preservedName(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        String base = CardNames.baseName(value.substring(value.lastIndexOf('/') + 1));
        if (!Sanitize.isPlainFileName(base)) {
            throw new CardFormatException("Invalid preserved_name: " + value);
        }
        return base;
    }

    private static void checkSize(long bytes) {
        if (bytes > MAX_CARD_BYTES) {
            throw new CardFormatException("The card data is larger than " + (MAX_CARD_BYTES >> 20) + " MB");
        }
    }

    private static byte[] readBytes(Path file) throws IOException {
        checkSize(Files.size(file));
        return Files.readAllBytes(file);
    }

    private static String readText(Path file) throws IOException {
        return new String(readBytes(file), StandardCharsets.UTF_8);
    }

    static ObjectNode parseObject(byte[] json) {
        return CardCodec.readJson(json).json().deepCopy();
    }

    private static JsonNode text(JsonNode value) {
        return nullish(value) ? TextNode.valueOf("") : value;
    }

    private static boolean nullish(JsonNode value) {
        return value == null || value.isNull();
    }

    private String chatName(JsonNode name) {
        return (name == null ? "undefined" : Js.string(name)) + " - " + humanizedNow();
    }

    String humanizedNow() {
        return StTime.humanized(clock.getAsLong());
    }

    String isoNow() {
        return StTime.iso(clock.getAsLong());
    }

    /** Risu embedded sprites (ST: src/endpoints/sprites.js, importRisuSprites). */
    static final class RisuSprites {
        private RisuSprites() {
        }

        static void plan(ObjectNode card, ImportPlan plan) {
            JsonNode risu = Js.get(card, "data.extensions.risuai");
            JsonNode name = Js.get(card, "data.name");
            if (!(risu instanceof ObjectNode risuData) || !Js.truthy(name)) {
                return;
            }
            ArrayNode images = JsJson.array();
            for (String key : new String[]{"additionalAssets", "emotions"}) {
                if (risuData.get(key) instanceof ArrayNode list) {
                    images.addAll(list);
                }
            }
            String folderName = Sanitize.filename(Js.string(name));
            if (images.isEmpty() || folderName.isEmpty()) {
                return;
            }
            String folder = BlobStore.child(ImportPlan.CHARACTERS, folderName);
            java.util.Set<String> existing = new java.util.HashSet<>();
            plan.names(folder).forEach(existingName -> existing.add(CardNames.baseName(existingName)));
            for (JsonNode pair : images) {
                if (!pair.isArray() || pair.size() < 2 || !pair.get(1).isTextual()) {
                    continue;
                }
                String label = Js.string(pair.get(0));
                String file = Sanitize.filename(label + ".png");
                if (existing.contains(label) || file.isEmpty()) {
                    continue;
                }
                plan.write(BlobStore.child(folder, file), LenientBase64.decode(pair.get(1).textValue()));
            }
            risuData.remove("additionalAssets");
            risuData.remove("emotions");
        }
    }
}
