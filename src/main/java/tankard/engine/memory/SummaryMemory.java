package tankard.engine.memory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.core.Refusal;
import tankard.engine.macro.Macros;
import tankard.engine.prompt.TokenCounter;
import tankard.json.Js;
import tankard.json.JsNumber;

import java.nio.charset.StandardCharsets;
import tankard.summarize.SummaryModel;
import tankard.summarize.SummaryOfSummaries;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ST's Summarize extension on the main API (public/scripts/extensions/memory/index.js), as the server runs it after
 * a saved reply: whether a summary is due (getSummaryPromptForNow), the request that asks for it, and the message
 * the answer is kept in ({@code extra.memory}, setMemoryContext). Pure: the caller sends the request to the route of
 * the last generation and saves the message.
 *
 * <p>The raw modes send what ST's generateRaw sends for getRawSummaryPrompt. The classic mode ("in place") is
 * Tankard's: ST asks with a whole new quiet generation; here the last request is sent again as it was, with the
 * reply and the instruction after it, so the provider's prompt cache serves all but its end.
 */
public final class SummaryMemory {
    /** ST's {@code prompt_builders}: how the summary is asked for. */
    public enum Mode {
        /** 0: the chat's own prompt with the instruction at its end. */
        CLASSIC,
        /** 1: the chat as plain text under the instruction; ST keeps the user from sending meanwhile. */
        RAW_BLOCKING,
        /** 2: as {@link #RAW_BLOCKING}, with sending left open. */
        RAW_NON_BLOCKING
    }

    /** A summary that is due: the mode and the instruction (ST's summary prompt, {{words}} filled in). */
    public record Due(Mode mode, String instruction) {
    }

    /**
     * A summary request.
     *
     * @param body          the body to post, non-streaming, to the route of the last generation
     * @param lastUsedIndex raw modes: the last message the summary covers, where it is kept; -1 for classic, which
     *                      keeps it on the chat's next-to-last message when the answer comes
     * @param backlog       raw modes: the messages since the latest summary when one request cannot take them all,
     *                      else null; then they are summarized part by part ({@link #summarizeBacklog}), up to
     *                      {@code lastUsedIndex}, instead of with {@code body}
     */
    public record Request(Mode mode, ObjectNode body, int lastUsedIndex, Backlog backlog) {
    }

    /**
     * Tankard's: what a raw summary covers when it does not fit one request (ST then summarizes what fits, and the
     * rest at the next triggers): the latest summary and the messages after it, as the raw prompt writes them.
     */
    public record Backlog(String text, String instruction, ObjectNode quietBody, boolean chatCompletion) {
    }

    /** Sends a summary request and answers the summary's text, cleaned as a reply is. Blocking. */
    @FunctionalInterface
    public interface Send {
        String summary(ObjectNode body) throws Exception;
    }

    /** The message at {@code index}, a copy with the summary in {@code extra.memory}, to save in its place. */
    public record Stored(int index, ObjectNode message) {
    }

    /** ST: getRawSummaryPrompt's PADDING, the tokens added to each count. */
    private static final int PADDING = 64;
    /** ST: public/scripts/tokenizers.js BYTES_PER_TOKEN, for guesstimate. */
    private static final double BYTES_PER_TOKEN = 3.35;
    /** JavaScript's {@code \s} beyond Java's. */
    private static final String JS_SPACE = "\\s\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF";
    private static final List<String> TEXT_LENGTH_FIELDS = List.of("max_new_tokens", "max_tokens", "n_predict",
            "num_predict");

    private final ObjectNode settings;
    private final JsonNode powerUser;
    private final SummarySettings memory;
    private final Macros macros;
    private final TokenCounter tokens;

    /**
     * @param settings settings.json: {@code extension_settings.memory}, {@code power_user}, the context and response
     *                 sizes of the main API
     * @param macros   substituteParams for the chat
     * @param tokens   what ST's getTokenCountAsync answers for an extension's text with the main API: the text
     *                 completion tokenizer, or for chat completion the count of the text as a system message
     */
    public SummaryMemory(ObjectNode settings, Macros macros, TokenCounter tokens) {
        this.settings = settings;
        this.powerUser = settings.path("power_user");
        this.memory = SummarySettings.of(settings.path("extension_settings").path("memory"));
        this.macros = macros;
        this.tokens = tokens;
    }

    /**
     * ST: onChatEvent → summarizeChatMain → getSummaryPromptForNow: a summary is due when the source is the main
     * API, the memory is not frozen, the interval is not 0, the chat has at least {@code promptInterval} messages,
     * and since the last message with a summary there are {@code promptInterval} messages or
     * {@code promptForceWords} words; and the instruction is not empty.
     *
     * @param chat the chat's messages, oldest first, after the reply was saved (and after {@link #memoryToDrop})
     */
    public Optional<Due> due(ArrayNode chat) {
        return due(chat, false);
    }

    /**
     * As {@link #due(ArrayNode)}; forced (ST's "Summarize now", forceSummarizeChat → getSummaryPromptForNow with
     * force), the pause, the interval and the triggers do not count: only the source, the chat and the instruction.
     */
    private Optional<Due> due(ArrayNode chat, boolean force) {
        Mode mode = mode();
        if (!memory.mainApi() || mode == null || chat.isEmpty()) {
            return Optional.empty();
        }
        if (!force && (memory.frozen() || memory.intervalOff() || chat.size() < memory.intervalNumber())) {
            return Optional.empty();
        }
        int messages = 0;
        long words = 0;
        for (int i = chat.size() - 1; i >= 0; i--) {
            if (Js.truthy(chat.get(i).path("extra").get("memory"))) {
                break;
            }
            messages++;
            words += wordCount(chat.get(i).get("mes"));
        }
        boolean enoughWords = Js.truthy(memory.forceWords()) && words >= JsNumber.of(memory.forceWords());
        if (!force && messages < memory.intervalNumber() && !enoughWords) {
            return Optional.empty();
        }
        String instruction = Js.truthy(memory.prompt()) ? macros.substitute(Js.string(memory.prompt()),
                new Macros.Options(null, null, null, null, true, Map.of("words", Js.string(memory.promptWords()))))
                : "";
        return instruction.isEmpty() ? Optional.empty() : Optional.of(new Due(mode, instruction));
    }

    /** ST's prompt_builder; null for a value ST's summarizeChatMain has no branch for (it then asks nothing). */
    private Mode mode() {
        JsonNode builder = memory.builder();
        if (!builder.isNumber()) {
            return null;
        }
        double value = builder.asDouble();
        return value == 0 ? Mode.CLASSIC : value == 1 ? Mode.RAW_BLOCKING : value == 2 ? Mode.RAW_NON_BLOCKING : null;
    }

    /**
     * The summary request, when one is due (and, raw, when a message is left to summarize).
     *
     * @param chat        the chat's messages after the reply was saved
     * @param lastRequest the body of the last generation: chat completion ({@code messages}) or text completion
     *                    ({@code prompt})
     * @param reply       the reply as the model wrote it (classic puts it after the last request)
     */
    public Optional<Request> request(ArrayNode chat, ObjectNode lastRequest, String reply) {
        return request(due(chat, false), chat, lastRequest, reply);
    }

    /**
     * ST's "Summarize now" (forceSummarizeChat): the summary request whatever the triggers and the pause say; empty
     * when the source is not the main API, the instruction is empty or (raw) no message is left to summarize.
     *
     * @param reply classic: the chat's last reply, which {@code lastRequest} was built to answer; empty when the
     *              chat ends with the user's message
     */
    public Optional<Request> forced(ArrayNode chat, ObjectNode lastRequest, String reply) {
        return request(due(chat, true), chat, lastRequest, reply);
    }

    private Optional<Request> request(Optional<Due> due, ArrayNode chat, ObjectNode lastRequest, String reply) {
        if (due.isEmpty()) {
            return Optional.empty();
        }
        boolean chatCompletion = lastRequest.get("messages") instanceof ArrayNode;
        if (!chatCompletion && !lastRequest.path("prompt").isTextual()) {
            throw Refusal.badRequest("The last request has neither messages nor a prompt");
        }
        ObjectNode body = quietBody(lastRequest, chatCompletion);
        String instruction = due.get().instruction();
        if (due.get().mode() == Mode.CLASSIC) {
            // ST: Generate substitutes the quiet prompt's macros once more
            String quiet = macros.substitute(instruction);
            if (chatCompletion) {
                ArrayNode messages = (ArrayNode) body.get("messages");
                if (!reply.isEmpty()) {
                    messages.addObject().put("role", "assistant").put("content", reply);
                }
                messages.addObject().put("role", "system").put("content", quiet);
            } else {
                body.put("prompt", lastRequest.get("prompt").textValue() + reply + quietTurn(quiet));
            }
            return Optional.of(new Request(Mode.CLASSIC, body, -1, null));
        }
        RawPrompt raw = rawSummaryPrompt(chat, instruction, chatCompletion);
        if (raw.backlog() != null && rawWindow(instruction, chatCompletion) > PADDING) {
            Backlog backlog = new Backlog(raw.backlog(), instruction, body, chatCompletion);
            return Optional.of(new Request(due.get().mode(), rawBody(backlog, raw.text()), raw.lastBacklogIndex(),
                    backlog));
        }
        if (raw.lastUsedIndex() == -1) {
            return Optional.empty();
        }
        return Optional.of(new Request(due.get().mode(), rawBody(body, instruction, chatCompletion, raw.text()),
                raw.lastUsedIndex(), null));
    }

    /** The tokens a raw request leaves for its text once the instruction is in. */
    private int rawWindow(String instruction, boolean chatCompletion) {
        return maxPromptTokens(chatCompletion) - count(instruction, chatCompletion);
    }

    /** generateRaw's request for a raw summary of {@code text} under the instruction. */
    private ObjectNode rawBody(Backlog backlog, String text) {
        return rawBody(backlog.quietBody(), backlog.instruction(), backlog.chatCompletion(), text);
    }

    private ObjectNode rawBody(ObjectNode quietBody, String instruction, boolean chatCompletion, String text) {
        ObjectNode body = quietBody.deepCopy();
        if (chatCompletion) {
            ArrayNode messages = body.putArray("messages");
            messages.addObject().put("role", "system").put("content", Js.trim(macros.substitute(instruction)));
            messages.addObject().put("role", "user").put("content", macros.substitute(Js.trim(text)));
        } else {
            body.put("prompt", rawTextPrompt(instruction, text));
        }
        return body;
    }

    /**
     * Tankard's summary of summaries for a backlog no raw request takes whole (tankard.summarize.SummaryOfSummaries):
     * the latest summary and the messages after it, split where the text allows into parts that each fit a raw
     * request under the instruction, each part summarized, and the summaries summarized in turn until they fit one
     * request. Blocking: sends each request with {@code send}.
     */
    public String summarizeBacklog(Backlog backlog, Send send) throws Exception {
        boolean chatCompletion = backlog.chatCompletion();
        int window = rawWindow(backlog.instruction(), chatCompletion);
        return new SummaryOfSummaries(new SummaryModel() {
            @Override
            public int countTokens(String text) {
                return count(text, chatCompletion);
            }

            @Override
            public int inputWindow() {
                return window;
            }

            @Override
            public String summarize(String text) throws Exception {
                return send.summary(rawBody(backlog, text));
            }
        }).summarize(backlog.text());
    }

    /**
     * The last request as a quiet, non-streaming one (ST: createGenerationParameters and createTextGenGenerationData
     * with type "quiet"): no multi-swipe, no tools, no Claude prefill; the summary's response length when set.
     */
    private ObjectNode quietBody(ObjectNode lastRequest, boolean chatCompletion) {
        ObjectNode body = lastRequest.deepCopy();
        body.put("stream", false);
        JsonNode length = memory.responseLength();
        if (chatCompletion) {
            body.put("type", "quiet");
            body.remove(List.of("n", "tools", "tool_choice", "assistant_prefill"));
            if (length != null) {
                body.set("max_tokens", length);
            }
        } else {
            if (body.has("n")) {
                body.put("n", 1);
            }
            body.remove("grammar_retain_state");
            for (String field : TEXT_LENGTH_FIELDS) {
                if (length != null && body.has(field)) {
                    body.set(field, length);
                }
            }
        }
        return body;
    }

    /**
     * ST: Generate's modifyLastPromptLine for a quiet prompt: instruct, a system turn (named as the user, as ST
     * forces) and the quiet answer line; otherwise the instruction on its own line. Instruct first closes the
     * character's turn the reply ends.
     */
    private String quietTurn(String instruction) {
        InstructFormat instruct = new InstructFormat(powerUser, macros);
        if (!instruct.enabled()) {
            return "\n" + instruction + "\n";
        }
        return instruct.characterTurnEnd() + instruct.turn(macros.env().name1(), instruction, InstructFormat.Role.SYSTEM)
                + instruct.quietAnswerLine("System");
    }

    /**
     * ST: generateRaw's createRawPrompt for text completion, with the summary prompt as the system prompt and the
     * raw summary prompt as the user's message.
     */
    private String rawTextPrompt(String instruction, String rawPrompt) {
        InstructFormat instruct = new InstructFormat(powerUser, macros);
        String name1 = macros.env().name1();
        String user = macros.substitute(Js.trim(rawPrompt));
        String system = macros.substitute(instruction);
        if (!instruct.enabled()) {
            return Js.trim(system) + "\n" + (name1.isEmpty() ? "" : name1 + ": ") + user + "\n";
        }
        system = instruct.storyString(system);
        if (!system.isEmpty() && !system.endsWith("\n") && instruct.wrap() && !instruct.hasStoryStringSuffix()) {
            system += "\n";
        }
        return system + instruct.turn(name1, user, InstructFormat.Role.USER)
                + instruct.quietAnswerLine(macros.env().name2());
    }

    /**
     * The raw prompt's text and the last message in it; when the budget stopped it before the chat's end, the whole
     * backlog's text and its last message too (else null and -1).
     */
    private record RawPrompt(String text, int lastUsedIndex, String backlog, int lastBacklogIndex) {
    }

    /**
     * ST: getRawSummaryPrompt: the latest summary, then "name:\ntext" of each message after it (system and empty
     * ones skipped, the chat's last message left out) while the instruction, summary and messages fit the prompt
     * budget, up to {@code maxMessagesPerRequest}.
     */
    private RawPrompt rawSummaryPrompt(ArrayNode chat, String instruction, boolean chatCompletion) {
        String latestSummary = latestMemory(chat);
        int latestIndex = latestMemoryIndex(chat);
        List<String> buffer = new ArrayList<>();
        int budget = maxPromptTokens(chatCompletion);
        double maxMessages = memory.maxMessages();
        int lastUsed = -1;
        int overBudget = -1; // the first message the budget left out
        for (int i = latestIndex + 1; i < chat.size() - 1; i++) {
            JsonNode message = chat.get(i);
            if (!Js.truthy(message)) {
                break;
            }
            if (Js.truthy(message.get("is_system")) || !Js.truthy(message.get("mes"))) {
                continue;
            }
            buffer.add(rawLine(message));
            if (count(memoryString(instruction, latestSummary, buffer), chatCompletion) > budget) {
                buffer.remove(buffer.size() - 1);
                overBudget = i;
                break;
            }
            lastUsed = i;
            if (maxMessages > 0 && buffer.size() >= maxMessages) {
                break;
            }
        }
        String text = memoryString(null, latestSummary, buffer);
        if (overBudget < 0) {
            return new RawPrompt(text, lastUsed, null, -1);
        }
        List<String> backlog = new ArrayList<>(buffer);
        int last = lastUsed;
        for (int i = overBudget; i < chat.size() - 1 && Js.truthy(chat.get(i)); i++) {
            JsonNode message = chat.get(i);
            if (!Js.truthy(message.get("is_system")) && Js.truthy(message.get("mes"))) {
                backlog.add(rawLine(message));
                last = i;
            }
        }
        return new RawPrompt(text, lastUsed, memoryString(null, latestSummary, backlog), last);
    }

    /** A message as the raw prompt writes it. */
    private static String rawLine(JsonNode message) {
        return Js.string(message.get("name")) + ":\n" + Js.string(message.get("mes"));
    }

    /** ST: getRawSummaryPrompt's getMemoryString: the instruction (when given), the summary, the messages. */
    private static String memoryString(String instruction, String latestSummary, List<String> buffer) {
        List<String> parts = new ArrayList<>();
        if (instruction != null) {
            parts.add(instruction);
        }
        if (!latestSummary.isEmpty()) {
            parts.add(latestSummary);
        }
        parts.add(String.join("\n\n", buffer));
        return Js.trim(String.join("\n\n", parts));
    }

    /**
     * ST: countSourceTokens(text, 64) with the main API. With chat completion and {@code power_user.token_padding}
     * at 64, ST's getTokenCountAsync takes the padding for its own prompt building and guesses from the bytes;
     * with another padding it counts the text as a system message without adding the padding.
     */
    private int count(String text, boolean chatCompletion) {
        if (text.isEmpty()) {
            return 0;
        }
        if (!chatCompletion) {
            return tokens.count(text) + PADDING;
        }
        JsonNode padding = powerUser.get("token_padding");
        boolean shadowPadding = padding == null || padding.isMissingNode() || padding.isNumber() && padding.asDouble() == PADDING;
        return shadowPadding ? (int) Math.ceil(text.getBytes(StandardCharsets.UTF_8).length / BYTES_PER_TOKEN) + PADDING
                : tokens.count(text);
    }

    /** ST: getMaxPromptTokens(overrideResponseLength): the context size less the response length. */
    private int maxPromptTokens(boolean chatCompletion) {
        JsonNode override = memory.responseLength();
        if (chatCompletion) {
            JsonNode oai = settings.path("oai_settings");
            return intOr(oai.get("openai_max_context"), 4095)
                    - (override != null ? override.asInt() : intOr(oai.get("openai_max_tokens"), 300));
        }
        return intOr(settings.get("max_context"), 2048)
                - (override != null ? override.asInt() : intOr(settings.get("amount_gen"), 80));
    }

    private static int intOr(JsonNode node, int fallback) {
        double value = JsNumber.of(node);
        return Double.isNaN(value) ? fallback : (int) value;
    }

    /**
     * ST: setMemoryContext(summary, true, index) after the answer: the summary (reasoning removed as
     * removeReasoningFromString does) kept in {@code extra.memory} of the message the raw prompt ended with, or for
     * classic of the chat's next-to-last message (the first when there is one). Nothing when the summary is empty.
     *
     * @param chat   the chat's messages as they are when the answer comes
     * @param answer the answer, cleaned as ST's cleanUpMessage does
     */
    public Optional<Stored> store(ArrayNode chat, Request request, String answer) {
        String summary = withoutReasoning(answer);
        int index = request.mode() == Mode.CLASSIC ? Math.max(0, chat.size() - 2) : request.lastUsedIndex();
        if (summary.isEmpty() || index < 0 || index >= chat.size() || !(chat.get(index) instanceof ObjectNode found)) {
            return Optional.empty();
        }
        ObjectNode message = found.deepCopy();
        ObjectNode extra = message.get("extra") instanceof ObjectNode object ? object : message.putObject("extra");
        extra.put("memory", summary);
        return Optional.of(new Stored(index, message));
    }

    /**
     * ST: removeReasoningFromString: with {@code power_user.reasoning.auto_parse}, a reasoning block at the start
     * (after white space) is cut out and the rest trimmed when {@code trim_spaces} is on.
     */
    String withoutReasoning(String text) {
        JsonNode reasoning = powerUser.path("reasoning");
        String prefix = Js.truthy(reasoning.get("prefix")) ? Js.string(reasoning.get("prefix")) : "";
        String suffix = Js.truthy(reasoning.get("suffix")) ? Js.string(reasoning.get("suffix")) : "";
        if (!Js.truthy(reasoning.get("auto_parse")) || prefix.isEmpty() || suffix.isEmpty()) {
            return text;
        }
        Matcher block = Pattern.compile("^[" + JS_SPACE + "]*?" + Pattern.quote(prefix) + "(.*?)" + Pattern.quote(suffix),
                Pattern.DOTALL).matcher(text);
        if (!block.find()) {
            return text;
        }
        String content = text.substring(0, block.start()) + text.substring(block.end());
        JsonNode trimSpaces = powerUser.get("trim_spaces");
        return trimSpaces == null || Js.truthy(trimSpaces) ? Js.trim(content) : content;
    }

    /**
     * ST: onChatEvent, "message has been edited / regenerated": when the chat's last message changed text in
     * place (edit, swipe, continue) and carries a summary, that summary is deleted. Other edits keep theirs.
     *
     * @param chat         the chat after the edit
     * @param edited       the index of the message that changed
     * @param previousText the message's text before the change
     * @return the index whose {@code extra.memory} to delete, if any
     */
    public static OptionalInt memoryToDrop(ArrayNode chat, int edited, String previousText) {
        if (edited != chat.size() - 1 || edited < 0) {
            return OptionalInt.empty();
        }
        JsonNode message = chat.get(edited);
        boolean changed = !Js.string(message.get("mes")).equals(previousText);
        return changed && Js.truthy(message.path("extra").get("memory")) ? OptionalInt.of(edited) : OptionalInt.empty();
    }

    /**
     * ST: getLatestMemoryFromChat: the summary of the newest message that has one, the chat's last message not
     * looked at; empty when none. What the prompt's summary is after messages are deleted.
     */
    public static String latestMemory(ArrayNode chat) {
        int index = latestMemoryIndex(chat);
        return index < 0 ? "" : Js.string(chat.get(index).path("extra").get("memory"));
    }

    /** ST: getIndexOfLatestChatSummary; -1 when no message before the last has a summary. */
    static int latestMemoryIndex(ArrayNode chat) {
        for (int i = chat.size() - 2; i >= 0; i--) {
            if (Js.truthy(chat.get(i).path("extra").get("memory"))) {
                return i;
            }
        }
        return -1;
    }

    /** ST: extractAllWords(text).length: the runs of ASCII word characters ({@code /\b\w+\b/g}). */
    static int wordCount(JsonNode text) {
        if (!Js.truthy(text)) {
            return 0;
        }
        String value = Js.string(text);
        int words = 0;
        boolean inWord = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean word = c < 128 && (Character.isLetterOrDigit(c) || c == '_');
            if (word && !inWord) {
                words++;
            }
            inWord = word;
        }
        return words;
    }
}
