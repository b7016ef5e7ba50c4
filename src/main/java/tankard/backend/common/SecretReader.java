package tankard.backend.common;

import tankard.secrets.SecretStore;

/** Reads the user's API key of a secret name, by id or the active one (ST's readSecret); "" when there is none. */
@FunctionalInterface
public interface SecretReader {
    String read(String key, String id);

    /** The keys of the user with this handle. */
    static SecretReader of(SecretStore secrets, String user) {
        return (key, id) -> secrets.read(user, key, id);
    }
}
