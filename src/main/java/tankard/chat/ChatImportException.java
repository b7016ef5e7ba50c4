package tankard.chat;

/**
 * An upload that no converter can turn into a chat. ST answers these with {@code 200 {"error": true}}, which
 * the frontend reads as "nothing imported"; the message says why.
 */
public final class ChatImportException extends RuntimeException {
    public ChatImportException(String message) {
        super(message);
    }
}
