package tankard.summarize;

import com.fasterxml.jackson.databind.JsonNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Summarizes a text of any length with a model of fixed input window (issue 6, item 3). A text that fits the window
 * takes one call. A longer one is split at meaning boundaries into overlapping chunks that fit ({@link TextSplitter},
 * counted by the model's own tokenizer); each chunk is summarized, the summaries are joined as paragraphs, and the
 * same is done to the joined text until it fits. Extras instead halves an over-long text by characters, cutting
 * through words and sentences, and glues the halves' summaries with no separator.
 *
 * <p>It stops after {@code maxDepth} levels, or as soon as a level does not make the text shorter (a model whose
 * summaries are as long as its input would otherwise loop): then only the start of the text, cut to the window at a
 * boundary, is summarized, and a warning says so. Blocking: it runs on the caller's (the queue's worker) thread.
 */
public final class SummaryOfSummaries implements Summarizer {
    private static final Logger LOG = LoggerFactory.getLogger(SummaryOfSummaries.class);
    public static final int DEFAULT_MAX_DEPTH = 4;
    public static final double DEFAULT_OVERLAP = 0.1;

    private final SummaryModel model;
    private final TextSplitter splitter;
    private final int maxDepth;
    private final double overlap;

    public SummaryOfSummaries(SummaryModel model) {
        this(model, DEFAULT_MAX_DEPTH, DEFAULT_OVERLAP);
    }

    /**
     * @param maxDepth how many levels of summaries to make at most before cutting the text (1: one level)
     * @param overlap  the share of the window each chunk may repeat from the end of the one before (0 to 0.5)
     */
    public SummaryOfSummaries(SummaryModel model, int maxDepth, double overlap) {
        if (maxDepth < 1 || !(overlap >= 0 && overlap <= 0.5)) {
            throw new IllegalArgumentException("maxDepth must be at least 1 and overlap within 0 to 0.5, not "
                    + maxDepth + " and " + overlap);
        }
        this.model = model;
        this.splitter = new TextSplitter(model::countTokens);
        this.maxDepth = maxDepth;
        this.overlap = overlap;
    }

    /** Extras ignores the request's {@code params} and uses the model's own generation settings; so does this. */
    @Override
    public String summarize(String text, JsonNode params) throws Exception {
        return summarize(text);
    }

    public String summarize(String text) throws Exception {
        int window = model.inputWindow();
        int tokens = model.countTokens(text);
        for (int level = 1; tokens > window; level++) {
            if (level > maxDepth) {
                LOG.warn("Summary of summaries: {} tokens are left after {} levels, more than the {}-token window: "
                        + "summarizing only their start", tokens, maxDepth, window);
                return model.summarize(splitter.head(text, window));
            }
            List<TextSplitter.Chunk> chunks = splitter.split(text, window, (int) (window * overlap));
            LOG.info("Summary of summaries, level {}: {} tokens in {} chunks of at most {}",
                    level, tokens, chunks.size(), window);
            List<String> summaries = new ArrayList<>(chunks.size());
            for (int i = 0; i < chunks.size(); i++) {
                TextSplitter.Chunk chunk = chunks.get(i);
                if (Thread.currentThread().isInterrupted()) { // the server stops: no more chunks
                    throw new SummaryUnavailableException("the summary was stopped: Tankard is shutting down");
                }
                LOG.info("Summary of summaries, level {}: chunk {}/{} ({} tokens)",
                        level, i + 1, chunks.size(), chunk.tokens());
                String summary = model.summarize(chunk.text()).strip();
                if (!summary.isEmpty()) {
                    summaries.add(summary);
                }
            }
            String joined = String.join("\n\n", summaries);
            int joinedTokens = model.countTokens(joined);
            if (joinedTokens >= tokens) {
                LOG.warn("Summary of summaries, level {}: the summaries ({} tokens) are no shorter than the text "
                        + "({} tokens): summarizing only the start of the text", level, joinedTokens, tokens);
                return model.summarize(splitter.head(text, window));
            }
            if (joined.isEmpty()) {
                return ""; // the model found nothing to say about any chunk
            }
            text = joined;
            tokens = joinedTokens;
        }
        return model.summarize(text);
    }
}
