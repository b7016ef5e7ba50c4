package tankard.backend.text;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.MultiMap;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;

/**
 * text-generation-webui: its status names the loaded model from {@code /v1/internal/model/info} and tells the
 * frontend it can tokenize remotely. LM Studio, which answers {@code x-powered-by: Express}, is not asked.
 */
final class OobaApi extends TextCompletionApi {
    OobaApi() {
        super("ooba", AuthHeaders.BEARER, "/v1/models", "/v1/completions", null);
    }

    @Override
    UpstreamRequest modelInfo(String base, MultiMap headers, UpstreamClient.Fetched models) {
        boolean possiblyLmStudio = "Express".equals(models.head().getHeader("x-powered-by"));
        return possiblyLmStudio ? null : UpstreamRequest.get(base + "/v1/internal/model/info", headers);
    }

    @Override
    Status withModelInfo(Status status, UpstreamClient.Fetched info) {
        JsonNode answer = info.ok() ? JsJson.tryParse(info.body().getBytes()) : null;
        if (answer == null) {
            return status;
        }
        return new Status(Js.or(answer.get("model_name"), status.result()), status.data(), true);
    }
}
