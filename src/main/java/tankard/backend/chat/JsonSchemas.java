package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * ST's flattenSchema (src/util.js): a JSON schema with its {@code #/$defs/} references inlined
 * (a cyclic or broken one becomes {}), the top-level {@code $defs} and {@code $schema} dropped, and for Google's
 * APIs the keywords Gemini rejects dropped at every level.
 */
final class JsonSchemas {
    private static final Set<String> GOOGLE_SOURCES = Set.of("makersuite", "vertexai");
    private static final Set<String> GOOGLE_UNSUPPORTED = Set.of("default", "additionalProperties",
            "exclusiveMinimum", "propertyNames");
    private static final String DEFS_PREFIX = "#/$defs/";

    private JsonSchemas() {
    }

    /** The generate pipeline's step: the body's {@code json_schema.value}, if set, flattened for its source. */
    static ObjectNode flattenJsonSchema(ObjectNode body) {
        JsonNode schema = body.get("json_schema");
        if (schema != null && schema.isObject() && Js.truthy(schema.get("value"))) {
            ((ObjectNode) schema).set("value", flatten(schema.get("value"),
                    Js.string(body.get("chat_completion_source"))));
        }
        return body;
    }

    static JsonNode flatten(JsonNode schema, String source) {
        if (schema == null || !schema.isContainerNode()) {
            return schema;
        }
        JsonNode copy = schema.deepCopy();
        JsonNode definitions = JsJson.object();
        if (copy.isObject() && copy.has("$defs")) {
            definitions = ((ObjectNode) copy).remove("$defs");
        }
        JsonNode flat = new Resolver(definitions, GOOGLE_SOURCES.contains(source)).resolve(copy, List.of());
        if (flat.isObject()) {
            ((ObjectNode) flat).remove("$schema");
        }
        return flat;
    }

    private record Resolver(JsonNode definitions, boolean google) {
        JsonNode resolve(JsonNode node, List<String> parents) {
            if (node.isArray()) {
                ArrayNode out = JsJson.array();
                node.forEach(item -> out.add(resolve(item, parents)));
                return out;
            }
            if (!node.isObject()) {
                return node;
            }
            JsonNode ref = node.get("$ref");
            if (ref != null && ref.isTextual() && ref.textValue().startsWith(DEFS_PREFIX)) {
                String name = ref.textValue().substring(ref.textValue().lastIndexOf('/') + 1);
                JsonNode definition = definitions.get(name);
                if (parents.contains(name) || !Js.truthy(definition)) {
                    return JsJson.object();
                }
                List<String> nested = new ArrayList<>(parents);
                nested.add(name);
                return resolve(definition, nested);
            }
            ObjectNode out = JsJson.object();
            node.properties().forEach(entry -> {
                if (!google || !GOOGLE_UNSUPPORTED.contains(entry.getKey())) {
                    out.set(entry.getKey(), resolve(entry.getValue(), parents));
                }
            });
            return out;
        }
    }
}
