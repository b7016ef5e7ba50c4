package tankard.user;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.Consumer;

/**
 * What the stores keep of a user outside the user's folder (in a database), seen as the files of ST's layout it
 * stands for: what a user's backup archive adds to the folder, and what deleting or resetting the user erases.
 * On files there is none: the folder holds everything. Blocking calls.
 */
public interface KeptData {
    /** A file of the user's folder (its path from the folder, with {@code /}), as a store holds it. */
    record File(String path, double modifiedMs, Content content) {
    }

    /** A file's bytes, opened when they are read: a chat may be large. */
    @FunctionalInterface
    interface Content {
        InputStream open() throws IOException;
    }

    /** Every such file of the user. */
    void forEach(String handle, Consumer<File> each);

    /** Deletes every such file of the user. */
    void erase(String handle);
}
