package tankard.core;

/**
 * A request the domain will not carry out, with a message for the client. Services throw it; the HTTP
 * failure handler turns its {@link Kind} into a status and {@code {"error": message}}. Nothing in the domain
 * knows HTTP statuses.
 */
public class Refusal extends RuntimeException {
    public enum Kind {
        /** The request itself is wrong: a missing or malformed field, a bad name. */
        BAD_REQUEST,
        FORBIDDEN,
        NOT_FOUND,
        /** The thing exists already or is in a state that does not allow it. */
        CONFLICT,
        TOO_LARGE,
        TOO_MANY_REQUESTS,
        /** Something needed is not ready or is full (a model still loading, a queue at its limit). */
        UNAVAILABLE,
        /** A backend this server called refused, failed or answered something unusable. */
        UPSTREAM,
        /** The work was attempted and failed; ST reports these cases as server errors with a message. */
        FAILED
    }

    private final Kind kind;

    public Refusal(Kind kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    /** Whether the fault lies with the server rather than with what the caller asked. */
    public boolean serverSide() {
        return kind == Kind.FAILED || kind == Kind.UNAVAILABLE || kind == Kind.UPSTREAM;
    }

    public static Refusal badRequest(String message) {
        return new Refusal(Kind.BAD_REQUEST, message);
    }

    public static Refusal forbidden(String message) {
        return new Refusal(Kind.FORBIDDEN, message);
    }

    public static Refusal notFound(String message) {
        return new Refusal(Kind.NOT_FOUND, message);
    }

    public static Refusal conflict(String message) {
        return new Refusal(Kind.CONFLICT, message);
    }

    public static Refusal tooLarge(String message) {
        return new Refusal(Kind.TOO_LARGE, message);
    }

    public static Refusal tooManyRequests(String message) {
        return new Refusal(Kind.TOO_MANY_REQUESTS, message);
    }

    public static Refusal unavailable(String message) {
        return new Refusal(Kind.UNAVAILABLE, message);
    }

    public static Refusal upstream(String message) {
        return new Refusal(Kind.UPSTREAM, message);
    }

    public static Refusal failed(String message) {
        return new Refusal(Kind.FAILED, message);
    }
}
