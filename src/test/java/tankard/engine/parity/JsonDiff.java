package tankard.engine.parity;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.JsJson;

import java.util.Iterator;
import java.util.Optional;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Compares two request bodies as parsed JSON (key order aside; numbers by value, as JavaScript has one number
 * type) and describes the first difference so that a failing parity test says where Tankard went astray.
 */
public final class JsonDiff {
    private JsonDiff() {
    }

    /** A difference at a path ({@code $.messages[3].content}); a missing side is null. */
    public record Difference(String path, JsonNode expected, JsonNode actual) {
        @Override
        public String toString() {
            return "first difference at " + path + "\n  ST:      " + show(expected) + "\n  Tankard: " + show(actual);
        }

        private static String show(JsonNode node) {
            return node == null ? "(missing)" : JsJson.compact(node);
        }
    }

    /** The first difference in the order of ST's body, or empty when the two are equal. */
    public static Optional<Difference> first(JsonNode expected, JsonNode actual) {
        return first("$", expected, actual);
    }

    private static Optional<Difference> first(String path, JsonNode expected, JsonNode actual) {
        if (expected == null || actual == null) {
            return expected == actual ? Optional.empty() : Optional.of(new Difference(path, expected, actual));
        }
        if (expected.isNumber() && actual.isNumber()) {
            return expected.decimalValue().compareTo(actual.decimalValue()) == 0 ? Optional.empty()
                    : Optional.of(new Difference(path, expected, actual));
        }
        if (expected.getNodeType() != actual.getNodeType()) {
            return Optional.of(new Difference(path, expected, actual));
        }
        if (expected.isObject()) {
            // ST's key order first (the order its body was written in), then keys only Tankard has
            Set<String> keys = new LinkedHashSet<>();
            expected.fieldNames().forEachRemaining(keys::add);
            actual.fieldNames().forEachRemaining(keys::add);
            for (String key : keys) {
                Optional<Difference> inner = first(path + "." + key, expected.get(key), actual.get(key));
                if (inner.isPresent()) {
                    return inner;
                }
            }
            return Optional.empty();
        }
        if (expected.isArray()) {
            Iterator<JsonNode> left = expected.elements();
            Iterator<JsonNode> right = actual.elements();
            for (int i = 0; left.hasNext() || right.hasNext(); i++) {
                Optional<Difference> inner = first(path + "[" + i + "]", left.hasNext() ? left.next() : null,
                        right.hasNext() ? right.next() : null);
                if (inner.isPresent()) {
                    return inner;
                }
            }
            return Optional.empty();
        }
        return expected.equals(actual) ? Optional.empty() : Optional.of(new Difference(path, expected, actual));
    }

    /**
     * The prompt of both bodies side by side: chat completions' messages one per line pair, or text completions'
     * prompt whole, each with the place where the two part.
     */
    public static String sideBySide(JsonNode expected, JsonNode actual) {
        StringBuilder out = new StringBuilder();
        if (expected.has("messages") || actual.has("messages")) {
            JsonNode left = expected.path("messages");
            JsonNode right = actual.path("messages");
            for (int i = 0; i < Math.max(left.size(), right.size()); i++) {
                boolean same = left.path(i).equals(right.path(i));
                out.append(same ? "   " : ">> ").append('[').append(i).append("]\n")
                        .append("   ST:      ").append(message(left.get(i))).append('\n')
                        .append("   Tankard: ").append(message(right.get(i))).append('\n');
            }
        }
        if (expected.has("prompt") || actual.has("prompt")) {
            String left = expected.path("prompt").asText("");
            String right = actual.path("prompt").asText("");
            int at = 0;
            while (at < Math.min(left.length(), right.length()) && left.charAt(at) == right.charAt(at)) {
                at++;
            }
            out.append("prompts part at character ").append(at).append(" (").append(left.length()).append(" and ")
                    .append(right.length()).append(" characters)\n--- ST prompt ---\n").append(left)
                    .append("\n--- Tankard prompt ---\n").append(right).append("\n--- end ---\n");
        }
        return out.toString();
    }

    private static String message(JsonNode message) {
        return message == null ? "(none)" : JsJson.compact(message);
    }
}
