package tankard.group;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.List;

/** A user's groups ({@code groups/<id>.json}), keyed by (user handle, group id). Blocking. */
public interface GroupStore {
    /** Every readable group object, in no particular order; unreadable group files are skipped as ST does. */
    List<ObjectNode> list(String user) throws IOException;
}
