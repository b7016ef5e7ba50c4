package tankard.backend.openai;

import tankard.core.Refusal;
import tankard.secrets.SecretStore;

/** The user's key for a service, which these routes refuse to call without (ST's 400). */
final class Keys {
    private Keys() {
    }

    static String required(SecretStore secrets, String user, String secret, String service) {
        String key = secrets.read(user, secret);
        if (key.isEmpty()) {
            throw Refusal.badRequest("No " + service + " API key is set");
        }
        return key;
    }
}
