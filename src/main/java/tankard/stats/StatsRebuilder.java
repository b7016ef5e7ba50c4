package tankard.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.character.CardFile;
import tankard.character.CardStore;
import tankard.chat.ChatFile;
import tankard.chat.ChatFolder;
import tankard.chat.ChatStore;
import tankard.chat.FolderUsage;
import tankard.chat.format.ChatLines;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.util.JsDates;
import tankard.util.Sanitize;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rebuilds the statistics from the chats as ST's {@code recreateStats} does (src/endpoints/stats.js,
 * collectAndCreateStats and calculateStats): one entry per {@code *.png} in {@code characters/}, summed over the
 * chats of its chat folder (its size and last date over everything in the folder), then a timestamp. Its
 * quirks are kept, since the frontend adds to these numbers: a message text seen before in the same
 * character's chats is skipped whole, a chat whose generation times include an unreadable date adds no time,
 * and a line that makes ST throw stops counting where ST stops. Blocking.
 */
public final class StatsRebuilder {
    /** ST's "no user message yet": 9999-12-31T23:59:59.999Z. */
    static final double NO_FIRST_CHAT = 253402300799999d;
    private static final String[] MONTHS = {"January", "February", "March", "April", "May", "June", "July",
            "August", "September", "October", "November", "December"};
    private static final Pattern DIGITS = Pattern.compile("\\d+");
    private static final Pattern ISO_UTC = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?Z");
    private static final Pattern MERIDIEM = Pattern.compile(
            "(\\w+)\\s(\\d{1,2}),\\s(\\d{4})\\s(\\d{1,2}):(\\d{1,2})(am|pm)", Pattern.CASE_INSENSITIVE);
    private static final Pattern[] HUMANIZED = {
            Pattern.compile("(\\d{4})-(\\d{1,2})-(\\d{1,2})@(\\d{1,2})h(\\d{1,2})m(\\d{1,2})s(\\d{1,3})ms"),
            Pattern.compile("(\\d{4})-(\\d{1,2})-(\\d{1,2})@(\\d{1,2})h(\\d{1,2})m(\\d{1,2})s"),
            Pattern.compile("(\\d{4})-(\\d{1,2})-(\\d{1,2}) @(\\d{1,2})h (\\d{1,2})m (\\d{1,2})s (\\d{1,3})ms"),
    };

    private final ChatStore chats;
    private final CardStore cards;

    public StatsRebuilder(ChatStore chats, CardStore cards) {
        this.chats = chats;
        this.cards = cards;
    }

    /** The whole stats object for the user of that handle, stamped with {@code now}. */
    public ObjectNode rebuild(String user, long now) throws IOException {
        ObjectNode stats = JsJson.object();
        for (CardFile card : cards.list(user)) {
            stats.set(card.name(), character(user, ChatFolder.nameOf(card.name())).toJson());
        }
        stats.put("timestamp", now);
        return stats;
    }

    /** A character's chats; none for a name that is no folder of {@code chats/} (for "...png", ST reads the user's). */
    private CharStats character(String user, String folderName) throws IOException {
        CharStats stats = new CharStats();
        if (!folderName.isEmpty() && !Sanitize.isSafeSegment(folderName)) {
            return stats;
        }
        ChatFolder folder = ChatFolder.character(folderName);
        Set<String> seenTexts = new HashSet<>();
        for (ChatFile file : chats.list(user, folder)) {
            ChatStats result = chat(user, folder, file.name(), seenTexts);
            stats.add(result);
            stats.dateFirstChat = Math.min(stats.dateFirstChat, result.firstChatTime);
        }
        FolderUsage usage = chats.usage(user, folder);
        stats.chatSize = usage.size();
        stats.dateLastChat = Math.floor(usage.newestModifiedMs());
        return stats;
    }

    /** One chat, read line by line as ST reads it ({@link ChatLines#values}); what cannot be read counts as empty. */
    private ChatStats chat(String user, ChatFolder folder, String name, Set<String> seenTexts) {
        ChatStats stats = new ChatStats();
        try {
            Optional<InputStream> content = chats.open(user, folder, name);
            if (content.isPresent()) {
                try (InputStream in = content.get()) {
                    ChatLines.values(in, message -> count(message, stats, seenTexts));
                }
            }
        } catch (IOException e) {
            return new ChatStats();
        }
        return stats;
    }

    private static void count(JsonNode message, ChatStats stats, Set<String> seenTexts) {
        if (message.isObject()) {
            try {
                stats.count(message, seenTexts);
            } catch (Thrown e) {
                // ST's try/catch around each line: what was counted before the throw stays counted
            }
        }
    }

    /** Where ST's per-line code would throw a TypeError. */
    private static final class Thrown extends RuntimeException {
        Thrown() {
            super(null, null, false, false);
        }
    }

    private static final class ChatStats {
        double totalGenTime;
        long userWords;
        long nonUserWords;
        long userMessages;
        long nonUserMessages;
        long swipes;
        double firstChatTime = NO_FIRST_CHAT;

        void count(JsonNode json, Set<String> seenTexts) {
            JsonNode mes = json.get("mes");
            if (Js.truthy(mes)) {
                if (!mes.isTextual()) {
                    throw new Thrown(); // crypto's update() takes only strings
                }
                if (!seenTexts.add(mes.textValue())) {
                    return;
                }
            }
            boolean isUser = Js.truthy(json.get("is_user"));
            JsonNode swipeList = json.get("swipes");
            JsonNode swipeInfo = json.get("swipe_info");
            if (Js.truthy(json.get("gen_started")) && Js.truthy(json.get("gen_finished"))) {
                double genTime = genTime(json);
                totalGenTime += genTime;
                if (Js.truthy(swipeList) && !Js.truthy(swipeInfo)) {
                    totalGenTime += genTime * length(swipeList);
                }
            }
            if (Js.truthy(mes)) {
                addWords(isUser, mes);
            }
            double swipeCount = length(swipeList);
            if (Js.truthy(swipeList) && swipeCount > 1) {
                swipes += (long) swipeCount - 1;
                for (int i = 1; i < swipeCount; i++) {
                    addWords(isUser, element(swipeList, i));
                }
            }
            double infoCount = length(swipeInfo);
            if (Js.truthy(swipeInfo) && infoCount > 1) {
                for (int i = 1; i < infoCount; i++) {
                    JsonNode swipe = element(swipeInfo, i);
                    if (swipe == null || swipe.isNull()) {
                        throw new Thrown();
                    }
                    if (Js.truthy(swipe.get("gen_started")) && Js.truthy(swipe.get("gen_finished"))) {
                        totalGenTime += genTime(swipe);
                    }
                }
            }
            if (isUser) {
                firstChatTime = Math.min(parseTimestamp(json.get("send_date")), firstChatTime);
            }
        }

        private void addWords(boolean isUser, JsonNode text) {
            if (text == null || !text.isTextual()) {
                throw new Thrown(); // String.prototype.match on something else
            }
            long words = countWords(text.textValue());
            if (isUser) {
                userWords += words;
                userMessages++;
            } else {
                nonUserWords += words;
                nonUserMessages++;
            }
        }
    }

    private static final class CharStats {
        double totalGenTime;
        long userWords;
        long nonUserWords;
        long userMessages;
        long nonUserMessages;
        long swipes;
        long chatSize;
        double dateLastChat;
        double dateFirstChat = NO_FIRST_CHAT;

        void add(ChatStats chat) {
            totalGenTime += Double.isNaN(chat.totalGenTime) ? 0 : chat.totalGenTime; // ST's `|| 0`
            userWords += chat.userWords;
            nonUserWords += chat.nonUserWords;
            userMessages += chat.userMessages;
            nonUserMessages += chat.nonUserMessages;
            swipes += chat.swipes;
        }

        ObjectNode toJson() {
            ObjectNode out = JsJson.object();
            out.put("total_gen_time", totalGenTime);
            out.put("user_word_count", userWords);
            out.put("non_user_word_count", nonUserWords);
            out.put("user_msg_count", userMessages);
            out.put("non_user_msg_count", nonUserMessages);
            out.put("total_swipe_count", swipes);
            out.put("chat_size", chatSize);
            out.put("date_last_chat", dateLastChat);
            out.put("date_first_chat", dateFirstChat);
            return out;
        }
    }

    /** {@code new Date(finished) - new Date(started)}. */
    private static double genTime(JsonNode json) {
        return jsDate(json.get("gen_finished")) - jsDate(json.get("gen_started"));
    }

    private static double jsDate(JsonNode value) {
        if (value.isNumber()) {
            return JsDates.fromMillis(value.doubleValue());
        }
        if (value.isBoolean()) {
            return value.booleanValue() ? 1 : 0;
        }
        return value.isTextual() ? JsDates.parse(value.textValue()) : Double.NaN;
    }

    /** {@code value.length}: an array's size or a string's UTF-16 length; NaN (undefined) for the rest. */
    private static double length(JsonNode value) {
        if (value == null) {
            return Double.NaN;
        }
        if (value.isArray()) {
            return value.size();
        }
        return value.isTextual() ? value.textValue().length() : Double.NaN;
    }

    /** {@code value[i]} of an array or a string. */
    private static JsonNode element(JsonNode value, int i) {
        if (value.isTextual()) {
            return JsJson.MAPPER.getNodeFactory().textNode(String.valueOf(value.textValue().charAt(i)));
        }
        return value.get(i);
    }

    /** The matches of {@code /\b\w+\b/g}: runs of ASCII letters, digits and underscores. */
    static long countWords(String text) {
        long words = 0;
        boolean inWord = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean wordChar = c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
            if (wordChar && !inWord) {
                words++;
            }
            inWord = wordChar;
        }
        return words;
    }

    /** ST's {@code parseTimestamp} for a message's {@code send_date}: 0 when unreadable. */
    static double parseTimestamp(JsonNode value) {
        if (!Js.truthy(value)) {
            return 0;
        }
        if (value.isNumber() || (value.isTextual() && DIGITS.matcher(value.textValue()).matches())) {
            double time = value.isNumber() ? value.doubleValue() : Double.parseDouble(value.textValue());
            return Double.isFinite(time) && time >= 0 ? JsDates.fromMillis(time) : 0;
        }
        if (!value.isTextual()) {
            throw new Thrown(); // timestamp.match is not a function
        }
        String text = value.textValue();
        if (ISO_UTC.matcher(text).matches()) {
            return JsDates.parse(text);
        }
        Matcher m = MERIDIEM.matcher(text);
        if (m.find()) {
            int month = indexOf(m.group(1)) + 1;
            int hour = Integer.parseInt(m.group(4)) % 12 + (m.group(6).equalsIgnoreCase("pm") ? 12 : 0);
            // ST leaves the month unpadded, which Date cannot read for January to September
            return JsDates.parse(m.group(3) + "-" + month + "-" + pad(m.group(2), 2) + "T" + pad(String.valueOf(hour), 2)
                    + ":" + pad(m.group(5), 2) + ":00");
        }
        for (Pattern humanized : HUMANIZED) {
            m = humanized.matcher(text);
            if (m.find()) {
                String ms = m.groupCount() >= 7 ? "." + pad(m.group(7), 3) : "";
                return JsDates.parse(pad(m.group(1), 4) + "-" + pad(m.group(2), 2) + "-" + pad(m.group(3), 2) + "T"
                        + pad(m.group(4), 2) + ":" + pad(m.group(5), 2) + ":" + pad(m.group(6), 2) + ms + "Z");
            }
        }
        return 0;
    }

    private static int indexOf(String month) {
        for (int i = 0; i < MONTHS.length; i++) {
            if (MONTHS[i].equals(month)) {
                return i;
            }
        }
        return -1;
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
    }
}
