package tankard.tokenizer;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tankard.testing.TestServer;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenizerHttpTest {
    private static TestServer server;
    private static TestServer.Client client;

    @BeforeAll
    static void start() {
        server = TestServer.start();
        client = server.client();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static JsonObject post(String path, String body) {
        HttpResponse<Buffer> r = client.post(path, body);
        assertEquals(200, r.statusCode(), path);
        assertTrue(r.getHeader("Content-Type").startsWith("application/json"), path);
        return r.bodyAsJsonObject();
    }

    @Test
    void gpt2EncodesWithTheGpt2Vocabulary() {
        assertEquals(new JsonObject().put("ids", new JsonArray().add(15496).add(995)).put("count", 2)
                        .put("chunks", new JsonArray().add("Hello").add(" world")),
                post("/api/tokenizers/gpt2/encode", "{\"text\":\"Hello world\"}"));
        assertEquals(new JsonObject().put("text", "Hello world"),
                post("/api/tokenizers/gpt2/decode", "{\"ids\":[15496,995]}"));
    }

    @Test
    void biasTurnsEachEntrysTextIntoTheModelsTokenIds() {
        // gpt-4o's o200k: "Hello world" is 13225 2375; raw ids pass as they are, in a JavaScript object's key order
        assertEquals("{\"7\":-100,\"15\":-100,\"2375\":5,\"13225\":5}", client.post("/api/backends/chat-completions/bias?model=gpt-4o",
                "[{\"text\":\"Hello world\",\"value\":5},{\"text\":\" [15, 7] \",\"value\":-100},{\"text\":\"\",\"value\":9},"
                        + "{\"value\":9},{\"text\":12,\"value\":9},null]").bodyAsString());
        assertEquals("{\"9906\":2}", client.post("/api/backends/chat-completions/bias?model=gpt-4",
                "[{\"text\":\"Hello\",\"value\":1},{\"text\":\"Hello\",\"value\":2}]").bodyAsString(), "the last entry wins");
        assertEquals("{}", client.post("/api/backends/chat-completions/bias?model=claude-3-opus",
                "[{\"text\":\"Hello\",\"value\":1}]").bodyAsString(), "no bias for Claude");
        HttpResponse<Buffer> refused = client.post("/api/backends/chat-completions/bias?model=gpt-4o", "{\"text\":\"Hello\"}");
        assertEquals(400, refused.statusCode());
        assertTrue(refused.bodyAsJsonObject().getString("error").contains("array"));
    }

    @Test
    void openAiRoutesPickTheEncodingByModel() {
        assertEquals(new JsonArray().add(13225).add(2375),
                post("/api/tokenizers/openai/encode?model=gpt-4o-mini", "{\"text\":\"Hello world\"}").getJsonArray("ids"));
        assertEquals(new JsonArray().add(9906).add(1917),
                post("/api/tokenizers/openai/encode?model=gpt-4-turbo", "{\"text\":\"Hello world\"}").getJsonArray("ids"));
        assertEquals(new JsonObject().put("text", "Hello world"),
                post("/api/tokenizers/openai/decode?model=gpt-3.5-turbo", "{\"ids\":[9906,1917]}"));
        // A non-OpenAI model answers in its family's shape: decode has chunks (none without its file).
        assertEquals(new JsonObject().put("text", "").put("chunks", new JsonArray()),
                post("/api/tokenizers/openai/decode?model=llama-2-70b", "{\"ids\":[9906,1917]}"));
    }

    @Test
    void withoutVocabularyFilesIdsAreWithheldAndCountsEstimated() {
        List<String> ids = Stream.of(Tokenizers.SENTENCEPIECE, Tokenizers.HUGGINGFACE).flatMap(List::stream).toList();
        for (String id : ids) {
            // Stand-in ids would reach the backend as logit biases on the wrong tokens: none, as ST when a
            // model fails to load; the count is cl100k_base's ("Hello" + " world").
            assertEquals(new JsonObject().put("ids", new JsonArray()).put("count", 2),
                    post("/api/tokenizers/" + id + "/encode", "{\"text\":\"Hello world\"}"), id);
            assertEquals(new JsonObject().put("text", "").put("chunks", new JsonArray()),
                    post("/api/tokenizers/" + id + "/decode", "{\"ids\":[9906,1917]}"), id);
        }
        assertEquals(new JsonObject().put("ids", new JsonArray()).put("count", 0),
                post("/api/tokenizers/llama/encode", "{}"));
        JsonObject gpt2 = post("/api/tokenizers/gpt2/encode", "{\"text\":\"Ünïcödé 🍺 text\"}");
        assertEquals(new JsonObject().put("text", "Ünïcödé 🍺 text"), post("/api/tokenizers/gpt2/decode",
                new JsonObject().put("ids", gpt2.getJsonArray("ids")).encode()));
    }

    @Test
    void failuresStillAnswer200WithTheEmptyShape() {
        JsonObject empty = new JsonObject().put("ids", new JsonArray()).put("count", 0).put("chunks", new JsonArray());
        assertEquals(empty, post("/api/tokenizers/mistral/encode", "{\"text\":"));
        assertEquals(new JsonObject().put("text", ""), post("/api/tokenizers/gpt2/decode", "{\"ids\":[\"x\"]}"));
        assertEquals(new JsonObject().put("text", ""), post("/api/tokenizers/gpt2/decode", "{\"ids\":[999999999]}"));
        assertEquals(new JsonObject().put("text", "").put("chunks", new JsonArray()),
                post("/api/tokenizers/claude/decode", "{\"ids\":{}}"));
    }

    @Test
    void countUsesOpenAisMessageRule() {
        // 3 per message + "user" (1) + "Hello world" (2) + 3 for the reply priming.
        assertEquals(9, post("/api/tokenizers/openai/count?model=gpt-3.5-turbo",
                "[{\"role\":\"user\",\"content\":\"Hello world\"}]").getInteger("token_count"));
        // A name costs one more token on top of its own.
        assertEquals(11, post("/api/tokenizers/openai/count?model=gpt-4",
                "[{\"role\":\"user\",\"content\":\"Hello world\",\"name\":\"Bob\"}]").getInteger("token_count"));
        assertEquals(6, post("/api/tokenizers/openai/count?model=gpt-4o", "[]").getInteger("token_count") + 3);
    }

    @Test
    void countForOtherFamiliesAndBadBodies() {
        int claude = post("/api/tokenizers/openai/count?model=claude-3-opus",
                "[{\"role\":\"user\",\"content\":\"Hi\"}]").getInteger("token_count");
        assertEquals(post("/api/tokenizers/claude/encode", "{\"text\":\"\\n\\nHuman: Hi\"}").getInteger("count"), claude);
        int mistral = post("/api/tokenizers/openai/count?model=mistral-large",
                "[{\"role\":\"user\",\"content\":\"Hi\"}]").getInteger("token_count");
        assertEquals(post("/api/tokenizers/mistral/encode", "{\"text\":\"user\\n\\nHi\"}").getInteger("count"), mistral);
        // Not an array: ST's estimate of ceil(7 bytes / 3.35).
        assertEquals(3, post("/api/tokenizers/openai/count?model=gpt-4", "{\"a\":1}").getInteger("token_count"));
        // Malformed JSON: estimated from the raw 5 bytes.
        assertEquals(2, post("/api/tokenizers/openai/count?model=gpt-4", "{\"a\":").getInteger("token_count"));
    }

    @Test
    void claudePromptRendering() {
        JsonArray messages = new JsonArray()
                .add(new JsonObject().put("role", "system").put("content", "Rules"))
                .add(new JsonObject().put("role", "system").put("name", "example_user").put("content", "Q"))
                .add(new JsonObject().put("role", "user").put("name", "Ann").put("content", "Hi"))
                .add(new JsonObject().put("role", "assistant").put("content", "Hello"));
        assertEquals("\n\nHuman: Rules\n\nH: Q\n\nFirst message: Ann: Hi\n\nAssistant: Hello",
                ChatTokenCounter.claudePrompt(tankard.json.JsJson.parse(messages.encode())));
    }
}
