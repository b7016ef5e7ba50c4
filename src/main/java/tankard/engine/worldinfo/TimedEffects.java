package tankard.engine.worldinfo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which entries are sticky, cooling down or delayed for this generation (ST: public/scripts/world-info.js,
 * WorldInfoTimedEffects.checkTimedEffects), read from {@code chat_metadata.timedWorldInfo}. Read only: a prompt
 * preview does not record the effects the scan starts (ST's setTimedEffects) nor drop the expired ones.
 */
final class TimedEffects {
    private final List<WorldInfoEntry> entries;
    private final int chatLength;
    private final Set<Long> sticky = new HashSet<>();
    private final Set<Long> cooldown = new HashSet<>();
    private final Set<Long> delay = new HashSet<>();
    /** Cooldowns a sticky effect that ended just started; they replace the stored cooldown under that key. */
    private final Set<String> cooldownsStarted = new HashSet<>();

    /** @param chatLength the number of messages scanned (ST's chatForWI length) */
    TimedEffects(ObjectNode metadata, List<WorldInfoEntry> entries, int chatLength) {
        this.entries = entries;
        this.chatLength = chatLength;
        JsonNode timed = metadata.get("timedWorldInfo");
        check(timed == null ? null : timed.get("sticky"), "sticky", sticky);
        check(timed == null ? null : timed.get("cooldown"), "cooldown", cooldown);
        for (WorldInfoEntry entry : entries) {
            if (entry.flag("delay") && chatLength < entry.number("delay")) {
                delay.add(entry.hash);
            }
        }
    }

    private void check(JsonNode effects, String type, Set<Long> active) {
        if (effects == null || !effects.isObject()) {
            return;
        }
        for (String key : JsOrder.keys((ObjectNode) effects)) {
            JsonNode effect = effects.get(key);
            if (!Js.truthy(effect) || !effect.isObject() || type.equals("cooldown") && cooldownsStarted.contains(key)) {
                continue;
            }
            WorldInfoEntry entry = find(Js.string(effect.get("hash")));
            // An effect set at this chat length is dropped unless protected: the chat has not advanced.
            if (chatLength <= WorldInfoSettings.jsNumber(effect.get("start")) && !Js.truthy(effect.get("protected"))) {
                continue;
            }
            if (entry == null || !entry.flag(type)) {
                continue;
            }
            if (chatLength >= WorldInfoSettings.jsNumber(effect.get("end"))) {
                if (type.equals("sticky") && entry.flag("cooldown")) {
                    cooldownsStarted.add(key);
                    cooldown.add(entry.hash);
                }
                continue;
            }
            active.add(entry.hash);
        }
    }

    private WorldInfoEntry find(String hash) {
        for (WorldInfoEntry entry : entries) {
            if (Long.toString(entry.hash).equals(hash)) {
                return entry;
            }
        }
        return null;
    }

    boolean isSticky(WorldInfoEntry entry) {
        return sticky.contains(entry.hash);
    }

    boolean isCooldown(WorldInfoEntry entry) {
        return cooldown.contains(entry.hash);
    }

    boolean isDelay(WorldInfoEntry entry) {
        return delay.contains(entry.hash);
    }
}
