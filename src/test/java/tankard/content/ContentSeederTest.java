package tankard.content;

import tankard.character.FileCardStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.config.ConfigLoader;
import tankard.config.TankardConfig;
import tankard.testing.TestServer;
import tankard.store.DocumentStore;
import tankard.store.FileBlobStore;
import tankard.store.FileDocumentStore;
import tankard.user.UserDirs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ContentSeederTest {
    private static final Path BUNDLED = DefaultContent.bundledFolder();
    private final Path work = TestServer.tempDir();

    @AfterEach
    void cleanUp() {
        TestServer.deleteTree(work);
    }

    /** The blobs of a data root: a user's files that are no document or card (tankard.Stores.isBlob in short). */
    static FileBlobStore blobs(Path root) {
        return new FileBlobStore(root, path -> !DocumentStore.isDocument(path) && !path.matches("characters/[^/]+\\.png"));
    }

    @Test
    void startUpSeedsTankardsContentIntoAFreshDataRoot() throws IOException {
        try (TestServer server = TestServer.start("skipContentCheck: false\n")) {
            Path user = server.userDir();
            assertArrayEquals(bundled("settings.json"), Files.readAllBytes(user.resolve("settings.json")));
            assertArrayEquals(bundled("characters/default_Wren.png"),
                    Files.readAllBytes(user.resolve("characters/default_Wren.png")));
            assertTrue(Files.isRegularFile(user.resolve("User Avatars/user-default.png")));
            assertTrue(Files.isRegularFile(user.resolve("backgrounds/tankard-dusk-road.png")));
            assertTrue(Files.isRegularFile(user.resolve("instruct/ChatML.json")));
            assertTrue(Files.isRegularFile(user.resolve("context/Default.json")));
            assertTrue(Files.isRegularFile(user.resolve("sysprompt/Blank.json")));
            assertTrue(Files.isRegularFile(user.resolve("reasoning/Think XML.json")));
            assertTrue(Files.isRegularFile(user.resolve("OpenAI Settings/Default.json")));
            assertTrue(Files.isRegularFile(user.resolve("TextGen Settings/Balanced.json")));
            assertTrue(Files.isRegularFile(user.resolve("KoboldAI Settings/Balanced.json")));
            assertTrue(Files.isRegularFile(user.resolve("NovelAI Settings/Erato - Balanced.json")));
            assertEquals(0, Files.size(user.resolve("sysprompt/.migrated")));
            assertTrue(Files.isDirectory(user.resolve("backups/_sysprompt")));

            List<DefaultContent.Item> items = new DefaultContent(List.of(BUNDLED)).items();
            String marker = ContentSeeder.OWN_CONTENT_MARKER + "\n";
            assertEquals(marker + String.join("\n", filenames(items, false)), read(user.resolve("content.log")));
            assertEquals(marker + String.join("\n", filenames(items, true)), read(server.dataRoot.resolve("content.log")));
            assertTrue(read(server.dataRoot.resolve("_errors/forbidden-by-whitelist.html")).contains("{{ipDetails}}"));
            for (String page : List.of("host-not-allowed", "unauthorized", "url-not-found")) {
                assertTrue(Files.isRegularFile(server.dataRoot.resolve("_errors/" + page + ".html")), page);
            }
            assertTrue(Files.isRegularFile(server.dataRoot.resolve("_css/user.css")));
        }
    }

    @Test
    void tankardsOwnContentIsNotMixedIntoAFolderSeededByStButForcedSettingsAre() throws IOException {
        Path root = work.resolve("data");
        UserDirs dirs = UserDirs.of(root, "default-user");
        Files.createDirectories(dirs.root());
        Files.writeString(dirs.contentLog(), "settings.json\ncharacters/default_Someone.png");
        ContentSeeder seeder = new ContentSeeder(root, DefaultContent.tankards(), new FileDocumentStore(root), new FileCardStore(root), blobs(root));

        seeder.seedUser(dirs.handle(), Set.of());
        assertFalse(Files.exists(dirs.characters().resolve("default_Wren.png")));
        assertFalse(Files.exists(dirs.settingsFile()));
        assertEquals("settings.json\ncharacters/default_Someone.png", read(dirs.contentLog()));

        seeder.seedUser(dirs.handle(), Set.of("settings"));
        assertArrayEquals(bundled("settings.json"), Files.readAllBytes(dirs.settingsFile()));
        assertFalse(Files.exists(dirs.characters().resolve("default_Wren.png")));

        UserDirs fresh = UserDirs.of(root, "new-user");
        seeder.seedUser(fresh.handle(), Set.of());
        assertTrue(Files.exists(fresh.characters().resolve("default_Wren.png")));
        assertTrue(read(fresh.contentLog()).startsWith(ContentSeeder.OWN_CONTENT_MARKER + "\n"));
    }

    @Test
    void aSeededDataRootIsLeftByteAndMtimeIdentical() throws IOException {
        Path root = work.resolve("data");
        ContentSeeder seeder = new ContentSeeder(root, new DefaultContent(List.of(BUNDLED)),
                new FileDocumentStore(root), new FileCardStore(root), blobs(root));
        UserDirs dirs = UserDirs.of(root, "default-user");
        seeder.seedGlobal();
        seeder.seedUser(dirs.handle(), Set.of());
        // Age every file so that any rewrite, even with the same bytes, shows as a new mtime.
        FileTime old = FileTime.fromMillis(1_500_000_000_000L);
        for (String file : files(root).keySet()) {
            Files.setLastModifiedTime(root.resolve(file), old);
        }
        Map<String, Snapshot> before = snapshot(root);

        seeder.seedGlobal();
        seeder.seedUser(dirs.handle(), Set.of());

        assertEquals(before, snapshot(root));
    }

    @Test
    void aDeletedDefaultStaysDeletedUntilTheLogIsDeleted() throws IOException {
        Path root = work.resolve("data");
        ContentSeeder seeder = new ContentSeeder(root, new DefaultContent(List.of(BUNDLED)),
                new FileDocumentStore(root), new FileCardStore(root), blobs(root));
        UserDirs dirs = UserDirs.of(root, "default-user");
        seeder.seedUser(dirs.handle(), Set.of());
        String log = read(dirs.contentLog());
        Path card = dirs.characters().resolve("default_Wren.png");
        Files.delete(card);

        seeder.seedUser(dirs.handle(), Set.of());
        assertFalse(Files.exists(card));
        assertEquals(log, read(dirs.contentLog()));

        Files.delete(dirs.contentLog());
        seeder.seedUser(dirs.handle(), Set.of());
        assertArrayEquals(bundled("characters/default_Wren.png"), Files.readAllBytes(card));
        assertEquals(log, read(dirs.contentLog()));
    }

    @Test
    void aForcedTypeIsCopiedAgainWhenMissingAndLoggedAgain() throws IOException {
        Path root = work.resolve("data");
        ContentSeeder seeder = new ContentSeeder(root, new DefaultContent(List.of(BUNDLED)),
                new FileDocumentStore(root), new FileCardStore(root), blobs(root));
        UserDirs dirs = UserDirs.of(root, "default-user");
        seeder.seedUser(dirs.handle(), Set.of());
        String log = read(dirs.contentLog());
        Files.delete(dirs.settingsFile());
        Path preset = dirs.instruct().resolve("ChatML.json");
        Files.delete(preset);

        seeder.seedUser(dirs.handle(), Set.of("settings"));

        assertArrayEquals(bundled("settings.json"), Files.readAllBytes(dirs.settingsFile()));
        assertFalse(Files.exists(preset));
        // ST appends the forced item's name again, every time.
        assertEquals(log + "\nsettings.json", read(dirs.contentLog()));
    }

    @Test
    void anExistingFileIsNeverOverwrittenButCountsAsSeeded() throws IOException {
        Path root = work.resolve("data");
        UserDirs dirs = UserDirs.of(root, "default-user");
        Files.createDirectories(dirs.root());
        Files.writeString(dirs.settingsFile(), "{\"mine\":true}");

        new ContentSeeder(root, new DefaultContent(List.of(BUNDLED)), new FileDocumentStore(root), new FileCardStore(root), blobs(root))
                .seedUser(dirs.handle(), Set.of("settings"));

        assertEquals("{\"mine\":true}", read(dirs.settingsFile()));
        assertEquals("settings.json", read(dirs.contentLog()).split("\n")[0]);
    }

    @Test
    void anStInstallIsSeededFromItsScaffoldThenItsDefaultContent() throws IOException {
        Path st = work.resolve("st");
        Path content = st.resolve("default/content");
        Path scaffold = st.resolve("default/scaffold");
        Files.createDirectories(st.resolve("public"));
        write(content.resolve("index.json"), """
                [
                    {"filename": "settings.json", "type": "settings"},
                    {"filename": "chars/Pip.png", "type": "character"},
                    {"filename": "chars/Pip/", "type": "sprites"},
                    {"filename": "bg/meadow.png", "type": "background"},
                    {"filename": "templates/Plain.json", "type": "instruct"},
                    {"filename": "gone.json", "type": "world"},
                    {"filename": "note.txt", "type": "poster"},
                    {"filename": "../outside.txt", "type": "world"},
                    {"filename": 42, "type": "world"},
                    {"filename": "bad\\u0000name.json", "type": "world"},
                    {"filename": "pages/url-not-found.html", "type": "error_page"}
                ]""");
        write(content.resolve("settings.json"), "{\"from\":\"content\"}");
        write(content.resolve("chars/Pip.png"), "card");
        write(content.resolve("chars/Pip/joy.png"), "joy");
        write(content.resolve("chars/Pip/sad-2.png"), "sad");
        write(content.resolve("chars/Pip/winter/joy.png"), "winter joy");
        write(content.resolve("bg/meadow.png"), "meadow");
        write(content.resolve("templates/Plain.json"), "{\"name\":\"Plain\"}");
        write(content.resolve("note.txt"), "note");
        write(st.resolve("default/outside.txt"), "outside");
        write(content.resolve("pages/url-not-found.html"), "<p>not here</p>");
        write(scaffold.resolve("index.json"), """
                [{"filename": "settings.json", "type": "settings"}, {"filename": "Night.json", "type": "theme"}]""");
        write(scaffold.resolve("settings.json"), "{\"from\":\"scaffold\"}");
        write(scaffold.resolve("Night.json"), "{\"name\":\"Night\"}");
        Path readOnly = content.resolve("chars/Pip/joy.png");
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r--r--r--"));

        TankardConfig config = ConfigLoader.load(new String[0], Map.of(), st);
        assertEquals(st.toAbsolutePath().normalize(), config.stInstall());
        ContentSeeder seeder = new ContentSeeder(config, new FileDocumentStore(config.dataRoot()),
                new FileCardStore(config.dataRoot()), blobs(config.dataRoot()));
        UserDirs dirs = UserDirs.of(config.dataRoot(), "default-user");
        seeder.seedGlobal();
        seeder.seedUser(dirs.handle(), Set.of());

        assertEquals("{\"from\":\"scaffold\"}", read(dirs.settingsFile()));
        assertEquals("{\"name\":\"Night\"}", read(dirs.themes().resolve("Night.json")));
        assertEquals("card", read(dirs.characters().resolve("Pip.png")));
        assertEquals("joy", read(dirs.characters().resolve("Pip/joy.png")));
        assertEquals("sad", read(dirs.characters().resolve("Pip/sad-2.png")));
        assertEquals("winter joy", read(dirs.characters().resolve("Pip/winter/joy.png")));
        assertTrue(Files.getPosixFilePermissions(dirs.characters().resolve("Pip/joy.png"))
                .contains(PosixFilePermission.OWNER_WRITE), "copies get owner-write");
        assertEquals("meadow", read(dirs.backgrounds().resolve("meadow.png")));
        assertEquals("{\"name\":\"Plain\"}", read(dirs.instruct().resolve("Plain.json")));
        assertFalse(Files.exists(dirs.worlds()), "the missing, numeric, unusable and escaping world items copy nothing");
        // Scaffold first; the content's settings.json is already logged; missing, unknown and escaping items
        // are not logged at all.
        assertEquals("settings.json\nNight.json\nchars/Pip.png\nchars/Pip/\nbg/meadow.png\ntemplates/Plain.json",
                read(dirs.contentLog()));
        assertEquals("<p>not here</p>", read(config.dataRoot().resolve("_errors/url-not-found.html")));
        assertEquals("pages/url-not-found.html", read(config.dataRoot().resolve("content.log")));
    }

    @Test
    void aBrokenIndexSeedsNothingAndWritesNoLog() throws IOException {
        Path folder = work.resolve("content");
        write(folder.resolve("index.json"), "[{\"filename\": \"settings.json\", \"type\": \"settings\"}");
        write(folder.resolve("settings.json"), "{}");
        UserDirs dirs = UserDirs.of(work.resolve("data"), "u");

        new ContentSeeder(work.resolve("data"), new DefaultContent(List.of(folder)),
                new FileDocumentStore(work.resolve("data")), new FileCardStore(work.resolve("data")),
                blobs(work.resolve("data"))).seedUser(dirs.handle(), Set.of());

        assertFalse(Files.exists(dirs.settingsFile()));
        assertFalse(Files.exists(dirs.contentLog()));
    }

    @Test
    void theSyspromptMarkerWaitsWhileAnInstructTemplateStillCarriesASystemPrompt() throws IOException {
        Path root = work.resolve("data");
        ContentSeeder seeder = new ContentSeeder(root, new DefaultContent(List.of(work.resolve("none"))),
                new FileDocumentStore(root), new FileCardStore(root), blobs(root));
        UserDirs old = UserDirs.of(root, "old");
        write(old.instruct().resolve("Mine.json"), "{\"name\":\"Mine\",\"system_prompt\":\"Be brief.\"}");
        UserDirs migrated = UserDirs.of(root, "migrated");
        write(migrated.instruct().resolve("Mine.json"), "{\"name\":\"Mine\",\"system_prompt\":\"Be brief.\"}");
        write(migrated.sysprompt().resolve("Mine.json"), "{\"name\":\"Mine\",\"content\":\"Be brief.\"}");

        seeder.seedUser(old.handle(), Set.of());
        seeder.seedUser(migrated.handle(), Set.of());

        assertFalse(Files.exists(old.sysprompt().resolve(".migrated")));
        assertEquals("", read(migrated.sysprompt().resolve(".migrated")));
    }

    // ---- helpers

    private record Snapshot(String sha, FileTime mtime) {
    }

    private static Map<String, Snapshot> snapshot(Path root) throws IOException {
        Map<String, Snapshot> result = new TreeMap<>();
        for (Map.Entry<String, byte[]> file : files(root).entrySet()) {
            Path path = root.resolve(file.getKey());
            result.put(file.getKey(), new Snapshot(java.util.HexFormat.of().formatHex(sha256(file.getValue())),
                    Files.getLastModifiedTime(path)));
        }
        return result;
    }

    private static Map<String, byte[]> files(Path root) throws IOException {
        Map<String, byte[]> result = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : (Iterable<Path>) walk::iterator) {
                if (Files.isRegularFile(path)) {
                    result.put(root.relativize(path).toString(), Files.readAllBytes(path));
                }
            }
        }
        return result;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> filenames(List<DefaultContent.Item> items, boolean global) {
        Set<String> globalTypes = Set.of("error_page", "stylesheet");
        return items.stream().filter(i -> globalTypes.contains(i.type()) == global).map(DefaultContent.Item::filename)
                .toList();
    }

    private static byte[] bundled(String name) throws IOException {
        return Files.readAllBytes(BUNDLED.resolve(name));
    }

    private static String read(Path path) throws IOException {
        return Files.readString(path, StandardCharsets.UTF_8);
    }

    private static void write(Path path, String text) throws IOException {
        Files.createDirectories(path.getParent());
        Files.writeString(path, text);
    }
}
