package tankard.backend.common;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import io.vertx.core.MultiMap;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.List;
import java.util.Map;

/**
 * The YAML fields of the custom source ({@code custom_include_body}, {@code custom_include_headers},
 * {@code custom_exclude_body}), read as ST's mergeObjectWithYaml / excludeKeysByYaml do: YAML 1.2, and text
 * that does not parse changes nothing.
 */
public final class YamlParams {
    private YamlParams() {
    }

    /** Merges a mapping, or each mapping of a list in order, into the object (later keys win). */
    public static void merge(ObjectNode target, JsonNode yaml) {
        Object parsed = parse(yaml);
        if (parsed instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof Map<?, ?> map) {
                    target.setAll((ObjectNode) JsJson.tree(map));
                }
            }
        } else if (parsed instanceof Map<?, ?> map) {
            target.setAll((ObjectNode) JsJson.tree(map));
        }
    }

    /** The headers of {@code custom_include_headers}: merged as a body would be, each value as JavaScript's String(). */
    public static MultiMap headers(JsonNode yaml) {
        ObjectNode merged = JsJson.object();
        merge(merged, yaml);
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        merged.properties().forEach(entry -> headers.set(entry.getKey(), Js.string(entry.getValue())));
        return headers;
    }

    /** Removes the keys named by a list, by a mapping's keys, or by a single string. */
    public static void exclude(ObjectNode target, JsonNode yaml) {
        Object parsed = parse(yaml);
        if (parsed instanceof List<?> list) {
            list.forEach(key -> target.remove(String.valueOf(key)));
        } else if (parsed instanceof Map<?, ?> map) {
            map.keySet().forEach(key -> target.remove(String.valueOf(key)));
        } else if (parsed instanceof String key) {
            target.remove(key);
        }
    }

    private static Object parse(JsonNode yaml) {
        if (yaml == null || !yaml.isTextual() || yaml.textValue().isEmpty()) {
            return null;
        }
        try {
            return new Load(LoadSettings.builder().build()).loadFromString(yaml.textValue());
        } catch (YamlEngineException | IllegalArgumentException e) {
            return null;
        }
    }
}
