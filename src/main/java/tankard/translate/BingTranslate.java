package tankard.translate;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bing Translator's web endpoint, called as ST's bing-translate-api library (4.1) calls it: the translator page
 * gives a session (its IG, IID and abuse-prevention key and token, kept until the token expires), then each text
 * is a form POST to {@code ttranslatev3}, the "EPT" variant for short texts into the languages it serves. The
 * source language is always detected, as ST asks. Unlike the library, a failed call drops the session, so the next
 * one starts afresh; and no failed call is retried.
 */
final class BingTranslate {
    static final String ORIGIN = "https://bing.com";
    private static final String SERVICE = "Bing Translator";
    private static final String USER_AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
            + "(KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36 Edg/122.0.0.0";
    private static final int MAX_CHARS = 1000;
    /** Bing's Chinese site takes longer texts. */
    private static final int MAX_CHARS_CN = 5000;
    private static final int MAX_EPT_CHARS = 3000;
    /** The languages the EPT variant serves (the library's {@code eptLangs}). */
    private static final Set<String> EPT_LANGS = Set.of("af", "sq", "am", "ar", "hy", "az", "bn", "bs", "bg", "ca",
            "zh-Hans", "zh-Hant", "hr", "cs", "da", "prs", "nl", "en", "et", "fil", "fi", "fr", "de", "el", "gu", "ht",
            "he", "hi", "hu", "is", "id", "iu", "ga", "it", "ja", "kn", "kk", "km", "ko", "ku", "lo", "lv", "lt", "mg",
            "ms", "ml", "mt", "mr", "my", "mi", "ne", "nb", "or", "ps", "fa", "pl", "pt", "pt-PT", "pa", "ro", "ru",
            "sm", "sr-Cyrl", "sr-Latn", "sk", "sl", "es", "sw", "sv", "ta", "te", "th", "to", "tr", "uk", "ur", "vi",
            "cy");
    private static final Pattern SUBDOMAIN = Pattern.compile("^https?://(\\w+)\\.bing\\.com", Pattern.CASE_INSENSITIVE);
    private static final Pattern IG = Pattern.compile("IG:\"([^\"]+)\"");
    private static final Pattern IID = Pattern.compile("data-iid=\"([^\"]+)\"");
    private static final Pattern ABUSE_PREVENTION = Pattern.compile("params_AbusePreventionHelper\\s?=\\s?([^\\]]+])");

    /** What the translator page gave; {@code key} is also when the token was issued. */
    private record Session(String subdomain, String ig, String iid, long key, String token, long lifetimeMs,
                           AtomicInteger count) {
        String origin() {
            return BingTranslate.origin(subdomain);
        }

        boolean expired() {
            return System.currentTimeMillis() - key > lifetimeMs;
        }
    }

    private final ServiceCalls upstream;
    private volatile Session session;

    BingTranslate(ServiceCalls upstream) {
        this.upstream = upstream;
    }

    CompletionStage<String> translate(String text, String lang) {
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            return CompletableFuture.completedFuture(""); // the library answers nothing, and ST sends that
        }
        boolean ept = trimmed.length() <= MAX_EPT_CHARS && EPT_LANGS.contains(lang);
        return session().thenCompose(current -> {
            int max = current.subdomain().equals("cn") ? MAX_CHARS_CN : MAX_CHARS;
            if (!ept && trimmed.length() > max) {
                throw Refusal.badRequest(SERVICE + " translates at most " + max + " characters into " + lang);
            }
            return send(current, trimmed, lang, ept);
        }).whenComplete((done, failure) -> {
            if (failure != null) {
                session = null;
            }
        });
    }

    private CompletionStage<Session> session() {
        Session current = session;
        if (current != null && !current.expired()) {
            return CompletableFuture.completedFuture(current);
        }
        String subdomain = current == null ? "" : current.subdomain();
        String page = origin(subdomain) + "/translator";
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("User-Agent", USER_AGENT);
        return upstream.send(SERVICE, UpstreamRequest.get(page, headers)).thenApply(answer -> {
            Session fresh = parseSession(answer, subdomain);
            session = fresh;
            return fresh;
        });
    }

    /** The session in the translator page; the subdomain Bing redirected to, if it did. */
    private static Session parseSession(UpstreamClient.Fetched answer, String subdomain) {
        Matcher redirected = SUBDOMAIN.matcher(answer.head().request().absoluteURI());
        String page = answer.body().toString(StandardCharsets.UTF_8);
        JsonNode abusePrevention = JsJson.tryParse(find(ABUSE_PREVENTION, page, "params_AbusePreventionHelper")
                .getBytes(StandardCharsets.UTF_8));
        if (abusePrevention == null || !abusePrevention.path(0).canConvertToLong()
                || !abusePrevention.path(1).isTextual() || !abusePrevention.path(2).canConvertToLong()) {
            throw Refusal.failed(SERVICE + "'s page has no usable params_AbusePreventionHelper");
        }
        return new Session(redirected.find() ? redirected.group(1).toLowerCase(Locale.ROOT) : subdomain,
                find(IG, page, "IG"), find(IID, page, "data-iid"), abusePrevention.get(0).asLong(),
                abusePrevention.get(1).textValue(), abusePrevention.get(2).asLong(), new AtomicInteger());
    }

    /** {@code https://bing.com}, or the subdomain's origin. */
    private static String origin(String subdomain) {
        return subdomain.isEmpty() ? ORIGIN : "https://" + subdomain + ".bing.com";
    }

    private static String find(Pattern pattern, String page, String name) {
        Matcher found = pattern.matcher(page);
        if (!found.find()) {
            throw Refusal.failed(SERVICE + "'s page has no " + name);
        }
        return found.group(1);
    }

    private CompletionStage<String> send(Session current, String text, String lang, boolean ept) {
        String url = current.origin() + "/ttranslatev3?isVertical=1&&IG=" + current.ig() + "&IID=" + current.iid()
                + (ept ? "." + current.count().incrementAndGet() + "&ref=TThis&edgepdftranslator=1" : "");
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("User-Agent", USER_AGENT)
                .set("Referer", current.origin() + "/translator")
                .set("Content-Type", "application/x-www-form-urlencoded");
        return upstream.send(SERVICE, new UpstreamRequest(HttpMethod.POST, url, headers,
                        form(current, text, lang).buffer()))
                .thenCompose(answer -> {
                    String type = answer.contentType();
                    if (type != null && type.contains("application/json")) {
                        return CompletableFuture.completedFuture(TranslateService.translation(SERVICE,
                                translations(answer).path(0).path("translations").path(0).get("text")));
                    }
                    if (answer.head().getHeader("isgenderdebiasedtranslation") == null) {
                        return CompletableFuture.completedFuture(""); // neither: the library has no translation
                    }
                    // a gendered translation comes as HTML; asked again, as JSON, the masculine one is ST's
                    Form again = form(current, text, lang).add("isGenderDebiasViewPresent", "true");
                    return upstream.send(SERVICE, new UpstreamRequest(HttpMethod.POST, url, headers, again.buffer()))
                            .thenApply(gendered -> TranslateService.translation(SERVICE,
                                    translations(gendered).get("masculineTranslation")));
                });
    }

    private static Form form(Session current, String text, String lang) {
        return new Form().add("fromLang", "auto-detect").add("text", text).add("token", current.token())
                .add("key", String.valueOf(current.key())).add("to", lang)
                .add("tryFetchingGenderDebiasedTranslations", "true");
    }

    /** The JSON answer, unless it is Bing's captcha or error object. */
    private static JsonNode translations(UpstreamClient.Fetched answer) {
        JsonNode json = ServiceCalls.json(SERVICE, answer);
        if (json.path("ShowCaptcha").asBoolean(false)) {
            throw Refusal.failed(SERVICE + " asks for a captcha: take care not to translate too often");
        }
        if (json.path("StatusCode").asInt() == 401) {
            throw Refusal.failed(SERVICE + "'s translation limit is exceeded; try again later");
        }
        if (json.has("statusCode")) {
            throw Refusal.failed(SERVICE + " answered an error: " + JsJson.compact(json));
        }
        return json;
    }
}
