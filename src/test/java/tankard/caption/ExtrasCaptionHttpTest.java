package tankard.caption;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.TestServer;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Extras caption module over HTTP on the tiny captioner: the reference captions, refusals, module off. */
class ExtrasCaptionHttpTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static HttpResponse<String> send(TestServer server, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.tankard.extrasPort() + path));
        request = body == null ? request.GET() : request.POST(HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String body(String image) {
        return JsJson.object().put("image", image).toString();
    }

    @Test
    void captionAnswersTheReferenceCaptionOnceTheModelIsLoaded() throws Exception {
        try (TestServer server = TestServer.startIn(LocalCaptionHttpTest.work(LocalCaptionHttpTest.REPO),
                "--enable-modules=caption", "--extras-port", "0")) {
            JsonNode expected = LocalCaptionHttpTest.expected();
            String red = LocalCaptionHttpTest.base64(expected.get("red").get("rgb"), "png");
            HttpResponse<String> reply = send(server, "/api/caption", body(red));
            for (int i = 0; i < 300 && reply.statusCode() == 503; i++) {
                assertTrue(JsJson.parse(reply.body()).path("error").asText().contains("is loading"), reply.body());
                Thread.sleep(50);
                reply = send(server, "/api/caption", body(red));
            }
            assertEquals(200, reply.statusCode(), reply.body());
            assertEquals("{\"caption\":\"a red square\"}", reply.body());
            for (String colour : List.of("green", "blue")) {
                reply = send(server, "/api/caption", body(LocalCaptionHttpTest.base64(expected.get(colour).get("rgb"), "jpeg")));
                assertEquals(200, reply.statusCode(), reply.body());
                assertEquals(expected.get(colour).get("caption").asText(), JsJson.parse(reply.body()).get("caption").asText());
            }
            assertEquals("{\"modules\":[\"caption\"]}", send(server, "/api/modules", null).body());
        }
    }

    @Test
    void aMissingImageIs400AndAnUnreadableOne400WithTheReason() throws Exception {
        try (TestServer server = TestServer.startIn(LocalCaptionHttpTest.work(LocalCaptionHttpTest.REPO),
                "--enable-modules=caption", "--extras-port", "0")) {
            for (String body : List.of("{}", "[]", "not json", "{\"image\": 5}", "{\"image\": null}")) {
                HttpResponse<String> reply = send(server, "/api/caption", body);
                assertEquals(400, reply.statusCode(), body);
                assertEquals("{\"error\":\"\\\"image\\\" is required\"}", reply.body(), body);
            }
            HttpResponse<String> reply = send(server, "/api/caption",
                    body(Base64.getEncoder().encodeToString("no picture".getBytes())));
            assertEquals(400, reply.statusCode(), reply.body());
            assertTrue(reply.body().contains("not a readable image"), reply.body());
        }
    }

    @Test
    void answers403WhenTheModuleIsOff() throws Exception {
        try (TestServer server = TestServer.startIn(LocalCaptionHttpTest.work(LocalCaptionHttpTest.REPO),
                "--enable-modules=classify", "--extras-port", "0")) {
            HttpResponse<String> reply = send(server, "/api/caption", body("x"));
            assertEquals(403, reply.statusCode());
            assertEquals("{\"error\":\"Module 'caption' not enabled in config\"}", reply.body());
        }
    }
}
