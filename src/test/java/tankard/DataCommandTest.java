package tankard;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.testing.DataTrees;
import tankard.testing.PgScratch;
import tankard.testing.TestServer;
import tankard.util.Hashes;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.sql.ResultSet;
import java.sql.Connection;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** bin/tankard import-data and export-data: files → database → files gives the same tree. */
class DataCommandTest {
    private final PgScratch database = PgScratch.create();
    private final Path work = TestServer.tempDir();
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    @AfterEach
    void cleanUp() {
        database.close();
        TestServer.deleteTree(work);
    }

    private int run(String command, String... args) {
        Map<String, String> env = new HashMap<>(database.environment());
        String[] all = Stream.concat(Stream.of(args), Stream.of("--dataRoot", "server-data")).toArray(String[]::new);
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        return DataCommand.run(command.equals("import-data"), all, env, work, out, out);
    }

    private String printed() {
        return printed.toString(StandardCharsets.UTF_8);
    }

    /**
     * An ST data root: a compat-tests fixture, with the default user's avatar, a hand-edited group, a file that is no
     * group in the groups folder, odd bytes and a nested folder added.
     */
    private Path stDataRoot(String fixture) throws IOException {
        Path root = work.resolve(fixture);
        Path from = Path.of("compat-tests/data", fixture);
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path to = root.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(file, to);
                }
            }
        }
        Path accounts = root.resolve("_storage");
        if (Files.exists(accounts.resolve(Hashes.sha256Hex("user:default-user")))) {
            Files.writeString(accounts.resolve(Hashes.sha256Hex("avatar:default-user")),
                    "{\"key\":\"avatar:default-user\",\"value\":\"data:image/png;base64,QUJD\"}");
        }
        Path groups = Files.createDirectories(root.resolve("default-user/groups"));
        Files.writeString(groups.resolve("hand-edited.json"), "{ \"id\" : \"hand\",\r\n\"chats\":[] }");
        Files.writeString(groups.resolve("notes.txt"), "not a group, so a plain file");
        Path odd = root.resolve("default-user/user/files/notes \u00e9t\u00e9/odd.bin");
        Files.createDirectories(odd.getParent());
        Files.write(odd, new byte[]{0, (byte) 0xff, '\r', '\n', (byte) 0xc3});
        Files.setLastModifiedTime(odd, FileTime.fromMillis(1_600_000_000_123L));
        vectorIndexes(root.resolve("default-user/vectors"));
        return root;
    }

    /**
     * Vector indexes: one as ST writes it (compact, JavaScript's numbers, doubles), a pretty-printed one without a
     * model scope, an empty one, one that is not an index and the copy of another that the file store set aside.
     */
    private static void vectorIndexes(Path vectors) throws IOException {
        write(vectors.resolve("webllm/chat-1/test-model/index.json"), "{\"version\":1,\"metadata_config\":{},\"items\":["
                + "{\"id\":\"3f2a1b0c-9d8e-4f7a-b6c5-d4e3f2a1b0c9\",\"metadata\":{\"hash\":1923844221,\"text\":\"Hello"
                + " \\\"there\\\" \u00e9\",\"index\":0},\"vector\":[0.012345678901234568,-0.98,1e-7,0],\"norm\":0.9800778"
                + "056078394},{\"id\":\"7e6d5c4b-3a29-4180-97f6-e5d4c3b2a190\",\"metadata\":{\"hash\":-5,\"text\":\"x\","
                + "\"index\":1},\"vector\":[0.5,0.5,0.5,0.5],\"norm\":1}]}", 1_650_000_000_456L);
        write(vectors.resolve("transformers/file_1/index.json"), "{\n  \"version\": 1,\n  \"metadata_config\": {},\n"
                + "  \"items\": [\n    {\n      \"id\": \"a\",\n      \"metadata\": {\"hash\": 7, \"text\": \"seven\"},\n"
                + "      \"vector\": [0.25, 0.75],\n      \"norm\": 0.7905694150420949\n    }\n  ]\n}\n", 1_650_000_001_000L);
        write(vectors.resolve("openai/empty/text-embedding-3-small/index.json"),
                "{\"version\":1,\"metadata_config\":{},\"items\":[]}", 1_650_000_002_000L);
        write(vectors.resolve("webllm/broken/test-model/index.json"), "{\"version\":1,\"items\":[{\"id\":\"a\",\"vec",
                1_650_000_003_000L);
        write(vectors.resolve("webllm/broken/test-model/index.json.unreadable-1650000000000"), "{\"items\":[", 1_650_000_004_000L);
    }

    private static void write(Path file, String content, long modifiedMs) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        Files.setLastModifiedTime(file, FileTime.fromMillis(modifiedMs));
    }

    @Test
    void everyFixtureComesBackByteForByteThroughTheDatabase() throws Exception {
        for (String fixture : new String[]{"basic", "chatbackups", "chatops"}) {
            try (PgScratch fresh = PgScratch.create()) {
                Path source = stDataRoot(fixture);
                Map<String, String> env = new HashMap<>(fresh.environment());
                PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
                String[] server = {"--dataRoot", "server-" + fixture};
                assertEquals(0, DataCommand.run(true, concat(new String[]{"--from", fixture}, server), env, work, out, out),
                        printed());
                assertEquals(0, DataCommand.run(false, concat(new String[]{"--to", fixture + "-out"}, server), env, work,
                        out, out), printed());
                assertEquals(DataTrees.tree(source), DataTrees.tree(work.resolve(fixture + "-out")), fixture);
                try (Connection c = fresh.connect(); Statement s = c.createStatement(); ResultSet analyzed = s.executeQuery(
                        "SELECT last_analyze IS NOT NULL AND last_vacuum IS NOT NULL FROM pg_stat_user_tables WHERE relname = 'chat_lines'")) {
                    assertTrue(analyzed.next() && analyzed.getBoolean(1), "the import leaves the planner statistics and a visibility map");
                }
                Path serverRoot = work.resolve("server-" + fixture);
                assertFalse(Files.exists(serverRoot.resolve("_storage")),
                        "the accounts went into the database, not the server's data root");
                Path user = serverRoot.resolve("default-user");
                try (Stream<Path> files = Files.walk(user)) {
                    assertEquals(List.of(), files.filter(Files::isRegularFile).map(file -> user.relativize(file).toString())
                            .filter(path -> !path.startsWith("vectors/") && !path.startsWith("extensions/")
                                    && !path.startsWith("thumbnails/")).toList(),
                            "the documents, chats, groups, cards, images and other files went into the database");
                }
                try (Stream<Path> files = Files.walk(user.resolve("vectors"))) {
                    assertEquals(List.of("webllm/broken/test-model/index.json.unreadable-1650000000000"), files
                            .filter(Files::isRegularFile).map(file -> user.resolve("vectors").relativize(file).toString())
                            .toList(), "the vector indexes went into the database, a file set aside stayed a file");
                }
            }
        }
    }

    private static String[] concat(String[] a, String[] b) {
        return Stream.concat(Stream.of(a), Stream.of(b)).toArray(String[]::new);
    }

    @Test
    void aDatabaseThatHoldsDataOrAFolderThatIsNotEmptyIsRefusedUnlessForced() throws Exception {
        stDataRoot("basic");
        assertEquals(0, run("import-data", "--from", "basic"), printed());
        Files.createDirectories(work.resolve("other/default-user"));
        assertEquals(2, run("import-data", "--from", "other"), printed());
        assertTrue(printed().contains("holds accounts already (default-user); --force"), printed());
        assertEquals(0, run("import-data", "--from", "other", "--force"), printed());

        Files.createDirectories(work.resolve("full"));
        Files.writeString(work.resolve("full/mine.txt"), "mine");
        assertEquals(2, run("export-data", "--to", "full"), printed());
        assertTrue(printed().contains("is not empty; --force"), printed());
        assertEquals(0, run("export-data", "--to", "full", "--force"), printed());
        assertEquals("mine", Files.readString(work.resolve("full/mine.txt")));
        assertTrue(Files.isDirectory(work.resolve("full/default-user")));
    }

    @Test
    void aRunCutShortIsFinishedByRunningItAgain() throws Exception {
        Path source = stDataRoot("chatops");
        assertEquals(0, run("import-data", "--from", "chatops"), printed());
        // as if it had stopped halfway: its mark unfinished, part of the files missing
        database.execute("UPDATE data_imports SET finished_ms = NULL");
        TestServer.deleteTree(work.resolve("server-data/default-user/chats"));
        assertEquals(0, run("import-data", "--from", "chatops"), printed());
        assertTrue(printed().contains("Finishing the import of " + source), printed());

        Path out = work.resolve("out");
        Files.createDirectories(out);
        Files.writeString(out.resolve(DataCommand.EXPORT_MARKER), "");
        Files.writeString(out.resolve("half.jsonl.tankard-0000000001"), "a temp file a cut left");
        assertEquals(0, run("export-data", "--to", "out"), printed());
        assertTrue(printed().contains("Finishing the export of"), printed());
        assertFalse(Files.exists(out.resolve(DataCommand.EXPORT_MARKER)));
        Files.delete(out.resolve("half.jsonl.tankard-0000000001"));
        assertEquals(DataTrees.tree(source), DataTrees.tree(out));
    }

    @Test
    void withoutADatabaseOrASourceTheCommandSaysWhatIsMissing() {
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        assertEquals(2, DataCommand.run(true, new String[]{"--from", "nowhere"}, Map.of(), work, out, out));
        assertTrue(printed().contains("set tankard.storage to postgres"), printed());
        assertEquals(2, run("import-data", "--from", "nowhere"));
        assertTrue(printed().contains("--from: no such folder"), printed());
        assertEquals(2, run("export-data"));
        assertTrue(printed().contains("--to DIR is needed"), printed());
        assertEquals(2, run("import-data", "--from", "x", "--frobnicate"));
        assertTrue(printed().contains("Unknown option --frobnicate"), printed());
    }
}
