package tankard.search;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamClient.DownloadException;
import tankard.outbound.UpstreamRequest;

import java.util.concurrent.CompletionStage;

/** The calls of the search routes: each answer read whole but bounded, failures as refusals with their reason. */
final class Upstream {
    /** The most any answer may be (a search result, a web page, a video page): a larger one fails, unread. */
    static final long MAX_BYTES = 10L * 1024 * 1024;

    private final UpstreamClient client;

    Upstream(UpstreamClient client) {
        this.client = client;
    }

    /**
     * The answer, whatever its status; a refused address is a 400, an unreachable service a 502, an oversized
     * answer a 500.
     */
    Future<UpstreamClient.Fetched> fetch(UpstreamRequest call) {
        return client.download(call, MAX_BYTES).recover(e -> Future.failedFuture(DownloadException.refusal(e, "")));
    }

    /**
     * ST's relay of a search API's answer: its JSON on success, its text with 500 on an error status; an answer
     * that is not JSON fails (ST answers it 500 too).
     */
    CompletionStage<SearchAnswer> relayJson(String service, UpstreamRequest call) {
        return fetch(call).map(answer -> {
            if (!answer.ok()) {
                return SearchAnswer.text(500, answer.body().toString());
            }
            JsonNode json = JsJson.tryParse(answer.body().getBytes());
            if (json == null) {
                throw Refusal.failed(service + " answered something that is not JSON");
            }
            return SearchAnswer.json(json);
        }).toCompletionStage();
    }
}
