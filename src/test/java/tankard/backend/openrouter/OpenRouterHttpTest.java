package tankard.backend.openrouter;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OpenRouterHttpTest extends PublicHostsMockTest {
    private static final String BASE = "/api/openrouter";
    private static final String MODELS = OPENROUTER_API + "/models";

    /** OpenRouter's /models: unsorted, of every modality, one without its architecture. */
    private static final String CATALOGUE = "{\"data\":["
            + model("openai/gpt-4o", "OpenAI: GPT-4o", "[\"text\",\"image\",\"file\"]", "[\"text\"]")
            + "," + model("google/gemini-2.5-flash-image", "Google: Nano Banana", "[\"image\",\"text\"]", "[\"image\",\"text\"]")
            + "," + model("anthropic/claude-3.5-haiku", "Anthropic: Claude 3.5 Haiku", "[\"text\"]", "[\"text\"]")
            + "," + model("openai/text-embedding-3-small", "OpenAI: Text Embedding 3 Small", "[\"text\"]", "[\"embeddings\"]")
            + "," + model("black-forest-labs/flux", "", "[\"text\"]", "[\"image\"]")
            + "," + model("Voyage/voyage-3", "Voyage: 3", "[\"text\"]", "[\"embeddings\"]")
            + ",{\"id\":\"no/architecture\",\"name\":\"None\"}"
            + "]}";

    private static String model(String id, String name, String input, String output) {
        return "{\"id\":\"" + id + "\",\"canonical_slug\":\"" + id + "\",\"name\":\"" + name + "\",\"context_length\":128000,"
                + "\"architecture\":{\"modality\":\"text->text\",\"input_modalities\":" + input
                + ",\"output_modalities\":" + output + ",\"tokenizer\":\"Other\"},\"pricing\":{\"prompt\":\"0.0000025\"}}";
    }

    private void writeKey() {
        client.post("/api/secrets/write", "{\"key\":\"api_key_openrouter\",\"value\":\"sk-or-v1-test\"}");
    }

    @Test
    void providersAreTheNamesOfTheModelsEndpoints() {
        String path = MODELS + "/openai/gpt-4o%3Afree/endpoints";
        mock.route(path, r -> json(r, 200, "{\"data\":{\"id\":\"openai/gpt-4o\",\"name\":\"OpenAI: GPT-4o\","
                + "\"architecture\":{},\"endpoints\":[{\"name\":\"OpenAI | openai/gpt-4o\",\"provider_name\":\"OpenAI\","
                + "\"context_length\":128000},{\"name\":\"Azure | openai/gpt-4o\",\"provider_name\":\"Azure\"}]}}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/models/providers", "{\"model\":\"openai/gpt-4o:free\"}");
        assertEquals(200, answer.statusCode());
        assertEquals("[\"OpenAI\",\"Azure\"]", answer.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(path);
        assertEquals("GET", call.method());
        assertEquals("application/json", call.headers().get("Accept"));
        assertNull(call.headers().get("Authorization"), "ST sends no key for the public list");
    }

    @Test
    void providersOfAModelOpenRouterDoesNotKnowAreNone() {
        mock.route(MODELS + "/nobody/nothing/endpoints", r -> json(r, 404,
                "{\"error\":{\"message\":\"No endpoints found\",\"code\":404}}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/models/providers", "{\"model\":\"nobody/nothing\"}");
        assertEquals(200, answer.statusCode());
        assertEquals("[]", answer.bodyAsString());
    }

    @Test
    void aModelIdCannotLeaveItsPath() {
        client.post(BASE + "/models/providers", "{\"model\":\"a?b#c&d\"}");
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals(MODELS + "/a%3Fb%23c%26d/endpoints", call.path());
        assertEquals(null, call.query());
        int before = mock.calls().size();
        for (String model : new String[] {"\"../credits\"", "\"a/../../credits\"", "\"a//b\"", "\"\"", "42", "null"}) {
            HttpResponse<Buffer> answer = client.post(BASE + "/models/providers", "{\"model\":" + model + "}");
            assertEquals(400, answer.statusCode(), model);
            assertTrue(json(answer).path("error").asText().contains("model"), answer.bodyAsString());
        }
        assertEquals(400, client.post(BASE + "/models/providers", "{}").statusCode());
        assertEquals(before, mock.calls().size());
    }

    @Test
    void multimodalModelsAreTheIdsOfThoseTakingImagesAndGivingText() {
        mock.route(MODELS, r -> json(r, 200, CATALOGUE));
        HttpResponse<Buffer> answer = client.post(BASE + "/models/multimodal", "{}");
        assertEquals(200, answer.statusCode());
        assertEquals("[\"google/gemini-2.5-flash-image\",\"openai/gpt-4o\"]", answer.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(MODELS);
        assertEquals("GET", call.method());
        assertEquals("output_modalities=text", call.query());
        assertEquals("application/json", call.headers().get("Accept"));
    }

    @Test
    void embeddingModelsAreIdsAndNamesSortedById() {
        mock.route(MODELS, r -> json(r, 200, CATALOGUE));
        HttpResponse<Buffer> answer = client.post(BASE + "/models/embedding", "{}");
        assertEquals(200, answer.statusCode());
        // localeCompare's order, not the code points': "openai" before "Voyage"
        assertEquals("[{\"id\":\"openai/text-embedding-3-small\",\"name\":\"OpenAI: Text Embedding 3 Small\"},"
                + "{\"id\":\"Voyage/voyage-3\",\"name\":\"Voyage: 3\"}]",
                answer.bodyAsString());
        assertEquals("output_modalities=embeddings", mock.lastCall(MODELS).query());
    }

    @Test
    void imageModelsAreValuesAndTextsTheIdWhenUnnamed() {
        mock.route(MODELS, r -> json(r, 200, CATALOGUE));
        HttpResponse<Buffer> answer = client.post(BASE + "/models/image", "{}");
        assertEquals(200, answer.statusCode());
        assertEquals("[{\"value\":\"black-forest-labs/flux\",\"text\":\"black-forest-labs/flux\"},"
                + "{\"value\":\"google/gemini-2.5-flash-image\",\"text\":\"Google: Nano Banana\"}]", answer.bodyAsString());
        assertEquals("output_modalities=image", mock.lastCall(MODELS).query());
    }

    @Test
    void aModelListOpenRouterFailsIsEmptyAndAnUnreachableOne502() {
        mock.route(MODELS, r -> json(r, 500, "{\"error\":{\"message\":\"Internal error\"}}"));
        assertEquals("[]", client.post(BASE + "/models/embedding", "{}").bodyAsString());
        mock.route(MODELS, r -> json(r, 200, "{\"data\":{\"not\":\"a list\"}}"));
        assertEquals("[]", client.post(BASE + "/models/image", "{}").bodyAsString());
        takeUpstreamDown();
        HttpResponse<Buffer> answer = client.post(BASE + "/models/multimodal", "{}");
        assertEquals(502, answer.statusCode());
        assertTrue(json(answer).path("error").asText().contains("OpenRouter"), answer.bodyAsString());
    }

    @Test
    void anAnswerLargerThanTheLimitIsNotReadAndAnswers502() {
        mock.route(MODELS, r -> r.response().putHeader("Content-Type", "application/json")
                .putHeader("Content-Length", String.valueOf(64L << 20)).write("{\"data\":["));
        HttpResponse<Buffer> answer = client.post(BASE + "/models/multimodal", "{}");
        assertEquals(502, answer.statusCode());
        assertTrue(json(answer).path("error").asText().contains("limit"), answer.bodyAsString());
    }

    @Test
    void creditsAreWhatRemainsOfTheTotalWithTheUsersKey() {
        assertEquals(400, client.post(BASE + "/credits", "{}").statusCode());
        assertTrue(mock.calls().isEmpty());
        writeKey();
        mock.route(OPENROUTER_API + "/credits", r -> json(r, 200,
                "{\"data\":{\"total_credits\":10.5,\"total_usage\":2.25}}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/credits", "{}");
        assertEquals(200, answer.statusCode());
        assertEquals("{\"remaining\":8.25,\"total_credits\":10.5,\"total_usage\":2.25}", answer.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(OPENROUTER_API + "/credits");
        assertEquals("GET", call.method());
        assertEquals("Bearer sk-or-v1-test", call.headers().get("Authorization"));
        assertEquals("application/json", call.headers().get("Accept"));

        mock.route(OPENROUTER_API + "/credits", r -> json(r, 200, "{\"data\":{}}"));
        assertEquals("{\"remaining\":0,\"total_credits\":0,\"total_usage\":0}",
                client.post(BASE + "/credits", "{}").bodyAsString());
    }

    @Test
    void creditsOpenRouterRefusesAnswer502() {
        writeKey();
        mock.route(OPENROUTER_API + "/credits", r -> json(r, 401,
                "{\"error\":{\"message\":\"No auth credentials found\",\"code\":401}}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/credits", "{}");
        assertEquals(502, answer.statusCode());
        assertTrue(json(answer).path("error").asText().contains("401"), answer.bodyAsString());
    }

    private static String imageAnswer(String url) {
        return "{\"id\":\"gen-1\",\"model\":\"google/gemini-2.5-flash-image\",\"object\":\"chat.completion\","
                + "\"choices\":[{\"index\":0,\"finish_reason\":\"stop\",\"message\":{\"role\":\"assistant\",\"content\":\"\","
                + "\"images\":[{\"type\":\"image_url\",\"image_url\":{\"url\":\"" + url + "\"}}]}}]}";
    }

    @Test
    void anImageIsGeneratedThroughTheChatEndpoint() {
        writeKey();
        mock.route(OPENROUTER_API + "/chat/completions", r -> json(r, 200, imageAnswer("data:image/jpeg;base64,/9j/4AAQ")));
        HttpResponse<Buffer> answer = client.post(BASE + "/image/generate",
                "{\"model\":\"google/gemini-2.5-flash-image\",\"prompt\":\"a red fox\",\"aspect_ratio\":\"16:9\"}");
        assertEquals(200, answer.statusCode());
        assertEquals("{\"format\":\"jpeg\",\"image\":\"/9j/4AAQ\"}", answer.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(OPENROUTER_API + "/chat/completions");
        assertEquals("POST", call.method());
        assertEquals("Bearer sk-or-v1-test", call.headers().get("Authorization"));
        assertEquals("https://sillytavern.app", call.headers().get("HTTP-Referer"));
        assertEquals("SillyTavern", call.headers().get("X-Title"));
        assertTrue(call.headers().get("Content-Type").startsWith("application/json"));
        assertEquals("{\"model\":\"google/gemini-2.5-flash-image\",\"messages\":[{\"role\":\"user\",\"content\":\"a red fox\"}],"
                + "\"modalities\":[\"image\"],\"image_config\":{\"aspect_ratio\":\"16:9\"}}", call.body());

        mock.route(OPENROUTER_API + "/chat/completions", r -> json(r, 200, imageAnswer("data:image/x-unknown;base64,AAAA")));
        answer = client.post(BASE + "/image/generate", "{\"model\":\"m/x\",\"prompt\":\"p\"}");
        assertEquals("{\"format\":\"png\",\"image\":\"AAAA\"}", answer.bodyAsString());
        JsonNode sent = mock.lastCall(OPENROUTER_API + "/chat/completions").json();
        assertEquals("1:1", sent.path("image_config").path("aspect_ratio").asText());
    }

    @Test
    void anImageNeedsAKeyAModelAndAPrompt() {
        HttpResponse<Buffer> answer = client.post(BASE + "/image/generate", "{\"model\":\"m/x\",\"prompt\":\"p\"}");
        assertEquals(400, answer.statusCode());
        assertEquals("OpenRouter API key not found", json(answer).path("error").asText());
        writeKey();
        answer = client.post(BASE + "/image/generate", "{\"model\":\"m/x\"}");
        assertEquals(400, answer.statusCode());
        assertEquals("Model and prompt are required", json(answer).path("error").asText());
        assertEquals(400, client.post(BASE + "/image/generate", "{\"prompt\":\"p\",\"model\":\"\"}").statusCode());
        assertTrue(mock.calls().isEmpty());
    }

    @Test
    void aFailedOrImagelessGenerationAnswers502() {
        writeKey();
        String body = "{\"model\":\"m/x\",\"prompt\":\"p\"}";
        mock.route(OPENROUTER_API + "/chat/completions", r -> json(r, 402,
                "{\"error\":{\"message\":\"Insufficient credits\",\"code\":402}}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/image/generate", body);
        assertEquals(502, answer.statusCode());
        assertTrue(json(answer).path("error").asText().contains("402"), answer.bodyAsString());
        mock.route(OPENROUTER_API + "/chat/completions", r -> json(r, 200,
                "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"I cannot draw.\"}}]}"));
        assertEquals(502, client.post(BASE + "/image/generate", body).statusCode());
        mock.route(OPENROUTER_API + "/chat/completions", r -> json(r, 200, imageAnswer("https://example.com/a.png")));
        answer = client.post(BASE + "/image/generate", body);
        assertEquals(502, answer.statusCode());
        assertEquals("OpenRouter's answer has no image", json(answer).path("error").asText());
    }
}
