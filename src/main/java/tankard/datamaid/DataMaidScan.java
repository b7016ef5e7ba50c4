package tankard.datamaid;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.chat.ChatFile;
import tankard.character.CardFile;
import tankard.character.CardStore;
import tankard.chat.ChatFiles;
import tankard.chat.ChatFolder;
import tankard.chat.ChatStore;
import tankard.group.GroupStore;
import tankard.chat.format.ChatHeader;
import tankard.chat.format.ChatLines;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.settings.SettingsBackups;
import tankard.settings.SettingsService;
import tankard.store.BlobStore;
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Folder;
import tankard.util.FileNames;
import tankard.util.Sanitize;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Finds the user's loose files as ST's Data Maid does (src/endpoints/data-maid.js, DataMaidService.getReport):
 * images and data-bank files no chat or setting refers to, chats of characters that are gone, group chats no
 * group lists, thumbnails without their image, and all chat and settings backups. Each kind is listed through the
 * store that keeps it (images and data-bank files are blobs); the thumbnails are files of this node. Where ST's
 * scan fails on data it cannot read (a reference that is not text), that category reports nothing, as ST's does;
 * references are also matched URL-decoded, so a file a chat points to is never offered for deletion. Blocking.
 */
final class DataMaidScan {
    /** The folder of chat images (ST: src/constants.js, USER_DIRECTORY_TEMPLATE, userImages). */
    private static final String IMAGES = "user/images";

    /** A category whose scan must report nothing, as ST's throws and reports nothing. */
    private static final class Abandoned extends Exception {
        Abandoned() {
            super(null, null, false, false);
        }
    }

    /** The user's folder as a path, which references are resolved against as ST resolves them. */
    private final Path root;
    /** The user's thumbnails, kept on this node in every storage. */
    private final Path thumbnails;
    private final String handle;
    private final ChatStore chats;
    private final GroupStore groupStore;
    private final ChatFiles chatFiles;
    private final DocumentStore documents;
    private final CardStore cards;
    private final BlobStore blobs;
    /** The truthy lines of every chat, read once for all categories. */
    private List<List<JsonNode>> parsedChats;
    private List<JsonNode> groups;

    DataMaidScan(String handle, ChatStore chats, ChatFiles chatFiles, GroupStore groupStore, DocumentStore documents,
                 CardStore cards, BlobStore blobs, Path dataRoot) {
        this.groupStore = groupStore;
        this.cards = cards;
        this.blobs = blobs;
        this.documents = documents;
        this.root = dataRoot.resolve(handle).toAbsolutePath().normalize();
        this.thumbnails = root.resolve("thumbnails");
        this.handle = handle;
        this.chats = chats;
        this.chatFiles = chatFiles;
    }

    /** Category → its loose files. */
    Map<String, List<Loose>> scan() {
        Map<String, List<Loose>> report = new LinkedHashMap<>();
        report.put("images", orNothing(this::images));
        report.put("files", orNothing(this::files));
        report.put("chats", orNothing(this::chats));
        report.put("groupChats", orNothing(this::groupChats));
        report.put("avatarThumbnails", orNothing(() -> orphans(
                name -> cards.find(handle, name).isPresent(), thumbnails.resolve("avatar"))));
        report.put("backgroundThumbnails", orNothing(() -> orphans(
                name -> hasBlob("backgrounds", name), thumbnails.resolve("bg"))));
        report.put("personaThumbnails", orNothing(() -> orphans(
                name -> hasBlob("User Avatars", name), thumbnails.resolve("persona"))));
        report.put("chatBackups", orNothing(this::chatBackups));
        report.put("settingsBackups", orNothing(this::settingsBackups));
        return report;
    }

    @FunctionalInterface
    private interface Category {
        List<Loose> collect() throws IOException, Abandoned;
    }

    /** The user's settings snapshots (SettingsBackups). */
    private List<Loose> settingsBackups() {
        return documents.list(handle, Folder.BACKUPS).stream()
                .filter(entry -> entry.name().startsWith(SettingsBackups.prefix(handle)))
                .<Loose>map(entry -> new Loose.Document(documents, handle, Folder.BACKUPS, entry))
                .toList();
    }

    /** Whether the user has a blob of that name in the folder (an image a thumbnail was made of). */
    private boolean hasBlob(String folder, String name) {
        String path = BlobStore.child(folder, name);
        return blobs.keeps(path) && blobs.stat(handle, path).isPresent();
    }

    /** The blobs of the folder that no reference is known for. */
    private List<Loose> unknownBlobs(String folder, Set<Path> known) {
        return blobs.list(handle, folder).stream().filter(blob -> !known.contains(root.resolve(blob.path())))
                .<Loose>map(blob -> new Loose.Blob(blobs, handle, blob)).toList();
    }

    private static List<Loose> orNothing(Category category) {
        try {
            return category.collect();
        } catch (IOException | Abandoned | RuntimeException e) {
            return List.of();
        }
    }

    private List<Loose> images() throws IOException, Abandoned {
        List<JsonNode> references = new ArrayList<>();
        for (JsonNode message : messages()) {
            JsonNode extra = message.path("extra");
            if (!Js.truthy(extra.get("image")) && !Js.truthy(extra.get("video"))
                    && !extra.path("image_swipes").isArray() && !extra.path("media").isArray()) {
                continue;
            }
            addIfTruthy(references, extra.get("image"));
            addIfTruthy(references, extra.get("video"));
            extra.path("image_swipes").forEach(references::add);
            for (JsonNode media : extra.path("media")) {
                addIfTruthy(references, media.get("url"));
            }
        }
        for (JsonNode metadata : metadata(m -> m.path("chat_backgrounds").isArray() && !m.path("chat_backgrounds").isEmpty())) {
            for (JsonNode background : metadata.path("chat_backgrounds")) {
                addIfTruthy(references, background);
            }
        }
        Set<Path> known = new HashSet<>();
        for (JsonNode reference : references) {
            String url = text(reference);
            if (!url.startsWith("http") && !url.startsWith("data:")) {
                addKnown(known, url);
            }
        }
        // the images and the folders' images, in the order of the folder's readdir: by name, files and folders mixed
        Map<String, List<Loose>> byName = new TreeMap<>(FileNames.BYTE_ORDER);
        for (Loose image : unknownBlobs(IMAGES, known)) {
            byName.put(image.name(), List.of(image));
        }
        for (String folder : blobs.folders(handle, IMAGES)) {
            if (Sanitize.isSafeSegment(folder)) {
                byName.put(folder, unknownBlobs(BlobStore.child(IMAGES, folder), known));
            }
        }
        return byName.values().stream().flatMap(List::stream).toList();
    }

    private List<Loose> files() throws IOException, Abandoned {
        List<JsonNode> references = new ArrayList<>();
        for (JsonNode message : messages()) {
            JsonNode extra = message.path("extra");
            addIfTruthy(references, extra.path("file").get("url"));
            for (JsonNode file : extra.path("files")) {
                addIfTruthy(references, file.get("url"));
            }
        }
        for (JsonNode metadata : metadata(m -> m.path("attachments").isArray() && !m.path("attachments").isEmpty())) {
            for (JsonNode attachment : metadata.path("attachments")) {
                addIfTruthy(references, attachment.get("url"));
            }
        }
        JsonNode settings = documents.read(handle, Folder.ROOT, SettingsService.FILE).map(JsJson::tryParse)
                .orElse(null);
        JsonNode extensions = settings == null ? null : settings.get("extension_settings");
        if (extensions != null) {
            for (JsonNode file : extensions.path("attachments")) {
                addIfTruthy(references, file.get("url"));
            }
            for (JsonNode files : extensions.path("character_attachments")) {
                for (JsonNode file : files.isArray() ? files : JsJson.array()) {
                    addIfTruthy(references, file.get("url"));
                }
            }
        }
        Set<Path> known = new HashSet<>();
        for (JsonNode reference : references) {
            addKnown(known, text(reference));
        }
        return unknownBlobs("user/files", known);
    }

    /** The chats in folders whose character card is gone. */
    private List<Loose> chats() throws IOException {
        Set<String> knownFolders = new HashSet<>();
        for (CardFile card : cards.list(handle)) {
            knownFolders.add(card.name().replaceFirst("\\.png", ""));
        }
        List<Loose> loose = new ArrayList<>();
        for (ChatFolder folder : characterFolders()) {
            if (!knownFolders.contains(folder.character())) {
                for (ChatFile file : chats.list(handle, folder)) {
                    loose.add(new Loose.Chat(chats, chatFiles, handle, folder, file));
                }
            }
        }
        return loose;
    }

    /** The group chats no group lists as its current or a past chat. */
    private List<Loose> groupChats() throws IOException {
        Set<String> known = new HashSet<>();
        for (JsonNode group : groups()) {
            JsonNode chatId = group.get("chat_id");
            // a number protects its file too, where ST's Set would miss it
            if (Js.truthy(chatId) && chatId.isValueNode()) {
                known.add(chatId.asText());
            }
            for (JsonNode chat : group.path("chats")) {
                if (chat.isValueNode()) {
                    known.add(chat.asText());
                }
            }
        }
        List<Loose> loose = new ArrayList<>();
        for (ChatFile file : chats.list(handle, ChatFolder.groups())) {
            if (!known.contains(file.id())) {
                loose.add(new Loose.Chat(chats, chatFiles, handle, ChatFolder.groups(), file));
            }
        }
        return loose;
    }

    private List<Loose> chatBackups() throws IOException {
        return chats.backups(handle, "chat_").stream()
                .<Loose>map(file -> new Loose.Backup(chats, handle, file)).toList();
    }

    /** Whether a thumbnail's source image (of that name) exists. */
    @FunctionalInterface
    private interface Source {
        boolean exists(String name) throws IOException;
    }

    /** Thumbnails whose name is no source image. */
    private List<Loose> orphans(Source source, Path folder) throws IOException {
        List<Loose> loose = new ArrayList<>();
        for (String name : FileNames.list(folder)) {
            Path thumbnail = folder.resolve(name);
            if (Files.isRegularFile(thumbnail, LinkOption.NOFOLLOW_LINKS) && !source.exists(name)) {
                loose.add(new Loose.NodeFile(thumbnail, root));
            }
        }
        return loose;
    }

    /** Every message line of every group and character chat. */
    private List<JsonNode> messages() throws IOException {
        List<JsonNode> messages = new ArrayList<>();
        for (List<JsonNode> chat : parsedChats()) {
            messages.addAll(chat);
        }
        return messages;
    }

    private List<List<JsonNode>> parsedChats() throws IOException {
        if (parsedChats == null) {
            parsedChats = new ArrayList<>();
            for (ChatFolder folder : chatFolders()) {
                for (ChatFile file : chats.list(handle, folder)) {
                    parsedChats.add(lines(folder, file.name()));
                }
            }
        }
        return parsedChats;
    }

    /**
     * Chat metadata that passes the filter: from group files (a deprecated place ST still reads) and from the
     * first line of each chat.
     */
    private List<JsonNode> metadata(Predicate<JsonNode> filter) throws IOException {
        List<JsonNode> found = new ArrayList<>();
        for (JsonNode group : groups()) {
            JsonNode current = group.get("chat_metadata");
            if (Js.truthy(current) && filter.test(current)) {
                found.add(current);
            }
            if (Js.truthy(group.get("past_metadata"))) {
                group.get("past_metadata").forEach(past -> {
                    if (filter.test(past)) {
                        found.add(past);
                    }
                });
            }
        }
        for (List<JsonNode> lines : parsedChats()) {
            JsonNode metadata = lines.isEmpty() ? null : lines.get(0).get(ChatHeader.CHAT_METADATA);
            if (Js.truthy(metadata) && filter.test(metadata)) {
                found.add(metadata);
            }
        }
        return found;
    }

    /** The group chats and the chats of every character's chat folder (not the loose ones of {@code chats/}). */
    private List<ChatFolder> chatFolders() throws IOException {
        List<ChatFolder> folders = new ArrayList<>();
        folders.add(ChatFolder.groups());
        folders.addAll(characterFolders());
        return folders;
    }

    /** The character chat folders in Node's readdir order. */
    private List<ChatFolder> characterFolders() throws IOException {
        return chats.characterFolders(handle).stream().filter(Sanitize::isSafeSegment).sorted(FileNames.BYTE_ORDER)
                .map(ChatFolder::character).toList();
    }

    /** The groups' objects, read once per scan (several categories look at them); unreadable ones are skipped. */
    private List<JsonNode> groups() throws IOException {
        if (groups == null) {
            groups = new ArrayList<>();
            groupStore.list(handle).forEach(group -> groups.add(group.json()));
        }
        return groups;
    }

    /**
     * The truthy values of a chat's lines, as ST reads them ({@link ChatLines#values}: invalid UTF-8 as U+FFFD, so
     * such a chat still protects the files it refers to); an unreadable chat has none.
     */
    private List<JsonNode> lines(ChatFolder folder, String name) {
        List<JsonNode> lines = new ArrayList<>();
        try {
            Optional<InputStream> content = chats.open(handle, folder, name);
            if (content.isPresent()) {
                try (InputStream in = content.get()) {
                    ChatLines.values(in, lines::add);
                }
            }
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        return lines;
    }

    private static void addIfTruthy(List<JsonNode> references, JsonNode value) {
        if (Js.truthy(value)) {
            references.add(value);
        }
    }

    /** A reference as the string ST joins to the root; anything else makes ST's scan throw. */
    private static String text(JsonNode reference) throws Abandoned {
        if (!reference.isTextual()) {
            throw new Abandoned();
        }
        return reference.textValue();
    }

    /** {@code path.normalize(path.join(root, url))}, and the same for the URL-decoded form. */
    private void addKnown(Set<Path> known, String url) {
        known.add(resolve(url));
        try {
            known.add(resolve(URLDecoder.decode(url.replace("+", "%2B"), StandardCharsets.UTF_8)));
        } catch (IllegalArgumentException e) {
            // not percent-encoded: the plain form is enough
        }
    }

    private Path resolve(String url) {
        String relative = url.replaceAll("^/+", "");
        try {
            return relative.isEmpty() ? root : root.resolve(relative).normalize();
        } catch (java.nio.file.InvalidPathException e) {
            return root;
        }
    }
}
