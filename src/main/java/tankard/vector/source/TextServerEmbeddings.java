package tankard.vector.source;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import tankard.backend.common.SecretReader;
import tankard.backend.common.Urls;
import tankard.backend.text.TextCompletionBackends;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.secrets.SecretStore;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;

/**
 * The embeddings of the text-completion servers the user runs: Ollama, llama.cpp and vLLM at the request's
 * {@code apiUrl}, with the headers Tankard's text completions send them (the type's key, then the config's
 * {@code requestOverrides} for the host; ST: src/additional-headers.js, setAdditionalHeadersByType). The URL is
 * the user's, so the private-address filter decides whether it may be called, as for every backend call.
 */
final class TextServerEmbeddings {
    private TextServerEmbeddings() {
    }

    static Map<String, EmbeddingSource> all(UpstreamClient client, SecretStore secrets,
                                            TextCompletionBackends backends) {
        return Map.of(
                // ST: src/vectors/ollama-vectors.js, getOllamaBatchVector
                "ollama", new RemoteSource(client, body -> new EmbeddingCall(null, body).string("model"),
                        (call, query) -> {
                            String server = call.string("apiUrl");
                            String url = withPath(server, "/api/embed");
                            String model = call.string("model");
                            boolean keep = EmbeddingCall.truthy(call.body().get("keep"));
                            return Future.succeededFuture(new RemoteSource.Upstream("Ollama", url,
                                    headers(backends, secrets, call, "ollama", server), texts -> {
                                        ObjectNode body = JsJson.object();
                                        texts.forEach(body.putArray("input")::add);
                                        body.put("model", model);
                                        if (keep) {
                                            body.put("keep_alive", -1);
                                        }
                                        return body.put("truncate", true);
                                    }, answer -> RemoteSource.elements(answer.get("embeddings")), "embeddings"));
                        }),
                // ST: src/vectors/llamacpp-vectors.js, getLlamaCppBatchVector
                "llamacpp", new RemoteSource(client, body -> "", (call, query) -> openAiShaped(call, "llama.cpp",
                        headers(backends, secrets, call, "llamacpp", call.string("apiUrl")), null)),
                // ST: src/vectors/vllm-vectors.js, getVllmBatchVector
                "vllm", new RemoteSource(client, body -> new EmbeddingCall(null, body).string("model"),
                        (call, query) -> openAiShaped(call, "vLLM",
                                headers(backends, secrets, call, "vllm", call.string("apiUrl")),
                                call.string("model"))));
    }

    /** {@code POST {apiUrl without /v1}/v1/embeddings} with {@code {input}} (and the model, for vLLM). */
    private static Future<RemoteSource.Upstream> openAiShaped(EmbeddingCall call, String api, MultiMap headers,
                                                             String model) {
        String url = Urls.trimV1(call.string("apiUrl")).replaceFirst("/+$", "") + "/v1/embeddings";
        checked(url);
        return Future.succeededFuture(new RemoteSource.Upstream(api, url, headers, texts -> {
            ObjectNode body = JsJson.object();
            texts.forEach(body.putArray("input")::add);
            return model == null ? body : body.put("model", model);
        }, RemoteSource::openAiData, "data"));
    }

    /** The type's auth headers with the config's overrides, as a JSON call's (ST passes no secret id here). */
    private static MultiMap headers(TextCompletionBackends backends, SecretStore secrets, EmbeddingCall call,
                                    String type, String server) {
        return backends.open(JsJson.object(), SecretReader.of(secrets, call.user()), type, server).headers(true);
    }

    /**
     * The URL with its path replaced, its query kept, as ST's {@code url.pathname = path} does; an invalid URL is
     * a 400 naming it.
     */
    static String withPath(String url, String path) {
        URI uri = checked(url);
        return uri.getScheme() + "://" + uri.getRawAuthority() + path
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }

    /** An absolute http(s) URL, or the refusal that names it. */
    static URI checked(String url) {
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme();
            if (("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme)) && uri.getHost() != null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // refused below
        }
        throw Refusal.badRequest("Invalid URL: " + url);
    }
}
