package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * ST's flattenSchema (st-backends.md §2.2): structured-output schemas go upstream with their {@code $defs}
 * references inlined, since several providers take no references.
 */
final class JsonSchemas {
    private static final String DEFS = "#/$defs/";
    /** Keywords Google's APIs refuse, dropped at every level for them. */
    private static final Set<String> NOT_FOR_GOOGLE = Set.of("default", "additionalProperties", "exclusiveMinimum",
            "propertyNames");

    private JsonSchemas() {
    }

    /**
     * The schema with each {@code $ref} to {@code #/$defs/X} replaced by X's definition (a cyclic or broken one
     * by {@code {}}), and {@code $defs} and the top {@code $schema} dropped.
     */
    static JsonNode flatten(JsonNode schema, boolean google) {
        if (schema == null || !schema.isContainerNode()) {
            return schema;
        }
        JsonNode copy = schema.deepCopy();
        JsonNode definitions = copy.isObject() ? ((ObjectNode) copy).remove("$defs") : null;
        JsonNode flat = resolve(copy, definitions == null || !definitions.isObject() ? JsJson.object() : definitions,
                List.of(), google);
        if (flat.isObject()) {
            ((ObjectNode) flat).remove("$schema");
        }
        return flat;
    }

    private static JsonNode resolve(JsonNode node, JsonNode definitions, List<String> parents, boolean google) {
        if (node.isArray()) {
            ArrayNode out = JsJson.array();
            node.forEach(item -> out.add(resolve(item, definitions, parents, google)));
            return out;
        }
        if (!node.isObject()) {
            return node;
        }
        JsonNode ref = node.get("$ref");
        if (ref != null && ref.isTextual() && ref.textValue().startsWith(DEFS)) {
            String name = ref.textValue().substring(ref.textValue().lastIndexOf('/') + 1);
            JsonNode definition = definitions.get(name);
            if (parents.contains(name) || definition == null || !tankard.json.Js.truthy(definition)) {
                return JsJson.object();
            }
            List<String> inside = new ArrayList<>(parents);
            inside.add(name);
            return resolve(definition.deepCopy(), definitions, inside, google);
        }
        ObjectNode out = JsJson.object();
        node.properties().forEach(entry -> {
            if (!(google && NOT_FOR_GOOGLE.contains(entry.getKey()))) {
                out.set(entry.getKey(), resolve(entry.getValue(), definitions, parents, google));
            }
        });
        return out;
    }
}
