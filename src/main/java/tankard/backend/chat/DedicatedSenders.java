package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.backend.common.SecretReader;
import tankard.json.Js;
import tankard.outbound.UpstreamRequest;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.function.Supplier;

/**
 * What ST's dedicated chat-completion senders (the send*Request functions of
 * src/endpoints/backends/chat-completions.js) share: keys, URLs, the answer to a failed build.
 */
final class DedicatedSenders {
    private DedicatedSenders() {
    }

    /** The user's secret of this name, by the body's {@code secret_id} or the active one. */
    static String secret(ObjectNode body, SecretReader secrets, String name) {
        JsonNode id = body.get("secret_id");
        return secrets.read(name, Js.truthy(id) ? Js.string(id) : null);
    }

    /**
     * ST's {@code apiKey} of a source that takes a reverse proxy: {@code reverse_proxy ? proxy_password :
     * readSecret(...)}, as the JavaScript value (null: undefined). Each source tests it as ST does ({@link
     * Js#truthy}) and writes it as JavaScript would ({@link Js#string}: a missing password is "undefined").
     */
    static JsonNode apiKey(ObjectNode body, SecretReader secrets, String name) {
        return Js.truthy(body.get("reverse_proxy")) ? body.get("proxy_password")
                : TextNode.valueOf(secret(body, secrets, name));
    }

    /** The reverse proxy if set, else the default, as JavaScript's {@code new URL(x).toString()} spells it. */
    static String baseUrl(ObjectNode body, String fallback) {
        JsonNode proxy = body.get("reverse_proxy");
        String url = Js.truthy(proxy) ? Js.string(proxy) : fallback;
        try {
            URI uri = new URI(url);
            return uri.getRawAuthority() != null && uri.getRawPath().isEmpty() ? url + "/" : url;
        } catch (URISyntaxException e) {
            return url;
        }
    }

    /**
     * Builds a call, answering a failure while doing so (a malformed prompt: tool arguments that are not JSON)
     * as the source answers its failures, as ST's try block around the whole sender does.
     */
    static SourceStep guarded(ChatCompletionSource source, Supplier<UpstreamRequest> build) {
        try {
            return new SourceStep.Call(build.get());
        } catch (RuntimeException e) {
            return new SourceStep.Answered(source.failure(e));
        }
    }

    /** Copies a field of the frontend's body when it is there (JavaScript drops undefined properties). */
    static void copy(JsonNode from, String field, ObjectNode to, String as) {
        if (from.has(field)) {
            to.set(as, from.get(field));
        }
    }
}
