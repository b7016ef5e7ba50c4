package tankard.content;

import com.fasterxml.jackson.databind.JsonNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.config.TankardConfig;
import tankard.json.JsJson;
import tankard.store.AtomicFiles;
import tankard.user.UserDirs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.DosFileAttributeView;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Copies default content into the data root and into user folders exactly as ST does (ST:
 * src/endpoints/content-manager.js, seedContent): items already named in the folder's {@code content.log} are skipped
 * (unless their type is forced), existing files are never overwritten, and the log is rewritten only when it changed,
 * so a data root that is up to date is left byte- and mtime-identical. Blocking; call from a worker.
 */
public final class ContentSeeder {
    private static final Logger LOG = LoggerFactory.getLogger(ContentSeeder.class);
    private static final Set<String> GLOBAL_TYPES = Set.of("error_page", "stylesheet");
    /**
     * First line of a content.log that Tankard's own content started. A folder whose log lacks it was seeded by
     * ST (or by Tankard with an ST frontend) and already has ST's defaults: Tankard's own are not mixed into it,
     * so an ST data root opened with Tankard's UI keeps exactly its files. ST treats the line as a spent item.
     */
    static final String OWN_CONTENT_MARKER = "#tankard-default-content";

    private final Path dataRoot;
    private final DefaultContent content;

    public ContentSeeder(TankardConfig config) {
        this(config.dataRoot(), DefaultContent.of(config));
    }

    public ContentSeeder(Path dataRoot, DefaultContent content) {
        this.dataRoot = dataRoot;
        this.content = content;
    }

    /** Global content: error pages and user.css under the data root, logged in the data root's content.log. */
    public synchronized void seedGlobal() {
        seed(GLOBAL_TYPES::contains, dataRoot.resolve("content.log"), this::globalTarget, Set.of());
    }

    /**
     * A user's default content. Items already in the user's content.log are skipped unless their type is
     * in {@code forcedTypes}; existing files are never overwritten. Also gives a user with nothing to migrate
     * the system-prompt migration marker (ST: src/users.js, migrateSystemPrompts), which ST's migration writes before
     * seeding.
     */
    public synchronized void seedUser(UserDirs dirs, Set<String> forcedTypes) {
        markSyspromptsMigrated(dirs);
        seed(type -> !GLOBAL_TYPES.contains(type), dirs.contentLog(), type -> userTarget(type, dirs), forcedTypes);
    }

    private void seed(Predicate<String> scope, Path logFile, Function<String, Path> targets, Set<String> forcedTypes) {
        try {
            List<DefaultContent.Item> items = content.items().stream().filter(i -> scope.test(i.type())).toList();
            String before = Files.exists(logFile) ? new String(Files.readAllBytes(logFile), StandardCharsets.UTF_8) : null;
            // JavaScript's split: an empty file is one empty entry, and it is written back as such.
            List<String> log = new ArrayList<>(before == null ? List.of() : Arrays.asList(before.split("\n", -1)));
            boolean foreignFolder = content.isBundled() && before != null && !log.contains(OWN_CONTENT_MARKER);
            if (content.isBundled() && before == null) {
                log.add(OWN_CONTENT_MARKER);
            }
            for (DefaultContent.Item item : items) {
                boolean forced = forcedTypes.contains(item.type());
                if ((log.contains(item.filename()) || foreignFolder) && !forced) {
                    continue;
                }
                Path source = item.source();
                if (source == null || !Files.exists(source)) {
                    LOG.warn("Default content file {} is missing", item.filename());
                    continue;
                }
                Path targetFolder = targets.apply(item.type());
                if (targetFolder == null) {
                    LOG.warn("Default content file {} has unknown type {}", item.filename(), item.type());
                    continue;
                }
                log.add(item.filename());
                Path target = destination(targetFolder, item.filename());
                if (target == null || Files.exists(target)) {
                    continue;
                }
                Files.createDirectories(targetFolder);
                copy(source, target);
                addOwnerWrite(target);
                LOG.debug("Default content {} copied to {}", item.filename(), targetFolder);
            }
            String after = String.join("\n", log);
            if (!after.equals(before)) {
                AtomicFiles.write(logFile, after);
            }
        } catch (IOException | RuntimeException e) {
            // Like ST, any error abandons the check and leaves the log as it was.
            LOG.error("Default content check for {} failed", logFile.getParent(), e);
        }
    }

    /** Only the base name of the index path is used at the destination; null when it has none. */
    private static Path destination(Path folder, String filename) {
        String trimmed = filename.replaceAll("/+$", "");
        String base = trimmed.substring(trimmed.lastIndexOf('/') + 1);
        if (base.isEmpty() || base.equals(".") || base.equals("..")) {
            return null;
        }
        return folder.resolve(base);
    }

    /** Copies a file or a folder tree; the source may live in another file system (the jar). */
    private static void copy(Path source, Path target) throws IOException {
        if (!Files.isDirectory(source)) {
            Files.copy(source, target);
            return;
        }
        try (Stream<Path> walk = Files.walk(source)) {
            for (Path from : (Iterable<Path>) walk::iterator) {
                Path to = target.resolve(source.relativize(from).toString());
                if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(from, to);
                }
            }
        }
    }

    /** ST makes every copied file and folder writable by its owner, so read-only sources stay editable. */
    private static void addOwnerWrite(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : (Iterable<Path>) walk::iterator) {
                PosixFileAttributeView posix = Files.getFileAttributeView(path, PosixFileAttributeView.class);
                if (posix != null) {
                    Set<PosixFilePermission> permissions = posix.readAttributes().permissions();
                    if (permissions.add(PosixFilePermission.OWNER_WRITE)) {
                        posix.setPermissions(permissions);
                    }
                } else {
                    DosFileAttributeView dos = Files.getFileAttributeView(path, DosFileAttributeView.class);
                    if (dos != null && dos.readAttributes().isReadOnly()) {
                        dos.setReadOnly(false);
                    }
                }
            }
        }
    }

    private Path globalTarget(String type) {
        return switch (type) {
            case "error_page" -> dataRoot.resolve("_errors");
            case "stylesheet" -> dataRoot.resolve("_css");
            default -> null;
        };
    }

    private static Path userTarget(String type, UserDirs dirs) {
        return switch (type) {
            case "settings" -> dirs.root();
            case "character", "sprites" -> dirs.characters();
            case "background" -> dirs.backgrounds();
            case "world" -> dirs.worlds();
            case "avatar" -> dirs.avatars();
            case "theme" -> dirs.themes();
            case "workflow" -> dirs.comfyWorkflows();
            case "kobold_preset" -> dirs.koboldSettings();
            case "openai_preset" -> dirs.openAiSettings();
            case "novel_preset" -> dirs.novelSettings();
            case "textgen_preset" -> dirs.textGenSettings();
            case "instruct" -> dirs.instruct();
            case "context" -> dirs.context();
            case "moving_ui" -> dirs.movingUi();
            case "quick_replies" -> dirs.quickReplies();
            case "sysprompt" -> dirs.sysprompt();
            case "reasoning" -> dirs.reasoning();
            default -> null;
        };
    }

    /**
     * ST moves system prompts out of pre-1.12.6 instruct templates once per user, then writes the empty marker
     * {@code sysprompt/.migrated} (after creating {@code backups/_sysprompt/}). When no instruct file needs that
     * migration its whole effect is the marker, so Tankard writes it; otherwise the marker is left for ST to
     * write once it has migrated.
     */
    private static void markSyspromptsMigrated(UserDirs dirs) {
        Path marker = dirs.sysprompt().resolve(".migrated");
        try {
            if (Files.exists(marker) || needsSyspromptMigration(dirs)) {
                return;
            }
            Files.createDirectories(dirs.backups().resolve("_sysprompt"));
            AtomicFiles.write(marker, new byte[0]);
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("Cannot write the system-prompt migration marker for {}", dirs.root(), e);
        }
    }

    /** True when an instruct template without a same-named system prompt still carries one (or is unreadable). */
    private static boolean needsSyspromptMigration(UserDirs dirs) throws IOException {
        if (!Files.isDirectory(dirs.instruct())) {
            return false;
        }
        try (Stream<Path> files = Files.list(dirs.instruct())) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = file.getFileName().toString();
                if (!name.endsWith(".json") || Files.exists(dirs.sysprompt().resolve(name))) {
                    continue;
                }
                JsonNode template = JsJson.tryParse(Files.readAllBytes(file));
                // Unparsable or a bare value: ST's migration throws there and writes no marker either.
                if (template == null || template.isValueNode()
                        || (template.has("system_prompt") && template.has("name"))) {
                    return true;
                }
            }
        }
        return false;
    }
}
