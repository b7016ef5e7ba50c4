package tankard.group;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A stored group: its JSON object and when it was first stored (epoch ms with fraction, Node's {@code birthtimeMs}). */
public record StoredGroup(ObjectNode json, double createdMs) {
}
