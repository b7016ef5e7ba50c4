package tankard.vector.local;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tankard.testing.TestServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The embedded all-MiniLM-L6-v2 on ONNX Runtime: what it ranks, its vectors, batches and truncation. */
class LocalEmbeddingModelTest {
    private static final Path WORK = TestServer.tempDir();
    private static LocalEmbeddingModel model;

    @BeforeAll
    static void load() throws Exception {
        model = LocalEmbeddingModel.load(EmbeddedModel.extract(WORK));
    }

    @AfterAll
    static void free() throws Exception {
        model.close();
        TestServer.deleteTree(WORK);
    }

    static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += (double) a[i] * b[i];
        }
        return sum;
    }

    @Test
    void ranksSentencesByMeaning() throws Exception {
        List<String[]> cases = List.of(
                new String[]{"The cat sat on the mat", "A kitten is resting on a rug", "Stock markets fell sharply today"},
                new String[]{"How do I bake bread at home?", "A simple recipe for homemade loaves",
                        "The spacecraft entered orbit around Mars"},
                new String[]{"The striker scored twice in the final", "The football team won the cup match",
                        "Interest rates were raised by the central bank"});
        for (String[] texts : cases) {
            List<float[]> v = model.embed(List.of(texts));
            double near = dot(v.get(0), v.get(1));
            double far = dot(v.get(0), v.get(2));
            assertTrue(near > far + 0.2, texts[0] + ": " + near + " vs " + far);
        }
    }

    @Test
    void vectorsAre384LongAndOfUnitLength() throws Exception {
        for (float[] vector : model.embed(List.of("Hello, world.", "", "x".repeat(3000)))) {
            assertEquals(384, vector.length);
            assertEquals(1.0, Math.sqrt(dot(vector, vector)), 1e-5);
        }
    }

    @Test
    void aBatchGivesTheVectorsOfOneAtATime() throws Exception {
        List<String> texts = new ArrayList<>(EmbeddingBenchmark.chunks(40));
        texts.add("Short.");
        texts.add("A sentence of middling length, about a dozen words or so.");
        List<float[]> batched = model.embed(texts);
        for (int i = 0; i < texts.size(); i++) {
            float[] alone = model.embed(List.of(texts.get(i))).get(0);
            for (int h = 0; h < alone.length; h++) {
                assertEquals(alone[h], batched.get(i)[h], 1e-4, "text " + i + ", dimension " + h);
            }
        }
    }

    @Test
    void longTextsAreCutAtTheModelsPositions() throws Exception {
        assertEquals(512, model.maxLength());
        String words = "word ".repeat(600);
        float[] cut = model.embed(List.of(words)).get(0);
        float[] longer = model.embed(List.of(words + "entirely different ending about volcanoes")).get(0);
        assertEquals(1.0, dot(cut, longer), 1e-5, "what lies beyond 512 tokens is not read");
    }

    @Test
    void theEmbeddedFilesAreCopiedOnce() throws Exception {
        Path graph = WORK.resolve(EmbeddedModel.FOLDER).resolve("onnx/model_quantized.onnx");
        Files.setLastModifiedTime(graph, FileTime.fromMillis(1_000_000));
        EmbeddedModel.extract(WORK);
        assertEquals(1_000_000, Files.getLastModifiedTime(graph).toMillis());
        try (var files = Files.walk(WORK)) {
            assertEquals(List.of("model_quantized.onnx", "tokenizer.json"), files.filter(Files::isRegularFile)
                    .map(f -> f.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void maxLengthIsTheTokenizersWithinThePositions() {
        assertEquals(512, LocalEmbeddingModel.maxLength(json("{}"), json("{}")));
        assertEquals(8192, LocalEmbeddingModel.maxLength(json("{\"max_position_embeddings\":8192}"),
                json("{\"model_max_length\":1e30}")));
        assertEquals(512, LocalEmbeddingModel.maxLength(json("{\"max_position_embeddings\":514}"),
                json("{\"model_max_length\":512}")));
        assertEquals(256, LocalEmbeddingModel.maxLength(json("{\"max_position_embeddings\":256}"),
                json("{\"model_max_length\":512}")));
    }

    private static com.fasterxml.jackson.databind.JsonNode json(String text) {
        return tankard.json.JsJson.parse(text);
    }
}
