package tankard.summarize;

/** No model can summarize now (not loaded, or still loading): the Extras module answers 503 with this message. */
public class SummaryUnavailableException extends RuntimeException {
    public SummaryUnavailableException(String message) {
        super(message, null, false, false);
    }
}
