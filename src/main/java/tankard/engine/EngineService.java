package tankard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.backend.Completions;
import tankard.character.CharacterService;
import tankard.chat.ChatRef;
import tankard.chat.ChatService;
import tankard.chat.ChatTail;
import tankard.core.Refusal;
import tankard.engine.prompt.Action;
import tankard.engine.memory.SummaryMemory;
import tankard.engine.memory.VectorMemory;
import tankard.engine.prompt.BuiltPrompt;
import tankard.engine.prompt.Generation;
import tankard.engine.prompt.PromptInputs;
import tankard.group.GroupStore;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.json.JsonFiles;
import tankard.store.DocumentStore;
import tankard.tokenizer.Tokenizers;
import tankard.vector.VectorService;
import tankard.worldinfo.WorldInfoStore;

import java.io.IOException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Reads what a prompt is built from (the user's settings, the character or group, the chat, the world info
 * books) and has {@link PromptEngine} build it. Blocking: runs on a worker.
 */
public final class EngineService {
    private static final Logger LOG = LoggerFactory.getLogger(EngineService.class);

    private final DocumentStore documents;
    private final CharacterService characters;
    private final GroupStore groups;
    private final WorldInfoStore books;
    private final ChatService chats;
    private final Tokenizers tokenizers;
    private final VectorService vectors;
    private final Completions completions;
    private final Turns turns;
    private final ChatSnapshots snapshots;
    /** The books read last, by user and name: the store's bytes decide whether one is still the book. */
    private final Map<String, ParsedBook> parsedBooks = Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, ParsedBook> eldest) {
                    return size() > 64;
                }
            });
    private final Supplier<ZonedDateTime> clock;

    public EngineService(DocumentStore documents, CharacterService characters, GroupStore groups, ChatService chats,
                         Tokenizers tokenizers, VectorService vectors, Completions completions,
                         Supplier<ZonedDateTime> clock) {
        this.documents = documents;
        this.characters = characters;
        this.groups = groups;
        this.books = new WorldInfoStore(documents);
        this.chats = chats;
        this.tokenizers = tokenizers;
        this.vectors = vectors;
        this.completions = completions;
        this.turns = new Turns(chats);
        this.snapshots = new ChatSnapshots(chats);
        this.clock = clock;
    }

    /**
     * The {@code /api/tankard/prompt} answer: the route, the request body and the itemization; with the context
     * the itemization is measured against (ST's PromptItemize shows the same: the context size and what is left of
     * it for the prompt) and the texts the memory put in (the summary, ST's {@code 1_memory}, and the vector
     * recall, {@code 3_vectors}), for a client to show.
     */
    public ObjectNode prompt(String user, JsonNode body) throws IOException {
        Generation generation = PromptEngine.prepare(load(user, body).inputs(), action(body));
        BuiltPrompt built = PromptEngine.build(generation);
        ObjectNode answer = JsJson.object();
        answer.put("route", built.route());
        answer.set("request", built.request());
        answer.set("itemization", built.itemization().toJson());
        boolean chatCompletion = built.route().equals(BuiltPrompt.CHAT_COMPLETIONS);
        answer.putObject("context")
                .put("size", PromptEngine.maxContextSize(generation.inputs().settings(), chatCompletion))
                .put("prompt", PromptEngine.maxContext(generation.inputs().settings(), chatCompletion));
        answer.putObject("memory")
                .put("summary", extensionValue(generation, PromptEngine.MEMORY))
                .put("vectors", extensionValue(generation, VectorMemory.PROMPT_KEY));
        return answer;
    }

    private static String extensionValue(Generation generation, String key) {
        var prompt = generation.extensionPrompts().get(key);
        return prompt == null ? "" : prompt.value();
    }

    private static Action action(JsonNode body) {
        return Action.parse(body.hasNonNull("action") ? Js.string(body.get("action")) : null);
    }

    /** A generation ready to send: its prompt, the backend call, where the reply goes and how it is read. */
    public record Started(Generation generation, BuiltPrompt prompt, Completions.Generation call, Turns.Reply reply,
                          boolean stream, String source, List<String> stoppingStrings) {
        public boolean chatCompletion() {
            return prompt.route().equals(BuiltPrompt.CHAT_COMPLETIONS);
        }

        boolean instruct() {
            return !chatCompletion() && Js.truthy(generation.powerUser().path("instruct").get("enabled"));
        }

        /** ST's cleanUpMessage, with or without the user's prompt bias put back in front. */
        String clean(String text, Action action, boolean withBias) {
            ObjectNode powerUser = generation.powerUser();
            String bias = withBias ? generation.macros().substitute(PromptEngine.text(powerUser.get("user_prompt_bias"))) : "";
            return ReplyCleaner.clean(text, action, powerUser, generation.name1(), generation.name2(), stoppingStrings,
                    instruct(), bias);
        }
    }

    /**
     * Builds the prompt and the backend call, then appends the user's message (a send): a request that cannot be
     * sent writes nothing. Blocking.
     */
    public Started start(String user, JsonNode body) throws IOException, Completions.Unreachable {
        Action action = action(body);
        Loaded loaded = load(user, body);
        Started started = started(user, loaded, action);
        ObjectNode message = PromptEngine.userMessage(loaded.inputs(), action);
        if (message != null) {
            turns.appendUserMessage(user, loaded.chat(), message);
        }
        return started;
    }

    /** The prompt and the backend call for an action on the chat as it was loaded; writes nothing. */
    private Started started(String user, Loaded loaded, Action action) throws Completions.Unreachable {
        PromptInputs inputs = loaded.inputs();
        Generation generation = PromptEngine.prepare(inputs, action);
        BuiltPrompt built = PromptEngine.build(generation);
        boolean chatCompletion = built.route().equals(BuiltPrompt.CHAT_COMPLETIONS);
        Completions.Generation call = completions.generation(user, chatCompletion, built.request());
        String source = chatCompletion ? PromptEngine.text(built.request().get("chat_completion_source")) : null;
        String api = chatCompletion ? (source.isEmpty() ? "openai" : source) : textApi(inputs.settings());
        Turns.Reply reply = new Turns.Reply(loaded.chat(), action, generation.name2(), api,
                PromptEngine.text(built.request().get("model")), inputs.now(),
                inputs.character() == null ? "" : PromptEngine.text(inputs.character().get("avatar")),
                inputs.group() != null, loaded.generationId() != null ? loaded.generationId()
                        : inputs.now().toInstant().toEpochMilli());
        List<String> stops = new ArrayList<>();
        JsonNode stop = built.request().has("stopping_strings") ? built.request().get("stopping_strings")
                : built.request().get("stop");
        if (stop != null) {
            stop.forEach(value -> stops.add(Js.string(value)));
        }
        return new Started(generation, built, call, reply, Js.truthy(built.request().get("stream")), source, stops);
    }

    /**
     * A reply as saved: its cleaned text, the message it is in (null for an impersonation) and the summary to
     * make after answering (raw non-blocking mode), if one is due.
     */
    public record Finished(String text, ObjectNode message, Summary later) {
        public ObjectNode json() {
            ObjectNode json = JsJson.object().put("text", text);
            json.set("message", message);
            return json;
        }
    }

    /** A summary due after a reply: the memory extension's settings at hand and the request to send. */
    public record Summary(SummaryMemory memory, SummaryMemory.Request request) {
    }

    /**
     * Cleans the reply's text as ST's frontend does and saves it; then, when the user's memory settings ask for
     * a summary on the main API, makes it now (in place, raw blocking) or leaves it for after the answer (raw
     * non-blocking). {@code cutOff}: why the backend's stream broke off before its end (null when it ended
     * well), kept in the message as {@link Turns#CUT_OFF}. Blocking.
     */
    public Finished finish(String user, Started started, String text, String cutOff) throws IOException {
        String cleaned = started.clean(text, started.reply().action(), true);
        ObjectNode message = turns.saveReply(user, started.reply(), cleaned, clock.get(), cutOff);
        Summary summary = message == null ? null : summaryDue(user, started, text);
        if (summary != null && summary.request().mode() != SummaryMemory.Mode.RAW_NON_BLOCKING) {
            summarize(user, started, summary);
            summary = null;
        } else if (message != null) {
            readAhead(user, started);
        }
        return new Finished(cleaned, message, summary);
    }

    /**
     * Parses the chat as it now is, after the reply has been streamed, so the next prompt (which is built before
     * its own message is saved) finds it parsed, and hashed for Vector Storage when that is on. A failure here fails
     * nothing.
     */
    private void readAhead(String user, Started started) {
        try {
            ChatSnapshots.Snapshot read = snapshots.read(user, started.reply().chat());
            if (started.generation().inputs().vectors() != null) {
                read.hashes().prepare();
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("The chat could not be read ahead of the next prompt", e);
        }
    }

    /** The summary the chat is due after this reply (ST: the memory extension's onChatEvent), or null. */
    private Summary summaryDue(String user, Started started, String reply) throws IOException {
        ObjectNode settings = started.generation().inputs().settings();
        if (!"main".equals(PromptEngine.text(settings.path("extension_settings").path("memory").get("source")))) {
            return null; // the only source the server summarizes with; skips reading the chat for all others
        }
        SummaryMemory memory = new SummaryMemory(settings, started.generation().macros(),
                PromptEngine.tokenCounter(started.generation().inputs(), started.chatCompletion()));
        ArrayNode chat = snapshots.read(user, started.reply().chat()).messages();
        return memory.request(chat, started.prompt().request(), reply).map(request -> new Summary(memory, request))
                .orElse(null);
    }

    /**
     * Sends the summary request to the user's backend (a backlog too long for one request part by part) and stores
     * the summary where ST keeps it, with one tail save. A summary that fails is logged and changes nothing: it
     * never fails the reply. Blocking.
     */
    public void summarize(String user, Started started, Summary summary) {
        try {
            makeAndStore(user, started, summary);
        } catch (Exception e) {
            LOG.warn("The summary after a reply could not be made or stored", e);
        }
        readAhead(user, started);
    }

    /** Sends the summary request and stores the answer; answers where it was stored (empty: nothing to store). */
    private Optional<SummaryMemory.Stored> makeAndStore(String user, Started started, Summary summary) throws Exception {
        SummaryMemory.Request request = summary.request();
        String text = request.backlog() != null
                ? summary.memory().summarizeBacklog(request.backlog(), body -> summaryText(user, started, body))
                : summaryText(user, started, request.body());
        ChatTail read = chats.tail(user, started.reply().chat(), Integer.MAX_VALUE);
        Optional<SummaryMemory.Stored> stored = summary.memory().store(read.messages(), request, text);
        if (stored.isPresent()) {
            int index = stored.get().index();
            chats.replaceMessage(user, started.reply().chat(), read, read.messages().size() - index,
                    read.messages().get(index), stored.get().message());
        }
        return stored;
    }

    /**
     * ST's "Summarize now" (the memory extension's forceSummarizeChat with the main API): a summary whatever the
     * triggers and the pause say, asked as the user's prompt builder asks (in place: the request that made the last
     * reply, the reply and the instruction, as after a reply; raw: the messages since the latest summary) and kept
     * where ST keeps it. Answers {@code {summary, index}}, the message it is kept in. 400 when the source is not the
     * main API or nothing is left to summarize, 502 when the backend fails. Blocking: waits on the backend.
     */
    public ObjectNode summarizeNow(String user, JsonNode body) throws Exception {
        Loaded loaded = load(user, body);
        if (!"main".equals(PromptEngine.text(loaded.inputs().settings().path("extension_settings").path("memory")
                .get("source")))) {
            throw Refusal.badRequest("The server summarizes with the main API only: choose it as the summary source");
        }
        ArrayNode chat = loaded.inputs().chat();
        JsonNode last = chat.isEmpty() ? null : chat.get(chat.size() - 1);
        boolean replyLast = last != null && !Js.truthy(last.get("is_user")) && !Js.truthy(last.get("is_system"));
        Started started = started(user, loaded, replyLast ? Action.REGENERATE : Action.NORMAL);
        SummaryMemory memory = new SummaryMemory(loaded.inputs().settings(), started.generation().macros(),
                PromptEngine.tokenCounter(loaded.inputs(), started.chatCompletion()));
        SummaryMemory.Request request = memory.forced(chat, started.prompt().request(),
                        replyLast ? Js.string(last.get("mes")) : "")
                .orElseThrow(() -> Refusal.badRequest("No messages found to summarize: to try again, remove the "
                        + "latest summary (or write a summary prompt)"));
        SummaryMemory.Stored stored;
        try {
            stored = makeAndStore(user, started, new Summary(memory, request))
                    .orElseThrow(() -> Refusal.upstream("The backend answered an empty summary"));
        } catch (Completions.Unreachable e) {
            throw Refusal.upstream("The backend could not be reached: " + e.getMessage());
        }
        readAhead(user, started);
        return JsJson.object().put("summary", Js.string(stored.message().path("extra").get("memory")))
                .put("index", stored.index());
    }

    /**
     * ST's Vector Storage "Vectorize All", one step, and "View Stats": up to {@code insert} (body, default 0: count
     * only, at most 1,000) of the messages the chat's collection lacks inserted, as the engine inserts them before a
     * prompt. Answers {@code {messages, saved, remaining}}: the chat's messages to vectorize, how many are in the
     * collection, how many are not yet. 400 when chat vectorization is off. Blocking: waits on the embedding model.
     */
    public ObjectNode vectorize(String user, JsonNode body) throws IOException {
        JsonNode insert = body.get("insert");
        if (insert != null && !insert.isNull() && (!insert.canConvertToInt() || insert.asInt() < 0)) {
            throw Refusal.badRequest("insert must be a whole number of messages, 0 or more");
        }
        VectorMemory.Stats stats = PromptEngine.synchronizeVectors(load(user, body).inputs(),
                insert == null ? 0 : Math.min(insert.asInt(), 1000));
        if (stats == null) {
            throw Refusal.badRequest("Vector memory is off for chats: enable it first (extension_settings.vectors"
                    + ".enabled_chats)");
        }
        return JsJson.object().put("messages", stats.messages()).put("saved", stats.saved())
                .put("remaining", stats.remaining());
    }

    /** A summary request's answer, cleaned as ST's cleanUpMessage cleans a quiet reply. */
    private String summaryText(String user, Started started, ObjectNode body) throws IOException, Completions.Unreachable {
        Completions.Answer answer = started.chatCompletion() ? completions.chat(user, body) : completions.text(user, body);
        if (!answer.ok()) {
            throw Refusal.upstream("The summary request failed: " + answer.status() + " " + answer.reason());
        }
        return started.clean(ReplyText.whole(started.chatCompletion(), answer.json()), Action.NORMAL, false);
    }

    /** ST: getGeneratingApi for text completion: the type, with ooba's saved as "textgenerationwebui". */
    private static String textApi(ObjectNode settings) {
        String type = PromptEngine.text(settings.path("textgenerationwebui_settings").get("type"));
        return type.equals("ooba") ? "textgenerationwebui" : type;
    }

    /** {@code generationId}: the round a group's reply belongs to (ST's group_generation_id), when the body names one. */
    private record Loaded(PromptInputs inputs, ChatRef chat, Long generationId) {
    }

    private Loaded load(String user, JsonNode body) throws IOException {
        ObjectNode settings = settings(user);
        ZonedDateTime now = now(body.get("now"));
        String text = body.hasNonNull("text") ? Js.string(body.get("text")) : "";
        ObjectNode group = null;
        List<ObjectNode> members = new ArrayList<>();
        ObjectNode character;
        ChatRef chat;
        String chatId = requiredText(body, "file_name");
        if (body.hasNonNull("group_id")) {
            group = group(user, Js.string(body.get("group_id")));
            for (JsonNode member : group.path("members")) {
                members.add(member(user, Js.string(member)));
            }
            character = speaker(group, members, body.get("avatar_url"));
            chat = ChatRef.group(chatId);
        } else {
            String avatar = requiredText(body, "avatar_url");
            character = characters.get(user, avatar);
            chat = ChatRef.character(avatar, chatId);
        }
        ChatSnapshots.Snapshot read = snapshots.read(user, chat);
        Function<String, ObjectNode> books = name -> book(user, name);
        return new Loaded(new PromptInputs(settings, character, group, members, read.messages(), read.metadata(), books,
                text, now, tokenizers, EngineVectors.of(vectors, user, settings, chatId), chatId,
                read.hashes()),
                chat, generationId(body));
    }

    /**
     * ST's group_generation_id: the replies of one group round share it (group-chats.js generateGroupWrapper), so a
     * regenerate replaces them all (regenerateGroup). A client asks one reply per member, so it names the round.
     */
    private static Long generationId(JsonNode body) {
        JsonNode id = body.get("gen_id");
        if (id == null || id.isNull()) {
            return null;
        }
        if (!id.canConvertToLong() || !id.isIntegralNumber()) {
            throw Refusal.badRequest("gen_id must be a whole number");
        }
        return id.asLong();
    }

    private ObjectNode settings(String user) {
        byte[] bytes = documents.read(user, DocumentStore.Folder.ROOT, "settings.json")
                .orElseThrow(() -> Refusal.notFound("The user has no settings.json"));
        try {
            JsonNode settings = JsJson.parse(bytes);
            if (settings instanceof ObjectNode object) {
                return object;
            }
        } catch (RuntimeException e) {
            // answered below
        }
        throw Refusal.badRequest("settings.json does not parse as a JSON object");
    }

    /**
     * A world info book by name; null when there is none or it does not parse (ST then leaves it out). The same
     * object while the book's bytes are the same, read-only: the scan prepares a book's entries once per object.
     */
    private ObjectNode book(String user, String name) {
        byte[] stored = name == null || name.isEmpty() ? null : books.bytes(user, name);
        if (stored == null) {
            return null;
        }
        String key = user + '\u0000' + name;
        ParsedBook known = parsedBooks.get(key);
        if (known != null && Arrays.equals(known.stored(), stored)) {
            return known.book();
        }
        ObjectNode book = JsonFiles.tryParse(stored) instanceof ObjectNode object ? object : null;
        if (book != null) {
            parsedBooks.put(key, new ParsedBook(stored, book));
        }
        return book;
    }

    private record ParsedBook(byte[] stored, ObjectNode book) {
    }

    private ObjectNode group(String user, String id) throws IOException {
        return groups.find(user, id).orElseThrow(() -> Refusal.notFound("No such group: " + id));
    }

    private ObjectNode member(String user, String avatar) throws IOException {
        try {
            return characters.get(user, avatar);
        } catch (Refusal missing) {
            return null;
        }
    }

    /** The member who speaks: the one {@code avatar_url} names, else the first enabled member. */
    private static ObjectNode speaker(ObjectNode group, List<ObjectNode> members, JsonNode avatar) {
        List<String> disabled = new ArrayList<>();
        group.path("disabled_members").forEach(member -> disabled.add(Js.string(member)));
        for (int i = 0; i < members.size(); i++) {
            String member = Js.string(group.path("members").get(i));
            boolean named = Js.truthy(avatar) && member.equals(Js.string(avatar));
            if (members.get(i) != null && (named || !Js.truthy(avatar) && !disabled.contains(member))) {
                return members.get(i);
            }
        }
        throw Refusal.badRequest(Js.truthy(avatar) ? "The group has no member " + Js.string(avatar)
                : "The group has no enabled member");
    }

    private ZonedDateTime now(JsonNode value) {
        if (value == null || value.isNull()) {
            return clock.get();
        }
        try {
            return ZonedDateTime.parse(Js.string(value)).withZoneSameInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw Refusal.badRequest("now must be an ISO-8601 date and time, such as 2026-01-01T10:00:00Z");
        }
    }

    private static String requiredText(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (!Js.truthy(value)) {
            throw Refusal.badRequest(field + " is required");
        }
        return Js.string(value);
    }
}
