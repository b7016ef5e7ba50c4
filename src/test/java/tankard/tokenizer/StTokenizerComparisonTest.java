package tankard.tokenizer;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.testing.StServer;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Tankard's answers with ST's own vocabulary files against real ST's, for every vocabulary the install has.
 * Local only: {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StTokenizerComparisonTest}
 * (needs node). Tankard reads the files from the install given as {@code --frontend}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StTokenizerComparisonTest {
    private static final List<String> TEXTS = List.of("Hello world", "  leading spaces\n\nnew lines\ttabs  ",
            "日本語のテキスト", "emoji 🍺🎉 mixed", "<s> special </s> <|endoftext|> <EOT>", "Ünïcödé café — “quotes”",
            "a".repeat(40) + " " + "ab".repeat(20), "");

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    @Test
    void encodeAndDecodeAnswerAsSt() throws IOException {
        List<String> vocabularies = new ArrayList<>();
        for (String id : Tokenizers.SENTENCEPIECE) {
            if (Files.exists(stDir.resolve("src/tokenizers/" + id + ".model"))) {
                vocabularies.add(id);
            }
        }
        for (String id : List.of("claude", "llama3")) {
            if (Files.exists(stDir.resolve("src/tokenizers/" + id + ".json"))) {
                vocabularies.add(id);
            }
        }
        assertFalse(vocabularies.isEmpty(), "the install has no tokenizer files");
        try (TestServer tankard = TestServer.start(null, "--frontend", stDir.resolve("public").toString());
             StServer st = StServer.start(stDir, tankard.vertx)) {
            TestServer.Client client = tankard.client();
            for (String id : vocabularies) {
                for (String text : TEXTS) {
                    String body = new JsonObject().put("text", text).encode();
                    String path = "/api/tokenizers/" + id + "/encode";
                    JsonObject expected = st.post(path, body).bodyAsJsonObject();
                    assertEquals(expected, client.post(path, body).bodyAsJsonObject(), id + " " + text);
                    String idsBody = new JsonObject().put("ids", expected.getJsonArray("ids").copy().add(0).add(1).add(2)
                            .add(999999)).encode();
                    String decode = "/api/tokenizers/" + id + "/decode";
                    assertEquals(st.post(decode, idsBody).bodyAsJsonObject(), client.post(decode, idsBody).bodyAsJsonObject(),
                            id + " decode " + text);
                }
            }
        }
    }
}
