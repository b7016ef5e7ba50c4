package tankard.translate;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tankard.json.JsJson;
import tankard.testing.MockCompletionServer;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The translation routes against a mock of each service (ST: src/endpoints/translate.js): the mock answers as the
 * service does, and each test checks what Tankard sent it. Google's, Yandex's, DeepL's, Bing's and lingva.ml's
 * fixed hosts are sent to the mock through {@code tankard.providerOrigins}.
 */
@Timeout(60)
class TranslateHttpTest extends ServerTest {
    private static final String API = "/api/translate/";

    private Vertx mockVertx;
    private MockCompletionServer mock;

    /** Starts the mock, then Tankard with the public hosts sent to it and the extra config.yaml lines. */
    private void startWith(String extraYaml) {
        mockVertx = Vertx.vertx();
        mock = MockCompletionServer.start(mockVertx);
        String origin = mock.origin();
        start(TestServer.providerOrigins(Map.of(
                "https://translate.google.com", origin + "/google",
                "https://translate.yandex.net", origin + "/yandex",
                "https://api-free.deepl.com", origin + "/deepl-free",
                "https://api.deepl.com", origin + "/deepl-pro",
                "https://bing.com", origin + "/bing",
                "https://lingva.ml", origin + "/lingva")) + extraYaml);
    }

    @AfterEach
    void stopMock() {
        if (mock != null) {
            mock.close();
            TestServer.await(mockVertx.close());
        }
    }

    private void secret(String key, String value) {
        assertEquals(200, client.post("/api/secrets/write",
                JsJson.compact(JsJson.object().put("key", key).put("value", value))).statusCode());
    }

    private HttpResponse<Buffer> translate(String route, JsonNode body) {
        return client.post(API + route, JsJson.compact(body));
    }

    private static void json(HttpServerRequest request, int status, String body) {
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body);
    }

    /** A form body or query's fields, decoded. */
    private static Map<String, List<String>> form(String encoded) {
        return new QueryStringDecoder(encoded, false).parameters();
    }

    private static void assertText(String expected, HttpResponse<Buffer> response) {
        assertEquals(200, response.statusCode(), response.bodyAsString());
        assertEquals(expected, response.bodyAsString());
        assertEquals("text/html; charset=utf-8", response.getHeader("Content-Type"));
    }

    private static void assertRefused(int status, String message, HttpResponse<Buffer> response) {
        assertEquals(status, response.statusCode(), response.bodyAsString());
        String error = JsJson.parse(response.body().getBytes()).path("error").asText();
        assertTrue(error.contains(message), error);
    }

    // ---- LibreTranslate

    @Test
    void libreTranslatePostsJsonToTheUrlInTheSecretsWithItsKey() {
        startWith("");
        secret("libre_url", mock.origin() + "/translate");
        secret("libre", "libre-key");
        mock.route("/translate", request -> json(request, 200, "{\"translatedText\":\"你好\"}"));
        assertText("你好", translate("libre", JsJson.object().put("text", "Hello").put("lang", "zh-CN")));
        MockCompletionServer.Call call = mock.lastCall("/translate");
        assertEquals("POST", call.method());
        assertEquals("application/json", call.headers().get("Content-Type"));
        assertEquals("{\"q\":\"Hello\",\"source\":\"auto\",\"target\":\"zh\",\"format\":\"text\",\"api_key\":\"libre-key\"}",
                call.body());
    }

    @Test
    void libreTranslateErrorsAreServerErrorsWithTheServicesAnswer() {
        startWith("");
        secret("libre_url", mock.origin() + "/translate");
        mock.route("/translate", request -> json(request, 403, "{\"error\":\"Invalid API key\"}"));
        assertRefused(500, "LibreTranslate answered 403 Forbidden: {\"error\":\"Invalid API key\"}",
                translate("libre", JsJson.object().put("text", "Hello").put("lang", "de")));
        assertEquals("", mock.lastCall("/translate").json().path("api_key").asText(null)); // none set: "", as ST sends
    }

    @Test
    void badInputIsRefusedWith400BeforeAnyCall() {
        startWith("");
        assertRefused(400, "LibreTranslate URL is not set",
                translate("libre", JsJson.object().put("text", "Hello").put("lang", "de")));
        secret("libre_url", "not a url");
        assertRefused(400, "LibreTranslate URL is not an http(s) URL",
                translate("libre", JsJson.object().put("text", "Hello").put("lang", "de")));
        assertRefused(400, "\"text\" is required", translate("google", JsJson.object().put("lang", "de")));
        assertRefused(400, "\"text\" is required", translate("bing", JsJson.object().put("text", "").put("lang", "de")));
        assertRefused(400, "\"lang\" must be a text", translate("lingva", JsJson.object().put("text", "Hi").put("lang", 3)));
        assertRefused(400, "\"to_lang\" is required",
                translate("onering", JsJson.object().put("text", "Hi").put("from_lang", "en")));
        assertRefused(400, "\"chunks\" must be an array of texts",
                translate("yandex", JsJson.object().put("chunks", "Hello").put("lang", "de")));
        var numbers = JsJson.object().put("lang", "de");
        numbers.putArray("chunks").add(1);
        assertRefused(400, "\"chunks\" must be an array of texts", translate("yandex", numbers));
        assertRefused(400, "DeepL API key is not set",
                translate("deepl", JsJson.object().put("text", "Hello").put("lang", "de")));
        secret("deeplx_url", "ftp://127.0.0.1/translate");
        assertRefused(400, "DeepLX URL is not an http(s) URL",
                translate("deeplx", JsJson.object().put("text", "Hello").put("lang", "de")));
        assertEquals(400, client.post(API + "deeplx", "[1]").statusCode());
        assertEquals(List.of(), mock.calls());
    }

    // ---- Google

    /** Google's batchexecute answer to one MkEWBc call translating into "Olá. Mundo". */
    private static String googleAnswer() {
        var sentences = JsJson.array();
        sentences.addArray().add("Olá.").addNull().addNull().addNull();
        sentences.addArray().add("Mundo").addNull().addNull().addNull();
        var translation = JsJson.array();
        translation.addArray().addNull().addNull().add("en");
        var result = translation.addArray();
        result.addArray().addArray().add("Olá. Mundo").addNull().addNull().addNull().addNull().add(sentences);
        result.add("pt").add(1).add("en");
        var rpc = JsJson.array();
        rpc.addArray().add("wrb.fr").add("MkEWBc").add(JsJson.compact(translation)).addNull().addNull().addNull()
                .add("generic");
        String chunk = JsJson.compact(rpc);
        return ")]}'\n\n" + chunk.length() + "\n" + chunk + "\n58\n[[\"di\",44],[\"af.httprm\",43,\"-1\",10]]\n25\n"
                + "[[\"e\",4,null,null,512]]\n";
    }

    @Test
    void googleSendsOneBatchExecuteCallAndJoinsTheSentences() {
        startWith("");
        String path = "/google/_/TranslateWebserverUi/data/batchexecute";
        mock.route(path, request -> request.response().putHeader("Content-Type", "application/json; charset=utf-8")
                .end(googleAnswer()));
        HttpResponse<Buffer> response = translate("google", JsJson.object().put("text", "Hello. World").put("lang", "pt-BR"));
        assertEquals(200, response.statusCode(), response.bodyAsString());
        assertEquals("Olá. Mundo", response.bodyAsString());
        assertEquals("text/plain; charset=utf-8", response.getHeader("Content-Type"));
        MockCompletionServer.Call call = mock.lastCall(path);
        assertEquals("POST", call.method());
        assertEquals("application/x-www-form-urlencoded;charset=UTF-8", call.headers().get("Content-Type"));
        Map<String, List<String>> query = form(call.query());
        assertEquals(List.of("MkEWBc"), query.get("rpcids"));
        assertEquals(List.of("c"), query.get("rt"));
        assertEquals(List.of("/"), query.get("source-path"));
        assertTrue(query.get("_reqid").get(0).matches("\\d{4}"), query.toString());
        assertTrue(call.body().endsWith("&"), call.body());
        JsonNode request = JsJson.parse(form(call.body()).get("f.req").get(0));
        assertEquals("MkEWBc", request.path(0).path(0).path(0).asText());
        assertEquals("[[\"Hello. World\",\"auto\",\"pt\",false],[null]]", request.path(0).path(0).path(1).asText());
        assertEquals("0", request.path(0).path(0).path(3).asText());
    }

    @Test
    void aTranslationGoogleRejectsIsAServerError() {
        startWith("");
        mock.route("/google/_/TranslateWebserverUi/data/batchexecute", request -> request.response().end(
                ")]}'\n\n104\n[[\"wrb.fr\",\"MkEWBc\",null,null,null,[3],\"generic\"],[\"di\",17],[\"af.httprm\",16,\"1\",6]]\n"));
        assertRefused(500, "Google Translate rejected the translation",
                translate("google", JsJson.object().put("text", "Hello").put("lang", "xx")));
    }

    // ---- Yandex

    @Test
    void yandexSendsEachChunkAndJoinsTheTranslationsWithCommas() {
        startWith("");
        String path = "/yandex/api/v1/tr.json/translate";
        mock.route(path, request -> json(request, 200, "{\"code\":200,\"lang\":\"en-zh\",\"text\":[\"你好\",\"世界\"]}"));
        var body = JsJson.object().put("lang", "zh-TW");
        body.putArray("chunks").add("Hello").add("big world");
        assertText("你好,世界", translate("yandex", body));
        MockCompletionServer.Call call = mock.lastCall(path);
        assertEquals("POST", call.method());
        assertEquals("application/x-www-form-urlencoded", call.headers().get("Content-Type"));
        Map<String, List<String>> query = form(call.query());
        assertTrue(query.get("ucid").get(0).matches("[0-9a-f]{32}"), call.query());
        assertEquals(List.of("android"), query.get("srv"));
        assertEquals(List.of("text"), query.get("format"));
        assertEquals("text=Hello&text=big+world&lang=zh", call.body());
    }

    // ---- Lingva

    @Test
    void lingvaGetsTheTextInThePathFromLingvaMlOrTheUsersInstance() {
        startWith("");
        mock.route("/lingva/api/v1/auto/zh/Hello%20world%3F", request -> json(request, 200,
                "{\"translation\":\"你好世界？\",\"info\":{}}"));
        assertText("你好世界？", translate("lingva", JsJson.object().put("text", "Hello world?").put("lang", "zh-CN")));
        assertEquals("GET", mock.lastCall("/lingva/api/v1/auto/zh/Hello%20world%3F").method());

        secret("lingva_url", mock.origin() + "/mine/api/v1/");
        mock.route("/mine/api/v1/auto/pt/Hi", request -> json(request, 200, "{\"translation\":\"Oi\"}"));
        assertText("Oi", translate("lingva", JsJson.object().put("text", "Hi").put("lang", "pt-PT")));
    }

    // ---- DeepL

    @Test
    void deeplPostsTheFormWithTheKeyAndTheConfiguredFormality() {
        startWith("deepl:\n  formality: prefer_less\n");
        secret("deepl", "deepl-key:fx");
        String answer = "{\"translations\":[{\"detected_source_language\":\"EN\",\"text\":\"Hallo Welt\"}]}";
        mock.route("/deepl-pro/v2/translate", request -> json(request, 200, answer));
        mock.route("/deepl-free/v2/translate", request -> json(request, 200, answer));

        assertText("Hallo Welt", translate("deepl",
                JsJson.object().put("text", "Hello world").put("lang", "de").put("endpoint", "pro")));
        MockCompletionServer.Call pro = mock.lastCall("/deepl-pro/v2/translate");
        assertEquals("POST", pro.method());
        assertEquals("DeepL-Auth-Key deepl-key:fx", pro.headers().get("Authorization"));
        assertEquals("application/json", pro.headers().get("Accept"));
        assertEquals("application/x-www-form-urlencoded", pro.headers().get("Content-Type"));
        assertEquals("text=Hello+world&target_lang=de&formality=prefer_less", pro.body());

        assertText("Hallo Welt", translate("deepl", JsJson.object().put("text", "Hi").put("lang", "zh-TW")));
        assertEquals("text=Hi&target_lang=ZH", mock.lastCall("/deepl-free/v2/translate").body()); // no formality
    }

    @Test
    void deeplsQuotaErrorIsAServerErrorWithItsMessage() {
        startWith("");
        secret("deepl", "deepl-key");
        mock.route("/deepl-free/v2/translate", request -> json(request, 456, "{\"message\":\"Quota exceeded\"}"));
        assertRefused(500, "DeepL answered 456",
                translate("deepl", JsJson.object().put("text", "Hello").put("lang", "fr")));
    }

    // ---- OneRingTranslator and DeepLX

    @Test
    void oneRingGetsTheUrlWithItsQueryReplaced() {
        startWith("");
        secret("oneringtranslator_url", mock.origin() + "/translate?old=1");
        mock.route("/translate", request -> json(request, 200, "{\"result\":\"Привет, мир\"}"));
        assertText("Привет, мир", translate("onering",
                JsJson.object().put("text", "Hello, world").put("from_lang", "en").put("to_lang", "ru")));
        MockCompletionServer.Call call = mock.lastCall("/translate");
        assertEquals("GET", call.method());
        assertEquals("text=Hello%2C+world&from_lang=en&to_lang=ru", call.query());
    }

    @Test
    void deeplxPostsJsonToTheUrlInTheSecrets() {
        startWith("");
        secret("deeplx_url", mock.origin() + "/translate");
        mock.route("/translate", request -> json(request, 200, "{\"code\":200,\"id\":1,\"data\":\"你好\"}"));
        assertText("你好", translate("deeplx", JsJson.object().put("text", "Hello").put("lang", "zh-CN")));
        MockCompletionServer.Call call = mock.lastCall("/translate");
        assertEquals("POST", call.method());
        assertEquals("application/json", call.headers().get("Accept"));
        assertEquals("application/json", call.headers().get("Content-Type"));
        assertEquals("{\"text\":\"Hello\",\"source_lang\":\"auto\",\"target_lang\":\"ZH\"}", call.body());
    }

    @Test
    void deeplxThatAnswersWithoutDataIsAServerError() {
        startWith("");
        secret("deeplx_url", mock.origin() + "/translate");
        mock.route("/translate", request -> json(request, 200, "{\"code\":200}"));
        assertRefused(500, "DeepLX answered without a translation",
                translate("deeplx", JsJson.object().put("text", "Hello").put("lang", "de")));
    }

    // ---- Bing

    private void bingPage(long key) {
        mock.route("/bing/translator", request -> request.response().putHeader("Content-Type", "text/html")
                .end("<html><script>_G={IG:\"5F0A1B\",EF:{}};var params_AbusePreventionHelper = [" + key
                        + ",\"tok-en\",3600000];</script><div id=\"rich_tta\" data-iid=\"translator.5023\"></div></html>"));
    }

    @Test
    void bingFetchesASessionOnceThenPostsEachText() {
        startWith("");
        long key = System.currentTimeMillis();
        bingPage(key);
        mock.route("/bing/ttranslatev3", request -> json(request, 200,
                "[{\"detectedLanguage\":{\"language\":\"en\",\"score\":1.0},"
                        + "\"translations\":[{\"text\":\"你好\",\"to\":\"zh-Hans\"}]}]"));
        assertText("你好", translate("bing", JsJson.object().put("text", "  Hello  ").put("lang", "zh-CN")));
        assertText("你好", translate("bing", JsJson.object().put("text", "Hello again").put("lang", "zh-CN")));

        assertEquals(1, mock.calls().stream().filter(c -> c.path().equals("/bing/translator")).count());
        assertTrue(mock.lastCall("/bing/translator").headers().get("User-Agent").contains("Edg/"));
        MockCompletionServer.Call call = mock.lastCall("/bing/ttranslatev3");
        assertEquals("POST", call.method());
        assertEquals("https://bing.com/translator", call.headers().get("Referer"));
        assertEquals("application/x-www-form-urlencoded", call.headers().get("Content-Type"));
        assertEquals("isVertical=1&&IG=5F0A1B&IID=translator.5023.2&ref=TThis&edgepdftranslator=1", call.query());
        assertEquals("fromLang=auto-detect&text=Hello+again&token=tok-en&key=" + key
                + "&to=zh-Hans&tryFetchingGenderDebiasedTranslations=true", call.body());
        assertEquals("Hello", form(mock.calls().stream().filter(c -> c.path().equals("/bing/ttranslatev3"))
                .findFirst().orElseThrow().body()).get("text").get(0)); // trimmed, as the library trims
    }

    @Test
    void bingRefusesALongTextIntoALanguageWithoutTheShortVariant() {
        startWith("");
        bingPage(System.currentTimeMillis());
        mock.route("/bing/ttranslatev3", request -> json(request, 200,
                "[{\"translations\":[{\"text\":\"粵語\",\"to\":\"yue\"}]}]"));
        assertRefused(400, "Bing Translator translates at most 1000 characters into yue",
                translate("bing", JsJson.object().put("text", "a".repeat(1001)).put("lang", "yue")));
        assertText("粵語", translate("bing", JsJson.object().put("text", "a".repeat(1000)).put("lang", "yue")));
        assertEquals("isVertical=1&&IG=5F0A1B&IID=translator.5023", mock.lastCall("/bing/ttranslatev3").query());
    }

    @Test
    void bingsCaptchaIsAServerErrorAndTheNextCallStartsANewSession() {
        startWith("");
        bingPage(System.currentTimeMillis());
        mock.route("/bing/ttranslatev3", request -> json(request, 200, "{\"ShowCaptcha\":true}"));
        assertRefused(500, "asks for a captcha", translate("bing", JsJson.object().put("text", "Hi").put("lang", "de")));
        mock.route("/bing/ttranslatev3", request -> json(request, 200, "[{\"translations\":[{\"text\":\"Hallo\"}]}]"));
        assertText("Hallo", translate("bing", JsJson.object().put("text", "Hi").put("lang", "de")));
        assertEquals(2, mock.calls().stream().filter(c -> c.path().equals("/bing/translator")).count());
    }
}
