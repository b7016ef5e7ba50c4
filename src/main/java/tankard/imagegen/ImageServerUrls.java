package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.MultiMap;
import tankard.backend.common.Urls;
import tankard.core.Refusal;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** The user-given address of a local image server, and its Basic credentials, as ST's routes build their calls. */
final class ImageServerUrls {
    private ImageServerUrls() {
    }

    /** The body's {@code url}, which must be an absolute http(s) URL. */
    static URI base(JsonNode body) {
        String url = body.path("url").asText("").trim();
        if (url.isEmpty()) {
            throw Refusal.badRequest("url is required");
        }
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getRawAuthority() == null) {
                throw Refusal.badRequest("url must be an http or https URL: " + url);
            }
            return uri;
        } catch (URISyntaxException e) {
            throw Refusal.badRequest("url is not a valid URL: " + url);
        }
    }

    /** The base with its path replaced, its query kept (ST's {@code url.pathname = path}). */
    static String withPath(URI base, String path) {
        return base.getScheme() + "://" + base.getRawAuthority() + path
                + (base.getRawQuery() == null ? "" : "?" + base.getRawQuery());
    }

    /** The path appended to the base's (ST's {@code urlJoin(url, path)}). */
    static String joined(URI base, String path) {
        String prefix = base.getScheme() + "://" + base.getRawAuthority()
                + (base.getRawPath() == null ? "" : base.getRawPath().replaceAll("/+$", ""));
        return prefix + path;
    }

    /**
     * Headers with {@code Authorization: Basic} for the body's {@code auth} ("user:pass"), none when it is empty
     * (ST sends the encoding of an empty or absent value all the same).
     */
    static MultiMap basicAuth(JsonNode body) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        JsonNode auth = body.get("auth");
        if (auth != null && !auth.isNull() && !auth.asText().isEmpty()) {
            headers.add("Authorization", "Basic "
                    + Base64.getEncoder().encodeToString(auth.asText().getBytes(StandardCharsets.UTF_8)));
        }
        return headers;
    }

    /**
     * The body's {@code model} as path segments, each encoded (ST puts it into the path as it is, where a {@code ?},
     * {@code #} or {@code ..} would change the URL).
     */
    static String modelPath(JsonNode body) {
        JsonNode model = body.get("model");
        if (model == null || !model.isTextual() || model.textValue().isEmpty()) {
            throw Refusal.badRequest("model is required");
        }
        StringBuilder path = new StringBuilder();
        for (String part : model.textValue().split("/", -1)) {
            if (part.isEmpty() || part.equals(".") || part.equals("..")) {
                throw Refusal.badRequest("model is not a model id: " + model.textValue());
            }
            path.append(path.length() == 0 ? "" : "/").append(Urls.encodeUriComponent(part));
        }
        return path.toString();
    }
}
