package tankard.backend.text;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import tankard.outbound.UpstreamRequest;

/** KoboldCpp keeps generating when the connection closes: ST tells it to stop with {@code /api/extra/abort}. */
final class KoboldCppApi extends TextCompletionApi {
    KoboldCppApi() {
        super("koboldcpp", AuthHeaders.BEARER, "/v1/models", "/v1/completions", null);
    }

    @Override
    UpstreamRequest abort(String base, MultiMap headers) {
        return new UpstreamRequest(HttpMethod.POST, base + "/api/extra/abort", headers, null);
    }
}
