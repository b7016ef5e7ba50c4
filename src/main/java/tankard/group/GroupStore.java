package tankard.group;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A user's groups ({@code groups/<id>.json}), keyed by (user handle, group id). Blocking. */
public interface GroupStore {
    /** Every readable group object; unreadable groups are skipped as ST does. */
    List<StoredGroup> list(String user) throws IOException;

    /** Writes the group object under the id's file name (sanitized), replacing any group of that id. */
    void save(String user, String id, ObjectNode group) throws IOException;

    /**
     * Stores a new group under the id's file name (sanitized); false, and nothing written, when that name is taken.
     * The check and the write are one step, on one node or many.
     */
    boolean create(String user, String id, ObjectNode group) throws IOException;

    /** The group stored under the id's file name (sanitized); empty when missing or unreadable. */
    Optional<ObjectNode> find(String user, String id) throws IOException;

    /** Deletes the group file of the id (sanitized), if there is one. */
    void delete(String user, String id) throws IOException;

    /** Deletes every group file of the user. */
    void deleteAll(String user) throws IOException;

    /** A group file as stored, readable or not: what moves between stores byte for byte. */
    record GroupFile(String name, byte[] content) {
    }

    /** Every group file ({@code *.json}) of the user, as stored. */
    List<GroupFile> files(String user) throws IOException;

    /** Stores a group file as it is under its name (a plain file name, as {@link #files} lists them). */
    void putFile(String user, GroupFile file) throws IOException;

    /**
     * The {@code chats} of the first group whose {@code id} is {@code id} (JavaScript's {@code ===}), in order;
     * none when no group has that id or its {@code chats} is not a list.
     */
    default List<JsonNode> chats(String user, JsonNode id) throws IOException {
        for (StoredGroup group : list(user)) {
            if (Js.strictEquals(group.json().path("id"), id)) {
                List<JsonNode> chats = new ArrayList<>();
                if (group.json().get("chats") instanceof ArrayNode list) {
                    list.forEach(chats::add);
                }
                return chats;
            }
        }
        return List.of();
    }
}
