package tankard.datamaid;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.settings.SettingsBackups;
import tankard.user.UserDirs;
import tankard.util.FileNames;

import java.io.IOException;
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
import java.util.Set;
import java.util.function.Predicate;

/**
 * Finds the user's loose files as ST's Data Maid does (src/endpoints/data-maid.js, generateReport): images and
 * data-bank files no chat or setting refers to, chats of characters that are gone, group chats no group lists,
 * thumbnails without their image, and all chat and settings backups. Where ST's scan fails on data it cannot read (a
 * reference that is not text), that category reports nothing, as ST's does; references are also matched URL-decoded,
 * so a file a chat points to is never offered for deletion. Blocking.
 */
final class DataMaidScan {
    /** A category whose scan must report nothing, as ST's throws and reports nothing. */
    private static final class Abandoned extends Exception {
        Abandoned() {
            super(null, null, false, false);
        }
    }

    private final UserDirs dirs;
    private final Path root;
    private final String handle;
    /** The truthy lines of every chat file, read once for all categories. */
    private List<List<JsonNode>> parsedChats;
    private List<JsonNode> groups;

    DataMaidScan(UserDirs dirs, String handle) {
        this.dirs = dirs;
        this.root = dirs.root().toAbsolutePath().normalize();
        this.handle = handle;
    }

    /** Category → the absolute paths of its loose files. */
    Map<String, List<Path>> scan() {
        Map<String, List<Path>> report = new LinkedHashMap<>();
        report.put("images", orNothing(this::images));
        report.put("files", orNothing(this::files));
        report.put("chats", orNothing(this::chats));
        report.put("groupChats", orNothing(this::groupChats));
        report.put("avatarThumbnails", orNothing(() -> orphans(dirs.characters(), dirs.thumbnailsAvatar())));
        report.put("backgroundThumbnails", orNothing(() -> orphans(dirs.backgrounds(), dirs.thumbnailsBg())));
        report.put("personaThumbnails", orNothing(() -> orphans(dirs.avatars(), dirs.thumbnailsPersona())));
        report.put("chatBackups", orNothing(() -> prefixed(dirs.backups(), "chat_")));
        report.put("settingsBackups", orNothing(() -> prefixed(dirs.backups(), SettingsBackups.prefix(handle))));
        return report;
    }

    @FunctionalInterface
    private interface Category {
        List<Path> collect() throws IOException, Abandoned;
    }

    private static List<Path> orNothing(Category category) {
        try {
            return category.collect();
        } catch (IOException | Abandoned | RuntimeException e) {
            return List.of();
        }
    }

    private List<Path> images() throws IOException, Abandoned {
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
        List<Path> loose = new ArrayList<>();
        Path images = dirs.userImages().toAbsolutePath().normalize();
        for (String name : FileNames.list(images)) {
            Path entry = images.resolve(name);
            if (isFile(entry) && !known.contains(entry)) {
                loose.add(entry);
            } else if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                for (String inner : FileNames.list(entry)) {
                    Path file = entry.resolve(inner);
                    if (isFile(file) && !known.contains(file)) {
                        loose.add(file);
                    }
                }
            }
        }
        return loose;
    }

    private List<Path> files() throws IOException, Abandoned {
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
        JsonNode settings = parseFile(dirs.settingsFile());
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
        List<Path> loose = new ArrayList<>();
        Path files = dirs.userFiles().toAbsolutePath().normalize();
        for (String name : FileNames.list(files)) {
            Path file = files.resolve(name);
            if (isFile(file) && !known.contains(file)) {
                loose.add(file);
            }
        }
        return loose;
    }

    /** Chat files in folders whose character card is gone. */
    private List<Path> chats() {
        Set<String> knownFolders = new HashSet<>();
        for (String name : FileNames.list(dirs.characters())) {
            if (FileNames.ext(name).equals(".png") && isFile(dirs.characters().resolve(name))) {
                knownFolders.add(name.replaceFirst("\\.png", ""));
            }
        }
        List<Path> loose = new ArrayList<>();
        Path chats = dirs.chats().toAbsolutePath().normalize();
        for (String folder : FileNames.list(chats)) {
            if (Files.isDirectory(chats.resolve(folder), LinkOption.NOFOLLOW_LINKS) && !knownFolders.contains(folder)) {
                for (String name : FileNames.list(chats.resolve(folder))) {
                    Path file = chats.resolve(folder).resolve(name);
                    if (FileNames.ext(name).equals(".jsonl") && isFile(file)) {
                        loose.add(file);
                    }
                }
            }
        }
        return loose;
    }

    /** Group chat files no group lists as its current or a past chat. */
    private List<Path> groupChats() {
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
        List<Path> loose = new ArrayList<>();
        Path groupChats = dirs.groupChats().toAbsolutePath().normalize();
        for (String name : FileNames.list(groupChats)) {
            Path file = groupChats.resolve(name);
            if (FileNames.ext(name).equals(".jsonl") && isFile(file) && !known.contains(FileNames.base(name))) {
                loose.add(file);
            }
        }
        return loose;
    }

    /** Thumbnails whose name is no file of the source folder. */
    private static List<Path> orphans(Path sources, Path thumbnails) {
        List<Path> loose = new ArrayList<>();
        Path folder = thumbnails.toAbsolutePath().normalize();
        for (String name : FileNames.list(folder)) {
            if (isFile(folder.resolve(name)) && !isFile(sources.resolve(name))) {
                loose.add(folder.resolve(name));
            }
        }
        return loose;
    }

    private static List<Path> prefixed(Path folder, String prefix) {
        Path absolute = folder.toAbsolutePath().normalize();
        return FileNames.list(absolute).stream()
                .filter(name -> name.startsWith(prefix) && isFile(absolute.resolve(name)))
                .map(absolute::resolve)
                .toList();
    }

    /** Every message line of every group and character chat. */
    private List<JsonNode> messages() {
        List<JsonNode> messages = new ArrayList<>();
        for (List<JsonNode> chat : parsedChats()) {
            messages.addAll(chat);
        }
        return messages;
    }

    private List<List<JsonNode>> parsedChats() {
        if (parsedChats == null) {
            parsedChats = chatFiles().stream().map(DataMaidScan::lines).toList();
        }
        return parsedChats;
    }

    /**
     * Chat metadata that passes the filter: from group files (a deprecated place ST still reads) and from the
     * first line of each chat.
     */
    private List<JsonNode> metadata(Predicate<JsonNode> filter) {
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
            JsonNode metadata = lines.isEmpty() ? null : lines.get(0).get("chat_metadata");
            if (Js.truthy(metadata) && filter.test(metadata)) {
                found.add(metadata);
            }
        }
        return found;
    }

    /** The {@code .jsonl} files of {@code group chats/} and of every character's chat folder. */
    private List<Path> chatFiles() {
        List<Path> files = new ArrayList<>();
        for (String name : FileNames.list(dirs.groupChats())) {
            if (FileNames.ext(name).equals(".jsonl") && isFile(dirs.groupChats().resolve(name))) {
                files.add(dirs.groupChats().resolve(name));
            }
        }
        for (String folder : FileNames.list(dirs.chats())) {
            Path dir = dirs.chats().resolve(folder);
            if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                for (String name : FileNames.list(dir)) {
                    if (FileNames.ext(name).equals(".jsonl") && isFile(dir.resolve(name))) {
                        files.add(dir.resolve(name));
                    }
                }
            }
        }
        return files;
    }

    /** The parsed group definitions; unreadable ones are skipped. */
    /** The group files' objects, read once per scan (several categories look at them). */
    private List<JsonNode> groups() {
        if (groups == null) {
            groups = new ArrayList<>();
            for (String name : FileNames.list(dirs.groups())) {
                if (FileNames.ext(name).equals(".json") && isFile(dirs.groups().resolve(name))) {
                    JsonNode group = parseFile(dirs.groups().resolve(name));
                    if (group != null && group.isObject()) {
                        groups.add(group);
                    }
                }
            }
        }
        return groups;
    }

    /**
     * The truthy JSON values of a chat file's lines (invalid UTF-8 read as U+FFFD, as Node reads it, so such a
     * chat still protects the files it refers to); an unreadable file has none.
     */
    private static List<JsonNode> lines(Path chat) {
        List<JsonNode> lines = new ArrayList<>();
        try {
            for (String line : new String(Files.readAllBytes(chat), StandardCharsets.UTF_8).split("\n", -1)) {
                JsonNode value = JsJson.tryParse(line.getBytes(StandardCharsets.UTF_8));
                if (value != null && Js.truthy(value)) {
                    lines.add(value);
                }
            }
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        return lines;
    }

    private static JsonNode parseFile(Path file) {
        try {
            return JsJson.tryParse(Files.readAllBytes(file));
        } catch (IOException e) {
            return null;
        }
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

    private static boolean isFile(Path path) {
        return Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS);
    }
}
