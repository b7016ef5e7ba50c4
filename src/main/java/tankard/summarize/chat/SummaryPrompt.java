package tankard.summarize.chat;

/**
 * The words of a summary request: the instruction (the system turn) and the text to summarize (one user
 * message, so the model reads the conversation rather than continues it).
 */
final class SummaryPrompt {
    private SummaryPrompt() {
    }

    /**
     * @param focus   what the summary must keep above all, or null
     * @param merging whether the text starts with the summary so far, which the answer must take in
     */
    static String instruction(String focus, boolean merging) {
        StringBuilder text = new StringBuilder("You write the long-term memory of a story told as a conversation. "
                + "Read the text in the next message, written as \"Name: message\" lines (or summaries of parts of "
                + "it), and summarize the most important facts and events in it.");
        if (merging) {
            text.append(" It starts with the summary so far: merge the new events into it, keep what still matters, "
                    + "and answer with one complete, updated summary.");
        }
        if (focus != null) {
            text.append(" Above all, the summary must keep: ").append(focus.trim());
        }
        return text.append(" Your answer must contain nothing but the summary.").toString();
    }

    /** The user message: the summary so far (if any), then the conversation lines or their summary. */
    static String content(String previous, String text) {
        if (previous == null) {
            return "Conversation:\n" + text;
        }
        return "Summary so far:\n" + previous.trim() + "\n\nWhat happened next:\n" + text;
    }

    /** One message as a conversation line. */
    static String line(String name, String message) {
        return name + ": " + message;
    }
}
