package tankard.backend;

/** Reads the user's API key of a secret name, by id or the active one (ST's readSecret); "" when there is none. */
@FunctionalInterface
public interface SecretReader {
    String read(String key, String id);
}
