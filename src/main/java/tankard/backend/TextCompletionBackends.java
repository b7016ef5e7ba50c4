package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import tankard.config.TankardConfig;
import tankard.http.Request;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.Map;

/**
 * The text-completion backend a request names ({@code api_type}, {@code api_server}) with the headers its calls
 * carry: the type's auth headers from the user's secrets and the config's per-host overrides (st-backends.md
 * §0.2). Reads secrets, so {@link #open} runs on a worker.
 */
final class TextCompletionBackends {
    private final Map<String, TextCompletionApi> apis;
    private final RequestOverrides overrides;
    private final Secrets secrets;

    /** Where API keys come from: the user's active key of a secret name, or the one with the given id. */
    @FunctionalInterface
    interface Secrets {
        SecretReader of(Request request);
    }

    TextCompletionBackends(TankardConfig.Backends settings, Secrets secrets) {
        this.apis = TextCompletionApis.all(settings);
        this.overrides = new RequestOverrides(settings.requestOverrides());
        this.secrets = secrets;
    }

    /**
     * The backend of the request's body. With {@code rewriteLocalhost}, the first "localhost" in
     * {@code api_server} becomes 127.0.0.1, in the body too (which some types forward whole), as ST does.
     */
    Backend open(Request request, boolean rewriteLocalhost) {
        ObjectNode body = body(request);
        JsonNode serverField = body.get("api_server");
        String server = serverField != null && serverField.isTextual() ? serverField.textValue() : null;
        if (rewriteLocalhost && server != null && server.contains("localhost")) {
            server = server.replaceFirst("localhost", "127.0.0.1");
            body.put("api_server", server);
        }
        return open(request, body, server);
    }

    /** The backend of a request that names its server in another field (the remote tokenizer's {@code url}). */
    Backend open(Request request, String server) {
        return open(request, body(request), server);
    }

    private static ObjectNode body(Request request) {
        JsonNode parsed = request.body();
        return parsed.isObject() ? (ObjectNode) parsed : JsJson.object();
    }

    /** A backend of the given type at a server the request names in its own field (KoboldCpp's embeddings). */
    Backend open(Request request, String type, String server) {
        return open(request, body(request), apis.get(type), server);
    }

    private Backend open(Request request, ObjectNode body, String server) {
        return open(secrets.of(request), body, apis.get(Js.string(body.get("api_type"))), server);
    }

    private Backend open(Request request, ObjectNode body, TextCompletionApi api, String server) {
        return open(secrets.of(request), body, api, server);
    }

    /** The backend of a generate body made in-process (no browser request), its keys read with {@code secrets}. */
    Backend open(ObjectNode body, SecretReader secrets) {
        JsonNode serverField = body.get("api_server");
        String server = serverField != null && serverField.isTextual() ? serverField.textValue() : null;
        return open(secrets, body, apis.get(Js.string(body.get("api_type"))), server);
    }

    private Backend open(SecretReader secrets, ObjectNode body, TextCompletionApi api, String server) {
        MultiMap auth = MultiMap.caseInsensitiveMultiMap();
        if (api != null) {
            JsonNode id = body.get("secret_id");
            api.auth().add(auth, secrets.read(api.secretKey(), Js.truthy(id) ? Js.string(id) : null));
        }
        overrides.apply(auth, server);
        return new Backend(body, api, server, auth);
    }

    /**
     * A request's backend: its (maybe rewritten) body, its type (null: unknown), its server URL (null: none
     * given) and the headers that authenticate calls to it.
     */
    record Backend(ObjectNode body, TextCompletionApi api, String server, MultiMap auth) {
        /** The completion call of the body, as {@code /generate} sends it (the type and server must be known). */
        UpstreamRequest completionCall() {
            Buffer json = Buffer.buffer(JsJson.compactBytes(api.requestBody(body)));
            return new UpstreamRequest(HttpMethod.POST, api.completionUrl(Proxying.trimV1(server)), headers(true), json);
        }

        /** The auth headers, after {@code Content-Type: application/json} when the call sends JSON. */
        MultiMap headers(boolean json) {
            MultiMap headers = MultiMap.caseInsensitiveMultiMap();
            if (json) {
                headers.set("Content-Type", "application/json");
            }
            auth.names().forEach(name -> headers.set(name, auth.getAll(name)));
            return headers;
        }
    }
}
