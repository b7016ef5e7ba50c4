package tankard.engine.openai;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.engine.prompt.Generation;

/** Reads {@code power_user} settings, which a settings.json may lack altogether. */
final class PowerUser {
    private PowerUser() {
    }

    /** A power-user setting, or null when it is not there. */
    static JsonNode get(Generation generation, String key) {
        return generation.inputs().settings().path("power_user").get(key);
    }
}
