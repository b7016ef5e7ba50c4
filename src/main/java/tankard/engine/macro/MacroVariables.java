package tankard.engine.macro;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.json.JsNumber;

/**
 * The chat's local variables ({@code chat_metadata.variables}) and the global ones
 * ({@code extension_settings.variables.global}) as the variable macros see them (ST: public/scripts/variables.js,
 * getLocalVariable, setLocalVariable, addLocalVariable …). Both are copies: a macro that sets a variable changes
 * it for the rest of this prompt only. A Java null is JavaScript's undefined.
 */
final class MacroVariables {
    final Scope local;
    final Scope global;

    MacroVariables(JsonNode chatVariables, JsonNode globalVariables) {
        local = new Scope(copy(chatVariables));
        global = new Scope(copy(globalVariables));
    }

    private static ObjectNode copy(JsonNode variables) {
        return variables != null && variables.isObject() ? ((ObjectNode) variables).deepCopy() : JsJson.object();
    }

    /** The macro engine's normalizeMacroResult: how a variable's value prints. */
    static String normalize(JsonNode value) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return "";
        }
        if (value.isContainerNode()) {
            return JsJson.compact(value);
        }
        return JsNumber.string(value);
    }

    /** One set of variables. */
    static final class Scope {
        private final ObjectNode values;

        private Scope(ObjectNode values) {
            this.values = values;
        }

        /** getLocalVariable: a numeric value comes back as a number, a missing one as "". */
        JsonNode get(String name) {
            JsonNode value = values.get(name);
            boolean blankText = value != null && value.isTextual() && Js.trim(value.textValue()).isEmpty();
            double number = JsNumber.of(value == null ? null : value);
            if (blankText || Double.isNaN(number)) {
                return value != null && Js.truthy(value) ? value : TextNode.valueOf("");
            }
            return DoubleNode.valueOf(number);
        }

        /** setLocalVariable. */
        void set(String name, JsonNode value) {
            if (name.isEmpty()) {
                throw new MacroFailure("Variable name cannot be empty or undefined.");
            }
            values.set(name, value);
        }

        boolean has(String name) {
            return values.has(name);
        }

        void delete(String name) {
            values.remove(name);
        }

        /** addLocalVariable: appends to a JSON array, adds numbers, or else concatenates text. */
        JsonNode add(String name, JsonNode value) {
            JsonNode current = get(name);
            if (!Js.truthy(current)) {
                current = DoubleNode.valueOf(0);
            }
            if (current.isTextual()) {
                ArrayNode array = parseArray(current.textValue());
                if (array != null) {
                    array.add(value);
                    set(name, TextNode.valueOf(JsJson.compact(array)));
                    return array;
                }
            }
            double increment = JsNumber.of(value);
            double currentNumber = JsNumber.of(current);
            if (Double.isNaN(increment) || Double.isNaN(currentNumber)) {
                String text = (Js.truthy(current) ? JsNumber.string(current) : "") + JsNumber.string(value);
                set(name, TextNode.valueOf(text));
                return TextNode.valueOf(text);
            }
            double sum = currentNumber + increment;
            if (Double.isNaN(sum)) {
                return TextNode.valueOf("");
            }
            set(name, DoubleNode.valueOf(sum));
            return DoubleNode.valueOf(sum);
        }

        private static ArrayNode parseArray(String text) {
            if (!Js.trim(text).startsWith("[")) {
                return null;
            }
            try {
                JsonNode parsed = JsJson.parse(text);
                return parsed instanceof ArrayNode array ? array : null;
            } catch (RuntimeException e) {
                return null;
            }
        }
    }
}
