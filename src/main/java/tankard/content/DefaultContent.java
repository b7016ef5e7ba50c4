package tankard.content;

import com.fasterxml.jackson.databind.JsonNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.config.TankardConfig;
import tankard.json.JsJson;
import tankard.store.DocumentStore.Folder;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The default-content indexes (ST: src/endpoints/content-manager.js, getContentIndex): folders that each hold an
 * {@code index.json} array of {@code {filename, type}} items with the files next to it, read in priority order. With
 * an ST install these are its {@code default/scaffold} and {@code default/content}; otherwise Tankard's own content
 * inside the jar.
 */
public final class DefaultContent {
    private static final Logger LOG = LoggerFactory.getLogger(DefaultContent.class);
    private static final String BUNDLED = "/default-content/index.json";

    /**
     * One index entry; {@code folder} gives the folder its {@code filename} is relative to (for the bundled content
     * the jar, opened as a file system only when a file is needed: a start whose content is all seeded already
     * does not open it, which is about 70 ms of the first answer).
     */
    public record Item(Supplier<Path> folder, String filename, String type) {
        /** {@code path.parse(filename).base}: the last segment, trailing slashes ignored; where the item is copied to. */
        public String baseName() {
            String trimmed = filename.replaceAll("/+$", "");
            return trimmed.substring(trimmed.lastIndexOf('/') + 1);
        }

        /** The source file or folder, or null when the name would leave the index's folder. */
        public Path source() {
            Path base = folder.get().normalize();
            try {
                Path resolved = base.resolve(filename).normalize();
                return resolved.startsWith(base) && !resolved.equals(base) ? resolved : null;
            } catch (InvalidPathException e) {
                return null;
            }
        }
    }

    /**
     * Default-content types that are JSON documents → their folder (ST: src/endpoints/content-manager.js,
     * getUserTargetByType).
     */
    private static final Map<String, Folder> DOCUMENT_FOLDERS = Map.ofEntries(
            Map.entry("settings", Folder.ROOT),
            Map.entry("world", Folder.WORLDS),
            Map.entry("theme", Folder.THEMES),
            Map.entry("kobold_preset", Folder.KOBOLD_SETTINGS),
            Map.entry("openai_preset", Folder.OPENAI_SETTINGS),
            Map.entry("novel_preset", Folder.NOVEL_SETTINGS),
            Map.entry("textgen_preset", Folder.TEXTGEN_SETTINGS),
            Map.entry("instruct", Folder.INSTRUCT),
            Map.entry("context", Folder.CONTEXT),
            Map.entry("moving_ui", Folder.MOVING_UI),
            Map.entry("quick_replies", Folder.QUICK_REPLIES),
            Map.entry("sysprompt", Folder.SYSPROMPT),
            Map.entry("reasoning", Folder.REASONING));

    private final List<Path> folders;
    private final boolean bundled;

    /** The user's document folder of a type's items, or null when they are not JSON documents. */
    public static Folder documentFolder(String type) {
        return DOCUMENT_FOLDERS.get(type);
    }

    public DefaultContent(List<Path> folders) {
        this(folders, false);
    }

    private DefaultContent(List<Path> folders, boolean bundled) {
        this.folders = List.copyOf(folders);
        this.bundled = bundled;
    }

    /** Tankard's own content rather than an ST install's. */
    public boolean isBundled() {
        return bundled;
    }

    public static DefaultContent tankards() {
        return new DefaultContent(List.of(), true);
    }

    /** ST's scaffold and default content when the frontend is an ST install, else Tankard's bundled content. */
    public static DefaultContent of(TankardConfig config) {
        Path stContent = config.stDefaultContent();
        if (stContent != null) {
            return new DefaultContent(List.of(config.stInstall().resolve("default").resolve("scaffold"), stContent));
        }
        return tankards();
    }

    /**
     * Every item of every index, in order. A missing index adds nothing, as does one that is not an array;
     * one that cannot be read or parsed fails the whole list, as ST's content check does.
     */
    public List<Item> items() {
        List<Item> items = new ArrayList<>();
        if (bundled) {
            addItems(bundledIndex(), BUNDLED, Bundled::folder, items);
        }
        for (Path folder : folders) {
            Path index = folder.resolve("index.json");
            if (!Files.isRegularFile(index)) {
                continue;
            }
            try {
                addItems(Files.readAllBytes(index), index.toString(), () -> folder, items);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read " + index, e);
            }
        }
        return items;
    }

    private static void addItems(byte[] index, String where, Supplier<Path> folder, List<Item> items) {
        JsonNode array = JsJson.parse(index);
        if (!array.isArray()) {
            return;
        }
        for (JsonNode entry : array) {
            JsonNode filename = entry.path("filename");
            JsonNode type = entry.path("type");
            if (!filename.isTextual() || !type.isTextual()) {
                LOG.warn("Skipping malformed default-content entry in {}: {}", where, JsJson.compact(entry));
                continue;
            }
            items.add(new Item(folder, filename.textValue(), type.textValue()));
        }
    }

    /** The bundled index, read through the class path (which has the jar open already). */
    private static byte[] bundledIndex() {
        try (InputStream in = DefaultContent.class.getResourceAsStream(BUNDLED)) {
            if (in == null) {
                throw new IllegalStateException("Tankard's default content is missing from the classpath: " + BUNDLED);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read Tankard's default content index", e);
        }
    }

    /** The bundled content's folder, opened on first use. */
    private static final class Bundled {
        private static final Path FOLDER = bundledFolder();

        static Path folder() {
            return FOLDER;
        }
    }

    /** The folder of Tankard's bundled content: on disk when running from classes, inside the jar otherwise. */
    static Path bundledFolder() {
        URL index = DefaultContent.class.getResource(BUNDLED);
        if (index == null) {
            throw new IllegalStateException("Tankard's default content is missing from the classpath: " + BUNDLED);
        }
        try {
            URI uri = index.toURI();
            if ("jar".equals(uri.getScheme())) {
                return jarFileSystem(uri).getPath(BUNDLED).getParent();
            }
            return Path.of(uri).getParent();
        } catch (URISyntaxException | IOException e) {
            throw new IllegalStateException("Cannot open Tankard's default content at " + index, e);
        }
    }

    /** The jar opened as a file system once and kept open: seeding runs at every start-up and user creation. */
    private static synchronized FileSystem jarFileSystem(URI uri) throws IOException {
        try {
            return FileSystems.newFileSystem(uri, Map.of());
        } catch (FileSystemAlreadyExistsException e) {
            return FileSystems.getFileSystem(uri);
        }
    }
}
