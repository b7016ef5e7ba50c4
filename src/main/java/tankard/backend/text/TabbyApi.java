package tankard.backend.text;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.MultiMap;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;

/** TabbyAPI: its status names the loaded model from {@code /v1/model}, "None" when that answers an error. */
final class TabbyApi extends TextCompletionApi {
    TabbyApi() {
        super("tabby", AuthHeaders.API_KEY_AND_BEARER, "/v1/model/list", "/v1/completions", null);
    }

    @Override
    UpstreamRequest modelInfo(String base, MultiMap headers, UpstreamClient.Fetched models) {
        return UpstreamRequest.get(base + "/v1/model", headers);
    }

    @Override
    Status withModelInfo(Status status, UpstreamClient.Fetched info) {
        if (!info.ok()) {
            // Tabby answers 400 while no model is loaded
            return new Status(JsJson.tree("None"), status.data(), false);
        }
        JsonNode answer = JsJson.tryParse(info.body().getBytes());
        return answer == null ? status
                : new Status(Js.or(answer.get("id"), status.result()), status.data(), false);
    }
}
