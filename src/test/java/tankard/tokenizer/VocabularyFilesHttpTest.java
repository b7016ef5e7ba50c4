package tankard.tokenizer;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Real Hugging Face and SentencePiece vocabularies, from files the user puts in the data root. */
class VocabularyFilesHttpTest extends ServerTest {
    private static final JsonArray HELLO_WORLD_BPE = new JsonArray().add(260).add(262).add(115).add(109).add(101);

    private JsonObject post(String path, String body) {
        var response = client.post(path, body);
        assertEquals(200, response.statusCode(), path);
        return response.bodyAsJsonObject();
    }

    private Path tokenizers(String name, byte[] content) throws IOException {
        Path file = server.dataRoot.resolve(name);
        Files.createDirectories(file.getParent());
        return Files.write(file, content);
    }

    private static byte[] bpe() {
        return TinyVocabularies.byteLevelBpeJson().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void huggingFaceJsonGivesTheModelsIdsAndStsChunks() throws IOException {
        start(null);
        assertEquals(new JsonObject().put("ids", new JsonArray()).put("count", 2),
                post("/api/tokenizers/claude/encode", "{\"text\":\"hello world\"}"), "no file yet: an estimate");

        tokenizers("_tokenizers/claude.json", bpe());
        assertEquals(new JsonObject().put("ids", HELLO_WORLD_BPE).put("count", 5)
                        .put("chunks", new JsonArray().add("hello").add(" wo").add("r").add("l").add("d")),
                post("/api/tokenizers/claude/encode", "{\"text\":\"hello world\"}"));

        // A character cut across byte tokens: ST's chunking waits until a run no longer decodes to a lone U+FFFD.
        JsonObject beer = post("/api/tokenizers/claude/encode", "{\"text\":\"🍺\"}");
        assertEquals(new JsonArray().add(0xF0 + 1).add(0x9F + 1).add(0x8D + 1).add(0xBA + 1), beer.getJsonArray("ids"));
        assertEquals(new JsonArray().add("🍺"), beer.getJsonArray("chunks"));

        // Decoding keeps special tokens; unknown ids decode to nothing, as in ST.
        assertEquals(new JsonObject().put("text", "hello world<eos>")
                        .put("chunks", new JsonArray().add("hello").add(" wo").add("r").add("l").add("d").add("<eos>").add("")),
                post("/api/tokenizers/claude/decode", "{\"ids\":[260,262,115,109,101,0,99999]}"));
        // The model name routes reach the same vocabulary.
        assertEquals(HELLO_WORLD_BPE, post("/api/tokenizers/openai/encode?model=claude-3-5-sonnet",
                "{\"text\":\"hello world\"}").getJsonArray("ids"));
        // Chat counting renders ST's Human/Assistant prompt and counts it with the model's vocabulary.
        int expected = post("/api/tokenizers/claude/encode", "{\"text\":\"\\n\\nHuman: hello world\"}").getInteger("count");
        assertEquals(expected, post("/api/tokenizers/openai/count?model=claude-3-opus",
                "[{\"role\":\"user\",\"content\":\"hello world\"}]").getInteger("token_count"));
    }

    @Test
    void downloadedVocabulariesAreReadFromStsCacheGzippedOrFallBackToLlama3() throws IOException {
        start(null);
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(bpe());
        }
        tokenizers("_cache/qwen2.json.gz", gz.toByteArray());
        assertEquals(HELLO_WORLD_BPE, post("/api/tokenizers/qwen2/encode", "{\"text\":\"hello world\"}").getJsonArray("ids"));

        // ST uses Llama 3's vocabulary for Nemo when it could not download Nemo's.
        assertEquals(new JsonArray(), post("/api/tokenizers/nemo/encode", "{\"text\":\"hello world\"}").getJsonArray("ids"));
        tokenizers("_tokenizers/llama3.json", bpe());
        assertEquals(HELLO_WORLD_BPE, post("/api/tokenizers/nemo/encode", "{\"text\":\"hello world\"}").getJsonArray("ids"));
        // Claude's vocabulary is never replaced by Llama 3's.
        assertEquals(new JsonArray(), post("/api/tokenizers/claude/encode", "{\"text\":\"hello world\"}").getJsonArray("ids"));
    }

    @Test
    void sentencePieceModelGivesIdsPiecesAndIdByIdDecoding() throws IOException {
        start(null);
        tokenizers("_tokenizers/mistral.model", TinyVocabularies.unigramModel());
        assertEquals(new JsonObject().put("ids", new JsonArray().add(3).add(4)).put("count", 2)
                        .put("chunks", new JsonArray().add("▁hello").add("▁world")),
                post("/api/tokenizers/mistral/encode", "{\"text\":\"hello world\"}"));
        assertEquals(new JsonArray().add(13).add(14),
                post("/api/tokenizers/openai/encode?model=mistral-large", "{\"text\":\"hell\"}").getJsonArray("ids"));
        // Encode chunks are the pieces as cut, so an unknown character shows as itself, not as <unk>.
        assertEquals(new JsonObject().put("ids", new JsonArray().add(5).add(0)).put("count", 2)
                        .put("chunks", new JsonArray().add("▁").add("z")),
                post("/api/tokenizers/mistral/encode", "{\"text\":\"z\"}"));
        // ST decodes id by id and joins: word-initial spaces go, control ids are empty, unknown and
        // out-of-range ids are " ⁇ " and "".
        assertEquals(new JsonObject().put("text", "helloworld ⁇ ")
                        .put("chunks", new JsonArray().add("hello").add("world").add("").add(" ⁇ ").add("")),
                post("/api/tokenizers/mistral/decode", "{\"ids\":[3,4,1,0,4242]}"));
        // A piece outside the Basic Multilingual Plane survives decoding (JNI's modified UTF-8 would mangle it).
        assertEquals(new JsonObject().put("ids", new JsonArray().add(15)).put("count", 1)
                .put("chunks", new JsonArray().add("▁🍺")), post("/api/tokenizers/mistral/encode", "{\"text\":\"🍺\"}"));
        assertEquals(new JsonObject().put("text", "🍺hello").put("chunks", new JsonArray().add("🍺").add("hello")),
                post("/api/tokenizers/mistral/decode", "{\"ids\":[15,3]}"));
        // Counting chat messages joins every value with blank lines, as ST.
        assertEquals(post("/api/tokenizers/mistral/encode", "{\"text\":\"user\\n\\nhello world\"}").getInteger("count"),
                post("/api/tokenizers/openai/count?model=mistral-small",
                        "[{\"role\":\"user\",\"content\":\"hello world\"}]").getInteger("token_count"));
    }

    @Test
    void anUnreadableFileFallsBackToTheEstimate() throws IOException {
        start(null);
        tokenizers("_tokenizers/yi.model", "not a model".getBytes(StandardCharsets.UTF_8));
        tokenizers("_tokenizers/llama3.json", "{\"not\":\"a tokenizer\"}".getBytes(StandardCharsets.UTF_8));
        JsonObject estimate = new JsonObject().put("ids", new JsonArray()).put("count", 2);
        assertEquals(estimate, post("/api/tokenizers/yi/encode", "{\"text\":\"hello world\"}"));
        assertEquals(estimate, post("/api/tokenizers/llama3/encode", "{\"text\":\"hello world\"}"));
        // A broken file is not parsed again on every request, but a replaced one is loaded.
        Path yi = tokenizers("_tokenizers/yi.model", TinyVocabularies.unigramModel());
        Files.setLastModifiedTime(yi, FileTime.fromMillis(Files.getLastModifiedTime(yi).toMillis() + 2000));
        assertEquals(new JsonArray().add(3).add(4),
                post("/api/tokenizers/yi/encode", "{\"text\":\"hello world\"}").getJsonArray("ids"));
    }
}
