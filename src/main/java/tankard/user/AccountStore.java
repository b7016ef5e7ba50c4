package tankard.user;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;

import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** Account records and account avatars. The file store writes ST's {@code _storage/}; blocking calls. */
public interface AccountStore {
    /** All accounts, oldest first. */
    List<User> users();

    Optional<User> find(String handle);

    /**
     * {@link #find} for a caller that must not block: the security chain, which looks the signed-in account up on
     * an event loop for every request. As fresh as {@link #find}: a change made on any node is seen at once.
     */
    Future<Optional<User>> lookup(String handle);

    void save(User user);

    /** Stores a new account; false, and nothing written, when its handle is taken. Atomic. */
    boolean create(User user);

    /**
     * Replaces the account by what {@code change} makes of it, as one step that no other change interleaves with
     * (on any node); empty, and nothing written, when there is no such account.
     */
    Optional<User> update(String handle, UnaryOperator<User> change);

    void delete(String handle);

    /** The custom account avatar, a {@code data:} URL. */
    Optional<String> avatar(String handle);

    /** Stores a custom avatar; null or empty removes it. */
    void saveAvatar(String handle, String dataUrl);

    /**
     * Every account record as stored, with ST's members in ST's order (which {@link #save} does not keep), for
     * moving data between stores byte for byte.
     */
    List<ObjectNode> records();

    /** Stores a record as it is, under the handle it names. */
    void putRecord(ObjectNode record);
}
