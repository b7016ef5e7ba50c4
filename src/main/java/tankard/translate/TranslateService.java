package tankard.translate;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionStage;

/**
 * ST's Chat Translation services (ST: src/endpoints/translate.js): the request fields and language renames of each
 * route, keys and URLs from the user's secrets as ST reads them, and the translation out of the service's answer.
 * Each method reads the secrets (blocking: call it on a worker) and answers later, when the service has. Input ST
 * would send on to fail there, or crash on, is refused first.
 */
public final class TranslateService {
    static final String LINGVA_DEFAULT = "https://lingva.ml/api/v1";
    static final String ONERING_DEFAULT = "http://127.0.0.1:4990/translate";
    static final String DEEPLX_DEFAULT = "http://127.0.0.1:1188/translate";
    static final String YANDEX = "https://translate.yandex.net/api/v1/tr.json/translate";
    static final String DEEPL_FREE = "https://api-free.deepl.com/v2/translate";
    static final String DEEPL_PRO = "https://api.deepl.com/v2/translate";
    /** The target languages DeepL takes a formality for, as ST lists them. */
    private static final Set<String> DEEPL_FORMAL = Set.of("de", "fr", "it", "es", "nl", "ja", "ru", "pt-BR", "pt-PT");

    private final SecretStore secrets;
    private final ServiceCalls upstream;
    private final String deeplFormality;
    private final GoogleTranslate google;
    private final BingTranslate bing;

    public TranslateService(SecretStore secrets, UpstreamClient upstream, String deeplFormality) {
        this.secrets = secrets;
        this.upstream = new ServiceCalls(upstream);
        this.deeplFormality = deeplFormality;
        this.google = new GoogleTranslate(this.upstream);
        this.bing = new BingTranslate(this.upstream);
    }

    /** {@code /libre}: a POST of JSON to the LibreTranslate URL, which must be set. */
    public CompletionStage<String> libre(String user, JsonNode body) {
        String url = secrets.read(user, SecretKeys.LIBRE_URL);
        if (url.isEmpty()) {
            throw Refusal.badRequest("The LibreTranslate URL is not set");
        }
        checkUrl("LibreTranslate", url);
        String text = required(body, "text");
        String lang = renamed(required(body, "lang"), Map.of("zh-CN", "zh", "zh-TW", "zt", "pt-BR", "pt", "pt-PT", "pt"));
        String key = secrets.read(user, SecretKeys.LIBRE);
        var request = JsJson.object().put("q", text).put("source", "auto").put("target", lang).put("format", "text")
                .put("api_key", key); // "" when none is set, as ST sends it
        return upstream.send("LibreTranslate", UpstreamRequest.post(url, json(), request))
                .thenApply(answer -> translation("LibreTranslate", ServiceCalls.json("LibreTranslate", answer).get("translatedText")));
    }

    /** {@code /google}: Google Translate's web endpoint, as the google-translate-api-x library calls it. */
    public CompletionStage<String> google(JsonNode body) {
        String text = required(body, "text");
        String lang = renamed(required(body, "lang"), Map.of("pt-BR", "pt"));
        return google.translate(text, lang);
    }

    /** {@code /yandex}: the chunks as repeated {@code text} fields; the translated chunks joined with commas, as ST. */
    public CompletionStage<String> yandex(JsonNode body) {
        JsonNode chunks = body.get("chunks");
        if (chunks == null || !chunks.isArray()) {
            throw Refusal.badRequest("\"chunks\" must be an array of texts");
        }
        String lang = renamed(required(body, "lang"), Map.of("pt-PT", "pt", "zh-CN", "zh", "zh-TW", "zh"));
        Form form = new Form();
        for (JsonNode chunk : chunks) {
            if (!chunk.isTextual()) {
                throw Refusal.badRequest("\"chunks\" must be an array of texts");
            }
            form.add("text", chunk.textValue());
        }
        form.add("lang", lang);
        String ucid = UUID.randomUUID().toString().replace("-", "");
        String url = YANDEX + "?ucid=" + ucid + "&srv=android&format=text";
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("Content-Type", "application/x-www-form-urlencoded");
        return upstream.send("Yandex", new UpstreamRequest(HttpMethod.POST, url, headers, form.buffer()))
                .thenApply(answer -> {
                    JsonNode translated = ServiceCalls.json("Yandex", answer).get("text");
                    if (translated == null || !translated.isArray()) {
                        throw Refusal.failed("Yandex answered without a translation");
                    }
                    StringBuilder joined = new StringBuilder(); // Array.join(): commas, nothing for null
                    for (int i = 0; i < translated.size(); i++) {
                        JsonNode part = translated.get(i);
                        joined.append(i == 0 ? "" : ",").append(part.isNull() ? "" : part.asText());
                    }
                    return joined.toString();
                });
    }

    /** {@code /lingva}: a GET of {@code <url>/auto/<lang>/<text>} from the user's Lingva instance or lingva.ml. */
    public CompletionStage<String> lingva(String user, JsonNode body) {
        String base = orDefault(secrets.read(user, SecretKeys.LINGVA_URL), LINGVA_DEFAULT);
        checkUrl("Lingva", base);
        String text = required(body, "text");
        String lang = renamed(required(body, "lang"), Map.of("zh-CN", "zh", "zh-TW", "zh", "pt-BR", "pt", "pt-PT", "pt"));
        // ST's url-join of base, "auto", lang and the encoded text; the language is encoded too, so it stays one step
        String url = base.replaceFirst("/+$", "") + "/auto/" + Urls.encodeUriComponent(lang) + "/"
                + Urls.encodeUriComponent(text);
        return upstream.send("Lingva", UpstreamRequest.get(url, MultiMap.caseInsensitiveMultiMap()))
                .thenApply(answer -> translation("Lingva", ServiceCalls.json("Lingva", answer).get("translation")));
    }

    /** {@code /deepl}: DeepL's free or pro API with the user's key, and ST's configured formality. */
    public CompletionStage<String> deepl(String user, JsonNode body) {
        String key = secrets.read(user, SecretKeys.DEEPL);
        if (key.isEmpty()) {
            throw Refusal.badRequest("The DeepL API key is not set");
        }
        String text = required(body, "text");
        String lang = renamed(required(body, "lang"), Map.of("zh-CN", "ZH", "zh-TW", "ZH"));
        Form form = new Form().add("text", text).add("target_lang", lang);
        if (DEEPL_FORMAL.contains(lang)) {
            form.add("formality", deeplFormality);
        }
        String url = body.path("endpoint").isTextual() && body.get("endpoint").textValue().equals("pro") ? DEEPL_PRO : DEEPL_FREE;
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("Accept", "application/json")
                .set("Authorization", "DeepL-Auth-Key " + key)
                .set("Content-Type", "application/x-www-form-urlencoded");
        return upstream.send("DeepL", new UpstreamRequest(HttpMethod.POST, url, headers, form.buffer()))
                .thenApply(answer -> translation("DeepL", ServiceCalls.json("DeepL", answer).path("translations").path(0).get("text")));
    }

    /** {@code /onering}: a GET of the OneRingTranslator URL, its query replaced by the text and both languages. */
    public CompletionStage<String> onering(String user, JsonNode body) {
        String url = orDefault(secrets.read(user, SecretKeys.ONERING_URL), ONERING_DEFAULT);
        checkUrl("OneRingTranslator", url);
        String query = new Form().add("text", required(body, "text")).add("from_lang", required(body, "from_lang"))
                .add("to_lang", required(body, "to_lang")).toString();
        String withoutQuery = url.replaceFirst("[?#].*$", ""); // ST sets URL.search: the given query goes
        return upstream.send("OneRingTranslator",
                        UpstreamRequest.get(withoutQuery + "?" + query, MultiMap.caseInsensitiveMultiMap()))
                .thenApply(answer -> translation("OneRingTranslator", ServiceCalls.json("OneRingTranslator", answer).get("result")));
    }

    /** {@code /deeplx}: a POST of JSON to the user's DeepLX URL or the local default. */
    public CompletionStage<String> deeplx(String user, JsonNode body) {
        String url = orDefault(secrets.read(user, SecretKeys.DEEPLX_URL), DEEPLX_DEFAULT);
        checkUrl("DeepLX", url);
        String text = required(body, "text");
        String lang = renamed(required(body, "lang"), Map.of("zh-CN", "ZH", "zh-TW", "ZH"));
        var request = JsJson.object().put("text", text).put("source_lang", "auto").put("target_lang", lang);
        return upstream.send("DeepLX", UpstreamRequest.post(url, json().set("Accept", "application/json"), request))
                .thenApply(answer -> translation("DeepLX", ServiceCalls.json("DeepLX", answer).get("data")));
    }

    /** {@code /bing}: Bing Translator's web endpoint, as the bing-translate-api library calls it. */
    public CompletionStage<String> bing(JsonNode body) {
        String text = required(body, "text");
        String lang = renamed(required(body, "lang"), Map.of("zh-CN", "zh-Hans", "zh-TW", "zh-Hant", "pt-BR", "pt"));
        return bing.translate(text, lang);
    }

    // ---- input

    /** A field ST requires (its {@code !value} check), which must be text. */
    /** The translation in a text field of the service's answer. */
    static String translation(String service, JsonNode field) {
        return ServiceCalls.text(service, field, "a translation");
    }

    private static String required(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull() || value.isTextual() && value.textValue().isEmpty()) {
            throw Refusal.badRequest("\"" + field + "\" is required");
        }
        if (!value.isTextual()) {
            throw Refusal.badRequest("\"" + field + "\" must be a text");
        }
        return value.textValue();
    }

    /** The service's own name for a language code the frontend sends, or the code as it is. */
    private static String renamed(String lang, Map<String, String> renames) {
        return renames.getOrDefault(lang, lang);
    }

    private static String orDefault(String secret, String fallback) {
        return secret.isEmpty() ? fallback : secret;
    }

    /** A URL from the user's secrets must be an absolute http(s) URL (ST fails on others with a 500). */
    private static void checkUrl(String service, String url) {
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
                return;
            }
        } catch (URISyntaxException e) {
            // refused below
        }
        throw Refusal.badRequest("The " + service + " URL is not an http(s) URL: " + url);
    }

    private static MultiMap json() {
        return MultiMap.caseInsensitiveMultiMap().set("Content-Type", "application/json");
    }
}
