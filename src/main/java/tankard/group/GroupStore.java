package tankard.group;

import java.io.IOException;
import java.util.List;

/** A user's groups ({@code groups/<id>.json}), keyed by (user handle, group id). Blocking. */
public interface GroupStore {
    /** Every readable group object; unreadable groups are skipped as ST does. */
    List<StoredGroup> list(String user) throws IOException;
}
