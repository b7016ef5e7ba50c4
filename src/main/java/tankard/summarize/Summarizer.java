package tankard.summarize;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A summarization model. Blocking: {@link SummaryQueue} calls it on its own worker thread, one text at a time,
 * never on an event loop.
 */
public interface Summarizer {
    /**
     * @param params the request's {@code params} object (Extras ignores it and uses the model's own generation
     *               settings); an empty object when absent
     */
    String summarize(String text, JsonNode params) throws Exception;
}
