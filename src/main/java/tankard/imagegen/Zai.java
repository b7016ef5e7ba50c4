package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerResponse;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/** Z.AI's image and video generations (ST: src/endpoints/stable-diffusion.js, the zai router). */
public final class Zai {
    static final String SERVICE = "Z.AI";
    private static final String API = "https://api.z.ai/api/paas/v4";
    /** The hosts Z.AI serves its images from. */
    private static final List<String> IMAGE_HOSTS = List.of(".z.ai", ".ufileos.com");
    /** A new image may not be there at once: ST's tries, a second apart. */
    private static final int IMAGE_TRIES = 5;
    private static final long IMAGE_RETRY_MILLIS = 1000;
    /** ST's checks of a video job: 5 s before the first, a second longer before each next. */
    private static final int VIDEO_CHECKS = 30;

    private final ImageCalls calls;

    Zai(ImageCalls calls) {
        this.calls = calls;
    }

    /** One image, fetched from the URL Z.AI answers, as {@code {image: base64, format}}. */
    public CompletionStage<ObjectNode> generate(String user, JsonNode body) {
        String key = calls.key(user, SecretKeys.ZAI, SERVICE);
        ObjectNode payload = fields(body, "prompt", "model", "quality", "size");
        return calls.json(SERVICE, UpstreamRequest.post(API + "/images/generations", headers(key), payload))
                .thenCompose(answer -> {
                    URI url = imageUrl(answer.path("data").path(0).path("url"));
                    UpstreamRequest image = UpstreamRequest.get(url.toString(), MultiMap.caseInsensitiveMultiMap());
                    return calls.poll(SERVICE, n -> n == 0 ? 0 : IMAGE_RETRY_MILLIS, IMAGE_TRIES, () -> false,
                            () -> calls.answer(SERVICE, image).thenApply(fetched -> {
                                if (fetched.status() == 404) {
                                    return Optional.empty();
                                }
                                if (!fetched.ok()) {
                                    throw ServiceCalls.failure(SERVICE, fetched);
                                }
                                return Optional.of(fetched);
                            }))
                            .thenCompose(fetched -> calls.base64(fetched.body()))
                            .thenApply(base64 -> JsJson.object().put("image", base64).put("format", format(url)));
                });
    }

    /**
     * A video job, polled until it has succeeded, as {@code {format: "mp4", video: base64}}; when the browser leaves,
     * the polling stops.
     */
    public CompletionStage<ObjectNode> generateVideo(String user, JsonNode body, HttpServerResponse browser) {
        String key = calls.key(user, SecretKeys.ZAI, SERVICE);
        ObjectNode payload = fields(body, "prompt", "model", "quality", "size", "aspect_ratio");
        return calls.send(SERVICE, UpstreamRequest.post(API + "/videos/generations", headers(key), payload), browser, () -> { })
                .thenApply(answer -> ServiceCalls.json(SERVICE, answer))
                .thenCompose(job -> {
                    UpstreamRequest check = UpstreamRequest.get(API + "/async-result/"
                            + Urls.encodeUriComponent(job.path("id").asText()), ImageCalls.bearer(key));
                    return calls.poll(SERVICE, n -> 5000L + n * 1000L, VIDEO_CHECKS, browser::closed,
                            () -> calls.json(SERVICE, check).thenApply(Zai::videoUrl));
                })
                .thenCompose(url -> calls.base64(SERVICE, UpstreamRequest.get(url, MultiMap.caseInsensitiveMultiMap())))
                .thenApply(video -> JsJson.object().put("format", "mp4").put("video", video));
    }

    private static Optional<String> videoUrl(JsonNode result) {
        return switch (result.path("task_status").asText()) {
            case "FAIL" -> throw Refusal.failed("Video generation failed");
            case "SUCCESS" -> {
                String url = result.path("video_result").path(0).path("url").asText("");
                if (!url.startsWith("https://") && !url.startsWith("http://")) {
                    throw Refusal.failed(SERVICE + " returned an invalid video URL");
                }
                yield Optional.of(url);
            }
            default -> Optional.empty();
        };
    }

    /** The answer's image URL, which must be on one of Z.AI's hosts. */
    private static URI imageUrl(JsonNode field) {
        try {
            URI url = new URI(field.asText(""));
            String host = url.getHost() == null ? "" : url.getHost().toLowerCase(Locale.ROOT);
            if (!"https".equals(url.getScheme()) && !"http".equals(url.getScheme())) {
                throw Refusal.failed(SERVICE + " returned an invalid image URL");
            }
            if (IMAGE_HOSTS.stream().noneMatch(host::endsWith)) {
                throw Refusal.failed(SERVICE + " returned a URL with an unrecognized hostname");
            }
            return url;
        } catch (URISyntaxException e) {
            throw Refusal.failed(SERVICE + " returned an invalid image URL");
        }
    }

    /** The extension of the URL's file, lower case; png when it has none. */
    private static String format(URI url) {
        String path = url.getPath() == null ? "" : url.getPath();
        String name = path.substring(path.lastIndexOf('/') + 1);
        int dot = name.lastIndexOf('.');
        return dot < 0 || dot == name.length() - 1 ? "png" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
    }

    private static ObjectNode fields(JsonNode body, String... names) {
        ObjectNode payload = JsJson.object();
        for (String name : names) {
            if (body.has(name)) {
                payload.set(name, body.get(name));
            }
        }
        return payload;
    }

    private static MultiMap headers(String key) {
        return ImageCalls.bearer(key).add("Content-Type", "application/json");
    }
}
