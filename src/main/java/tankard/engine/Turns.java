package tankard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.backend.common.Urls;
import tankard.chat.ChatRef;
import tankard.chat.ChatService;
import tankard.chat.ChatTail;
import tankard.chat.ChatWindow;
import tankard.core.Refusal;
import tankard.engine.memory.SummaryMemory;
import tankard.engine.prompt.Action;
import tankard.json.Js;
import tankard.json.JsJson;

import java.io.IOException;
import java.time.ZonedDateTime;

/**
 * Writes a generation's messages into the chat as ST's frontend leaves them (public/script.js sendMessageAsUser
 * and saveReply), each as one tail save of the chat: the user's message appended before the call, the reply
 * appended (send, regenerate after the user's message), put in place of the last reply (regenerate), added as
 * its next swipe (swipe) or added to its text (continue). Blocking.
 */
final class Turns {
    /**
     * Tankard's mark in a reply's {@code extra}: why the backend's stream broke off before the reply was complete.
     * ST's frontend keeps unknown keys of {@code extra} as they are and shows nothing for them
     * (docs/compatibility.md).
     */
    static final String CUT_OFF = "tankard_cut_off";

    private final ChatService chats;

    Turns(ChatService chats) {
        this.chats = chats;
    }

    /** Where the reply goes and what it is stamped with. */
    record Reply(ChatRef chat, Action action, String name, String api, String model, ZonedDateTime started,
                 String avatar, boolean inGroup, long generationId) {
    }

    void appendUserMessage(String user, ChatRef chat, ObjectNode message) throws IOException {
        saveLast(user, chat, chats.tail(user, chat, 1), false, message);
    }

    /** Saves the reply's text; answers the message as saved (impersonation saves nothing and answers null). */
    ObjectNode saveReply(String user, Reply reply, String text, ZonedDateTime finished, String cutOff)
            throws IOException {
        if (reply.action() == Action.IMPERSONATE) {
            return null;
        }
        ChatTail tail = chats.tail(user, reply.chat(), 1);
        ObjectNode last = tail.messages().isEmpty() ? null : (ObjectNode) tail.messages().get(0);
        boolean lastIsReply = last != null && !Js.truthy(last.get("is_user"));
        ObjectNode message;
        boolean replaceLast;
        switch (reply.action()) {
            case SWIPE, CONTINUE -> {
                // ST: saveReply adds a continue to whatever message is last; a swipe needs the reply it was for
                if (last == null || reply.action() == Action.SWIPE && !lastIsReply) {
                    throw Refusal.conflict("The chat's last message changed while the reply was generated");
                }
                message = last.deepCopy();
                String mes = reply.action() == Action.CONTINUE ? Js.string(last.get("mes")) + text : text;
                stamp(message, reply, mes, finished, cutOff);
                keepSwipe(message, reply.action() == Action.SWIPE);
                // ST: the memory extension's onChatEvent drops the summary of a last message whose text changed
                if (SummaryMemory.memoryToDrop(JsJson.array().add(message), 0, Js.string(last.get("mes"))).isPresent()) {
                    ((ObjectNode) message.get("extra")).remove("memory");
                }
                replaceLast = true;
            }
            default -> {
                message = JsJson.object();
                message.putObject("extra");
                message.put("name", reply.name());
                message.put("is_user", false);
                stamp(message, reply, text, finished, cutOff); // trimmed already, as cleanUpMessage does with trim_spaces
                if (reply.inGroup()) {
                    message.put("force_avatar", "/thumbnail?type=avatar&file=" + Urls.encodeUriComponent(reply.avatar()));
                    message.put("original_avatar", reply.avatar());
                    ((ObjectNode) message.get("extra")).put("gen_id", reply.generationId());
                }
                keepSwipe(message, false);
                if (reply.inGroup() && reply.action() == Action.REGENERATE) {
                    replaceLastRound(user, reply.chat(), message);
                    return message;
                }
                replaceLast = reply.action() == Action.REGENERATE && lastIsReply;
            }
        }
        saveLast(user, reply.chat(), tail, replaceLast, message);
        return message;
    }

    /**
     * A group's regenerate (ST: regenerateGroup): the last round's replies give way to the new one, with one tail
     * save from the first of them; refused (409) if the chat changed since it was read.
     */
    private void replaceLastRound(String user, ChatRef chat, ObjectNode message) throws IOException {
        ChatTail read = chats.tail(user, chat, Integer.MAX_VALUE);
        int round = GroupMembers.lastRound(read.messages());
        ChatWindow.Cursor at = read.cursor();
        long from = round == 0 ? at.size() : read.offsets()[read.offsets().length - round];
        chats.saveTail(user, new ChatWindow.Save(chat, new ChatWindow.Cursor(from, at.size(), at.modifiedMs()),
                JsJson.array().add(message)));
    }

    /** ST: saveReply's fields of a generated message. */
    private static void stamp(ObjectNode message, Reply reply, String mes, ZonedDateTime finished, String cutOff) {
        ObjectNode extra = message.get("extra") instanceof ObjectNode object ? object : message.putObject("extra");
        if (cutOff == null) { // a swipe or continue that ended well is no longer cut off
            extra.remove(CUT_OFF);
        } else {
            extra.put(CUT_OFF, cutOff);
        }
        message.put("send_date", PromptEngine.isoTime(finished));
        extra.put("api", reply.api());
        extra.put("model", reply.model());
        extra.put("reasoning", "");
        extra.putNull("reasoning_duration");
        extra.putNull("reasoning_signature");
        message.put("mes", mes);
        message.put("title", "");
        message.put("gen_started", PromptEngine.isoTime(reply.started()));
        message.put("gen_finished", PromptEngine.isoTime(finished));
    }

    /**
     * ST: the end of saveReply: the message's text and details kept as its current swipe; a swipe adds one,
     * a message without swipes starts them.
     */
    private static void keepSwipe(ObjectNode message, boolean newSwipe) {
        ArrayNode swipes = message.get("swipes") instanceof ArrayNode array ? array : null;
        ArrayNode info = message.get("swipe_info") instanceof ArrayNode array ? array : message.putArray("swipe_info");
        ObjectNode details = JsJson.object();
        details.set("send_date", message.get("send_date"));
        details.set("gen_started", message.get("gen_started"));
        details.set("gen_finished", message.get("gen_finished"));
        details.set("extra", message.get("extra").deepCopy());
        int id;
        if (swipes == null || !message.path("swipe_id").isNumber()) {
            message.put("swipe_id", 0);
            swipes = message.putArray("swipes");
            id = 0;
        } else {
            id = newSwipe ? swipes.size() : message.get("swipe_id").asInt();
            message.put("swipe_id", id);
        }
        set(swipes, id, message.get("mes"));
        set(info, id, details);
    }

    private static void set(ArrayNode array, int index, JsonNode value) {
        while (array.size() < index) {
            array.addNull();
        }
        if (index < array.size()) {
            array.set(index, value);
        } else {
            array.add(value);
        }
    }

    /**
     * Appends the message, or puts it in place of the last one, with one tail save of the chat as {@code read}
     * found it. An append to a chat that grew meanwhile (another tab, another node) is made at its new end; a
     * replacement of a message that may have changed is refused (409) and writes nothing.
     */
    private void saveLast(String user, ChatRef chat, ChatTail read, boolean replaceLast, ObjectNode message)
            throws IOException {
        for (int attempt = 0; ; attempt++) {
            ChatWindow.Cursor at = read.cursor();
            ChatWindow.Cursor cursor = replaceLast ? at : new ChatWindow.Cursor(at.size(), at.size(), at.modifiedMs());
            try {
                chats.saveTail(user, new ChatWindow.Save(chat, cursor, JsJson.array().add(message)));
                return;
            } catch (Refusal refusal) {
                if (refusal.kind() != Refusal.Kind.CONFLICT || replaceLast || attempt == 2) {
                    throw refusal;
                }
                read = chats.tail(user, chat, 1);
            }
        }
    }
}
