package tankard.backend.common;

import tankard.secrets.SecretStore;
import tankard.user.UserDirs;

/** Reads the user's API key of a secret name, by id or the active one (ST's readSecret); "" when there is none. */
@FunctionalInterface
public interface SecretReader {
    String read(String key, String id);

    /** The keys of the user whose folders these are. */
    static SecretReader of(SecretStore secrets, UserDirs dirs) {
        return (key, id) -> secrets.read(dirs, key, id);
    }
}
