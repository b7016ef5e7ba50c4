package tankard.summarize.onnx;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.StreamSupport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real ONNX Runtime pipeline on the tiny BART export that {@code make-tiny-bart.py} builds: every output must
 * be the token ids the script's numpy reference (a plain cache-free network and Transformers' generation rules)
 * computed, with the key/value cache and without it.
 */
class BartModelTest {
    static final Path TINY = Path.of("src/test/resources/summarize/tiny-bart");
    private static final Path EXPECTED = Path.of("src/test/resources/summarize/tiny-bart-expected.json");
    private static Path work;
    private static BartModel cached;
    private static BartModel uncached;
    private static JsonNode expected;

    @BeforeAll
    static void load() throws Exception {
        work = TestServer.tempDir();
        Path noPast = work.resolve("no-past");
        Files.createDirectories(noPast.resolve("onnx"));
        try (var files = Files.list(TINY)) {
            for (Path file : files.filter(f -> !f.getFileName().toString().equals("decoder_with_past_model.onnx")).toList()) {
                // the .onnx files under onnx/, as the Xenova repositories lay them out
                Path into = file.toString().endsWith(".onnx") ? noPast.resolve("onnx") : noPast;
                Files.copy(file, into.resolve(file.getFileName()));
            }
        }
        cached = BartModel.load(TINY);
        uncached = BartModel.load(noPast);
        expected = JsJson.parse(Files.readString(EXPECTED));
    }

    @AfterAll
    static void close() throws Exception {
        cached.close();
        uncached.close();
        TestServer.deleteTree(work);
    }

    private static List<JsonNode> cases(String name) {
        List<JsonNode> found = StreamSupport.stream(expected.get("cases").spliterator(), false)
                .filter(c -> c.get("name").asText().equals(name)).toList();
        assertFalse(found.isEmpty(), name);
        return found;
    }

    /** The case's settings: the tiny model's generation config with the case's overrides and bad words. */
    private static GenerationSettings settings(BartModel model, JsonNode testCase) throws IOException {
        ObjectNode generation = (ObjectNode) JsJson.parse(Files.readString(TINY.resolve("generation_config.json")));
        generation.setAll((ObjectNode) testCase.get("overrides"));
        GenerationSettings settings = GenerationSettings.read(JsJson.parse(Files.readString(TINY.resolve("config.json"))),
                generation);
        JsonNode words = testCase.get("badWords");
        if (words.isNull()) {
            return settings.withBadWords(model.settings().badWordsIds());
        }
        List<int[]> ids = new ArrayList<>();
        words.forEach(word -> {
            int[] encoded = Arrays.copyOfRange(model.encode(word.asText()), 1, model.encode(word.asText()).length - 1);
            ids.add(encoded);
        });
        return settings.withBadWords(ids);
    }

    private static int[] ids(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).mapToInt(JsonNode::asInt).toArray();
    }

    private static int[] run(String name) throws Exception {
        JsonNode testCase = cases(name).get(0);
        int[] want = ids(testCase.get("ids"));
        for (BartModel model : List.of(cached, uncached)) {
            int[] got = model.generate(model.encode(testCase.get("text").asText()), settings(model, testCase));
            assertArrayEquals(want, got, name + (model.cached() ? " with past" : " without past"));
        }
        return want;
    }

    @Test
    void findsTheDecoderWithPastWhenTheExportHasIt() {
        assertTrue(cached.cached());
        assertFalse(uncached.cached());
    }

    @Test
    void anExportWithOnlyAMergedDecoderIsRefusedWithTheWayToExportOne() throws IOException {
        Path merged = work.resolve("merged");
        Files.createDirectories(merged);
        try (var files = Files.list(TINY)) {
            for (Path file : files.filter(f -> !f.getFileName().toString().startsWith("decoder")).toList()) {
                Files.copy(file, merged.resolve(file.getFileName()));
            }
        }
        Files.copy(TINY.resolve("decoder_model.onnx"), merged.resolve("decoder_model_merged.onnx"));
        IOException refused = assertThrows(IOException.class, () -> BartModel.load(merged));
        assertTrue(refused.getMessage().endsWith("has no decoder_model.onnx (nor onnx/decoder_model.onnx): it has only a"
                + " merged decoder, which Tankard does not load (export with Optimum's --no-post-process, see the README)"),
                refused.getMessage());
    }

    @Test
    void readsTheModelsGenerationSettings() {
        GenerationSettings settings = cached.settings();
        assertEquals(3, settings.numBeams());
        assertEquals(4, settings.minLength());
        assertEquals(20, settings.maxLength());
        assertEquals(2.0, settings.lengthPenalty());
        assertEquals("true", settings.earlyStopping());
        assertEquals(0, settings.forcedBosTokenId());
        assertEquals(2, settings.forcedEosTokenId());
        assertEquals(2, settings.decoderStartTokenId());
        // Extras' words but the newline, which this vocabulary drops; the ones it lacks are its unknown token
        assertEquals(12, settings.badWordsIds().size());
    }

    @Test
    void countsTokensWithoutSpecialTokensAndReportsTheWindowWithoutThem() {
        assertEquals(13, cached.countTokens("the cat sat on the mat and the dog ran to the park"));
        assertEquals(0, cached.countTokens(""));
        assertEquals(62, cached.inputWindow());
        assertArrayEquals(new int[]{0, 4, 6, 2}, cached.encode("the cat"));
        // a text over the window is cut to it, special tokens kept (a safety net: callers split long texts)
        int[] cut = cached.encode("cat ".repeat(100));
        assertEquals(64, cut.length);
        assertEquals(0, cut[0]);
        assertEquals(2, cut[63]);
    }

    @Test
    void greedyMatchesTheReference() throws Exception {
        run("greedy");
    }

    @Test
    void noRepeatNgramKeepsBigramsUnique() throws Exception {
        int[] plain = run("greedy");
        int[] unique = run("greedy no_repeat_ngram_size 2");
        assertTrue(hasRepeatedBigram(plain));
        assertFalse(hasRepeatedBigram(unique));
    }

    @Test
    void badWordsAreNeverProduced() throws Exception {
        int[] plain = run("greedy");
        int[] banned = run("greedy bad words");
        int star = cached.encode("*")[1];
        int colon = cached.encode(":")[1];
        assertTrue(contains(plain, star) || contains(plain, colon));
        assertFalse(contains(banned, star) || contains(banned, colon));
    }

    @Test
    void minLengthHoldsEosBackAndMaxLengthForcesIt() throws Exception {
        assertTrue(run("greedy short").length < 9);
        assertTrue(run("greedy min_length 10").length >= 9);
        // max_length 6 counts the start token and the forced EOS: four tokens of text
        assertEquals(4, run("greedy forced eos max_length 6").length);
    }

    @Test
    void beamSearchMatchesTheReferenceForEachEarlyStoppingRule() throws Exception {
        run("beam 3");
        run("beam 4 early_stopping false");
        run("beam 2 early_stopping never");
    }

    @Test
    void summariesUseTheModelsSettingsAndExtrasCleanUp() throws Exception {
        for (JsonNode testCase : cases("default")) {
            for (BartModel model : List.of(cached, uncached)) {
                assertEquals(testCase.get("summary").asText(), model.summarize(testCase.get("text").asText()));
            }
        }
    }

    @Test
    void aFolderWithoutTheModelFilesIsRefusedClearly() throws Exception {
        Path empty = Files.createDirectories(work.resolve("empty"));
        Files.copy(TINY.resolve("config.json"), empty.resolve("config.json"));
        Files.copy(TINY.resolve("tokenizer.json"), empty.resolve("tokenizer.json"));
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> BartModel.load(empty));
        assertNotNull(e.getMessage());
        assertTrue(e.getMessage().contains("encoder_model.onnx"), e.getMessage());
    }

    private static boolean hasRepeatedBigram(int[] ids) {
        for (int i = 0; i + 1 < ids.length; i++) {
            for (int j = i + 1; j + 1 < ids.length; j++) {
                if (ids[i] == ids[j] && ids[i + 1] == ids[j + 1]) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean contains(int[] ids, int id) {
        return Arrays.stream(ids).anyMatch(i -> i == id);
    }
}
