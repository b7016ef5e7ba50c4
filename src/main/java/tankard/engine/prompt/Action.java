package tankard.engine.prompt;

import tankard.core.Refusal;

import java.util.Locale;

/** What the user asked for: ST's generation types (public/script.js, Generate's {@code type}). */
public enum Action {
    NORMAL, REGENERATE, SWIPE, CONTINUE, IMPERSONATE;

    /** ST's name of the type: {@code "normal"}, {@code "swipe"} … */
    public String stName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The action a request names ({@code "send"} is ST's {@code "normal"}); a 400 for any other. */
    public static Action parse(String name) {
        if (name == null || name.isEmpty() || name.equals("send")) {
            return NORMAL;
        }
        for (Action action : values()) {
            if (action.stName().equals(name)) {
                return action;
            }
        }
        throw new Refusal(Refusal.Kind.BAD_REQUEST, "Unknown action: " + name
                + " (send, normal, regenerate, swipe, continue or impersonate)");
    }
}
