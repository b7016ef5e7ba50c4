package tankard.caption;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.util.concurrent.CompletionStage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Image captioning with Claude for ST's Image Captioning extension: the image (a data URL) and the prompt in one
 * message, the caption from the answer's first text (ST: src/endpoints/anthropic.js, /caption-image).
 */
public final class ClaudeCaption {
    private static final String SERVICE = "Claude";
    private static final String API = "https://api.anthropic.com/v1";
    private static final Pattern DATA_URL = Pattern.compile("data:([^;,]+)[^,]*,(.*)", Pattern.DOTALL);

    private final SecretStore secrets;
    private final ServiceCalls calls;

    public ClaudeCaption(SecretStore secrets, ServiceCalls calls) {
        this.secrets = secrets;
        this.calls = calls;
    }

    /** {@code {image, prompt, model, reverse_proxy?, proxy_password?}} → the caption. */
    public CompletionStage<String> caption(String user, JsonNode body) {
        Matcher image = DATA_URL.matcher(body.path("image").asText(""));
        if (!image.matches()) {
            throw Refusal.badRequest("image must be a data URL (data:image/png;base64,...)");
        }
        String proxy = body.path("reverse_proxy").asText("");
        String key = proxy.isEmpty() ? secrets.read(user, SecretKeys.CLAUDE) : body.path("proxy_password").asText("");
        ObjectNode request = JsJson.object();
        request.set("model", body.path("model"));
        ObjectNode source = JsJson.object().put("type", "base64").put("media_type", image.group(1)).put("data", image.group(2));
        request.putArray("messages").addObject().put("role", "user").putArray("content")
                .add(JsJson.object().put("type", "image").<ObjectNode>set("source", source))
                .add(JsJson.object().put("type", "text").set("text", body.path("prompt")));
        request.put("max_tokens", 4096);
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/json")
                .add("anthropic-version", "2023-06-01").add("x-api-key", key == null ? "" : key);
        String url = (proxy.isEmpty() ? API : proxy) + "/messages";
        return calls.send(SERVICE, UpstreamRequest.post(url, headers, request))
                .thenApply(answer -> ServiceCalls.text(SERVICE, ServiceCalls.json(SERVICE, answer).path("content").path(0).get("text"),
                        "a caption"));
    }
}
