package tankard.http.security;

import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;

/**
 * The client-side session ST keeps in its signed cookie (the cookie-session middleware of ST: src/server-main.js).
 * Members the server does not know are kept, so a session cookie issued by ST survives a switch to Tankard and back.
 */
public final class Session {
    private final ObjectNode data;
    private boolean changed;
    private boolean destroyed;

    Session(ObjectNode data) {
        this.data = data;
    }

    static Session empty() {
        return new Session(JsJson.object());
    }

    ObjectNode data() {
        return data;
    }

    public String csrfToken() {
        return data.path("csrfToken").asText(null);
    }

    public void csrfToken(String token) {
        set("csrfToken", token);
    }

    public String handle() {
        return data.path("handle").isTextual() ? data.get("handle").textValue() : null;
    }

    public String version() {
        return data.path("version").asText(null);
    }

    /** Logs a user in: the CSRF token is kept, the handle and account version are added. */
    public void login(String handle, String version) {
        set("handle", handle);
        set("version", version);
    }

    public void version(String version) {
        set("version", version);
    }

    /** Re-issues the cookie so that its expiry slides. */
    public void touch() {
        data.put("touch", System.currentTimeMillis());
        changed = true;
    }

    /** Forgets everything; the cookie is expired on the response. */
    public void destroy() {
        data.removeAll();
        destroyed = true;
        changed = true;
    }

    public boolean isEmpty() {
        return data.isEmpty();
    }

    boolean changed() {
        return changed;
    }

    boolean destroyed() {
        return destroyed;
    }

    private void set(String key, String value) {
        if (value == null) {
            data.remove(key);
        } else {
            data.put(key, value);
        }
        destroyed = false;
        changed = true;
    }
}
