package tankard.summarize.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.backend.Completions;
import tankard.chat.ChatRef;
import tankard.chat.ChatService;
import tankard.chat.ChatTail;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.summarize.Summarizer;
import tankard.summarize.SummaryModel;
import tankard.summarize.SummaryOfSummaries;
import tankard.tokenizer.Tokenizers;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Summarizes a chat's older messages with the user's main backend and stores the summary where ST's Summarize
 * extension keeps it (ST: public/scripts/extensions/memory/index.js, summarizeChatMain): {@code extra.memory} of the
 * last message summarized, so ST's UI shows it and the next run (here or in ST) continues from it.
 * <p>
 * The messages after the latest summary (ST's scan: from the end, the very last message skipped) up to the
 * {@code exclude_last} newest ones, system and empty messages left out, go as "Name: message" lines in one
 * request, merged into that summary. A conversation too long for the model's context is summarized part by
 * part (summary of summaries) first. Blocking: runs on a worker thread.
 */
public final class ChatSummarizer {
    private static final Logger LOG = LoggerFactory.getLogger(ChatSummarizer.class);

    private final ChatService chats;
    private final Completions completions;
    private final Tokenizers tokenizers;
    private final Function<SummaryModel, Summarizer> summaryOfSummaries;

    public ChatSummarizer(ChatService chats, Completions completions, Tokenizers tokenizers) {
        this(chats, completions, tokenizers, SummaryOfSummaries::new);
    }

    /** @param summaryOfSummaries what summarizes a text longer than the model's window, part by part */
    ChatSummarizer(ChatService chats, Completions completions, Tokenizers tokenizers,
                          Function<SummaryModel, Summarizer> summaryOfSummaries) {
        this.chats = chats;
        this.completions = completions;
        this.tokenizers = tokenizers;
        this.summaryOfSummaries = summaryOfSummaries;
    }

    /** Whether the main backend has the chat completion source (what SummaryOptions checks). */
    public boolean knowsSource(String source) {
        return completions.knowsSource(source);
    }

    /**
     * Summarizes and stores; answers {@code {summary, index, messages, fallback}}: the summary, the chat index of
     * the message it was stored on, how many messages it took in, and whether summary of summaries was needed.
     * Throws {@link SummaryFailure} (nothing stored) when the backend gives no usable summary, Refusal on bad input.
     */
    public ObjectNode summarize(String user, SummaryOptions options) throws Exception {
        ChatTail read = chats.tail(user, options.chat(), Integer.MAX_VALUE);
        ArrayNode messages = read.messages();
        JsonNode header = read.header();

        int latest = latestSummaryIndex(messages);
        String previous = latest < 0 ? null : Js.string(messages.get(latest).path("extra").get("memory"));
        List<String> lines = new ArrayList<>();
        int last = -1;
        for (int i = latest + 1; i < messages.size() - options.excludeLast(); i++) {
            JsonNode message = messages.get(i);
            if (Js.truthy(message.get("is_system")) || !Js.truthy(message.get("mes"))) {
                continue;
            }
            lines.add(SummaryPrompt.line(Js.string(message.get("name")), Js.string(message.get("mes"))));
            last = i;
        }
        if (last < 0) {
            throw Refusal.badRequest("No messages to summarize: none after the latest summary, before the "
                    + options.excludeLast() + " newest");
        }
        BackendSummaryModel model = new BackendSummaryModel(completions, user, options,
                tokenizers.forModel(options.model()), name(header, "user_name", "User"),
                name(header, "character_name", "Assistant"));
        String conversation = String.join("\n\n", lines);
        boolean fallback = !model.fits(previous, conversation);
        String summary;
        if (fallback && model.inputWindow() <= 0) {
            throw Refusal.badRequest("The model's context (context_size) leaves no room for the text once the "
                    + "instruction and max_tokens are in");
        }
        if (fallback) {
            LOG.info("Summarizing {} messages part by part: they do not fit the model's context", lines.size());
            String parts = summaryOfSummaries.apply(model).summarize(conversation, JsJson.object());
            if (parts.isBlank()) {
                throw new SummaryFailure(SummaryFailure.Reason.EMPTY, "The backend's summaries of the parts were empty");
            }
            summary = previous == null ? parts : model.summarize(previous, parts);
        } else {
            summary = model.summarize(previous, conversation);
        }
        store(user, options.chat(), read, messages, last, summary);
        ObjectNode answer = JsJson.object().put("summary", summary).put("index", last).put("messages", lines.size());
        return answer.put("fallback", fallback);
    }

    /** ST's getIndexOfLatestChatSummary: from the end, the last message skipped, the first with a memory; -1: none. */
    private static int latestSummaryIndex(ArrayNode messages) {
        for (int i = messages.size() - 2; i >= 0; i--) {
            if (Js.truthy(messages.get(i).path("extra").get("memory"))) {
                return i;
            }
        }
        return -1;
    }

    private static String name(JsonNode header, String field, String missing) {
        JsonNode name = header.get(field);
        return Js.truthy(name) ? Js.string(name) : missing;
    }

    /**
     * Sets {@code extra.memory} on message {@code index} as ST's setMemoryContext does, rewriting that line only,
     * through the chat store's locked, atomic save; 409 (nothing written) when the chat changed since it was read
     * (ST discards a summary made while the chat changed, too).
     */
    private void store(String user, ChatRef chat, ChatTail read, ArrayNode messages, int index, String summary)
            throws IOException {
        JsonNode original = messages.get(index);
        if (!original.isObject()) {
            throw Refusal.conflict("The message to store the summary on is not an object; nothing was stored");
        }
        ObjectNode message = original.deepCopy();
        if (!message.path("extra").isObject()) {
            message.set("extra", JsJson.object()); // ST: if (!mes.extra) mes.extra = {}
        }
        ((ObjectNode) message.get("extra")).put("memory", summary);
        chats.replaceMessage(user, chat, read, messages.size() - index, original, message);
    }
}
