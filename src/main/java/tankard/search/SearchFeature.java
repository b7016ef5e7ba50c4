package tankard.search;

import io.vertx.ext.web.Router;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;

import java.util.concurrent.CompletionStage;

/**
 * {@code /api/search/*} (ST: src/endpoints/search.js): web searches through the user's search providers, YouTube
 * transcripts and page visits for the web search extension and the Data Bank's scrapers. Each route reads
 * its keys on a worker and waits for the upstream holding no thread.
 */
public record SearchFeature(SearchService search, YouTubeTranscripts transcripts, PageVisits pages) implements Feature {
    private static final String BASE = "/api/search";

    @Override
    public void mount(Router router, Routes routes) {
        router.post(BASE + "/serpapi").handler(routes.later(request ->
                reply(search.serpApi(request.user().handle(), request.body()))));
        router.post(BASE + "/transcript").handler(routes.later(request ->
                reply(transcripts.transcript(request.body()))));
        router.post(BASE + "/searxng").handler(routes.later(request -> reply(search.searxng(request.body()))));
        router.post(BASE + "/tavily").handler(routes.later(request ->
                reply(search.tavily(request.user().handle(), request.body()))));
        router.post(BASE + "/koboldcpp").handler(routes.later(request ->
                reply(search.koboldCpp(request.user().handle(), request.body()))));
        router.post(BASE + "/serper").handler(routes.later(request ->
                reply(search.serper(request.user().handle(), request.body()))));
        router.post(BASE + "/zai").handler(routes.later(request ->
                reply(search.zai(request.user().handle(), request.body()))));
        router.post(BASE + "/visit").handler(routes.later(request -> reply(pages.visit(request.body()))));
    }

    private static CompletionStage<Reply> reply(CompletionStage<SearchAnswer> answer) {
        return answer.thenApply(SearchFeature::reply);
    }

    private static Reply reply(SearchAnswer answer) {
        return answer.body() == null ? Reply.status(answer.status())
                : new Reply.Body(answer.status(), answer.contentType(), answer.body());
    }
}
