package tankard.group;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * What ST's /edit takes (ST: src/endpoints/groups.js, router.post('/edit')): the group the body names, and the
 * body itself as the group to store (the computed listing fields included), without the legacy metadata keys that
 * now live in the chat files (ST: warnOnGroupMetadata).
 */
public record GroupEdit(GroupRef ref, ObjectNode group) {
    /** Refuses a missing or unsafe id, as {@link GroupRef#of} does. */
    public static GroupEdit of(JsonNode body) {
        GroupRef ref = GroupRef.of(body);
        ObjectNode group = ((ObjectNode) body).deepCopy();
        group.remove(List.of("chat_metadata", "past_metadata"));
        return new GroupEdit(ref, group);
    }
}
