package tankard.content;

import com.fasterxml.jackson.databind.JsonNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.character.CardStore;
import tankard.config.TankardConfig;
import tankard.json.JsJson;
import tankard.store.AtomicFiles;
import tankard.store.BlobStore;
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Folder;
import tankard.store.DocumentStore.Outcome;
import tankard.util.Sanitize;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.DosFileAttributeView;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Copies default content into the data root and into user folders exactly as ST does (ST:
 * src/endpoints/content-manager.js, seedContent): items already named in the folder's {@code content.log} are skipped
 * (unless their type is forced), existing files are never overwritten, and the log is rewritten only when it changed,
 * so a data root that is up to date is left byte- and mtime-identical. A user's JSON documents (settings, presets,
 * themes, lorebooks, …) are seeded into the {@link DocumentStore}, the cards into the {@link CardStore}, the other
 * items (sprites, backgrounds, avatars, workflows) and the user's content.log into the {@link BlobStore}; the global
 * content and its log are files of the data root. Blocking; call from a worker.
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
    /** ST's "system prompts migrated" marker in the user's {@code sysprompt/} (ST: src/users.js, migrateSystemPrompts). */
    private static final String SYSPROMPTS_MIGRATED = ".migrated";
    /** A folder's log of the default content copied into it (ST: src/endpoints/content-manager.js, contentLogPath). */
    private static final String CONTENT_LOG = "content.log";
    private final Path dataRoot;
    private final DefaultContent content;
    private final DocumentStore documents;
    private final CardStore cards;
    private final BlobStore blobs;

    public ContentSeeder(TankardConfig config, DocumentStore documents, CardStore cards, BlobStore blobs) {
        this(config.dataRoot(), DefaultContent.of(config), documents, cards, blobs);
    }

    public ContentSeeder(Path dataRoot, DefaultContent content, DocumentStore documents, CardStore cards,
                         BlobStore blobs) {
        this.dataRoot = dataRoot;
        this.content = content;
        this.documents = documents;
        this.cards = cards;
        this.blobs = blobs;
    }

    /** Global content: error pages and user.css under the data root, logged in the data root's content.log. */
    public synchronized void seedGlobal() {
        seed(GLOBAL_TYPES::contains, fileLog(dataRoot.resolve(CONTENT_LOG)), type -> fileTarget(globalTarget(type)),
                Set.of());
    }

    /**
     * A user's default content. Items already in the user's content.log are skipped unless their type is
     * in {@code forcedTypes}; existing files are never overwritten. Also gives a user with nothing to migrate
     * the system-prompt migration marker (ST: src/users.js, migrateSystemPrompts), which ST's migration writes before
     * seeding.
     */
    public synchronized void seedUser(String user, Set<String> forcedTypes) {
        markSyspromptsMigratedOnStart(user);
        seed(type -> !GLOBAL_TYPES.contains(type), blobLog(user), type -> userTarget(type, user), forcedTypes);
    }

    /** A folder's content.log: its text (null when there is none yet), written whole. */
    private interface ContentLog {
        String read() throws IOException;

        void write(String text) throws IOException;
    }

    private static ContentLog fileLog(Path file) {
        return new ContentLog() {
            @Override
            public String read() throws IOException {
                return Files.exists(file) ? new String(Files.readAllBytes(file), StandardCharsets.UTF_8) : null;
            }

            @Override
            public void write(String text) throws IOException {
                AtomicFiles.write(file, text);
            }

            @Override
            public String toString() {
                return file.toString();
            }
        };
    }

    private ContentLog blobLog(String user) {
        return new ContentLog() {
            @Override
            public String read() throws IOException {
                Optional<InputStream> log = blobs.open(user, CONTENT_LOG);
                if (log.isEmpty()) {
                    return null;
                }
                try (InputStream in = log.get()) {
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }

            @Override
            public void write(String text) {
                blobs.write(user, CONTENT_LOG, new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
            }

            @Override
            public String toString() {
                return "the content.log of " + user;
            }
        };
    }

    /** Where an item is copied to: a new name in a folder (a file or a document), never replacing what is there. */
    @FunctionalInterface
    private interface Target {
        /** Copies the source under that name unless something has it already; true when it was copied. */
        boolean copyNew(Path source, String name) throws IOException;
    }

    private void seed(Predicate<String> scope, ContentLog logFile, Function<String, Target> targets,
                      Set<String> forcedTypes) {
        try {
            List<DefaultContent.Item> items = content.items().stream().filter(i -> scope.test(i.type())).toList();
            String before = logFile.read();
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
                Target target = targets.apply(item.type());
                if (target == null) {
                    LOG.warn("Default content file {} has unknown type {}", item.filename(), item.type());
                    continue;
                }
                log.add(item.filename());
                String name = item.baseName(); // only the index path's base name is used at the destination
                if (Sanitize.isSafeSegment(name) && target.copyNew(source, name)) {
                    LOG.debug("Default content {} copied ({})", item.filename(), item.type());
                }
            }
            String after = String.join("\n", log);
            if (!after.equals(before)) {
                logFile.write(after);
            }
        } catch (IOException | RuntimeException e) {
            // Like ST, any error abandons the check and leaves the log as it was.
            LOG.error("Default content check for {} failed", logFile, e);
        }
    }

    /** Files and folder trees copied into a folder; null for no folder. */
    private static Target fileTarget(Path folder) {
        return folder == null ? null : (source, name) -> {
            Path target = folder.resolve(name);
            if (Files.exists(target)) {
                return false;
            }
            Files.createDirectories(folder);
            copy(source, target);
            addOwnerWrite(target);
            return true;
        };
    }

    /**
     * Files and folder trees copied into a folder of the user's blobs, unless it has a file or folder of that name.
     * The copies are the store's own new files, so ST's owner-write fix of the copied modes is not needed.
     */
    private Target blobTarget(String user, String folder) {
        return (source, name) -> {
            String target = BlobStore.child(folder, name);
            if (blobs.keeps(target) && blobs.stat(user, target).isPresent() || blobs.folders(user, folder).contains(name)) {
                return false;
            }
            if (!Files.isDirectory(source)) {
                copyToBlob(user, source, target);
                return true;
            }
            try (Stream<Path> walk = Files.walk(source)) {
                for (Path from : (Iterable<Path>) walk::iterator) {
                    if (!Files.isDirectory(from)) {
                        copyToBlob(user, from, target + "/" + source.relativize(from).toString().replace('\\', '/'));
                    }
                }
            }
            return true;
        };
    }

    private void copyToBlob(String user, Path source, String path) throws IOException {
        try (InputStream in = Files.newInputStream(source)) {
            blobs.write(user, path, in);
        }
    }

    /** A document of the user's, stored only when there is none of that name: one unit of work, as on any node. */
    private Target documentTarget(String user, Folder folder) {
        return (source, name) -> {
            byte[] bytes = Files.readAllBytes(source);
            return documents.update(user, folder, name,
                    current -> current.isPresent() ? Outcome.keep(false) : Outcome.store(bytes, true));
        };
    }

    /** A character card of the user's, stored only when there is none of that name (the store's atomic create). */
    private Target cardTarget(String user) {
        return (source, name) -> cards.create(user, name, Files.readAllBytes(source));
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

    /** ST: src/endpoints/content-manager.js, getUserTargetByType. */
    private Target userTarget(String type, String user) {
        Folder folder = DefaultContent.documentFolder(type);
        if (folder != null) {
            return documentTarget(user, folder);
        }
        if (type.equals("character")) {
            return cardTarget(user);
        }
        String blobFolder = switch (type) {
            case "sprites" -> "characters";
            case "background" -> "backgrounds";
            case "avatar" -> "User Avatars";
            case "workflow" -> "user/workflows";
            default -> null;
        };
        return blobFolder == null ? null : blobTarget(user, blobFolder);
    }

    /**
     * ST moves system prompts out of pre-1.12.6 instruct templates once per user, then writes the empty marker
     * {@code sysprompt/.migrated} (after creating {@code backups/_sysprompt/}). When no instruct template needs that
     * migration its whole effect is the marker, so Tankard writes it; otherwise the marker is left for ST to
     * write once it has migrated.
     */
    private void markSyspromptsMigratedOnStart(String user) {
        try {
            if (documents.read(user, Folder.SYSPROMPT, SYSPROMPTS_MIGRATED).isPresent()
                    || needsSyspromptMigration(user)) {
                return;
            }
            // an empty folder, which only a file system keeps: made on this node, as the user's other folders are
            Files.createDirectories(dataRoot.resolve(user).resolve("backups/_sysprompt"));
            markSyspromptsMigrated(user);
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("Cannot write the system-prompt migration marker for {}", user, e);
        }
    }

    /** Writes the "system prompts migrated" marker ST expects unless it is there: a new user has none to migrate. */
    public void markSyspromptsMigrated(String user) {
        documents.update(user, Folder.SYSPROMPT, SYSPROMPTS_MIGRATED,
                current -> current.isPresent() ? Outcome.keep(null) : Outcome.store(new byte[0], null));
    }

    /** True when an instruct template without a same-named system prompt still carries one (or is unreadable). */
    private boolean needsSyspromptMigration(String user) {
        Set<String> sysprompts = new HashSet<>();
        documents.list(user, Folder.SYSPROMPT).forEach(entry -> sysprompts.add(entry.name()));
        for (DocumentStore.Entry entry : documents.list(user, Folder.INSTRUCT)) {
            String name = entry.name();
            if (!name.endsWith(".json") || sysprompts.contains(name)) {
                continue;
            }
            JsonNode template = documents.read(user, Folder.INSTRUCT, name).map(JsJson::tryParse).orElse(null);
            // Unparsable or a bare value: ST's migration throws there and writes no marker either.
            if (template == null || template.isValueNode()
                    || (template.has("system_prompt") && template.has("name"))) {
                return true;
            }
        }
        return false;
    }
}
