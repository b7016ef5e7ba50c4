package tankard.google;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.MultiMap;
import tankard.backend.common.Urls;
import tankard.backend.common.VertexAuth;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.regex.Pattern;

/**
 * Where a Google model's method is called and with which credentials, as ST's getGoogleApiConfig and
 * getVertexAIAuth decide (src/endpoints/google.js): AI Studio ({@code makersuite}) with its key, or Vertex AI
 * ({@code api: "vertexai"}) through a reverse proxy, with an API key ("express") or a service account ("full").
 * The model, region and project become parts of the URL and are checked first.
 */
final class GoogleApi {
    private static final String MAKERSUITE_API = "https://generativelanguage.googleapis.com";
    /** A region is part of the host name: lower-case letters, digits and dashes only. */
    private static final Pattern REGION = Pattern.compile("[a-z0-9-]{1,64}");

    private final SecretStore secrets;
    private final VertexAuth auth;
    /** ST's {@code gemini.apiVersion}. */
    private final String apiVersion;

    GoogleApi(SecretStore secrets, VertexAuth auth, String apiVersion) {
        this.secrets = secrets;
        this.auth = auth;
        this.apiVersion = apiVersion;
    }

    /**
     * One call's target: the method's URL, its headers (JSON, and the credentials), the name ST logs, the API's base
     * URL (AI Studio's operations are polled under it) and whether it is Vertex AI.
     */
    record Target(String url, MultiMap headers, String apiName, String baseUrl, boolean vertex) {
    }

    static boolean vertex(JsonNode body) {
        return "vertexai".equals(body.path("api").asText(null));
    }

    /** The target of {@code model:endpoint} for the request's API; a Vertex AI token first when it needs one. */
    CompletionStage<Target> target(String user, JsonNode body, String model, String endpoint) {
        Urls.segment(model, "model");
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("Content-Type", "application/json");
        String method = "/publishers/google/models/" + model + ":" + endpoint;
        boolean proxy = Js.truthy(body.get("reverse_proxy"));
        if (!vertex(body)) {
            String key = proxy ? Js.string(body.get("proxy_password")) : secrets.read(user, SecretKeys.MAKERSUITE);
            if (!proxy && (key == null || key.isEmpty())) {
                throw Refusal.badRequest("The Google AI Studio API key is not set");
            }
            String base = Urls.trimTrailingSlash(proxy ? reverseProxy(body) : MAKERSUITE_API) + "/" + apiVersion;
            if (key != null && !key.isEmpty()) {
                headers.set("x-goog-api-key", key);
            }
            return done(new Target(base + "/models/" + model + ":" + endpoint, headers, "Google AI Studio", base, false));
        }
        String apiName = "Google Vertex AI";
        if (proxy) {
            String base = Urls.trimTrailingSlash(reverseProxy(body)) + "/v1";
            headers.set("Authorization", "Bearer " + Js.string(body.get("proxy_password")));
            return done(new Target(base + method, headers, apiName, base, true));
        }
        String region = Js.truthy(body.get("vertexai_region")) ? Js.string(body.get("vertexai_region")) : "us-central1";
        if (!REGION.matcher(region).matches()) {
            throw Refusal.badRequest("vertexai_region must be a Google Cloud region such as us-central1");
        }
        String base = VertexAuth.regionalOrigin(region) + "/v1";
        String mode = Js.truthy(body.get("vertexai_auth_mode")) ? Js.string(body.get("vertexai_auth_mode")) : "express";
        if ("express".equals(mode)) {
            String key = secrets.read(user, SecretKeys.VERTEXAI);
            if (key == null || key.isEmpty()) {
                throw Refusal.badRequest("API key is required for Vertex AI Express mode");
            }
            headers.set("x-goog-api-key", key);
            JsonNode project = body.get("vertexai_express_project_id");
            String url = Js.truthy(project)
                    ? base + projectPath(Js.string(project), region) + method
                    : base + method;
            return done(new Target(url, headers, apiName, base, true));
        }
        if (!"full".equals(mode)) {
            throw Refusal.badRequest("Unsupported Vertex AI authentication mode: " + mode);
        }
        String account = secrets.read(user, SecretKeys.VERTEXAI_SERVICE_ACCOUNT);
        if (account == null || account.isEmpty()) {
            throw Refusal.badRequest("Service Account JSON is required for Vertex AI Full mode");
        }
        String jwt;
        try {
            jwt = VertexAuth.jwt(JsJson.parse(account.getBytes(StandardCharsets.UTF_8)), System.currentTimeMillis() / 1000);
        } catch (Exception e) {
            throw Refusal.badRequest("Service account authentication failed: " + e.getMessage());
        }
        String project = VertexAuth.projectId(account);
        if (project == null) {
            throw Refusal.badRequest("Failed to extract project ID from Service Account JSON.");
        }
        String url = base + projectPath(project, region) + method;
        return auth.accessToken(jwt).toCompletionStage().handle((token, failure) -> {
            if (failure != null) {
                throw Refusal.failed("Service account authentication failed: " + failure.getMessage());
            }
            headers.set("Authorization", "Bearer " + token);
            return new Target(url, headers, apiName, base, true);
        });
    }

    private static String projectPath(String project, String region) {
        return "/projects/" + Urls.segment(project, "project id") + "/locations/" + region;
    }

    private static String reverseProxy(JsonNode body) {
        return Urls.httpUrl(Js.string(body.get("reverse_proxy")), "reverse_proxy");
    }

    private static CompletionStage<Target> done(Target target) {
        return CompletableFuture.completedFuture(target);
    }
}
