package tankard.backend.text;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tankard.testing.MockBackendTest;
import tankard.testing.MockCompletionServer;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RemoteTokenizersHttpTest extends MockBackendTest {
    private static final String KOBOLD = "/api/tokenizers/remote/kobold/count";
    private static final String TEXTGEN = "/api/tokenizers/remote/textgenerationwebui/encode";
    /** The mock's tokens of TEXT: one per word, 100 + its length. */
    private static final String TEXT = "Hello big world";
    private static final String COUNTED = "{\"count\":3,\"ids\":[105,103,105]}";
    private static final String ERROR = "{\"error\":true}";


    static Stream<TextCompletionsHttpTest.Type> types() {
        return Stream.of(TextCompletionsHttpTest.Type.values());
    }

    /** The frontend's encode body for an api_type, its server URL as the user typed it (with /v1 and a slash). */
    private String encodeBody(String type) {
        return "{\"text\":\"" + TEXT + "\",\"api_type\":\"" + type + "\",\"url\":\"" + mock.origin() + "/v1/\","
                + "\"model\":\"mock-model\"}";
    }

    private String post(String path, String body) {
        HttpResponse<Buffer> r = client.post(path, body);
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("application/json; charset=utf-8", r.getHeader("Content-Type"));
        return r.bodyAsString();
    }

    // ---- each backend's tokenize API

    @ParameterizedTest
    @MethodSource("types")
    void encodeCallsEachBackendsTokenizeApiWithItsKey(TextCompletionsHttpTest.Type type) {
        client.post("/api/secrets/write", "{\"key\":\"api_key_" + type.id + "\",\"value\":\"sk-" + type.id + "\"}");
        assertEquals(COUNTED, post(TEXTGEN, encodeBody(type.id)));
        String[] pathAndBody = switch (type) {
            case TABBY -> new String[] {"/v1/token/encode",
                    "{\"text\":\"" + TEXT + "\",\"add_bos_token\":false,\"encode_special_tokens\":false}"};
            case KOBOLDCPP -> new String[] {"/api/extra/tokencount", "{\"prompt\":\"" + TEXT + "\",\"special\":false}"};
            case LLAMACPP -> new String[] {"/tokenize", "{\"model\":\"mock-model\",\"content\":\"" + TEXT + "\"}"};
            case VLLM -> new String[] {"/tokenize", "{\"model\":\"mock-model\",\"prompt\":\"" + TEXT + "\"}"};
            case APHRODITE -> new String[] {"/v1/tokenize", "{\"model\":\"mock-model\",\"prompt\":\"" + TEXT + "\"}"};
            default -> new String[] {"/v1/internal/encode", "{\"text\":\"" + TEXT + "\"}"};
        };
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("POST", call.method());
        assertEquals(pathAndBody[0], call.path());
        assertEquals(pathAndBody[1], call.body());
        assertEquals("application/json", call.headers().get("Content-Type"));
        TextCompletionsHttpTest.assertAuth(type, call);
    }

    @Test
    void koboldCountsWithItsApiBaseAndNoKey() {
        client.post("/api/secrets/write", "{\"key\":\"api_key_koboldcpp\",\"value\":\"sk-kobold\"}");
        assertEquals(COUNTED, post(KOBOLD, "{\"text\":\"" + TEXT + "\",\"url\":\"" + mock.origin() + "/api/\"}"));
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("/api/extra/tokencount", call.path());
        assertEquals("{\"prompt\":\"" + TEXT + "\"}", call.body());
        assertEquals(null, call.headers().get("Authorization"));
    }

    @Test
    void missingFieldsAreSentAsStsUndefined() {
        post(TEXTGEN, "{\"api_type\":\"llamacpp\",\"url\":\"" + mock.origin() + "\"}");
        assertEquals("{\"model\":\"undefined\",\"content\":\"undefined\"}", mock.lastCall("/tokenize").body());
        assertEquals("{\"count\":1,\"ids\":[109]}", post(TEXTGEN, "{\"url\":\"" + mock.origin() + "\"}"));
        assertEquals("{\"text\":\"undefined\"}", mock.lastCall("/v1/internal/encode").body(), "no api_type: ooba's API");
        post(KOBOLD, "{\"text\":[\"a\",\"b\"],\"url\":\"" + mock.origin() + "/api\"}");
        assertEquals("{\"prompt\":\"a,b\"}", mock.lastCall("/api/extra/tokencount").body());
    }

    @Test
    void headerOverridesOfTheUrlsHostApply() {
        String host = "127.0.0.1:" + mock.origin().substring(mock.origin().lastIndexOf(':') + 1);
        startInstead("requestOverrides:\n  - hosts: [\"" + host + "\"]\n    headers: {Authorization: Basic abc}\n");
        assertEquals(COUNTED, post(TEXTGEN, encodeBody("llamacpp")));
        assertEquals("Basic abc", mock.lastCall("/tokenize").headers().get("Authorization"));
    }

    // ---- answers mapped as ST maps them

    @Test
    void answersOfAnyShapeMapAsInSt() {
        assertEquals("{\"ids\":[]}", encodeAnswering("null"));
        assertEquals("{\"count\":2,\"ids\":[]}", encodeAnswering("[7,8]"));
        assertEquals("{\"count\":3,\"ids\":[]}", encodeAnswering("\"abc\""), "a string has a length");
        assertEquals("{\"count\":2,\"ids\":\"ab\"}",
                encodeAnswering("{\"length\":null,\"count\":null,\"value\":null,\"tokens\":\"ab\"}"));
        assertEquals("{\"count\":4,\"ids\":[1]}", encodeAnswering("{\"count\":4.0,\"tokens\":[1],\"ids\":[2]}"),
                "numbers as JavaScript prints them; tokens before ids");
        assertEquals("{\"count\":null,\"ids\":{\"length\":null}}", encodeAnswering("{\"tokens\":{\"length\":null}}"));
        assertEquals("{\"ids\":[]}", encodeAnswering("{}"));

        mock.route("/api/extra/tokencount", request -> request.response().end("{\"value\":null}"));
        assertEquals("{\"count\":null,\"ids\":[]}", post(KOBOLD, koboldBody()));
        mock.route("/api/extra/tokencount", request -> request.response().end("7"));
        assertEquals("{\"ids\":[]}", post(KOBOLD, koboldBody()));
        mock.route("/api/extra/tokencount", request -> request.response().end("null"));
        assertEquals(ERROR, post(KOBOLD, koboldBody()), "null.value throws");
    }

    private String koboldBody() {
        return "{\"text\":\"a\",\"url\":\"" + mock.origin() + "/api\"}";
    }

    private String encodeAnswering(String answer) {
        mock.route("/v1/internal/encode", request -> request.response().end(answer));
        return post(TEXTGEN, encodeBody("ooba"));
    }

    // ---- failures: ST's {error: true}, on which the frontend estimates

    @ParameterizedTest
    @MethodSource("types")
    void aServerThatIsDownAnswersError(TextCompletionsHttpTest.Type type) {
        assertEquals(ERROR, post(TEXTGEN, "{\"text\":\"a\",\"api_type\":\"" + type.id + "\",\"url\":\"http://127.0.0.1:1\"}"));
    }

    @Test
    void failuresAnswerError() {
        assertEquals(ERROR, post(KOBOLD, "{\"text\":\"a\",\"url\":\"http://127.0.0.1:1/api\"}"), "down");
        assertEquals(ERROR, post(KOBOLD, "{\"text\":\"a\"}"), "no url");
        assertEquals(ERROR, post(TEXTGEN, "{\"text\":\"a\",\"api_type\":\"llamacpp\"}"), "no url");
        assertEquals(ERROR, post(TEXTGEN, "{\"text\":\"a\",\"api_type\":\"llamacpp\",\"url\":\"not a url\"}"));

        mock.route("/tokenize", request -> request.response().setStatusCode(404).end("File Not Found"));
        assertEquals(ERROR, post(TEXTGEN, encodeBody("llamacpp")), "a server without the endpoint");
        mock.route("/tokenize", request -> request.response().setStatusCode(500).end("{\"tokens\":[1]}"));
        assertEquals(ERROR, post(TEXTGEN, encodeBody("vllm")), "an error status, whatever its body");
        mock.route("/v1/tokenize", request -> request.response().end("<html>"));
        assertEquals(ERROR, post(TEXTGEN, encodeBody("aphrodite")), "not JSON");
        mock.route("/api/extra/tokencount", request -> request.response().end(""));
        assertEquals(ERROR, post(KOBOLD, koboldBody()), "empty");
        mock.route("/api/extra/tokencount", request -> request.connection().close());
        assertEquals(ERROR, post(KOBOLD, koboldBody()), "connection closed");
    }

    @Test
    void aMalformedBodyIsRejectedBeforeTheRoute() {
        HttpResponse<Buffer> r = client.post(TEXTGEN, "{\"text\":");
        assertEquals(400, r.statusCode());
        assertTrue(mock.calls().isEmpty());
    }
}
