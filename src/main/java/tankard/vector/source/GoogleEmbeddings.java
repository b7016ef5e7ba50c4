package tankard.vector.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import tankard.json.JsNumber;
import tankard.backend.common.Urls;
import tankard.backend.common.VertexAuth;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.util.List;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Google's embeddings: AI Studio's {@code batchEmbedContents} ({@code palm}) and Vertex AI's {@code predict}
 * ({@code vertexai}), with the URLs and auth of ST's getGoogleApiConfig and getVertexAIAuth (src/endpoints/google.js;
 * the bodies from src/vectors/google-vectors.js, getMakerSuiteBatchVector and getVertexBatchVector). Vertex AI
 * authenticates by reverse proxy, API key (express) or service account (full), the service account's token
 * fetched as Tankard's chat completions fetch it ({@link VertexAuth}).
 */
final class GoogleEmbeddings {
    private static final String AI_STUDIO = "https://generativelanguage.googleapis.com";
    private static final String VERTEX_PROXY_DEFAULT = "https://us-central1-aiplatform.googleapis.com";
    private static final String DEFAULT_MODEL = "text-embedding-005";

    private GoogleEmbeddings() {
    }

    /** ST's {@code String(request.body.model || 'text-embedding-005')}, for both. */
    static String scope(JsonNode body) {
        return new EmbeddingCall(null, body).string("model", DEFAULT_MODEL);
    }

    /** {@code palm}: Google AI Studio, or the reverse proxy with its password as the key. */
    static EmbeddingSource aiStudio(UpstreamClient client, SecretStore secrets, String apiVersion) {
        return new RemoteSource(client, GoogleEmbeddings::scope, (call, query) -> {
            String model = scope(call.body());
            boolean proxy = EmbeddingCall.truthy(call.body().get("reverse_proxy"));
            MultiMap headers = RemoteSource.json();
            if (proxy) {
                JsonNode password = call.body().get("proxy_password");
                if (EmbeddingCall.truthy(password)) {
                    headers.set("x-goog-api-key", JsNumber.string(password));
                }
            } else {
                headers.set("x-goog-api-key", RemoteSource.key(secrets, call, SecretKeys.MAKERSUITE,
                        "Google AI Studio"));
            }
            String base = Urls.trimTrailingSlash(proxy ? call.string("reverse_proxy") : AI_STUDIO);
            return Future.succeededFuture(new RemoteSource.Upstream("Google AI Studio",
                    base + "/" + apiVersion + "/models/" + model + ":batchEmbedContents", headers,
                    texts -> batchEmbedContents(texts, model),
                    answer -> RemoteSource.each(RemoteSource.elements(answer.get("embeddings")),
                            embedding -> embedding.path("values")), "embeddings"));
        });
    }

    private static JsonNode batchEmbedContents(List<String> texts, String model) {
        ObjectNode body = JsJson.object();
        ArrayNode requests = body.putArray("requests");
        for (String text : texts) {
            ObjectNode request = requests.addObject().put("model", "models/" + model);
            request.putObject("content").putArray("parts").addObject().put("text", text);
        }
        return body;
    }

    /** {@code vertexai}: a new service-account token per request, where ST fetches one per batch. */
    static EmbeddingSource vertex(UpstreamClient client, SecretStore secrets, LongSupplier nowSeconds) {
        VertexAuth auth = new VertexAuth(client);
        return new RemoteSource(client, GoogleEmbeddings::scope, (call, query) -> {
            String model = scope(call.body());
            String region = call.string("vertexai_region", "us-central1");
            String mode = call.string("vertexai_auth_mode", "express");
            String path = "/publishers/google/models/" + model + ":predict";
            MultiMap headers = RemoteSource.json();
            Function<String, RemoteSource.Upstream> at = url -> new RemoteSource.Upstream("Google Vertex AI", url,
                    headers, GoogleEmbeddings::predict,
                    answer -> RemoteSource.each(RemoteSource.elements(answer.get("predictions")),
                            prediction -> prediction.path("embeddings").path("values")), "predictions");
            if (EmbeddingCall.truthy(call.body().get("reverse_proxy"))) {
                headers.set("Authorization", "Bearer " + call.string("proxy_password"));
                return Future.succeededFuture(at.apply(Urls.trimTrailingSlash(call.string("reverse_proxy"))
                        + "/v1" + path));
            }
            String base = VertexAuth.regionalOrigin(region) + "/v1";
            if ("express".equals(mode)) {
                String key = secrets.read(call.user(), SecretKeys.VERTEXAI);
                if (key.isEmpty()) {
                    throw Refusal.badRequest("API key is required for Vertex AI Express mode: the secret "
                            + SecretKeys.VERTEXAI + " is not set");
                }
                headers.set("x-goog-api-key", key);
                JsonNode project = call.body().get("vertexai_express_project_id");
                return Future.succeededFuture(at.apply(EmbeddingCall.truthy(project)
                        ? base + "/projects/" + JsNumber.string(project) + "/locations/" + region + path
                        : base + path));
            }
            if (!"full".equals(mode)) {
                throw Refusal.badRequest("Unsupported Vertex AI authentication mode: " + mode);
            }
            String account = secrets.read(call.user(), SecretKeys.VERTEXAI_SERVICE_ACCOUNT);
            if (account.isEmpty()) {
                throw Refusal.badRequest("Service Account JSON is required for Vertex AI Full mode: the secret "
                        + SecretKeys.VERTEXAI_SERVICE_ACCOUNT + " is not set");
            }
            String jwt;
            try {
                jwt = VertexAuth.jwt(JsJson.parse(account), nowSeconds.getAsLong());
            } catch (Exception e) {
                throw Refusal.badRequest("Service account authentication failed: " + e.getMessage());
            }
            String project = VertexAuth.projectId(account);
            return auth.accessToken(jwt).transform(token -> {
                if (token.failed()) {
                    return Future.failedFuture(Refusal.upstream("Service account authentication failed: "
                            + token.cause().getMessage()));
                }
                if (project == null) {
                    return Future.failedFuture(Refusal.badRequest(
                            "Failed to extract project ID from Service Account JSON."));
                }
                headers.set("Authorization", "Bearer " + token.result());
                return Future.succeededFuture(at.apply(base + "/projects/" + project + "/locations/" + region
                        + path));
            });
        });
    }

    private static JsonNode predict(List<String> texts) {
        ObjectNode body = JsJson.object();
        ArrayNode instances = body.putArray("instances");
        texts.forEach(text -> instances.addObject().put("content", text));
        return body;
    }
}
