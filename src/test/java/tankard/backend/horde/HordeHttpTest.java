package tankard.backend.horde;

import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;
import tankard.testing.StreamingClient;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HordeHttpTest extends PublicHostsMockTest {
    private static final String BASE = "/api/horde";
    private static final String AGENT = "SillyTavern:1.18.0:Cohee#1207";

    private void writeKey(String key) {
        client.post("/api/secrets/write", "{\"key\":\"api_key_horde\",\"value\":\"" + key + "\"}");
    }

    private long callsTo(String path) {
        return mock.calls().stream().filter(c -> c.path().equals(HORDE + path)).count();
    }

    @Test
    void statusAsksForHordesHeartbeat() {
        mock.route(HORDE + "/status/heartbeat", r -> json(r, 200, "{\"message\":\"OK\",\"version\":\"4.44\"}"));
        assertEquals("{\"ok\":true}", client.post(BASE + "/status", null).bodyAsString());
        assertEquals(AGENT, mock.lastCall(HORDE + "/status/heartbeat").headers().get("Client-Agent"));
        mock.route(HORDE + "/status/heartbeat", r -> json(r, 503, "{\"message\":\"maintenance\"}"));
        assertEquals("{\"ok\":false}", client.post(BASE + "/status", null).bodyAsString());
    }

    @Test
    void unreachableHordeIsOfflineForTheBootProbesGenerationErrorTrueAndElsewhere502() {
        takeUpstreamDown();
        assertEquals("{\"ok\":false}", client.post(BASE + "/status", null).bodyAsString());
        for (String route : new String[] {"text-workers", "text-models", "sd-models"}) {
            HttpResponse<Buffer> answer = client.post(BASE + "/" + route, "{\"force\":true}");
            assertEquals(200, answer.statusCode(), route);
            assertEquals("[]", answer.bodyAsString(), route);
        }
        assertEquals("{\"error\":true}", client.post(BASE + "/generate-text", "{\"prompt\":\"Hi\"}").bodyAsString());
        assertEquals("{\"anonymous\":true}", client.post(BASE + "/user-info", null).bodyAsString());
        for (String route : new String[] {"task-status", "cancel-task"}) {
            HttpResponse<Buffer> answer = client.post(BASE + "/" + route, "{\"taskId\":\"task-1\"}");
            assertEquals(502, answer.statusCode(), route);
            assertTrue(answer.bodyAsJsonObject().getJsonObject("error").getString("message").startsWith("AI Horde"),
                    answer.bodyAsString());
        }
        assertEquals(502, client.post(BASE + "/caption-image", "{\"image\":\"iVBORw0KGgo=\"}").statusCode());
    }

    @Test
    void hordesOwnErrorsAnswer500WithTheReason() {
        mock.route(HORDE + "/status/models", r -> json(r, 503, "{\"message\":\"maintenance\"}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/sd-models", null);
        assertEquals(500, answer.statusCode());
        assertTrue(answer.bodyAsJsonObject().getJsonObject("error").getString("message").startsWith("AI Horde"),
                answer.bodyAsString());
    }

    @Test
    void textWorkersAreKeptAMinuteUnlessForced() {
        AtomicInteger n = new AtomicInteger();
        mock.route(HORDE + "/workers", r -> json(r, 200, "[{\"name\":\"worker " + n.incrementAndGet() + "\"}]"));
        assertEquals("[{\"name\":\"worker 1\"}]", client.post(BASE + "/text-workers", "{\"force\":false}").bodyAsString());
        assertEquals("type=text", mock.lastCall(HORDE + "/workers").query());
        assertEquals("[{\"name\":\"worker 1\"}]", client.post(BASE + "/text-workers", "{\"force\":false}").bodyAsString());
        assertEquals(1, callsTo("/workers"));
        assertEquals("[{\"name\":\"worker 2\"}]", client.post(BASE + "/text-workers", "{\"force\":true}").bodyAsString());
    }

    @Test
    void textModelsCarryTheirReferenceMetadata() {
        mock.route(HORDE + "/status/models", r -> json(r, 200,
                "[{\"name\":\"koboldcpp/L3-8B\",\"count\":2},{\"name\":\"aphrodite/Other\",\"count\":1}]"));
        mock.route(HORDE_MODEL_REFERENCE, r -> json(r, 200,
                "{\"koboldcpp/L3-8B\":{\"name\":\"koboldcpp/L3-8B\",\"parameters\":8000000000,\"style\":\"generalist\"}}"));
        assertEquals("[{\"name\":\"koboldcpp/L3-8B\",\"count\":2,\"parameters\":8000000000,\"style\":\"generalist\","
                        + "\"is_whitelisted\":true},{\"name\":\"aphrodite/Other\",\"count\":1,\"is_whitelisted\":false}]",
                client.post(BASE + "/text-models", "{\"force\":true}").bodyAsString());
        assertEquals("type=text", mock.lastCall(HORDE + "/status/models").query());
        // without the reference the models come as Horde lists them
        mock.route(HORDE_MODEL_REFERENCE, r -> r.response().setStatusCode(404).end("Not Found"));
        assertEquals("[{\"name\":\"koboldcpp/L3-8B\",\"count\":2},{\"name\":\"aphrodite/Other\",\"count\":1}]",
                client.post(BASE + "/text-models", "{\"force\":true}").bodyAsString());
    }

    @Test
    void textGenerationGoesOutWithTheAnonymousKeyOrTheUsers() {
        mock.route(HORDE + "/generate/text/async", r -> json(r, 202, "{\"id\":\"task-1\",\"kudos\":12}"));
        String body = "{\"prompt\":\"Hi\",\"params\":{\"n\":1,\"max_length\":80},\"trusted_workers\":false,"
                + "\"models\":[\"koboldcpp/L3-8B\"]}";
        assertEquals("{\"id\":\"task-1\",\"kudos\":12}", client.post(BASE + "/generate-text", body).bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(HORDE + "/generate/text/async");
        assertEquals(body, call.body());
        assertEquals("0000000000", call.headers().get("apikey"));
        assertEquals(AGENT, call.headers().get("Client-Agent"));
        writeKey("my-horde-key");
        client.post(BASE + "/generate-text", body);
        assertEquals("my-horde-key", mock.lastCall(HORDE + "/generate/text/async").headers().get("apikey"));
    }

    @Test
    void aRefusedGenerationAnswers200WithHordesText() {
        mock.route(HORDE + "/generate/text/async", r -> json(r, 400, "{\"message\":\"No workers\",\"rc\":\"NoValidWorkers\"}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/generate-text", "{\"prompt\":\"Hi\"}");
        assertEquals(200, answer.statusCode());
        assertEquals("{\"error\":{\"message\":\"{\\\"message\\\":\\\"No workers\\\",\\\"rc\\\":\\\"NoValidWorkers\\\"}\"}}",
                answer.bodyAsString());
    }

    @Test
    void taskStatusIsPolledAndTasksCancelled() {
        mock.route(HORDE + "/generate/text/status/task-1", r -> json(r, 200, r.method().name().equals("DELETE")
                ? "{\"done\":false,\"faulted\":false,\"is_possible\":true,\"generations\":[]}"
                : "{\"done\":true,\"faulted\":false,\"is_possible\":true,\"generations\":[{\"text\":\" Hello\"}]}"));
        assertEquals("{\"done\":true,\"faulted\":false,\"is_possible\":true,\"generations\":[{\"text\":\" Hello\"}]}",
                client.post(BASE + "/task-status", "{\"taskId\":\"task-1\"}").bodyAsString());
        assertEquals("GET", mock.lastCall().method());
        assertEquals("{\"done\":false,\"faulted\":false,\"is_possible\":true,\"generations\":[]}",
                client.post(BASE + "/cancel-task", "{\"taskId\":\"task-1\"}").bodyAsString());
        assertEquals("DELETE", mock.lastCall().method());
        assertEquals(400, client.post(BASE + "/task-status", "{}").statusCode());
        // an id cannot reach another Horde path
        client.post(BASE + "/task-status", "{\"taskId\":\"../../find_user\"}");
        assertEquals(HORDE + "/generate/text/status/..%2F..%2Ffind_user", mock.lastCall().path());
    }

    @Test
    void userInfoNamesTheUserAndTheSharedKey() {
        assertEquals("{\"anonymous\":true}", client.post(BASE + "/user-info", null).bodyAsString());
        writeKey("key-1");
        mock.route(HORDE + "/find_user", r -> json(r, 200, "{\"username\":\"me#1\",\"kudos\":42}"));
        assertEquals("{\"user\":{\"username\":\"me#1\",\"kudos\":42},\"sharedKey\":null,\"anonymous\":false}",
                client.post(BASE + "/user-info", null).bodyAsString());
        assertEquals("key-1", mock.lastCall(HORDE + "/find_user").headers().get("apikey"));
        mock.route(HORDE + "/sharedkeys/key-1", r -> json(r, 200, "{\"id\":\"key-1\",\"kudos\":10}"));
        assertEquals("{\"user\":{\"username\":\"me#1\",\"kudos\":42},\"sharedKey\":{\"id\":\"key-1\",\"kudos\":10},"
                + "\"anonymous\":false}", client.post(BASE + "/user-info", null).bodyAsString());
        mock.route(HORDE + "/find_user", r -> json(r, 401, "{\"message\":\"Invalid API Key\"}"));
        assertEquals(500, client.post(BASE + "/user-info", null).statusCode());
    }

    @Test
    void imageSamplersAndModels() {
        assertEquals("[\"lcm\",\"k_lms\",\"k_heun\",\"k_euler_a\",\"k_euler\",\"k_dpm_2\",\"k_dpm_2_a\",\"DDIM\","
                + "\"PLMS\",\"k_dpm_fast\",\"k_dpm_adaptive\",\"k_dpmpp_2s_a\",\"k_dpmpp_2m\",\"dpmsolver\","
                + "\"k_dpmpp_sde\"]", client.post(BASE + "/sd-samplers", null).bodyAsString());
        mock.route(HORDE + "/status/models", r -> json(r, 200, "[{\"name\":\"Deliberate\",\"count\":3,\"eta\":20}]"));
        assertEquals("[{\"name\":\"Deliberate\",\"count\":3,\"eta\":20}]",
                client.post(BASE + "/sd-models", null).bodyAsString());
        assertNull(mock.lastCall(HORDE + "/status/models").query());
    }

    @Test
    void anImageIsGeneratedAsAPolledJob() {
        mock.route(HORDE + "/generate/async", r -> json(r, 202, "{\"id\":\"img-1\",\"kudos\":10}"));
        AtomicInteger checks = new AtomicInteger();
        mock.route(HORDE + "/generate/check/img-1", r -> json(r, 200,
                "{\"done\":" + (checks.incrementAndGet() == 3) + ",\"faulted\":false}"));
        mock.route(HORDE + "/generate/status/img-1", r -> json(r, 200, "{\"generations\":[{\"img\":\"iVBORw0KGgo=\"}]}"));
        HttpResponse<Buffer> answer = client.post(BASE + "/generate-image", "{\"prompt\":\"a little girl and a cat\","
                + "\"negative_prompt\":\"blurry\",\"sampler\":\"k_euler\",\"model\":\"Deliberate\",\"width\":512,"
                + "\"height\":512,\"steps\":20,\"scale\":7,\"seed\":-1,\"sanitize\":true,\"nfsw\":false,\"karras\":1}");
        assertEquals(200, answer.statusCode());
        assertEquals("iVBORw0KGgo=", answer.bodyAsString());
        assertEquals(3, checks.get());
        assertEquals("{\"prompt\":\"a  woman and a cat ### blurry\",\"params\":{\"sampler_name\":\"k_euler\","
                + "\"cfg_scale\":7,\"steps\":20,\"width\":512,\"height\":512,\"karras\":true,\"n\":1},\"r2\":false,"
                + "\"nsfw\":false,\"models\":[\"Deliberate\"]}", mock.lastCall(HORDE + "/generate/async").body());
        assertEquals("0000000000", mock.lastCall(HORDE + "/generate/async").headers().get("apikey"));
    }

    @Test
    void aSeedThatIsNotANumberIsLeftOutAsInSt() {
        mock.route(HORDE + "/generate/async", r -> json(r, 202, "{\"message\":\"busy\"}"));
        assertEquals(400, client.post(BASE + "/generate-image", "{\"prompt\":\"cat\",\"negative_prompt\":\"dog\",\"seed\":\"q\"}").statusCode());
        assertEquals("{\"prompt\":\"cat ### dog\",\"params\":{\"karras\":false,\"n\":1},\"r2\":false,\"models\":[null]}",
                mock.lastCall(HORDE + "/generate/async").body());
        client.post(BASE + "/generate-image", "{\"prompt\":\"cat\",\"negative_prompt\":\"dog\",\"seed\":\"12\"}");
        assertEquals("{\"prompt\":\"cat ### dog\",\"params\":{\"karras\":false,\"seed\":\"12\",\"n\":1},\"r2\":false,"
                + "\"models\":[null]}", mock.lastCall(HORDE + "/generate/async").body());
    }

    @Test
    void aFaultedImageJobAnswers500AndAJobWithoutIdIsRefused() {
        mock.route(HORDE + "/generate/async", r -> json(r, 202, "{\"id\":\"img-2\"}"));
        mock.route(HORDE + "/generate/check/img-2", r -> json(r, 200, "{\"done\":false,\"faulted\":true}"));
        assertEquals(500, client.post(BASE + "/generate-image", "{\"prompt\":\"cat\"}").statusCode());
        mock.route(HORDE + "/generate/async", r -> json(r, 202, "{\"message\":\"busy\"}"));
        assertEquals(400, client.post(BASE + "/generate-image", "{\"prompt\":\"cat\"}").statusCode());
        assertEquals(400, client.post(BASE + "/generate-image", "{}").statusCode());
    }

    @Test
    void anImageJobIsDeletedWhenTheBrowserLeaves() {
        mock.route(HORDE + "/generate/async", r -> json(r, 202, "{\"id\":\"img-3\"}"));
        Promise<Void> deleted = Promise.promise();
        mock.route(HORDE + "/generate/status/img-3", r -> {
            json(r, 200, "{}");
            if (r.method().name().equals("DELETE")) {
                deleted.tryComplete();
            }
        });
        Promise<Void> polling = Promise.promise();
        mock.route(HORDE + "/generate/check/img-3", r -> {
            json(r, 200, "{\"done\":false,\"faulted\":false}");
            polling.tryComplete();
        });
        StreamingClient.leaveWhen(server, client, BASE + "/generate-image", "{\"prompt\":\"cat\"}", polling.future());
        StreamingClient.await(deleted.future());
    }

    @Test
    void anImageIsCaptioned() {
        mock.route(HORDE + "/interrogate/async", r -> json(r, 202, "{\"id\":\"cap-1\"}"));
        AtomicInteger checks = new AtomicInteger();
        mock.route(HORDE + "/interrogate/status/cap-1", r -> json(r, 200, checks.incrementAndGet() < 2
                ? "{\"state\":\"processing\"}"
                : "{\"state\":\"done\",\"forms\":[{\"form\":\"caption\",\"result\":{\"caption\":\"a cat on a mat\"}}]}"));
        assertEquals("{\"caption\":\"a cat on a mat\"}",
                client.post(BASE + "/caption-image", "{\"image\":\"iVBORw0KGgo=\"}").bodyAsString());
        assertEquals("{\"source_image\":\"iVBORw0KGgo=\",\"forms\":[{\"name\":\"caption\"}]}",
                mock.lastCall(HORDE + "/interrogate/async").body());
        mock.route(HORDE + "/interrogate/status/cap-1", r -> json(r, 200, "{\"state\":\"faulted\"}"));
        assertEquals(503, client.post(BASE + "/caption-image", "{\"image\":\"iVBORw0KGgo=\"}").statusCode());
    }
}
