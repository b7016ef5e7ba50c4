package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.chat.ChatFolder;
import tankard.chat.ChatStore;
import tankard.core.Refusal;
import tankard.image.AvatarImages;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Folder;
import tankard.thumbnail.ThumbnailType;
import tankard.thumbnail.Thumbnails;
import tankard.util.Sanitize;
import tankard.util.StTime;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writing and editing cards (ST: src/endpoints/characters.js, writeCharacterData). A card whose text
 * changes keeps its image bytes; only an uploaded image is decoded and re-encoded. Every write replaces the
 * file atomically, forgets the cached card and, when the image changed or the file went away, its thumbnail.
 * Names come from requests: each is checked before anything is touched. Blocking: call from worker threads.
 */
public final class CharacterEditor {
    private static final Pattern LEADING_INT = Pattern.compile("^\\s*([+-]?\\d+)");

    private final CardStore cards;
    private final ChatStore chats;
    private final DocumentStore documents;
    private final CardCache cache;
    private final Path dataRoot;
    private final Supplier<byte[]> defaultAvatar;
    private final LongSupplier clock;

    /** The result of merging into one card: written, skipped by the filter, or the validation error. */
    public record MergeResult(boolean ok, boolean skipped, String error) {
    }

    /** A bulk merge's outcome per card, as ST reports it. */
    public record BulkResult(List<String> updated, List<String> skipped, List<String> failed) {
    }

    public CharacterEditor(CardStore cards, ChatStore chats, DocumentStore documents, CardCache cache, Path dataRoot,
                           Supplier<byte[]> defaultAvatar, LongSupplier clock) {
        this.cards = cards;
        this.chats = chats;
        this.documents = documents;
        this.cache = cache;
        this.dataRoot = dataRoot;
        this.defaultAvatar = defaultAvatar;
        this.clock = clock;
    }

    /**
     * A new card from the editor's fields; answers its file name.
     *
     * @param image the uploaded image, or null for the default avatar
     */
    public String create(String user, NewCard newCard, byte[] image, AvatarImages.Crop crop) throws IOException {
        ObjectNode card = CardForm.build(newCard.fields(), humanizedNow(), worlds(user));
        byte[] png = image == null ? defaultAvatar.get() : prepare(image, crop);
        byte[] bytes = CardWriter.write(png, JsJson.compact(card));
        String internal;
        if (newCard.fileName() != null) {
            internal = newCard.fileName();
            cards.write(user, internal + ".png", bytes);
        } else {
            internal = CardNames.claim(newCard.name(), cards, user, bytes);
        }
        written(user, internal + ".png", true);
        chats.create(user, ChatFolder.character(internal));
        return internal + ".png";
    }

    /** The editor's save: the card rebuilt from the fields, written to the same file. */
    public void edit(String user, CardEdit edit, byte[] image, AvatarImages.Crop crop) throws IOException {
        JsonNode form = edit.fields();
        ObjectNode card = CardForm.build(form, humanizedNow(), worlds(user));
        // Stored as posted: a missing value leaves the member out, as JavaScript's undefined does
        for (String key : new String[]{"chat", "create_date"}) {
            setOrOmit(card, key, form.get(key));
        }
        String target = withoutFirstPng(edit.avatar()) + ".png";
        requireSafe(target);
        byte[] png = image != null ? prepare(image, crop) : existing(user, edit.avatar());
        store(user, target, writeCard(png, JsJson.compact(card)), image != null);
    }

    /** Legacy: one member set at top level and in {@code data}. */
    public void editAttribute(String user, AttributeEdit edit) throws IOException {
        byte[] png = existing(user, edit.avatar());
        ObjectNode card = readCard(png).json().deepCopy();
        JsonNode data = card.get("data");
        if (!card.has(edit.field()) && !(data instanceof ObjectNode d && d.has(edit.field()))) {
            throw Refusal.badRequest("Error: invalid field.");
        }
        setOrOmit(card, edit.field(), edit.value());
        if (data instanceof ObjectNode d) {
            setOrOmit(d, edit.field(), edit.value());
        }
        String target = withoutFirstPng(edit.avatar()) + ".png";
        requireSafe(target);
        store(user, target, writeCard(png, JsJson.compact(card)), false);
    }

    /** Merge mode "single": the body (which names the card in {@code avatar}) merged into it. */
    public MergeResult merge(String user, String avatar, JsonNode update) throws IOException {
        requireSafe(avatar);
        if (cards.find(user, avatar).isEmpty()) {
            return new MergeResult(false, false, "Invalid character file");
        }
        return mergeOne(user, avatar, update, null);
    }

    /**
     * Merge mode "bulk": {@code data} merged into each listed card (every card when the list is empty), cards
     * without a value at {@code filterPath} skipped.
     */
    public BulkResult mergeBulk(String user, List<String> avatars, JsonNode data, String filterPath) throws IOException {
        List<String> targets = new ArrayList<>(avatars);
        if (targets.isEmpty()) {
            cards.list(user).forEach(file -> targets.add(file.name()));
        }
        BulkResult result = new BulkResult(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (String avatar : targets) {
            MergeResult one;
            try {
                one = cards.find(user, avatar).isEmpty()
                        ? new MergeResult(false, false, "Invalid character file")
                        : mergeOne(user, avatar, data, filterPath);
            } catch (CardFormatException | Refusal e) {
                one = new MergeResult(false, false, e.getMessage());
            }
            (one.ok() ? result.updated() : one.skipped() ? result.skipped() : result.failed()).add(avatar);
        }
        return result;
    }

    private MergeResult mergeOne(String user, String avatar, JsonNode update, String filterPath) throws IOException {
        byte[] png;
        CardData stored;
        try {
            png = cards.read(user, avatar);
            stored = CardCodec.readPng(png);
        } catch (CardFormatException | NoSuchFileException e) {
            return new MergeResult(false, false, "Invalid character file");
        }
        if (filterPath != null && Js.get(stored.json(), filterPath) == null) {
            return new MergeResult(false, true, null);
        }
        ObjectNode changes = update.deepCopy();
        changes.remove("json_data");
        ObjectNode card = stored.json().deepCopy();
        card.remove("json_data");
        JsonNode merged = CardMerge.deepMerge(card, changes);
        CardMerge.unsetSentinels(merged, changes);
        String error = CardMerge.validate(merged);
        if (error != null) {
            return new MergeResult(false, false, error);
        }
        String target = withoutFirstPng(avatar) + ".png";
        requireSafe(target);
        store(user, target, writeCard(png, JsJson.compact(merged)), false);
        return new MergeResult(true, false, null);
    }

    /** A new image for a card, which keeps its JSON. */
    public void editAvatar(String user, String avatar, byte[] image, AvatarImages.Crop crop) throws IOException {
        requireSafe(avatar);
        if (cards.find(user, avatar).isEmpty()) {
            throw Refusal.badRequest("Error: character file does not exist");
        }
        String text;
        try {
            text = CardCodec.readPng(cards.read(user, avatar)).text();
        } catch (CardFormatException e) {
            throw Refusal.badRequest("Error: failed to read character data");
        }
        byte[] png = prepare(image, crop);
        String target = withoutFirstPng(avatar) + ".png";
        requireSafe(target);
        store(user, target, CardWriter.write(png, text), true);
    }

    /** A new display name and a new file for it; the chats follow. Answers the new file name. */
    public String rename(String user, String avatar, String newName) throws IOException {
        requireSafe(avatar);
        String name = Sanitize.filename(newName);
        if (name.isEmpty()) {
            throw Refusal.badRequest("Invalid new_name");
        }
        byte[] png = existing(user, avatar);
        ObjectNode card = normalized(readCard(png).json());
        CardNormalizer.set(card, "data.name", TextNode.valueOf(name));
        CardNormalizer.set(card, "name", TextNode.valueOf(name));
        byte[] bytes = writeCard(png, JsJson.compact(card));
        String internal = CardNames.claim(name, cards, user, bytes);
        written(user, internal + ".png", true);
        String oldFolder = CardNames.baseName(avatar);
        if (Sanitize.isSafeSegment(oldFolder)) {
            chats.moveFolder(user, ChatFolder.character(oldFolder), ChatFolder.character(internal));
        }
        delete(user, avatar);
        return internal + ".png";
    }

    /** Removes a card and its thumbnail, and its chats when asked. */
    public void delete(String user, String avatar, boolean deleteChats) throws IOException {
        if (!Sanitize.isSafeSegment(avatar)) {
            throw Refusal.badRequest("Invalid avatar_url");
        }
        if (!avatar.equals(Sanitize.filename(avatar))) {
            throw Refusal.forbidden("Forbidden");
        }
        if (cards.find(user, avatar).isEmpty()) {
            throw Refusal.badRequest("The character does not exist");
        }
        delete(user, avatar);
        if (deleteChats) {
            String folder = Sanitize.filename(ChatFolder.nameOf(avatar));
            if (!folder.isEmpty()) {
                chats.deleteFolder(user, ChatFolder.character(folder));
            }
        }
    }

    /** A byte copy under the next free {@code _<n>} name; answers that name. */
    public String duplicate(String user, String avatar) throws IOException {
        String source = Sanitize.filename(avatar);
        requireSafe(source);
        if (cards.find(user, source).isEmpty()) {
            throw Refusal.notFound("Not Found");
        }
        int dot = source.lastIndexOf('.');
        String extension = dot > 0 ? source.substring(dot) : "";
        String stem = dot > 0 ? source.substring(0, dot) : source;
        int underscore = stem.lastIndexOf('_');
        String base = stem;
        long suffix = 1;
        if (underscore >= 0) {
            String last = stem.substring(underscore + 1);
            Matcher number = LEADING_INT.matcher(last);
            if (Js.number(TextNode.valueOf(last)) != null && number.find()) {
                base = stem.substring(0, underscore);
                suffix = Long.parseLong(number.group(1)) + 1;
            }
        }
        byte[] bytes = cards.read(user, source);
        String copy = base + "_" + suffix + extension;
        requireSafe(copy);
        while (!cards.create(user, copy, bytes)) {
            suffix++;
            copy = base + "_" + suffix + extension;
            requireSafe(copy);
        }
        return copy;
    }

    /** The stored PNG with the private fields unset; the image bytes stay as they are. */
    public byte[] exportPng(String user, String avatar) throws IOException {
        byte[] png = existing(user, avatar);
        ObjectNode card = readCard(png).json().deepCopy();
        CardNormalizer.unsetPrivateFields(card);
        return CardWriter.write(png, JsJson.compact(card));
    }

    /** The normalized card without private fields, as pretty JSON. */
    public String exportJson(String user, String avatar) throws IOException {
        ObjectNode card = normalized(readCard(existing(user, avatar)).json());
        CardNormalizer.unsetPrivateFields(card);
        return JsJson.pretty(card);
    }

    // --- helpers

    /** ST's getCharaCardV2: the read-time normalization, plus a creation date for converted V1 cards. */
    private ObjectNode normalized(ObjectNode stored) {
        ObjectNode card = CardNormalizer.normalize(stored, humanizedNow());
        if (!stored.has("spec") && !Js.truthy(card.get("create_date"))) {
            card.put("create_date", StTime.iso(clock.getAsLong()));
        }
        return card;
    }


    private void store(String user, String name, byte[] bytes, boolean imageChanged) throws IOException {
        cards.write(user, name, bytes);
        written(user, name, imageChanged);
    }

    /** What follows a card's write: its cached card and, when its image changed, its thumbnail are dropped. */
    private void written(String user, String name, boolean imageChanged) {
        cache.invalidate(user, name);
        if (imageChanged) {
            Thumbnails.invalidate(dataRoot, user, ThumbnailType.AVATAR, name);
        }
    }

    private void delete(String user, String avatar) throws IOException {
        cards.delete(user, avatar);
        cache.invalidate(user, avatar);
        Thumbnails.invalidate(dataRoot, user, ThumbnailType.AVATAR, avatar);
    }

    /** The card file's bytes; 404 when it does not exist. */
    private byte[] existing(String user, String avatar) throws IOException {
        requireSafe(avatar);
        Optional<CardFile> file = cards.find(user, avatar);
        if (file.isEmpty()) {
            throw Refusal.notFound("The character does not exist");
        }
        return cards.read(user, avatar);
    }

    private static CardData readCard(byte[] png) {
        try {
            return CardCodec.readPng(png);
        } catch (CardFormatException e) {
            throw Refusal.badRequest("Invalid character file: " + e.getMessage());
        }
    }

    /**
     * The card text put into the existing image. A file that is not a valid PNG (say a JPEG named .png) is
     * decoded and re-encoded first, as ST does with every write.
     */
    private static byte[] writeCard(byte[] png, String card) {
        try {
            return CardWriter.write(png, card);
        } catch (CardFormatException e) {
            return CardWriter.write(prepare(png, null), card);
        }
    }

    /** The upload as a card image; 400 when it is not an image. */
    private static byte[] prepare(byte[] image, AvatarImages.Crop crop) {
        byte[] png = AvatarImages.toPng(image, crop);
        if (png == null) {
            throw Refusal.badRequest("The uploaded file is not a supported image");
        }
        return png;
    }

    /** The request's card file name in {@code field}: present, not empty, and one plain file name; or a 400. */
    static String requireName(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull() || !value.isValueNode() || Js.string(value).isEmpty()) {
            throw Refusal.badRequest("Missing " + field);
        }
        String name = Js.string(value);
        requireSafe(name);
        return name;
    }

    /** One plain file name inside the characters folder, or a 400. */
    static void requireSafe(String name) {
        if (!Sanitize.isSafeSegment(name)) {
            throw Refusal.badRequest("Invalid file name: " + name);
        }
    }

    /** JavaScript's {@code avatar.replace('.png', '')}. */
    private static String withoutFirstPng(String avatar) {
        return avatar.replaceFirst(Pattern.quote(".png"), "");
    }


    private static void setOrOmit(ObjectNode object, String key, JsonNode value) {
        if (value == null) {
            object.remove(key);
        } else {
            object.set(key, value);
        }
    }

    /** The user's lorebooks by document name, for the one a card embeds. */
    private Function<String, Optional<byte[]>> worlds(String user) {
        return name -> documents.read(user, Folder.WORLDS, name);
    }

    private String humanizedNow() {
        return StTime.humanized(clock.getAsLong());
    }
}
