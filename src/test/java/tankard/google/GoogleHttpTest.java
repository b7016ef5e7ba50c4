package tankard.google;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;

import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/google/*} against mocks of AI Studio, Vertex AI and Google Translate (ST: src/endpoints/google.js). */
class GoogleHttpTest extends PublicHostsMockTest {
    private static final String STUDIO = GEMINI + "/v1beta/models/";
    private static final String IMAGE = "data:image/png;base64,iVBORw0KGgo=";

    private void secret(String key, String value) {
        client.post("/api/secrets/write", JsJson.compact(JsJson.object().put("key", key).put("value", value)));
    }

    private static String b64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    @Test
    void aCaptionThroughAiStudioSendsTheImageWithTheKeyHeader() {
        secret("api_key_makersuite", "gm-key");
        mock.route(STUDIO + "gemini-2.0-flash:generateContent", request -> json(request, 200,
                "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"A cat on a mat\"}]}}]}"));
        HttpResponse<Buffer> r = client.post("/api/google/caption-image",
                "{\"image\":\"" + IMAGE + "\",\"prompt\":\"What is it?\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"caption\":\"A cat on a mat\"}", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(STUDIO + "gemini-2.0-flash:generateContent");
        assertEquals("gm-key", call.headers().get("x-goog-api-key"));
        assertNull(call.query(), "the key goes in the header only");
        JsonNode sent = call.json();
        assertEquals("[{\"role\":\"user\",\"parts\":[{\"text\":\"What is it?\"},{\"inlineData\":{\"mimeType\":\"image/png\","
                + "\"data\":\"iVBORw0KGgo=\"}}]}]", sent.get("contents").toString());
        assertEquals(5, sent.get("safetySettings").size());
        assertEquals("{\"category\":\"HARM_CATEGORY_HARASSMENT\",\"threshold\":\"OFF\"}", sent.at("/safetySettings/0").toString());
    }

    @Test
    void aCaptionThroughVertexExpressGoesToTheProjectInTheRegion() {
        secret("api_key_vertexai", "vx-key");
        String path = VERTEX + "/v1/projects/proj-9/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent";
        mock.route(path, request -> json(request, 200, "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"A dog\"}]}}]}"));
        String body = "{\"image\":\"" + IMAGE + "\",\"prompt\":\"?\",\"api\":\"vertexai\",\"model\":\"gemini-2.5-flash\","
                + "\"vertexai_express_project_id\":\"proj-9\"}";
        HttpResponse<Buffer> r = client.post("/api/google/caption-image", body);
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"caption\":\"A dog\"}", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(path);
        assertEquals("vx-key", call.headers().get("x-goog-api-key"));
        assertEquals(10, call.json().get("safetySettings").size(), "Vertex AI's image filters too");
        mock.route(path, request -> json(request, 200, "{\"promptFeedback\":{\"blockReason\":\"SAFETY\"}}"));
        HttpResponse<Buffer> filtered = client.post("/api/google/caption-image", body);
        assertEquals(500, filtered.statusCode());
        assertTrue(filtered.bodyAsString().contains("No candidates found"), filtered.bodyAsString());
    }

    @Test
    void theVoiceListsAreGoogleTranslatesLanguagesAndGeminisVoices() {
        JsonNode languages = JsJson.parse(client.post("/api/google/list-voices", "{}").bodyAsString());
        assertEquals("English", languages.get("en").asText());
        assertEquals("Automatic", languages.get("auto").asText());
        assertEquals(251, languages.size());
        JsonNode voices = JsJson.parse(client.post("/api/google/list-native-voices", "{}").bodyAsString()).get("voices");
        assertEquals(30, voices.size());
        assertEquals("{\"name\":\"Zephyr\",\"voice_id\":\"Zephyr\",\"lang\":\"en-US\",\"description\":\"Bright\"}",
                voices.get(0).toString());
        assertEquals("Sulafat", voices.get(29).get("name").asText());
        assertTrue(mock.calls().isEmpty());
    }

    @Test
    void googleTranslateSpeaksTheLanguageNamedByCodeOrName() {
        byte[] mp3 = {'I', 'D', '3', 7};
        String rpc = GOOGLE_TRANSLATE + "/_/TranslateWebserverUi/data/batchexecute";
        String result = JsJson.compact(JsJson.array().add(b64(mp3)));
        String line = JsJson.compact(JsJson.array().add(JsJson.array().add("wrb.fr").add("jQ1olc").add(result)
                .addNull().addNull().addNull().add("generic")));
        mock.route(rpc, request -> request.response().end(")]}'\n\n" + line.length() + "\n" + line
                + "\n25\n[[\"e\",4,null,null,100]]\n"));
        HttpResponse<Buffer> r = client.post("/api/google/generate-voice", "{\"text\":\"Bonjour\",\"voice\":\"French\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("audio/mpeg", r.getHeader("Content-Type"));
        assertArrayEquals(mp3, r.body().getBytes());
        MockCompletionServer.Call call = mock.lastCall(rpc);
        assertEquals("POST", call.method());
        assertTrue(call.query().startsWith("rpcids=jQ1olc&source-path=%2F"), call.query());
        String form = URLDecoder.decode(call.body().replaceFirst("^f\\.req=", "").replaceFirst("&$", ""),
                StandardCharsets.UTF_8);
        assertEquals("[[[\"jQ1olc\",\"[\\\"Bonjour\\\",\\\"fr\\\",true]\",null,\"0\"]]]", form);
        assertEquals(400, client.post("/api/google/generate-voice", "{\"text\":\"Hi\",\"voice\":\"Klingon\"}").statusCode());
        assertEquals(400, client.post("/api/google/generate-voice", "{\"text\":\"" + "a".repeat(201) + "\"}").statusCode());
        assertEquals(1, mock.calls().size());
    }

    @Test
    void nativeSpeechInPcmIsWrappedAsWav() {
        secret("api_key_makersuite", "gm-key");
        byte[] pcm = {1, 0, 2, 0, 3, 0};
        String path = STUDIO + "gemini-2.5-flash-preview-tts:generateContent";
        mock.route(path, request -> json(request, 200, "{\"candidates\":[{\"content\":{\"parts\":[{\"inlineData\":"
                + "{\"mimeType\":\"audio/L16;codec=pcm;rate=16000\",\"data\":\"" + b64(pcm) + "\"}}]}}]}"));
        HttpResponse<Buffer> r = client.post("/api/google/generate-native-tts",
                "{\"text\":\"Hello\",\"voice\":\"Kore\",\"model\":\"gemini-2.5-flash-preview-tts\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("audio/wav", r.getHeader("Content-Type"));
        byte[] wav = r.body().getBytes();
        assertEquals(44 + pcm.length, wav.length);
        assertEquals("RIFF", new String(wav, 0, 4, StandardCharsets.US_ASCII));
        assertEquals(16000, ByteBuffer.wrap(wav, 24, 4).order(ByteOrder.LITTLE_ENDIAN).getInt(), "the mime type's rate");
        assertArrayEquals(pcm, Arrays.copyOfRange(wav, 44, wav.length));
        JsonNode sent = mock.lastCall(path).json();
        assertEquals("[{\"role\":\"user\",\"parts\":[{\"text\":\"Hello\"}]}]", sent.get("contents").toString());
        assertEquals("{\"responseModalities\":[\"AUDIO\"],\"speechConfig\":{\"voiceConfig\":{\"prebuiltVoiceConfig\":"
                + "{\"voiceName\":\"Kore\"}}}}", sent.get("generationConfig").toString());
    }

    @Test
    void aNativeSpeechErrorKeepsGooglesStatusAndMessage() {
        secret("api_key_makersuite", "gm-key");
        mock.route(STUDIO + "gemini-2.5-pro-preview-tts:generateContent", request -> json(request, 429,
                "{\"error\":{\"code\":429,\"message\":\"Quota exceeded\",\"status\":\"RESOURCE_EXHAUSTED\"}}"));
        HttpResponse<Buffer> r = client.post("/api/google/generate-native-tts",
                "{\"text\":\"Hello\",\"voice\":\"Puck\",\"model\":\"gemini-2.5-pro-preview-tts\"}");
        assertEquals(429, r.statusCode());
        assertEquals("{\"error\":\"Quota exceeded\"}", r.bodyAsString());
    }

    @Test
    void anImagenImageThroughAiStudioHasStudiosParameters() {
        secret("api_key_makersuite", "gm-key");
        String path = STUDIO + "imagen-4.0-generate-001:predict";
        mock.route(path, request -> json(request, 200,
                "{\"predictions\":[{\"bytesBase64Encoded\":\"/9j/4AAQ\",\"mimeType\":\"image/jpeg\"}]}"));
        HttpResponse<Buffer> r = client.post("/api/google/generate-image", "{\"prompt\":\"a lighthouse\",\"model\":"
                + "\"imagen-4.0-generate-001\",\"aspect_ratio\":\"16:9\",\"seed\":5,\"negative_prompt\":\"fog\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"image\":\"/9j/4AAQ\"}", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(path);
        assertEquals("gm-key", call.headers().get("x-goog-api-key"));
        assertEquals("{\"instances\":[{\"prompt\":\"a lighthouse\"}],\"parameters\":{\"sampleCount\":1,\"aspectRatio\":"
                + "\"16:9\",\"personGeneration\":\"allow_adult\",\"safetySetting\":\"block_low_and_above\","
                + "\"outputOptions\":{\"mimeType\":\"image/jpeg\",\"compressionQuality\":100}}}", call.body());
    }

    @Test
    void anImagenImageThroughVertexHasSeedEnhancementAndNoWatermark() {
        secret("api_key_vertexai", "vx-key");
        String path = VERTEX_GLOBAL + "/v1/publishers/google/models/imagen-3.0-generate-002:predict";
        mock.route(path, request -> json(request, 200, "{\"predictions\":[{\"bytesBase64Encoded\":\"/9j/\"}]}"));
        HttpResponse<Buffer> r = client.post("/api/google/generate-image", "{\"prompt\":\"a fox\",\"api\":\"vertexai\","
                + "\"vertexai_region\":\"global\",\"seed\":42,\"enhance\":true,\"negative_prompt\":\"blur\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("vx-key", mock.lastCall(path).headers().get("x-goog-api-key"));
        JsonNode parameters = mock.lastCall(path).json().get("parameters");
        assertEquals(42, parameters.get("seed").asInt());
        assertTrue(parameters.get("enhancePrompt").asBoolean());
        assertEquals("blur", parameters.get("negativePrompt").asText());
        assertEquals("block_only_high", parameters.get("safetySetting").asText());
        assertFalse(parameters.get("addWatermark").asBoolean());
        assertEquals("auto", parameters.get("language").asText());
    }

    @Test
    void aVeoVideoThroughAiStudioIsPolledThenDownloadedWithTheKey() {
        secret("api_key_makersuite", "gm-key");
        String start = STUDIO + "veo-3.1-generate-preview:predictLongRunning";
        String operation = GEMINI + "/v1beta/models/veo-3.1-generate-preview/operations/op-1";
        String file = GEMINI + "/v1beta/files/vid-1:download";
        byte[] mp4 = {0, 0, 0, 0x18, 'f', 't', 'y', 'p'};
        mock.route(start, request -> json(request, 200, "{\"name\":\"models/veo-3.1-generate-preview/operations/op-1\"}"));
        AtomicInteger polls = new AtomicInteger();
        mock.route(operation, request -> json(request, 200, polls.incrementAndGet() < 2 ? "{\"done\":false}"
                : "{\"done\":true,\"response\":{\"generateVideoResponse\":{\"generatedSamples\":[{\"video\":{\"uri\":"
                + "\"https://generativelanguage.googleapis.com/v1beta/files/vid-1:download?alt=media\"}}]}}}"));
        mock.route(file, request -> request.response().putHeader("Content-Type", "video/mp4").end(Buffer.buffer(mp4)));
        HttpResponse<Buffer> r = client.post("/api/google/generate-video",
                "{\"prompt\":\"waves\",\"seconds\":20,\"aspect_ratio\":\"9:16\",\"seed\":3}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"video\":\"" + b64(mp4) + "\"}", r.bodyAsString());
        assertEquals("{\"instances\":[{\"prompt\":\"waves\"}],\"parameters\":{\"negativePrompt\":\"\",\"durationSeconds\":8,"
                + "\"aspectRatio\":\"9:16\",\"personGeneration\":\"allow_all\",\"seed\":3}}", mock.lastCall(start).body());
        assertEquals(2, polls.get());
        assertEquals("GET", mock.lastCall(operation).method());
        assertEquals("gm-key", mock.lastCall(operation).headers().get("x-goog-api-key"));
        assertEquals("gm-key", mock.lastCall(file).headers().get("x-goog-api-key"));
        assertEquals("alt=media", mock.lastCall(file).query());
    }

    @Test
    void aVideoOnAnotherOriginIsFetchedWithoutTheKey() {
        secret("api_key_makersuite", "gm-key");
        mock.route(STUDIO + "veo-2.0-generate-001:predictLongRunning", request -> json(request, 200,
                "{\"name\":\"models/veo-2.0-generate-001/operations/op-2\"}"));
        mock.route(GEMINI + "/v1beta/models/veo-2.0-generate-001/operations/op-2", request -> json(request, 200,
                "{\"done\":true,\"response\":{\"generateVideoResponse\":{\"generatedSamples\":[{\"video\":{\"uri\":\""
                + mock.origin() + "/elsewhere/v.mp4\"}}]}}}"));
        mock.route("/elsewhere/v.mp4", request -> request.response().end("mp4"));
        HttpResponse<Buffer> r = client.post("/api/google/generate-video", "{\"prompt\":\"x\",\"model\":\"veo-2.0-generate-001\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"video\":\"" + b64("mp4".getBytes()) + "\"}", r.bodyAsString());
        assertNull(mock.lastCall("/elsewhere/v.mp4").headers().get("x-goog-api-key"));
    }

    @Test
    void aVeoVideoThroughVertexFullModeUsesTheAccountsTokenAndFetchPredictOperation() throws Exception {
        KeyPair keys = KeyPairGenerator.getInstance("RSA").generateKeyPair();
        String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder().encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        secret("vertexai_service_account_json", JsJson.compact(JsJson.object().put("project_id", "proj-1")
                .put("client_email", "bot@proj-1.iam.gserviceaccount.com").put("private_key", pem)));
        mock.route(GOOGLE_OAUTH + "/token", request -> json(request, 200, "{\"access_token\":\"ya29.t\"}"));
        String models = VERTEX + "/v1/projects/proj-1/locations/us-central1/publishers/google/models/veo-2.0-generate-001:";
        mock.route(models + "predictLongRunning", request -> json(request, 200, "{\"name\":\"projects/proj-1/operations/o-5\"}"));
        mock.route(models + "fetchPredictOperation", request -> json(request, 200,
                "{\"done\":true,\"response\":{\"videos\":[{\"bytesBase64Encoded\":\"AAAAGGZ0eXA=\"}]}}"));
        HttpResponse<Buffer> r = client.post("/api/google/generate-video", "{\"prompt\":\"rain\",\"api\":\"vertexai\","
                + "\"vertexai_auth_mode\":\"full\",\"model\":\"veo-2.0-generate-001\",\"seconds\":2}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"video\":\"AAAAGGZ0eXA=\"}", r.bodyAsString());
        MockCompletionServer.Call job = mock.lastCall(models + "predictLongRunning");
        assertEquals("Bearer ya29.t", job.headers().get("Authorization"));
        assertEquals(5, job.json().at("/parameters/durationSeconds").asInt(), "Veo 2 lasts at least 5 s");
        assertNull(job.json().get("parameters").get("seed"), "only Veo 3 takes a seed");
        MockCompletionServer.Call poll = mock.lastCall(models + "fetchPredictOperation");
        assertEquals("{\"operationName\":\"projects/proj-1/operations/o-5\"}", poll.body());
        assertEquals("Bearer ya29.t", poll.headers().get("Authorization"));
        assertTrue(mock.lastCall(GOOGLE_OAUTH + "/token").body().startsWith("grant_type=urn%3Aietf"));
    }

    @Test
    void badInputIs400AndNothingIsCalled() {
        HttpResponse<Buffer> noKey = client.post("/api/google/generate-image", "{\"prompt\":\"x\"}");
        assertEquals(400, noKey.statusCode());
        assertTrue(noKey.bodyAsString().contains("Google AI Studio API key"), noKey.bodyAsString());
        secret("api_key_makersuite", "gm-key");
        secret("api_key_vertexai", "vx-key");
        HttpResponse<Buffer> model = client.post("/api/google/generate-image", "{\"prompt\":\"x\",\"model\":\"../../files/x?\"}");
        assertEquals(400, model.statusCode());
        assertTrue(model.bodyAsString().contains("model"), model.bodyAsString());
        HttpResponse<Buffer> region = client.post("/api/google/generate-image",
                "{\"prompt\":\"x\",\"api\":\"vertexai\",\"vertexai_region\":\"evil.example/x#\"}");
        assertEquals(400, region.statusCode());
        assertTrue(region.bodyAsString().contains("vertexai_region"), region.bodyAsString());
        assertEquals(400, client.post("/api/google/generate-image",
                "{\"api\":\"vertexai\",\"vertexai_express_project_id\":\"a/b\"}").statusCode());
        assertEquals(400, client.post("/api/google/caption-image", "{\"image\":\"not-a-data-url\"}").statusCode());
        assertEquals(400, client.post("/api/google/generate-native-tts", "{\"text\":\"x\"}").statusCode());
        assertEquals(400, client.post("/api/google/generate-video",
                "{\"api\":\"vertexai\",\"vertexai_auth_mode\":\"full\"}").statusCode());
        assertTrue(mock.calls().isEmpty(), mock.calls().toString());
    }

    @Test
    void aGoogleErrorIsA500NamingTheApi() {
        secret("api_key_makersuite", "gm-key");
        mock.route(STUDIO + "imagen-3.0-generate-002:predict", request -> json(request, 400,
                "{\"error\":{\"message\":\"Imagen API is only accessible to billed users\"}}"));
        HttpResponse<Buffer> r = client.post("/api/google/generate-image", "{\"prompt\":\"x\"}");
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsString().contains("Google AI Studio answered 400"), r.bodyAsString());
    }
}
