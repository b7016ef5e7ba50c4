package tankard.json;

/** Malformed JSON input; surfaces to HTTP clients as 400. */
public class JsonSyntaxException extends RuntimeException {
    public JsonSyntaxException(String message) {
        super(message);
    }
}
