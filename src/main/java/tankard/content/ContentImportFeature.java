package tankard.content;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;
import tankard.character.CardWriter;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.http.ContentDisposition;
import tankard.http.Feature;
import tankard.http.Routes;
import tankard.json.JsJson;
import tankard.util.Sanitize;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code /api/content/importURL} and {@code importUUID} (ST: src/endpoints/content-manager.js): a character card or
 * lorebook fetched from Chub, JanitorAI, Pygmalion, AICharacterCards, RisuAI Realm, Perchance or a host of
 * {@code whitelistImportDomains}, handed to the frontend as a file to import. Every call goes through the
 * {@link UpstreamClient} (outbound filter, size limit; the sites' fixed origins can be rebased with
 * {@code tankard.providerOrigins}), Perchance too.
 */
public final class ContentImportFeature implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(ContentImportFeature.class);
    /** The largest card, lorebook or avatar fetched; they are held in memory. */
    static final long LIMIT = 64L * 1024 * 1024;
    private static final Pattern UUID = Pattern.compile("[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}");
    private static final Pattern RISU = Pattern.compile("^https?://realm\\.risuai\\.net/character/([a-f0-9-]+)/?$",
            Pattern.CASE_INSENSITIVE);
    private static final String USER_AGENT = "SillyTavern";
    /** A Perchance character id, {@code Name~<32 hex>.gz} (JavaScript's {@code \\w}: ASCII letters, digits, _). */
    private static final Pattern PERCHANCE_ID = Pattern.compile("[A-Za-z0-9_]+~[a-f0-9]{32}\\.gz");
    /** What follows the {@code ~} of a Perchance id or URL, if it can go into a URL path as it is. */
    private static final Pattern PERCHANCE_SLUG = Pattern.compile("[A-Za-z0-9._-]+");

    private final TankardConfig config;
    private final UpstreamClient downloader;
    private final Supplier<byte[]> defaultAvatar;

    public ContentImportFeature(TankardConfig config, UpstreamClient downloader, Supplier<byte[]> defaultAvatar) {
        this.config = config;
        this.downloader = downloader;
        this.defaultAvatar = defaultAvatar;
    }

    /** A downloaded file: its bytes, the name it is offered under, its type (null: none sent). */
    record Content(byte[] bytes, String fileName, String fileType) {
    }

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/content/importURL").handler(routes.answering(request ->
                importUrl(request.ctx(), request.body().get("url"))));
        router.post("/api/content/importUUID").handler(routes.answering(request ->
                importId(request.ctx(), request.body().get("url"))));
    }

    private void importUrl(RoutingContext ctx, JsonNode value) {
        String url = required(value);
        String host = host(url);
        String type = "character";
        Future<Content> result;
        if (host.contains("pygmalion.chat") || host.contains("janitorai")) {
            Matcher uuid = UUID.matcher(url);
            if (!uuid.find()) {
                throw Refusal.notFound("No character id in the URL");
            }
            result = host.contains("janitorai") ? janny(uuid.group()) : pygmalion(uuid.group());
        } else if (host.contains("aicharactercards.com")) {
            List<String> parts = Arrays.stream(URI.create(url.trim()).getPath().split("/")).filter(s -> !s.isEmpty()).toList();
            if (parts.size() < 2) {
                throw Refusal.notFound("No card in the URL");
            }
            result = aicc(parts.get(parts.size() - 2) + "/" + parts.get(parts.size() - 1));
        } else if (host.contains("chub.ai") || host.contains("characterhub.org")) {
            String[] chub = parseChub(url);
            if (chub == null) {
                throw Refusal.notFound("Not a Chub character or lorebook URL");
            }
            type = chub[1];
            result = type.equals("lorebook") ? chubLorebook(chub[0]) : chubCharacter(chub[0]);
        } else if (host.contains("realm.risuai.net")) {
            Matcher risu = RISU.matcher(url);
            if (!risu.matches()) {
                throw Refusal.notFound("Not a RisuAI Realm character URL");
            }
            result = risu(risu.group(1));
        } else if (host.contains("perchance.org")) {
            String slug = perchanceSlug(url);
            if (slug.isEmpty()) {
                throw Refusal.notFound("No Perchance character in the URL");
            }
            result = perchance(slug);
        } else if (config.outbound().importDomains().contains(host)) {
            result = generic(url);
        } else {
            LOG.error("Received an import for \"{}\", but site is not whitelisted. This domain must be added to the config "
                    + "key \"whitelistImportDomains\" to allow import from this source.", host);
            throw Refusal.notFound("Importing from " + host + " is not supported; add it to whitelistImportDomains");
        }
        answer(ctx, result, type, true);
    }

    private void importId(RoutingContext ctx, JsonNode value) {
        String id = required(value);
        boolean janny = id.contains("_character");
        String type = id.contains("lorebook") ? "lorebook" : "character";
        Future<Content> result;
        if (!janny && id.length() == 36) {
            result = pygmalion(id);
        } else if (janny) {
            result = janny(id.split("_")[0]);
        } else if (id.startsWith("AICC/")) {
            String[] parts = id.split("/", -1);
            result = aicc(parts[1] + "/" + (parts.length > 2 ? parts[2] : "undefined"));
        } else if (PERCHANCE_ID.matcher(id).matches()) {
            result = perchance(perchanceSlug(id));
        } else {
            result = type.equals("lorebook") ? chubLorebook(id) : chubCharacter(id);
        }
        answer(ctx, result, type, false);
    }

    private static void answer(RoutingContext ctx, Future<Content> result, String type, boolean encodeName) {
        result.onSuccess(content -> {
            var response = ctx.response();
            if (content.fileType() != null) {
                response.putHeader("Content-Type", content.fileType());
            }
            String name = encodeName ? ContentDisposition.encodeUri(content.fileName()) : content.fileName();
            response.putHeader("Content-Disposition", "attachment; filename=\"" + name + "\"")
                    .putHeader("X-Custom-Content-Type", type).end(Buffer.buffer(content.bytes()));
        }).onFailure(e -> ctx.fail(UpstreamClient.DownloadException.refusal(e, "Importing content failed: ")));
    }

    // ---- the sites

    private Future<Content> chubCharacter(String id) {
        String[] parts = id.split("/", -1);
        String creator = parts[0];
        return json(HttpMethod.GET, "https://api.chub.ai/api/characters/" + id + "?full=true", null,
                "Failed to fetch character metadata").compose(metadata -> {
            JsonNode node = metadata.path("node");
            JsonNode definition = node.path("definition");
            ObjectNode data = JsJson.object();
            copy(definition, "name", data, "name");
            copy(definition, "personality", data, "description");
            copy(definition, "tavern_personality", data, "personality");
            copy(definition, "scenario", data, "scenario");
            copy(definition, "first_message", data, "first_mes");
            copy(definition, "example_dialogs", data, "mes_example");
            copy(definition, "description", data, "creator_notes");
            copy(definition, "system_prompt", data, "system_prompt");
            copy(definition, "post_history_instructions", data, "post_history_instructions");
            copy(definition, "alternate_greetings", data, "alternate_greetings");
            copy(node, "topics", data, "tags");
            data.put("creator", creator).put("character_version", "");
            copy(definition, "embedded_lorebook", data, "character_book");
            copy(definition, "extensions", data, "extensions");
            ObjectNode card = JsJson.object();
            card.set("data", data);
            card.put("spec", "chara_card_v2").put("spec_version", "2.0");
            String imageUrl = node.path("max_res_url").isTextual() ? node.get("max_res_url").textValue() : "";
            Future<byte[]> image = imageUrl.isEmpty() ? Future.succeededFuture(defaultAvatar.get())
                    : downloader.get(imageUrl, MultiMap.caseInsensitiveMultiMap(), LIMIT)
                    .map(fetched -> fetched.ok() ? fetched.body().getBytes() : defaultAvatar.get());
            String name = data.path("name").asText("undefined");
            return image.compose(png -> worker(() -> new Content(CardWriter.write(png, JsJson.stringifyAsJs(card)),
                    Sanitize.filename(name) + ".png", "image/png")));
        });
    }

    private Future<Content> chubLorebook(String id) {
        String[] parts = id.split("/", -1);
        return json(HttpMethod.GET, "https://api.chub.ai/api/" + id, null, "Failed to fetch lorebook metadata")
                .compose(metadata -> {
                    JsonNode projectId = metadata.path("node").path("id");
                    if (!projectId.isNumber() && !(projectId.isTextual() && !projectId.textValue().isEmpty())) {
                        return Future.failedFuture(new IllegalStateException("Project ID not found in lorebook metadata"));
                    }
                    String url = "https://api.chub.ai/api/v4/projects/" + projectId.asText()
                            + "/repository/files/raw%252Fsillytavern_raw.json/raw";
                    return downloader.get(url, jsonHeaders(), LIMIT).compose(file -> file.ok()
                            ? Future.succeededFuture(new Content(file.body().getBytes(),
                            Sanitize.filename(parts.length > 2 ? parts[2] : "undefined") + ".json", file.contentType()))
                            : Future.failedFuture(new IllegalStateException("Failed to download lorebook")));
                });
    }

    private Future<Content> pygmalion(String id) {
        return json(HttpMethod.GET, "https://server.pygmalion.chat/api/export/character/" + id + "/v2", null,
                "Failed to download character").compose(json -> {
            JsonNode character = json.get("character");
            if (character == null || !character.isObject()) {
                return Future.failedFuture(new IllegalStateException("Failed to download character"));
            }
            JsonNode avatar = character.path("data").path("avatar");
            return worker(() -> new Content(JsJson.stringifyAsJs(json).getBytes(StandardCharsets.UTF_8),
                    Sanitize.filename(id) + ".json", "application/json")).compose(asJson -> {
                if (!avatar.isTextual() || avatar.textValue().isEmpty()) {
                    return Future.succeededFuture(asJson);
                }
                return downloader.get(avatar.textValue(), MultiMap.caseInsensitiveMultiMap(), LIMIT)
                        .compose(image -> worker(() -> new Content(CardWriter.write(image.body().getBytes(),
                                JsJson.stringifyAsJs(character)), Sanitize.filename(id) + ".png", "image/png")))
                        .recover(e -> {
                            LOG.warn("Failed to download the Pygmalion avatar, using JSON instead: {}", e.getMessage());
                            return Future.succeededFuture(asJson);
                        });
            });
        });
    }

    private Future<Content> janny(String uuid) {
        Buffer body = Buffer.buffer(JsJson.compact(JsJson.object().put("characterId", uuid)));
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/json");
        return json(HttpMethod.POST, "https://api.jannyai.com/api/v1/download", headers, body, "Failed to download character")
                .compose(json -> {
                    if (!"ok".equals(json.path("status").asText()) || !json.path("downloadUrl").isTextual()) {
                        return Future.failedFuture(new IllegalStateException("Failed to download character"));
                    }
                    return file(json.get("downloadUrl").textValue(), "Failed to download character")
                            .map(image -> new Content(image.body().getBytes(), Sanitize.filename(uuid) + ".png",
                                    image.contentType()));
                });
    }

    private Future<Content> aicc(String id) {
        return file("https://aicharactercards.com/wp-json/pngapi/v1/image/" + id, "Failed to download character")
                .map(result -> new Content(result.body().getBytes(), Sanitize.filename(id) + ".png",
                        result.contentType() != null ? result.contentType() : "image/png"));
    }

    private Future<Content> risu(String uuid) {
        return file("https://realm.risuai.net/api/v1/download/png-v3/" + uuid + "?non_commercial=true",
                "Failed to download character")
                .map(result -> new Content(result.body().getBytes(), Sanitize.filename(uuid) + ".png", "image/png"));
    }

    /** A file from an allowed host: named after the URL's last segment, ".png" added to a PNG without extension. */
    private Future<Content> generic(String url) {
        return downloader.get(url, MultiMap.caseInsensitiveMultiMap(), LIMIT).compose(result -> {
            if (!result.ok()) {
                return Future.failedFuture(Refusal.notFound("The file could not be downloaded (status " + result.status() + ")"));
            }
            String[] segments = url.split("\\?")[0].split("/");
            String name = Sanitize.filename(segments[segments.length - 1]);
            String type = result.contentType() != null ? result.contentType() : "image/png";
            if (type.equals("image/png") && !name.matches(".*\\.\\w+$")) {
                name += ".png";
            }
            return Future.succeededFuture(new Content(result.body().getBytes(), name, type));
        });
    }

    /**
     * A Perchance character (ST's downloadPerchanceCharacter): its gzipped JSON from user.uploads.dev, the
     * {@code addCharacter} part turned into a V2 card on its avatar (a data URL, a link, or the default image),
     * any avatar that is not a PNG converted to one. An error status answers 404 as in ST.
     */
    private Future<Content> perchance(String slug) {
        String url = "https://user.uploads.dev/file/" + slug;
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/json")
                .add("User-Agent", USER_AGENT);
        return downloader.get(url, headers, LIMIT).compose(result -> {
            if (!result.ok()) {
                return Future.failedFuture(Refusal.notFound("Perchance answered " + result.status() + " for " + slug));
            }
            return worker(() -> PerchanceCards.character(result.body().getBytes()));
        }).compose(character -> perchanceAvatar(character.path("avatar").path("url").asText(""))
                .compose(avatar -> worker(() -> {
                    ObjectNode card = PerchanceCards.card(character, slug, url);
                    return new Content(CardWriter.write(avatar, JsJson.stringifyAsJs(card)),
                            Sanitize.filename(card.path("data").path("name").asText()) + ".png", "image/png");
                })));
    }

    /** The avatar as PNG: decoded from a data URL, downloaded, or the default image when there is none or it fails. */
    private Future<byte[]> perchanceAvatar(String avatarUrl) {
        if (avatarUrl.startsWith("data:image/")) {
            return worker(() -> PerchanceCards.png(PerchanceCards.dataUrlBytes(avatarUrl)));
        }
        if (!avatarUrl.matches("(?i)https?://\\S+")) {
            LOG.warn("The Perchance character has no avatar, or not a valid URL: using the default avatar");
            return Future.succeededFuture(defaultAvatar.get());
        }
        return downloader.get(avatarUrl, MultiMap.caseInsensitiveMultiMap().add("User-Agent", USER_AGENT), LIMIT)
                .compose(image -> {
                    if (!image.ok()) {
                        LOG.warn("Cannot fetch the Perchance avatar {} (status {}): using the default avatar; you can "
                                + "download it and assign it to the character yourself", avatarUrl, image.status());
                        return Future.succeededFuture(defaultAvatar.get());
                    }
                    byte[] bytes = image.body().getBytes();
                    return "image/png".equals(image.contentType()) ? Future.succeededFuture(bytes)
                            : worker(() -> PerchanceCards.png(bytes));
                });
    }

    /** The slug after the {@code ~} of a Perchance id or URL; empty when there is none or it is not URL-safe. */
    static String perchanceSlug(String idOrUrl) {
        String[] parts = idOrUrl.split("~", -1);
        String slug = parts.length > 1 ? parts[1] : "";
        return PERCHANCE_SLUG.matcher(slug).matches() ? slug : "";
    }

    // ---- helpers

    private Future<UpstreamClient.Fetched> file(String url, String failure) {
        return downloader.get(url, MultiMap.caseInsensitiveMultiMap(), LIMIT).compose(result -> result.ok()
                ? Future.succeededFuture(result) : Future.failedFuture(new IllegalStateException(failure + " (status "
                + result.status() + ")")));
    }

    private Future<JsonNode> json(HttpMethod method, String url, Buffer body, String failure) {
        return json(method, url, jsonHeaders(), body, failure);
    }

    /** A JSON answer, parsed on a worker (it may be up to {@link #LIMIT}); fails on an error status or no JSON. */
    private Future<JsonNode> json(HttpMethod method, String url, MultiMap headers, Buffer body, String failure) {
        return downloader.download(new UpstreamRequest(method, url, headers, body), LIMIT).compose(result -> worker(() ->
                result.ok() ? JsJson.tryParse(result.body().getBytes()) : null).compose(json -> json == null
                ? Future.failedFuture(new IllegalStateException(failure + " (status " + result.status() + ")"))
                : Future.succeededFuture(json)));
    }

    private static MultiMap jsonHeaders() {
        return MultiMap.caseInsensitiveMultiMap().add("Accept", "application/json").add("User-Agent", USER_AGENT);
    }

    private static <T> Future<T> worker(java.util.concurrent.Callable<T> work) {
        return io.vertx.core.Vertx.currentContext().executeBlocking(work, false);
    }

    private static void copy(JsonNode from, String field, ObjectNode to, String as) {
        JsonNode value = from.get(field);
        if (value != null) {
            to.set(as, value);
        }
    }

    /** ST's parseChubUrl: {id, "character"|"lorebook"}, or null. */
    static String[] parseChub(String url) {
        String[] split = url.split("/", -1);
        if (split.length < 2) {
            return null;
        }
        int domain = -1;
        for (int i = 0; i < split.length; i++) {
            if (List.of("www.chub.ai", "chub.ai", "www.characterhub.org", "characterhub.org").contains(split[i])) {
                domain = i;
            }
        }
        String[] rest = domain >= 0 ? Arrays.copyOfRange(split, domain + 1, split.length) : split;
        String first = rest.length == 0 ? "" : rest[0].toLowerCase(Locale.ROOT);
        if (first.equals("characters")) {
            return new String[] {String.join("/", Arrays.copyOfRange(rest, 1, rest.length)), "character"};
        }
        if (first.equals("lorebooks")) {
            return new String[] {String.join("/", rest), "lorebook"};
        }
        return split.length == 2 ? new String[] {String.join("/", rest), "character"} : null;
    }

    private static String required(JsonNode value) {
        if (value == null || !value.isTextual() || value.textValue().isEmpty()) {
            throw Refusal.badRequest("A url is required");
        }
        return value.textValue();
    }

    /** ST's getHostFromUrl: the URL's host name, or "" when it is not a URL. */
    private static String host(String url) {
        try {
            String host = new URI(url.trim()).getHost();
            return host == null ? "" : host.toLowerCase(Locale.ROOT);
        } catch (java.net.URISyntaxException e) {
            return "";
        }
    }
}
