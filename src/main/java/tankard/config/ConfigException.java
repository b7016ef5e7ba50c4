package tankard.config;

/** A configuration value that cannot be used; the message names the key. Stops start-up. */
public class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }
}
