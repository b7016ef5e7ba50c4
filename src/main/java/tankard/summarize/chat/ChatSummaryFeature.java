package tankard.summarize.chat;

import io.vertx.core.Context;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import tankard.core.Refusal;
import tankard.http.FailureHandler;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.preset.PresetService;
import tankard.util.Threads;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/**
 * {@code POST /api/tankard/summarize}: summarizes a chat's older messages with the user's main backend and
 * stores the summary where ST's Summarize extension does (see {@link ChatSummarizer}). The body:
 * <pre>
 * {
 *   "avatar_url": "Bramble.png", "file_name": "Bramble - 2024-01-01@10h00m00s",   (or a group chat's "id")
 *   "backend": {"chat_completion_source": "openai", "model": "gpt-4o", ...}       (a chat-completions generate body)
 *           or {"api_type": "koboldcpp", "api_server": "http://127.0.0.1:5001", ...} (a text-completions one)
 *   "instruct": "ChatML",        text completions: a template of the user's instruct/ folder, or one inline
 *   "prompt": "who owes whom",   optional: what the summary must keep above all
 *   "max_tokens": 400,           the output limit (the known model's own limit if lower); default backend.max_tokens or 1024
 *   "exclude_last": 1,           how many newest messages are left out (at least 1, as ST)
 *   "context_size": 8192         optional; default the backend body's truncation_length, the known model's, or 8192
 * }
 * </pre>
 * Answers {@code {summary, index, messages, fallback}}; 400/404 for bad input, 409 when the chat changed
 * meanwhile, 502 {@code {error, reason}} with reason {@code empty}, {@code length} or {@code upstream} when the
 * backend gave no usable summary, 503 when too many summaries are already waiting. Nothing is stored unless it
 * answers 200. Summaries wait minutes on their backend: they run on threads of their own, not on the shared
 * worker pool.
 */
public final class ChatSummaryFeature implements Feature {
    private static final int RUNNING = 4;
    private static final int WAITING = 32;

    private final ChatSummarizer summarizer;
    private final PresetService presets;
    private final ExecutorService threads = Threads.boundedQueue("chat-summarizer", RUNNING, WAITING);

    public ChatSummaryFeature(ChatSummarizer summarizer, PresetService presets) {
        this.summarizer = summarizer;
        this.presets = presets;
    }

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/tankard/summarize").handler(routes.answering(this::summarize));
    }

    private void summarize(Request request) {
        RoutingContext ctx = request.ctx();
        Context context = ctx.vertx().getOrCreateContext();
        try {
            threads.execute(() -> {
                Reply reply;
                try {
                    String user = request.user().handle();
                    SummaryOptions options = SummaryOptions.parse(request.body(),
                            name -> presets.read(user, "instruct", name), summarizer::knowsSource);
                    reply = Reply.json(summarizer.summarize(request.user().handle(), options));
                } catch (SummaryFailure failure) {
                    reply = Reply.json(FailureHandler.status(failure), failure.json());
                } catch (Exception | Error e) {
                    context.runOnContext(v -> ctx.fail(e));
                    return;
                }
                Reply answer = reply;
                context.runOnContext(v -> {
                    if (!ctx.response().ended()) {
                        answer.writeTo(ctx.response());
                    }
                });
            });
        } catch (RejectedExecutionException e) {
            ctx.fail(Refusal.unavailable("Too many summaries are waiting (" + WAITING + "); try again later"));
        }
    }
}
