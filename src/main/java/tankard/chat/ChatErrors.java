package tankard.chat;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.core.Refusal;

import java.io.IOException;

/**
 * A chat that exists but cannot be read is a 500 with a message, never an empty or missing chat: telling the
 * two apart keeps the frontend from treating a healthy chat as gone (ST issue 5941).
 */
final class ChatErrors {
    private static final Logger LOG = LoggerFactory.getLogger(ChatErrors.class);

    private ChatErrors() {
    }

    static Refusal unreadable(ChatFolder folder, String name, IOException cause) {
        return unreadable("the chat " + folder + "/" + name, cause);
    }

    /** @param what the file, as the message names it ("the chat backup x.jsonl") */
    static Refusal unreadable(String what, IOException cause) {
        String message = "Could not read " + what + ": " + cause;
        LOG.error(message, cause);
        return Refusal.failed(message);
    }
}
