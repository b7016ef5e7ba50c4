package tankard.backend.nanogpt;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NanoGptHttpTest extends PublicHostsMockTest {
    private static final String BASE = "/api/nanogpt";
    private static final String BALANCE = NANOGPT_API + "/check-balance";
    private static final String USAGE = NANOGPT_API + "/subscription/v1/usage";
    /** NanoGPT's balance: amounts as strings. */
    private static final String BALANCE_ANSWER = "{\"usd_balance\":\"12.3456\",\"nano_balance\":\"0.5\"}";

    private void writeKey() {
        client.post("/api/secrets/write", "{\"key\":\"api_key_nanogpt\",\"value\":\"nano-key\"}");
    }

    @Test
    void creditsNeedAKey() {
        assertEquals(400, client.post(BASE + "/credits", "{}").statusCode());
        assertTrue(mock.calls().isEmpty());
    }

    @Test
    void creditsAreTheBalanceAndTheActiveSubscriptionsUsage() {
        writeKey();
        mock.route(BALANCE, r -> json(r, 200, BALANCE_ANSWER));
        mock.route(USAGE, r -> json(r, 200, "{\"active\":true,\"limits\":{\"weeklyInputTokens\":60000000,"
                + "\"dailyInputTokens\":null,\"dailyImages\":100},\"allowOverage\":false,"
                + "\"period\":{\"currentPeriodEnd\":\"2026-12-31T23:59:59.000Z\"},"
                + "\"dailyImages\":{\"used\":5,\"remaining\":95,\"percentUsed\":0.05,\"resetAt\":1798761600000},"
                + "\"dailyInputTokens\":null,"
                + "\"weeklyInputTokens\":{\"used\":\"1000\",\"remaining\":59999000,\"percentUsed\":\"x\",\"resetAt\":1798761600000},"
                + "\"state\":\"active\",\"graceUntil\":null}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/credits", "{}");
        assertEquals(200, answer.statusCode());
        assertEquals("{\"usd_balance\":12.3456,\"nano_balance\":0.5,\"subscription\":{\"active\":true,\"state\":\"active\","
                + "\"allowOverage\":false,\"period\":{\"currentPeriodEnd\":\"2026-12-31T23:59:59.000Z\"},"
                + "\"limits\":{\"weeklyInputTokens\":60000000,\"dailyInputTokens\":0,\"dailyImages\":100},"
                + "\"weekly_tokens\":{\"used\":1000,\"remaining\":59999000,\"percentUsed\":0,\"resetAt\":1798761600000},"
                + "\"daily_tokens\":null,"
                + "\"daily_images\":{\"used\":5,\"remaining\":95,\"percentUsed\":0.05,\"resetAt\":1798761600000}}}",
                answer.bodyAsString());
        MockCompletionServer.Call balance = mock.lastCall(BALANCE);
        assertEquals("POST", balance.method());
        assertEquals("nano-key", balance.headers().get("x-api-key"));
        assertEquals("application/json", balance.headers().get("Accept"));
        MockCompletionServer.Call usage = mock.lastCall(USAGE);
        assertEquals("GET", usage.method());
        assertEquals("nano-key", usage.headers().get("x-api-key"));
    }

    @Test
    void withoutAnActiveOrReadableSubscriptionItIsNull() {
        writeKey();
        mock.route(BALANCE, r -> json(r, 200, BALANCE_ANSWER));
        mock.route(USAGE, r -> json(r, 200, "{\"active\":false,\"state\":\"inactive\"}"));
        String none = "{\"usd_balance\":12.3456,\"nano_balance\":0.5,\"subscription\":null}";
        assertEquals(none, client.post(BASE + "/credits", "{}").bodyAsString());
        mock.route(USAGE, r -> json(r, 401, "{\"error\":\"Unauthorized\"}"));
        assertEquals(none, client.post(BASE + "/credits", "{}").bodyAsString());
    }

    @Test
    void aFailedBalanceAnswers502() {
        writeKey();
        mock.route(BALANCE, r -> json(r, 401, "{\"error\":\"Invalid API key\"}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/credits", "{}");
        assertEquals(502, answer.statusCode());
        assertTrue(json(answer).path("error").asText().contains("401"), answer.bodyAsString());
        takeUpstreamDown();
        assertEquals(502, client.post(BASE + "/credits", "{}").statusCode());
    }

    @Test
    void providersAreTheAvailableOnesOfTheModel() {
        String path = NANOGPT_API + "/models/openai%2Fgpt-4o/providers";
        mock.route(path, r -> json(r, 200, "{\"canonicalId\":\"openai/gpt-4o\",\"displayName\":\"GPT-4o\","
                + "\"supportsProviderSelection\":true,\"defaultPrice\":{\"inputPer1kTokens\":0.0025},"
                + "\"providers\":[{\"provider\":\"openai\",\"available\":true},{\"provider\":\"azure\",\"available\":false},"
                + "{\"provider\":\"together\"},{\"available\":true}]}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/models/providers", "{\"model\":\"openai/gpt-4o\"}");
        assertEquals(200, answer.statusCode());
        assertEquals("{\"supportsProviderSelection\":true,\"providers\":[\"openai\",\"together\"]}", answer.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(path);
        assertEquals("GET", call.method());
        assertEquals("application/json", call.headers().get("Accept"));
        assertEquals(null, call.headers().get("x-api-key"));
    }

    @Test
    void providersOfAModelNanoGptDoesNotKnowAreNone() {
        mock.route(NANOGPT_API + "/models/unknown/providers", r -> json(r, 404, "{\"error\":\"Model not found\"}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/models/providers", "{\"model\":\"unknown\"}");
        assertEquals(200, answer.statusCode());
        assertEquals("{\"supportsProviderSelection\":false,\"providers\":[]}", answer.bodyAsString());
    }

    @Test
    void providersNeedAModelThatStaysInItsPath() {
        for (String body : new String[] {"{}", "{\"model\":\"\"}", "{\"model\":\"..\"}", "{\"model\":\".\"}"}) {
            HttpResponse<Buffer> answer = client.post(BASE + "/models/providers", body);
            assertEquals(400, answer.statusCode(), body);
            assertTrue(json(answer).path("error").asText().contains("model"), answer.bodyAsString());
        }
        assertTrue(mock.calls().isEmpty());
        client.post(BASE + "/models/providers", "{\"model\":\"../check-balance?x#y\"}");
        assertEquals(NANOGPT_API + "/models/..%2Fcheck-balance%3Fx%23y/providers", mock.lastCall().path());
    }
}
