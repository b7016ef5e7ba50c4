package tankard.http;

/**
 * A failure with an HTTP status and a message for the client. Services throw it; the router's failure
 * handler turns it into {@code {"error": message}} with that status.
 */
public class ApiError extends RuntimeException {
    private final int status;

    public ApiError(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }

    public static ApiError badRequest(String message) {
        return new ApiError(400, message);
    }

    public static ApiError forbidden(String message) {
        return new ApiError(403, message);
    }

    public static ApiError notFound(String message) {
        return new ApiError(404, message);
    }

    public static ApiError conflict(String message) {
        return new ApiError(409, message);
    }
}
