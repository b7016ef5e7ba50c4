package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.chat.format.ChatArray;
import tankard.chat.format.ChatHeader;
import tankard.chat.format.ChatLines;
import tankard.chat.format.ChatOffsets;
import tankard.chat.format.LineWriter;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.store.Locks;
import tankard.store.TicketStore;
import tankard.util.Sanitize;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;

/**
 * Reading, saving and listing chats: src/endpoints/chats.js, the /get, /save, /group/get and /group/save routes,
 * and src/endpoints/characters.js, /chats.
 */
public final class ChatService {
    private static final Logger LOG = LoggerFactory.getLogger(ChatService.class);
    private static final byte[] EMPTY_OBJECT = "{}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] EMPTY_ARRAY = "[]".getBytes(StandardCharsets.UTF_8);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.UTF_8);
    /** A chat of at least this many messages replaced by one of at most one is kept first (see keepIfLosing). */
    private static final int MANY_MESSAGES = 3;
    private static final int MAX_KNOWN = 10_000;

    private final ChatStore store;
    private final boolean checkIntegrity;
    private final ChatBackups backups;
    private final ChatLocks locks;
    private final Map<String, Known> knownChats = new ConcurrentHashMap<>();

    /** @param windows where the users' backup windows are kept (see ChatBackups) */
    public ChatService(TankardConfig.Backups config, ChatStore store, ChatLocks locks, TicketStore windows,
                       ScheduledExecutorService timer, LongSupplier clock) {
        this.store = store;
        this.locks = locks;
        this.checkIntegrity = config.checkIntegrity();
        this.backups = new ChatBackups(store, windows, config, timer, clock);
    }

    // ---- reading

    /**
     * A chat read for {@code /api/chats/get}: a fixed JSON answer, or the chat file, already opened and its
     * first bytes read (so a chat that cannot be read fails before anything is sent), to stream out; with the
     * answer's length when it is known beforehand, else -1.
     */
    public record ChatRead(byte[] json, ChatWriter file, long length) {
    }

    @FunctionalInterface
    public interface ChatWriter {
        /** Writes the chat as a JSON array and closes the file. */
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * A character chat: {@code {}} when the character's folder had to be created or no chat is named,
     * {@code []} for a missing chat, else the chat. A chat that exists but cannot be read throws.
     */
    public ChatRead get(String user, String avatarUrl, String chatName) throws IOException {
        ChatFolder folder = characterFolder(avatarUrl);
        if (!store.exists(user, folder)) {
            store.create(user, folder);
            return new ChatRead(EMPTY_OBJECT, null, EMPTY_OBJECT.length);
        }
        if (chatName == null) {
            return new ChatRead(EMPTY_OBJECT, null, EMPTY_OBJECT.length);
        }
        return read(user, folder, chatFile(chatName));
    }

    public ChatRead getGroup(String user, String id) throws IOException {
        return read(user, ChatFolder.groups(), chatFile(id));
    }

    private ChatRead read(String user, ChatFolder folder, String file) throws IOException {
        Optional<ChatFile> before = store.find(user, folder, file);
        Optional<InputStream> content = store.open(user, folder, file);
        if (content.isEmpty()) {
            return new ChatRead(EMPTY_ARRAY, null, EMPTY_ARRAY.length);
        }
        BufferedInputStream in = new BufferedInputStream(content.get(), 1 << 16);
        try {
            in.mark(1);
            in.read();
            in.reset();
        } catch (IOException e) {
            in.close();
            throw e;
        }
        String key = key(user, folder, file);
        ChatArray.Read known = before.map(stat -> known(key, stat)).orElse(null);
        // the stat is of the file opened only if it is unchanged after the open
        if (known != null && known.plain() && before.equals(store.find(user, folder, file))) {
            return new ChatRead(null, out -> {
                try (in) {
                    ChatArray.writePlain(in, out);
                }
            }, before.get().size() + 2); // a comma for each LF, and the brackets
        }
        return new ChatRead(null, out -> {
            ChatArray.Read read;
            try (in) {
                read = ChatArray.write(in, out);
            }
            // what was read is worth remembering only when it is surely the file that is there now
            if (before.isPresent() && before.equals(store.find(user, folder, file))) {
                remember(key, before.get(), read);
            }
        }, -1);
    }

    // ---- saving

    /** Saves a character chat from the JSON request body, streamed (null: not a JSON request). */
    public void save(String user, InputStream json) throws IOException {
        try (ChatStore.Draft draft = store.draft(user)) {
            ChatBody body = ChatBody.read(json, draft, fields -> {
                // ST's body names the card after the chat; its folder is most often the character's name
                JsonNode avatar = fields.containsKey("avatar_url") ? fields.get("avatar_url") : fields.get("ch_name");
                return atHand(user, () -> ChatRef.character(Js.string(avatar).replaceFirst("(\\.png)?$", ".png"),
                        Js.string(fields.get("file_name"))));
            });
            JsonNode avatar = body.field("avatar_url");
            JsonNode chatName = body.field("file_name");
            if (Js.isUndefined(avatar) || avatar.isContainerNode() || Js.isUndefined(chatName)) {
                throw Refusal.badRequest("avatar_url and file_name are required");
            }
            write(user, ChatRef.character(Js.string(avatar), Js.string(chatName)), body, draft);
        }
    }

    public void saveGroup(String user, InputStream json) throws IOException {
        try (ChatStore.Draft draft = store.draft(user)) {
            ChatBody body = ChatBody.read(json, draft, fields -> atHand(user, () -> ChatRef.group(Js.string(fields.get("id")))));
            JsonNode id = body.field("id");
            if (!Js.truthy(id)) {
                throw Refusal.badRequest("Missing group chat id");
            }
            write(user, ChatRef.group(Js.string(id)), body, draft);
        }
    }

    /** The chat the members before a save's {@code chat} name, as this node has it at hand; null when none is. */
    private ChatBody.Stored atHand(String user, Supplier<ChatRef> named) throws IOException {
        ChatRef chat;
        try {
            chat = named.get();
        } catch (Refusal notAChatName) {
            return null;
        }
        // known as ST prints it when its last read or save here found it so (a stat apart from the open: at worst a
        // line of a chat replaced in between is checked when it need not be, or kept in its spelling)
        ChatArray.Read known = store.find(user, chat.folder(), chat.file())
                .map(stat -> known(key(user, chat.folder(), chat.file()), stat)).orElse(null);
        return store.openAtHand(user, chat.folder(), chat.file())
                .map(lines -> new ChatBody.Stored(lines, known != null && known.plain())).orElse(null);
    }

    private void write(String user, ChatRef chat, ChatBody body, ChatStore.Draft draft) throws IOException {
        ChatFolder folder = chat.folder();
        String file = chat.file();
        if (!body.isArray()) {
            throw Refusal.badRequest("The request's body.chat is not an array.");
        }
        boolean force = Js.truthy(body.field("force"));
        JsonNode integrity = checkIntegrity && !force ? integrity(body.header()) : null;
        String key = key(user, folder, file);
        InputStream saved;
        Locks.Held lock = locks.lock(user, folder, file);
        try {
            if (Js.truthy(integrity) && !intact(user, folder, file, integrity)) {
                throw Refusal.badRequest("integrity");
            }
            Object version = store.version(user, folder, file).orElse(null);
            if (force) {
                if (version != null) { // the user chose to overwrite (ST's saveChat): what was there is kept
                    backups.keepReplaced(user, chat.backupName(), store.open(user, folder, file)
                            .orElseThrow(() -> new IOException("The chat vanished")));
                }
            } else {
                if (checkIntegrity) { // the same setting turns off ST's check and this one
                    if (version != null && divergence(user, folder, file, version, body, draft).losesMessages()) {
                        throw Refusal.badRequest("integrity"); // a stale view: ST's frontend asks before it overwrites
                    }
                    draft.expect(version);
                }
                keepIfLosing(user, folder, file, key, body.lines(), chat.backupName());
            }
            try {
                draft.commit(folder, file);
            } catch (Refusal changed) {
                if (changed.kind() != Refusal.Kind.CONFLICT) {
                    throw changed;
                }
                throw Refusal.badRequest("integrity"); // written since the check, not under the chat's lock
            }
            Optional<ChatFile> stat = store.find(user, folder, file);
            if (stat.isPresent()) {
                remember(key, stat.get(), body.lines());
            }
            saved = store.open(user, folder, file).orElseThrow(() -> new IOException("The saved chat vanished"));
        } finally {
            lock.close();
        }
        backups.saved(user, chat.backupName(), saved);
    }

    /**
     * The stored chat's messages and the save's from where they differ ({@link StaleSave}): as the save was read
     * beside the chat at hand when that is the chat as it is now (the usual case: only the lines after the part
     * both share were looked at), else from the chat and the draft read again whole.
     */
    private StaleSave.Divergence divergence(String user, ChatFolder folder, String file, Object version, ChatBody body,
                                            ChatStore.Draft draft) throws IOException {
        StaleSave.Divergence read = body.divergence();
        if (read != null && version.equals(read.version())) {
            return read;
        }
        StaleSave.Lines stored = new StaleSave.Lines();
        StaleSave.Lines saved = new StaleSave.Lines();
        try (InputStream in = store.open(user, folder, file).orElseThrow(() -> new IOException("The chat vanished"))) {
            messages(in, stored);
        }
        try (InputStream in = draft.written()) {
            messages(in, saved);
        }
        return new StaleSave.Divergence(version, stored, saved);
    }

    /** The lines after the header. */
    private static void messages(InputStream chat, StaleSave.Lines lines) throws IOException {
        boolean[] header = {true};
        ChatLines.split(chat, (bytes, from, to) -> {
            if (!header[0]) {
                lines.add(bytes, from, to);
            }
            header[0] = false;
            return true;
        });
    }

    /** {@code chat[0].chat_metadata.integrity} of the request, or null. */
    private static JsonNode integrity(byte[] header) {
        if (header == null || header.length == 0 || header[0] != '{') {
            return null;
        }
        return ChatHeader.integrity(JsJson.parse(header));
    }

    /**
     * The overwrite protection: the stored first line's token, if any, must match (src/endpoints/chats.js,
     * checkChatIntegrity).
     */
    private boolean intact(String user, ChatFolder folder, String file, JsonNode integrity) throws IOException {
        Optional<InputStream> content = store.open(user, folder, file);
        if (content.isEmpty()) {
            return true;
        }
        JsonNode stored;
        try (InputStream in = content.get()) {
            stored = ChatHeader.integrity(ChatLines.parse(ChatLines.firstLine(in)));
        }
        return !Js.truthy(stored) || Js.strictEquals(stored, integrity);
    }

    /**
     * A guard beyond ST: before a save replaces a chat whose lines ST's loader skipped (they would be gone
     * for good), or replaces a chat of several messages with one of at most one (what a client that lost
     * the chat sends), the old file is kept as a backup, whatever the throttle.
     */
    private void keepIfLosing(String user, ChatFolder folder, String file, String key, ChatArray.Read incoming,
                              String backupName) throws IOException {
        Optional<ChatFile> stat = store.find(user, folder, file);
        if (stat.isEmpty()) {
            return;
        }
        ChatArray.Read old = known(key, stat.get());
        if (old == null) {
            Optional<InputStream> content = store.open(user, folder, file);
            if (content.isEmpty()) {
                return;
            }
            try (InputStream in = content.get()) {
                old = ChatArray.write(in, null);
            }
        }
        boolean dropsLines = old.dropped() > 0;
        boolean shrinks = old.kept() - 1 >= MANY_MESSAGES && incoming.kept() + incoming.dropped() - 1 <= 1;
        if (dropsLines || shrinks) {
            Optional<InputStream> content = store.open(user, folder, file);
            if (content.isPresent()) {
                backups.keepReplaced(user, backupName, content.get());
            }
        }
    }

    private static String key(String user, ChatFolder folder, String file) {
        return user + '\0' + folder + '\0' + file;
    }

    /** What the last save wrote or the last read found in each chat, while the file is unchanged. */
    private record Known(long size, double modifiedMs, ChatArray.Read lines) {
    }

    private ChatArray.Read known(String key, ChatFile file) {
        Known known = knownChats.get(key);
        return known != null && known.size() == file.size() && known.modifiedMs() == file.modifiedMs() ? known.lines() : null;
    }

    private void remember(String key, ChatFile file, ChatArray.Read lines) {
        if (knownChats.size() >= MAX_KNOWN) {
            knownChats.clear();
        }
        knownChats.put(key, new Known(file.size(), file.modifiedMs(), lines));
    }

    // ---- windows: the end of a chat for Tankard's own clients (ChatWindow)

    /** The version the chat is stored at now ({@link ChatStore#version}); empty when there is no such chat. */
    public Optional<Object> version(String user, ChatRef chat) throws IOException {
        return store.version(user, chat.folder(), chat.file());
    }

    /** The header and last {@code count} lines of a chat with their cursor (see ChatWindow). */
    public ChatTail tail(String user, ChatRef chat, int count) throws IOException {
        return tail(user, chat, count, null);
    }

    /**
     * The header and the last {@code count} lines of a chat that end before the byte offset {@code before} (null:
     * the end), with their cursor (see ChatWindow); read backwards from {@code before}, not the chat whole.
     */
    public ChatTail tail(String user, ChatRef chat, int count, Long before) throws IOException {
        Optional<ChatFile> stat = store.find(user, chat.folder(), chat.file());
        Optional<SeekableByteChannel> opened = store.channel(user, chat.folder(), chat.file());
        if (stat.isEmpty() || opened.isEmpty()) {
            throw Refusal.notFound("No such chat");
        }
        try (SeekableByteChannel channel = opened.get()) {
            if (!stat.equals(store.find(user, chat.folder(), chat.file()))) {
                throw Refusal.conflict("The chat changed while it was read; read it again");
            }
            long headerEnd = ChatOffsets.headerEnd(channel);
            if (before != null) {
                ChatWindow.lineStart(channel, headerEnd, before, "before");
            }
            long end = before == null ? channel.size() : before;
            long offset = ChatOffsets.linesBefore(channel, headerEnd, end, count);
            ByteArrayOutputStream header = new ByteArrayOutputStream();
            ChatWindow.array(ChatWindow.read(channel, 0, headerEnd), header);
            byte[] headerArray = header.toByteArray();
            byte[] headerJson = headerArray.length == 2 ? NULL // the header line does not parse
                    : Arrays.copyOfRange(headerArray, 1, headerArray.length - 1);
            ByteArrayOutputStream messages = new ByteArrayOutputStream();
            long[] offsets = ChatWindow.array(ChatWindow.read(channel, offset, end), offset, messages);
            return new ChatTail(headerJson, messages.toByteArray(), offsets, offset > headerEnd,
                    new ChatWindow.Cursor(offset, stat.get().size(), stat.get().modifiedMs()));
        }
    }

    /**
     * Replaces the lines of a chat from the cursor's offset on by the request's {@code messages}, if the chat
     * is still the file the cursor was read from (else 409); answers the cursor for the next save and where
     * each message's line now starts.
     */
    public ChatWindow.Saved saveTail(String user, ChatWindow.Save save) throws IOException {
        ChatRef chat = save.chat();
        ChatWindow.Cursor cursor = save.cursor();
        ArrayNode messages = save.messages();
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        LineWriter writer = new LineWriter(lines);
        long truthy = 0;
        long[] starts = new long[messages.size()]; // from the first line's start, until the save knows where that is
        for (int i = 0; i < starts.length; i++) {
            JsonNode message = messages.get(i);
            starts[i] = lines.size() + (i > 0 ? 1 : 0);
            writer.line(LineWriter.stringify(message));
            truthy += Js.truthy(message) ? 1 : 0;
        }
        String key = key(user, chat.folder(), chat.file());
        InputStream saved;
        ChatWindow.Cursor next;
        Locks.Held lock = locks.lock(user, chat.folder(), chat.file());
        try {
            Optional<ChatFile> stat = store.find(user, chat.folder(), chat.file());
            if (stat.isEmpty() || !cursor.isOf(stat.get())) {
                throw Refusal.conflict("The chat changed since its end was read; read it again");
            }
            long offset = cursor.offset();
            boolean afterLineFeed;
            ChatArray.Read window;
            try (SeekableByteChannel channel = store.channel(user, chat.folder(), chat.file())
                    .orElseThrow(() -> Refusal.conflict("The chat is gone"))) {
                afterLineFeed = ChatWindow.lineStart(channel, ChatOffsets.headerEnd(channel), offset, "cursor.offset");
                window = ChatWindow.array(ChatWindow.read(channel, offset, channel.size()), null);
            }
            if (window.dropped() > 0) {
                // lines ST's loader skips would be gone for good: keep the chat first, as a whole save would
                backups.keepReplaced(user, chat.backupName(), store.open(user, chat.folder(), chat.file())
                        .orElseThrow(() -> Refusal.conflict("The chat is gone")));
            }
            boolean empty = messages.isEmpty();
            long keep = empty && afterLineFeed ? offset - 1 : offset;
            boolean separator = !empty && offset > 0 && !afterLineFeed;
            ByteArrayOutputStream tail = new ByteArrayOutputStream(lines.size() + 1);
            if (separator) {
                tail.write('\n');
            }
            lines.writeTo(tail);
            ChatFile after = store.replaceTail(user, chat.folder(), chat.file(), stat.get(), keep, tail.toByteArray());
            ChatArray.Read old = known(key, stat.get());
            if (old != null) {
                long dropped = messages.size() - truthy;
                remember(key, after, new ChatArray.Read(old.kept() - window.kept() + truthy,
                        old.dropped() - window.dropped() + dropped, old.plain() && dropped == 0));
            }
            long first = keep + (separator ? 1 : 0);
            for (int i = 0; i < starts.length; i++) {
                starts[i] += first;
            }
            next = new ChatWindow.Cursor(empty ? after.size() : first, after.size(), after.modifiedMs());
            saved = store.open(user, chat.folder(), chat.file()).orElseThrow(() -> new IOException("The saved chat vanished"));
        } finally {
            lock.close();
        }
        backups.saved(user, chat.backupName(), saved);
        return new ChatWindow.Saved(next, starts);
    }

    /**
     * Sets keys of a chat's {@code chat_metadata} (its header line) to {@code values} (a null removes the key), every
     * message line kept byte for byte: what ST's frontend does with a whole save after changing the chat's metadata (its author's note:
     * public/scripts/authors-note.js, saveMetadataDebounced), without the chat travelling. 404 for no such chat, 400
     * for a chat whose first line is not a header; written through a draft under the chat's lock, then backed up.
     */
    public void saveMetadata(String user, ChatRef chat, ObjectNode values) throws IOException {
        if (values.has("integrity")) { // the token other tabs' saves are checked against: only a whole save sets it
            throw Refusal.badRequest("chat_metadata.integrity cannot be set here");
        }
        if (values.isEmpty()) {
            store.version(user, chat.folder(), chat.file()).orElseThrow(() -> Refusal.notFound("No such chat"));
            return; // nothing to set: the chat is not written again
        }
        ChatFolder folder = chat.folder();
        String file = chat.file();
        String key = key(user, folder, file);
        InputStream saved;
        Locks.Held lock = locks.lock(user, folder, file);
        try (ChatStore.Draft draft = store.draft(user)) {
            ChatFile before = store.find(user, folder, file).orElseThrow(() -> Refusal.notFound("No such chat"));
            Object version = store.version(user, folder, file).orElseThrow(() -> Refusal.notFound("No such chat"));
            long keep; // where what follows the header starts: its LF, or the end of a chat that is a header alone
            JsonNode header;
            try (SeekableByteChannel channel = store.channel(user, folder, file)
                    .orElseThrow(() -> Refusal.notFound("No such chat"))) {
                long headerEnd = ChatOffsets.headerEnd(channel);
                byte[] line = ChatWindow.read(channel, 0, headerEnd);
                keep = line.length > 0 && line[line.length - 1] == '\n' ? headerEnd - 1 : headerEnd;
                header = parsedLine(line);
            }
            if (!(header instanceof ObjectNode object) || object.has("mes")) {
                throw Refusal.badRequest("The chat's first line is not a header");
            }
            if (!(object.get(ChatHeader.CHAT_METADATA) instanceof ObjectNode)) {
                object.putObject(ChatHeader.CHAT_METADATA);
            }
            ObjectNode metadata = (ObjectNode) object.get(ChatHeader.CHAT_METADATA);
            // a null removes the key, as ST's frontend deletes one (world-info.js assignLorebookToChat)
            values.fields().forEachRemaining(field -> {
                if (field.getValue().isNull()) {
                    metadata.remove(field.getKey());
                } else {
                    metadata.set(field.getKey(), field.getValue());
                }
            });
            OutputStream out = draft.out();
            out.write(LineWriter.stringify(object));
            try (InputStream rest = store.open(user, folder, file).orElseThrow(() -> Refusal.notFound("No such chat"))) {
                rest.skipNBytes(keep);
                rest.transferTo(out);
            }
            draft.expect(version);
            draft.commit(folder, file);
            ChatArray.Read lines = known(key, before);
            Optional<ChatFile> after = store.find(user, folder, file);
            if (lines != null && after.isPresent()) {
                remember(key, after.get(), lines); // the same lines, one of them longer
            }
            saved = store.open(user, folder, file).orElseThrow(() -> new IOException("The saved chat vanished"));
        } finally {
            lock.close();
        }
        backups.saved(user, chat.backupName(), saved);
    }

    /** A line's JSON (its LF and the spaces around it dropped), or null when it is not JSON. */
    private static JsonNode parsedLine(byte[] line) {
        try {
            return JsJson.parse(new String(line, StandardCharsets.UTF_8).strip());
        } catch (RuntimeException notJson) {
            return null;
        }
    }

    /**
     * Replaces one message of a chat by {@code message}: the line {@code fromEnd} lines before the end (1: the
     * last), which must still hold {@code expected}, in a chat still of the size and mtime (ms) of the
     * {@code read} it was found in (else 409, nothing written). Every other line stays byte for byte; the
     * change is a locked, atomic tail save ({@link ChatStore#replaceTail}), followed by the usual backup.
     */
    public void replaceMessage(String user, ChatRef chat, ChatTail read, int fromEnd, JsonNode expected,
                               JsonNode message) throws IOException {
        InputStream saved;
        Locks.Held lock = locks.lock(user, chat.folder(), chat.file());
        try {
            Optional<ChatFile> stat = store.find(user, chat.folder(), chat.file());
            if (stat.isEmpty() || !read.cursor().isOf(stat.get())) {
                throw Refusal.conflict("The chat changed since it was read; nothing was stored");
            }
            long start;
            byte[] old;
            byte[] rest;
            try (SeekableByteChannel channel = store.channel(user, chat.folder(), chat.file())
                    .orElseThrow(() -> Refusal.conflict("The chat is gone"))) {
                long headerEnd = ChatOffsets.headerEnd(channel);
                start = ChatOffsets.lastLines(channel, headerEnd, fromEnd);
                long next = ChatOffsets.lastLines(channel, headerEnd, fromEnd - 1);
                if (next < channel.size()) {
                    next = Math.max(start, next - 1); // the LF before the next line stays with the rest
                }
                old = ChatWindow.read(channel, start, next);
                rest = ChatWindow.read(channel, next, channel.size());
            }
            JsonNode found = ChatLines.parse(old);
            if (found == null || !Arrays.equals(LineWriter.stringify(found), LineWriter.stringify(expected))) {
                throw Refusal.conflict("The message is not where it was read; nothing was stored");
            }
            byte[] line = LineWriter.stringify(message);
            ByteArrayOutputStream tail = new ByteArrayOutputStream(line.length + rest.length);
            tail.writeBytes(line);
            tail.writeBytes(rest);
            store.replaceTail(user, chat.folder(), chat.file(), stat.get(), start, tail.toByteArray());
            saved = store.open(user, chat.folder(), chat.file()).orElseThrow(() -> new IOException("The saved chat vanished"));
        } finally {
            lock.close();
        }
        backups.saved(user, chat.backupName(), saved);
    }

    // ---- listing

    /**
     * A character's chats for {@code /api/characters/chats}: {@code {"error": true}} when its folder is missing
     * or cannot be listed (ST's convention), names only when {@code simple}, else ChatInfo objects. A chat
     * that cannot be read fails the request (500) rather than vanish from the list.
     */
    public JsonNode characterChats(String user, String avatarUrl, boolean simple, boolean withMetadata) {
        ChatFolder folder = characterFolder(avatarUrl);
        try {
            if (!store.exists(user, folder)) {
                return JsJson.object().put("error", true);
            }
            ArrayNode list = JsJson.array();
            for (ChatFile file : store.list(user, folder)) {
                if (simple) {
                    list.addObject().put("file_name", file.name()).put("file_id", file.id());
                } else {
                    info(user, folder, file, Map.of(), withMetadata).ifPresent(list::add);
                }
            }
            return list;
        } catch (IOException e) {
            LOG.error("Could not list the chats of {}", avatarUrl, e);
            return JsJson.object().put("error", true);
        }
    }

    /**
     * A chat's ChatInfo for a list, {@code owner} placed after {@code last_mes}; empty when it is corrupted or
     * vanished (left out, as in ST). A chat that cannot be read is a refusal (ChatErrors).
     */
    public Optional<ObjectNode> info(String user, ChatFolder folder, ChatFile file, Map<String, JsonNode> owner,
                                      boolean withMetadata) {
        try {
            return ChatInfo.read(store, user, folder, file, owner, withMetadata).filter(ChatInfo::isValid);
        } catch (IOException e) {
            throw ChatErrors.unreadable(folder, file.name(), e);
        }
    }

    // ---- names from requests

    /**
     * The chat folder named by a card file name; separators and NUL are refused, as ST's
     * validateAvatarUrlMiddleware does (src/middleware/validateFileName.js), and so is "..".
     */
    static ChatFolder characterFolder(String avatarUrl) {
        if (avatarUrl == null) {
            throw Refusal.badRequest("Missing avatar_url");
        }
        String name = ChatFolder.nameOf(avatarUrl);
        if (Sanitize.hasForbiddenChars(avatarUrl) || !name.isEmpty() && !Sanitize.isSafeSegment(name)) {
            throw Refusal.badRequest("Invalid avatar_url");
        }
        return ChatFolder.character(name);
    }

    /** ST's chat file name: {@code sanitize(name + ".jsonl")}; a name that sanitizes to nothing is refused. */
    static String chatFile(String chatName) {
        String file = Sanitize.filename(chatName + ".jsonl");
        if (!Sanitize.isSafeSegment(file)) {
            throw Refusal.badRequest("Invalid chat file name");
        }
        return file;
    }
}
