package tankard.engine.worldinfo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;

import java.util.ArrayList;
import java.util.List;

/**
 * One entry as getSortedEntries gives it to the scan (ST: public/scripts/world-info.js): the stored fields with
 * {@code uid} and {@code world} first, the decorators split off the content, and the hash timed effects know it by.
 * Identity matters, as it does in ST: the scan keeps entries in sets and lists by reference.
 */
final class WorldInfoEntry {
    static final double DEFAULT_DEPTH = 4;
    static final double DEFAULT_WEIGHT = 100;

    private final ObjectNode fields;
    final String world;
    final List<String> decorators;
    final long hash;
    /** The content; macros are substituted into it when the entry activates, as ST does in place. */
    String content;

    WorldInfoEntry(ObjectNode fields, String world, List<String> decorators, long hash) {
        this.fields = fields;
        this.world = world;
        this.decorators = decorators;
        this.hash = hash;
        this.content = fields.get("content").textValue();
    }

    JsonNode get(String field) {
        return fields.get(field);
    }

    boolean flag(String field) {
        return Js.truthy(fields.get(field));
    }

    /** {@code Number(entry[field])}, NaN when missing. */
    double number(String field) {
        return WorldInfoSettings.jsNumber(fields.get(field));
    }

    /** {@code entry[field] ?? fallback}, as a number. */
    double numberOr(String field, double fallback) {
        JsonNode value = fields.get(field);
        return value == null || value.isNull() ? fallback : WorldInfoSettings.jsNumber(value);
    }

    /** {@code entry[field] === value} for a number. */
    boolean is(String field, int value) {
        JsonNode node = fields.get(field);
        return node != null && node.isNumber() && node.doubleValue() == value;
    }

    /** {@code `${entry.world}.${entry.uid}`}: how the scan and timed effects key an entry. */
    String key() {
        return world + "." + Js.string(fields.get("uid"));
    }

    double order() {
        return number("order");
    }

    /** The strings of an array field ({@code key}, {@code keysecondary}), or null when it is no array. */
    List<String> strings(String field) {
        JsonNode array = fields.get(field);
        if (array == null || !array.isArray()) {
            return null;
        }
        List<String> values = new ArrayList<>();
        for (JsonNode value : array) {
            values.add(value.isNull() ? "" : Js.string(value));
        }
        return values;
    }

    /** {@code entry.group}, the inclusion groups it belongs to as written ("a, b"), or "" for none. */
    String group() {
        JsonNode group = fields.get("group");
        return Js.truthy(group) ? Js.string(group) : "";
    }

    /** ST's sortFn: higher {@code order} first. */
    static double byOrder(WorldInfoEntry a, WorldInfoEntry b) {
        return b.order() - a.order();
    }
}
