package tankard.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionStage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ST's {@code /transcript} (src/endpoints/search.js, after the youtube-transcript package): a video's captions
 * as one text. The caption tracks come from the video's page, as in ST, or else from YouTube's player API with
 * the Android client, as the package does now; the track's URL must be YouTube's, as the package requires.
 */
public final class YouTubeTranscripts {
    /** ST's visitHeaders' User-Agent, which its YouTube calls send too. */
    static final String USER_AGENT = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 "
            + "(KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36";
    private static final String WATCH_PAGE = "https://www.youtube.com/watch?v=";
    private static final String PLAYER_API = "https://www.youtube.com/youtubei/v1/player?prettyPrint=false";
    private static final String ANDROID_CLIENT_VERSION = "20.10.38";
    private static final String ANDROID_USER_AGENT = "com.google.android.youtube/" + ANDROID_CLIENT_VERSION
            + " (Linux; U; Android 14)";
    /** Video ids and language codes go into a URL and a header: only their own characters are let through. */
    private static final Pattern VIDEO_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final Pattern LANGUAGE = Pattern.compile("[A-Za-z0-9_-]{1,35}");
    private static final String CAPTIONS = "\"captions\":";
    private static final Pattern CLASSIC_LINE = Pattern.compile("<text start=\"([^\"]*)\" dur=\"([^\"]*)\">([^<]*)</text>");
    private static final Pattern SRV3_LINE = Pattern.compile("<p\\s+t=\"(\\d+)\"\\s+d=\"(\\d+)\"[^>]*>([\\s\\S]*?)</p>");
    private static final Pattern SRV3_WORD = Pattern.compile("<s[^>]*>([^<]*)</s>");
    private static final Pattern TAG = Pattern.compile("<[^>]+>");
    private static final Pattern ENTITY = Pattern.compile("&(#x[0-9a-fA-F]{1,8}|#[0-9]{1,10}|amp|lt|gt|quot|apos|nbsp);");

    /** A transcript YouTube does not give, with ST's reason. */
    private static final class Unavailable extends RuntimeException {
        Unavailable(String reason) {
            super(reason, null, false, false);
        }
    }

    private final Upstream upstream;

    public YouTubeTranscripts(UpstreamClient upstream) {
        this.upstream = new Upstream(upstream);
    }

    /**
     * The transcript as text, or with {@code json} as {@code {transcript, html}} (the video page too), where a
     * missing transcript is {@code ""} rather than a 500.
     */
    public CompletionStage<SearchAnswer> transcript(JsonNode body) {
        String id = Fields.text(body, "id");
        if (id == null || id.isEmpty()) {
            throw Refusal.badRequest("Id is required for /transcript");
        }
        if (!VIDEO_ID.matcher(id).matches()) {
            throw Refusal.badRequest("Not a YouTube video id: " + id);
        }
        String lang = Fields.text(body, "lang");
        if (lang != null && lang.isEmpty()) {
            lang = null;
        }
        if (lang != null && !LANGUAGE.matcher(lang).matches()) {
            throw Refusal.badRequest("Not a language code: " + lang);
        }
        String language = lang;
        boolean json = Js.truthy(body.get("json"));
        return upstream.fetch(UpstreamRequest.get(WATCH_PAGE + id, headers(language))).compose(answer -> {
            String page = answer.body().toString();
            return track(page, id, language)
                    .compose(track -> captions(track, language))
                    .map(text -> json ? SearchAnswer.json(JsJson.object().put("transcript", text).put("html", page))
                            : SearchAnswer.text(200, text))
                    .recover(e -> {
                        if (json) {
                            return Future.succeededFuture(SearchAnswer.json(JsJson.object().put("html", page)
                                    .put("transcript", "")));
                        }
                        // ST logs the reason and sends a bare 500; the frontend shows the body, so it is the reason
                        return e instanceof Unavailable ? Future.succeededFuture(SearchAnswer.text(500, e.getMessage()))
                                : Future.failedFuture(e);
                    });
        }).toCompletionStage();
    }

    private static MultiMap headers(String lang) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("User-Agent", USER_AGENT);
        if (lang != null) {
            headers.set("Accept-Language", lang);
        }
        return headers;
    }

    /** The caption track in the language (the first one without): the page's, else the player API's. */
    private Future<JsonNode> track(String page, String id, String lang) {
        JsonNode tracks;
        try {
            tracks = pageTracks(page);
        } catch (Unavailable onPage) {
            return playerTracks(id).map(fromApi -> {
                if (fromApi == null) {
                    throw onPage;
                }
                return choose(fromApi, lang);
            });
        }
        return Future.succeededFuture(tracks).map(found -> choose(found, lang));
    }

    /** ST's reading of the captions in the video page, with its reasons when there are none. */
    private static JsonNode pageTracks(String page) {
        int start = page.indexOf(CAPTIONS);
        if (start < 0) {
            if (page.contains("class=\"g-recaptcha\"")) {
                throw new Unavailable("Too many requests");
            }
            if (!page.contains("\"playabilityStatus\":")) {
                throw new Unavailable("Video is not available");
            }
            throw new Unavailable("Transcript not available");
        }
        String rest = page.substring(start + CAPTIONS.length());
        rest = before(before(rest, CAPTIONS), ",\"videoDetails");
        JsonNode captions = JsJson.tryParse(rest.replaceFirst("\n", "").getBytes(StandardCharsets.UTF_8));
        JsonNode renderer = captions == null ? null : captions.get("playerCaptionsTracklistRenderer");
        if (renderer == null || !renderer.isObject()) {
            throw new Unavailable("Transcript disabled");
        }
        JsonNode tracks = renderer.get("captionTracks");
        if (tracks == null || !tracks.isArray() || tracks.isEmpty()) {
            throw new Unavailable("Transcript not available");
        }
        return tracks;
    }

    private static String before(String text, String marker) {
        int end = text.indexOf(marker);
        return end < 0 ? text : text.substring(0, end);
    }

    /** The youtube-transcript package's call: the player answer for the Android client; null when it has no tracks. */
    private Future<JsonNode> playerTracks(String id) {
        ObjectNode request = JsJson.object();
        request.putObject("context").putObject("client").put("clientName", "ANDROID")
                .put("clientVersion", ANDROID_CLIENT_VERSION);
        request.put("videoId", id);
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("Content-Type", "application/json")
                .set("User-Agent", ANDROID_USER_AGENT);
        return upstream.fetch(UpstreamRequest.post(PLAYER_API, headers, request)).map(answer -> {
            JsonNode player = answer.ok() ? JsJson.tryParse(answer.body().getBytes()) : null;
            JsonNode tracks = player == null ? null
                    : player.path("captions").path("playerCaptionsTracklistRenderer").path("captionTracks");
            return tracks != null && tracks.isArray() && !tracks.isEmpty() ? tracks : null;
        }).otherwise((JsonNode) null);
    }

    private static JsonNode choose(JsonNode tracks, String lang) {
        if (lang == null) {
            return tracks.get(0);
        }
        for (JsonNode track : tracks) {
            if (lang.equals(track.path("languageCode").asText(null))) {
                return track;
            }
        }
        throw new Unavailable("Transcript not available in this language");
    }

    /** The track's captions as one line of text; its URL must be YouTube's, so a page cannot send Tankard elsewhere. */
    private Future<String> captions(JsonNode track, String lang) {
        String url = track.path("baseUrl").asText("");
        if (!onYouTube(url)) {
            return Future.failedFuture(new Unavailable("Transcript not available"));
        }
        return upstream.fetch(UpstreamRequest.get(url, headers(lang))).map(answer -> {
            if (!answer.ok()) {
                throw new Unavailable("Transcript request failed");
            }
            return String.join(" ", lines(answer.body().toString()));
        });
    }

    private static boolean onYouTube(String url) {
        try {
            URI uri = new URI(url);
            String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
            return "https".equalsIgnoreCase(uri.getScheme()) && (host.equals("youtube.com") || host.endsWith(".youtube.com"));
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /**
     * The caption lines: the srv3 format's paragraphs of words (the package's reading), else the classic
     * {@code <text>} lines, whose text is encoded twice (ST decodes it twice).
     */
    static List<String> lines(String xml) {
        List<String> lines = new ArrayList<>();
        Matcher paragraph = SRV3_LINE.matcher(xml);
        while (paragraph.find()) {
            String inner = paragraph.group(3);
            StringBuilder text = new StringBuilder();
            Matcher word = SRV3_WORD.matcher(inner);
            while (word.find()) {
                text.append(word.group(1));
            }
            String line = decode(text.isEmpty() ? TAG.matcher(inner).replaceAll("") : text.toString()).trim();
            if (!line.isEmpty()) {
                lines.add(line);
            }
        }
        if (!lines.isEmpty()) {
            return lines;
        }
        Matcher classic = CLASSIC_LINE.matcher(xml);
        while (classic.find()) {
            lines.add(decode(decode(classic.group(3))));
        }
        return lines;
    }

    /** The HTML entities captions use. */
    static String decode(String text) {
        return ENTITY.matcher(text).replaceAll(entity -> Matcher.quoteReplacement(character(entity.group(1))));
    }

    private static String character(String name) {
        return switch (name) {
            case "amp" -> "&";
            case "lt" -> "<";
            case "gt" -> ">";
            case "quot" -> "\"";
            case "apos" -> "'";
            case "nbsp" -> "\u00a0";
            default -> {
                boolean hex = name.startsWith("#x");
                long code = Long.parseLong(name.substring(hex ? 2 : 1), hex ? 16 : 10);
                yield Character.isValidCodePoint((int) Math.min(code, Integer.MAX_VALUE))
                        ? new String(Character.toChars((int) code)) : "\ufffd";
            }
        };
    }
}
