package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;

/** A source whose id, key, base URL and model list come from its {@link Site}. */
abstract class SiteSource implements ChatCompletionSource {
    final Site site;

    SiteSource(Site site) {
        this.site = site;
    }

    @Override
    public String id() {
        return site.id();
    }

    @Override
    public UpstreamRequest models(ObjectNode body, SecretReader secrets) {
        return site.models(body, secrets);
    }

    @Override
    public JsonNode modelList(HttpClientResponse head, Buffer body) {
        return site.modelList(head, body);
    }
}
