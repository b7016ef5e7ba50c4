package tankard.backend.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import tankard.backend.common.SecretReader;
import tankard.backend.common.Urls;
import tankard.config.TankardConfig;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.RequestOverrides;
import tankard.outbound.StreamConverter;
import tankard.outbound.UpstreamRequest;

import java.util.Map;

/**
 * The text-completion backend a request names ({@code api_type}, {@code api_server}) with the headers its calls
 * carry: the type's auth headers from the user's secrets and the config's per-host overrides (ST's
 * src/additional-headers.js, setAdditionalHeadersByType). Reads secrets, so {@link #open} runs on a worker.
 */
public final class TextCompletionBackends {
    private final Map<String, TextCompletionApi> apis;
    private final RequestOverrides overrides;

    public TextCompletionBackends(TankardConfig.Backends settings) {
        this.apis = TextCompletionApis.all(settings);
        this.overrides = new RequestOverrides(settings.requestOverrides());
    }

    /**
     * The backend of a generate body, its keys read with {@code secrets}. With {@code rewriteLocalhost}, the first
     * "localhost" in {@code api_server} becomes 127.0.0.1, in the body too (which some types forward whole), as ST
     * does.
     */
    public Backend open(ObjectNode body, SecretReader secrets, boolean rewriteLocalhost) {
        JsonNode serverField = body.get("api_server");
        String server = serverField != null && serverField.isTextual() ? serverField.textValue() : null;
        if (rewriteLocalhost && server != null && server.contains("localhost")) {
            server = server.replaceFirst("localhost", "127.0.0.1");
            body.put("api_server", server);
        }
        return open(body, secrets, server);
    }

    /** The backend of a body that names its server in another field (the remote tokenizer's {@code url}). */
    Backend open(ObjectNode body, SecretReader secrets, String server) {
        return open(secrets, body, apis.get(Js.string(body.get("api_type"))), server);
    }

    /** A backend of the given type at a server the body names in its own field (KoboldCpp's embeddings). */
    public Backend open(ObjectNode body, SecretReader secrets, String type, String server) {
        return open(secrets, body, apis.get(type), server);
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
    public record Backend(ObjectNode body, TextCompletionApi api, String server, MultiMap auth) {
        /** Whether Tankard knows the body's {@code api_type}. */
        public boolean typeKnown() {
            return api != null;
        }

        /** The completion call of the body, as {@code /generate} sends it (the type and server must be known). */
        /** A non-streamed completion as the frontend gets it from the generate route. */
        public JsonNode completion(JsonNode answer) {
            return api.completion(answer);
        }

        /** How the generate route relays the type's stream. */
        public StreamConverter streamConverter() {
            return api.streamConverter();
        }

        public UpstreamRequest completionCall() {
            Buffer json = Buffer.buffer(JsJson.compactBytes(api.requestBody(body)));
            return new UpstreamRequest(HttpMethod.POST, api.completionUrl(Urls.trimV1(server)), headers(true), json);
        }

        /** The auth headers, after {@code Content-Type: application/json} when the call sends JSON. */
        public MultiMap headers(boolean json) {
            MultiMap headers = MultiMap.caseInsensitiveMultiMap();
            if (json) {
                headers.set("Content-Type", "application/json");
            }
            auth.names().forEach(name -> headers.set(name, auth.getAll(name)));
            return headers;
        }
    }
}
