package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.backend.common.SecretReader;
import tankard.outbound.UpstreamClient;

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
    public SourceStep models(ObjectNode body, SecretReader secrets) {
        return site.models(body, secrets);
    }

    @Override
    public JsonNode modelList(UpstreamClient.Fetched answer) {
        return site.modelList(answer);
    }
}
