package tankard.engine;

import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.backend.common.Proxying;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.JsJson;
import tankard.outbound.StreamConverter;
import tankard.outbound.UpstreamClient;


/**
 * The server's chat engine (docs/engine.md). {@code POST /api/tankard/prompt}: the request Tankard would send for a
 * chat and an action, built on the server as ST's frontend builds it (see {@link PromptEngine}). The body:
 * <pre>
 * {
 *   "avatar_url": "Bramble.png", "file_name": "Bramble - 2026-01-01@10h00m00s",   a character's chat
 *      or "group_id": "1700000000000", "file_name": "…" (the group chat's id), "avatar_url": the member who speaks,
 *      "gen_id": 1700000000000 (optional: the group round the reply belongs to, ST's group_generation_id)
 *   "action": "send" | "regenerate" | "swipe" | "continue" | "impersonate",        default send
 *   "text": "Hello",                      what the user typed (send)
 *   "now": "2026-01-01T10:00:00Z"         optional: the clock date and time macros read
 * }
 * </pre>
 * Answers {@code {route, request, itemization}}: the backend route the request goes to, the body ST's frontend
 * would post there, and the tokens each part of the prompt took. 400 for a bad body, an unknown action or a
 * settings.json that does not parse; 404 for an unknown chat, character or group. Writes nothing.
 * <p>
 * {@code POST /api/tankard/generate}, the same body: sends that request through the backend proxies and saves the
 * user's message (before the call) and the reply (after it) into the chat, one tail save each. A streamed request
 * relays the backend's stream as the generate route does and saves the reply before the stream ends; a whole one
 * answers {@code {text, message}}, the reply's text and the message saved. A backend that fails or answers an
 * error saves nothing but the user's message, and its answer is relayed. A stream cut short saves what came: as
 * it is when the browser left (a stop), marked as cut off when the backend died (then an error event ends it).
 * A streamed impersonation, which saves nothing, ends with an event {@code {"tankard_text": …}}: the text cleaned.
 * <p>
 * {@code POST /api/tankard/memory/summarize}, the chat (as above): ST's "Summarize now", a summary made with the
 * user's memory settings whatever their triggers and pause say, kept in {@code extra.memory} as ST keeps it
 * ({@link EngineService#summarizeNow}); answers {@code {summary, index}}.
 * <p>
 * {@code POST /api/tankard/memory/vectors}, the chat and {@code insert} (how many messages, default 0): ST's
 * "Vectorize All" step by step and its stats ({@link EngineService#vectorize}); answers
 * {@code {messages, saved, remaining}}.
 */
public final class EngineFeature implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(EngineFeature.class);
    /** The last event of a streamed impersonation: its text as ST's cleanUpMessage leaves it (docs/engine.md). */
    static final String CLEANED = "tankard_text";

    private final EngineService engine;
    private final UpstreamClient upstream;
    private final WorkerExecutor threads;

    /**
     * @param threads the engine's own pool: a prompt may wait on the embedding model (a chat's first vector
     *                synchronization embeds every message) and a summary on the backend, which must hold none of
     *                the workers every other route needs
     */
    public EngineFeature(EngineService engine, UpstreamClient upstream, WorkerExecutor threads) {
        this.engine = engine;
        this.upstream = upstream;
        this.threads = threads;
    }

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/tankard/prompt").handler(routes.blocking(threads, request ->
                Reply.json(engine.prompt(request.user().handle(), request.body()))));
        router.post("/api/tankard/generate").handler(routes.answering(this::generate));
        router.post("/api/tankard/memory/summarize").handler(routes.blocking(threads, request ->
                Reply.json(engine.summarizeNow(request.user().handle(), request.body()))));
        router.post("/api/tankard/memory/vectors").handler(routes.blocking(threads, request ->
                Reply.json(engine.vectorize(request.user().handle(), request.body()))));
    }

    private void generate(Request request) {
        RoutingContext ctx = request.ctx();
        HttpServerResponse response = ctx.response();
        String user = request.user().handle();
        threads.executeBlocking(() -> engine.start(user, request.body()), false).onSuccess(started ->
                upstream.send(started.call().request(), response)
                        .onSuccess(from -> answer(ctx, user, started, from))
                        .onFailure(e -> Proxying.answer(response, Reply.json(502, JsJson.object()
                                .put("error", "The backend could not be reached: " + e.getMessage()))::writeTo)))
                .onFailure(ctx::fail);
    }

    private void answer(RoutingContext ctx, String user, EngineService.Started started, HttpClientResponse from) {
        HttpServerResponse response = ctx.response();
        if (!UpstreamClient.isOk(from)) {
            UpstreamClient.relay(from, response);
            return;
        }
        if (started.stream()) {
            ReplyText.Stream reply = new ReplyText.Stream(started.chatCompletion() ? started.source() : null);
            UpstreamClient.pipe(from, response, tap(started.call().converter(), reply),
                    () -> save(user, started, reply.text(), null).<Void>map(finished -> {
                        if (finished.message() == null) { // an impersonation: nothing saved to read back
                            response.write("data: " + JsJson.compact(JsJson.object().put(CLEANED, finished.text()))
                                    + "\n\n");
                        }
                        return null;
                    }).recover(e -> {
                        response.write(errorEvent("The reply could not be saved: " + e.getMessage()));
                        return Future.succeededFuture();
                    }),
                    e -> cut(response, user, started, reply.text(), e));
            return;
        }
        from.body().compose(body -> threads.executeBlocking(() -> engine.finish(user, started, ReplyText.whole(
                started.chatCompletion(), started.call().whole().apply(new UpstreamClient.Fetched(from, body))), null), false))
                .onSuccess(finished -> {
                    Proxying.answer(response, Reply.json(finished.json())::writeTo);
                    summarizeLater(user, started, finished);
                })
                .onFailure(ctx::fail);
    }

    private Future<EngineService.Finished> save(String user, EngineService.Started started, String text,
                                                String cutOff) {
        return threads.executeBlocking(() -> engine.finish(user, started, text, cutOff), false)
                .onSuccess(finished -> summarizeLater(user, started, finished))
                .onFailure(e -> LOG.warn("The streamed reply could not be saved", e));
    }

    /**
     * A stream that broke off before its end. The browser gone: the user stopped the reply, and what came is
     * saved as ST's frontend keeps a stopped reply. The browser still there: the backend died, and what came is
     * saved marked as cut off (docs/engine.md), then the browser is told why in an error event.
     */
    private Future<Void> cut(HttpServerResponse response, String user, EngineService.Started started, String text,
                             Throwable e) {
        boolean stopped = response.closed();
        String why = stopped ? null : "The backend stopped before the reply was complete: " + e.getMessage();
        Future<Void> saved = text.isBlank() ? Future.succeededFuture()
                : save(user, started, text, why).<Void>mapEmpty().otherwiseEmpty();
        return saved.onComplete(done -> {
            if (!stopped && !response.ended()) {
                response.end(errorEvent(why));
            }
        });
    }

    private static String errorEvent(String message) {
        return "data: " + JsJson.compact(JsJson.object().set("error", JsJson.object().put("message", message)))
                + "\n\n";
    }

    /** A summary in raw non-blocking mode, made once the reply has been answered. */
    private void summarizeLater(String user, EngineService.Started started, EngineService.Finished finished) {
        if (finished.later() != null) {
            threads.executeBlocking(() -> {
                engine.summarize(user, started, finished.later());
                return null;
            }, false);
        }
    }

    /** The route's own relay of the stream, read on the way for the reply's text. */
    private static StreamConverter tap(StreamConverter converter, ReplyText.Stream reply) {
        return new StreamConverter() {
            @Override
            public Buffer convert(Buffer chunk) {
                Buffer out = converter.convert(chunk);
                reply.feed(out.getBytes());
                return out;
            }

            @Override
            public Buffer end() {
                Buffer out = converter.end();
                reply.feed(out.getBytes());
                return out;
            }
        };
    }
}
