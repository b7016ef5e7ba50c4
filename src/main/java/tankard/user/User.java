package tankard.user;

/**
 * An account record as ST stores it under {@code _storage/} (ST: src/endpoints/users-admin.js, /create).
 * {@code password} is the base64 scrypt hash, empty when the account has no password.
 */
public record User(String handle, String name, long created, String password, String salt, boolean admin, boolean enabled) {
    public static final String DEFAULT_HANDLE = "default-user";

    /** The built-in single-user account that every request is served as when accounts are off. */
    public static User defaultUser(long created) {
        return new User(DEFAULT_HANDLE, "User", created, "", "", true, true);
    }

    public boolean hasPassword() {
        return password != null && !password.isEmpty();
    }
}
