package tankard.summarize;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits a text too long for a model into chunks that each fit a token budget, cutting at meaning boundaries:
 * between paragraphs (blank lines) rather than lines, lines rather than sentences, sentences rather than words,
 * and never inside a word, except a single word longer than the whole budget, which alone is cut by characters.
 *
 * <p>The text is first broken into pieces (sentences, or the words of a sentence too long for the budget), each
 * counted once with the model's tokenizer. Chunks are then packed greedily from the pieces: of the cut points that
 * fill a chunk at least {@link #MIN_FILL} of the budget, the one at the strongest boundary wins, the fullest on a
 * tie. Tokenization is not additive (pieces may merge or need separators), so every chunk of several pieces is
 * counted again, and cut earlier until it fits. Each chunk after the first starts with the last sentence(s) of the
 * one before as context, at most the overlap budget.
 */
public final class TextSplitter {
    private static final Logger LOG = LoggerFactory.getLogger(TextSplitter.class);

    /** A chunk may end at a weaker boundary than one found later only if it would otherwise be less full than this. */
    static final double MIN_FILL = 0.5;

    /** What a piece of text ends at, weakest first. */
    public enum Boundary { CHARACTER, WORD, SENTENCE, LINE, PARAGRAPH, END }

    private static final Pattern PARAGRAPH = Pattern.compile("\\R\\h*\\R\\s*");
    private static final Pattern LINE = Pattern.compile("\\R\\s*");
    /** Sentence ends: punctuation, closing quotes, brackets or emphasis, then space; CJK full stops need no space. */
    private static final Pattern SENTENCE = Pattern.compile(
            "[.!?…]+[\"'”’»)\\]*_]*\\s+|[。！？]+[」』”’)）]*\\s*");
    private static final Pattern WORD = Pattern.compile("\\s+");
    private static final Pattern[] SEPARATORS = {PARAGRAPH, LINE, SENTENCE, WORD};
    private static final Boundary[] SEPARATED = {Boundary.PARAGRAPH, Boundary.LINE, Boundary.SENTENCE, Boundary.WORD};
    /** Text is always broken down to sentences; sentences and words only when too long for the budget. */
    private static final int ALWAYS_SPLIT = 2;

    private final ToIntFunction<String> countTokens;

    /** @param countTokens the model's token count of a text, e.g. {@code model::countTokens} */
    public TextSplitter(ToIntFunction<String> countTokens) {
        this.countTokens = countTokens;
    }

    /** One chunk of the text and its token count. */
    public record Chunk(String text, int tokens) {
    }

    /** The chunks, in order, each overlapping the one before by up to a tenth of the budget. */
    public List<Chunk> split(String text, int budget) {
        return split(text, budget, budget / 10);
    }

    /**
     * @param budget        the most tokens a chunk may have
     * @param overlapTokens the most tokens a chunk repeats from the end of the one before; 0 for none
     * @return the chunks, trimmed, in order; none for a blank text
     */
    public List<Chunk> split(String text, int budget, int overlapTokens) {
        return chunks(text, budget, overlapTokens, Integer.MAX_VALUE);
    }

    /** The start of the text that fits the budget: the first chunk {@link #split} would make. */
    public String head(String text, int budget) {
        List<Chunk> first = chunks(text, budget, 0, 1);
        return first.isEmpty() ? "" : first.get(0).text();
    }

    private record Piece(int start, int end, int tokens, Boundary after) {
    }

    /** Where a chunk starts repeating the end of the one before, and that repeat's tokens. */
    private record Overlap(int start, int tokens) {
        static final Overlap NONE = new Overlap(-1, 0);
    }

    private List<Chunk> chunks(String text, int budget, int overlapTokens, int maxChunks) {
        if (budget < 1) {
            throw new IllegalArgumentException("The token budget must be at least 1, not " + budget);
        }
        List<Piece> pieces = new ArrayList<>();
        split(text, 0, text.length(), 0, Boundary.END, budget, pieces);
        long[] before = new long[pieces.size() + 1]; // before[i]: the tokens of pieces 0..i-1
        for (int i = 0; i < pieces.size(); i++) {
            before[i + 1] = before[i] + pieces.get(i).tokens();
        }
        List<Chunk> chunks = new ArrayList<>();
        int first = 0; // the first piece no chunk has had yet
        Overlap overlap = Overlap.NONE;
        while (first < pieces.size() && chunks.size() < maxChunks) {
            long limit = budget;
            while (true) {
                if (overlap.tokens() + pieces.get(first).tokens() > limit) {
                    overlap = Overlap.NONE; // no room for it next to this piece
                }
                int last = cut(pieces, before, first, overlap.tokens(), limit);
                int start = overlap == Overlap.NONE ? pieces.get(first).start() : overlap.start();
                String chunk = text.substring(start, pieces.get(last).end()).strip();
                // a lone piece was counted exactly as it is here, and fits (but for a character counted over budget)
                boolean lone = overlap == Overlap.NONE && first == last;
                int tokens = lone ? pieces.get(first).tokens() : countTokens.applyAsInt(chunk);
                if (tokens <= budget || lone) {
                    chunks.add(new Chunk(chunk, tokens));
                    overlap = overlapTokens > 0 ? overlap(text, pieces, before, first, last, overlapTokens) : Overlap.NONE;
                    first = last + 1;
                    break;
                }
                limit = overlap.tokens() + before[last + 1] - before[first] - (tokens - budget);
            }
        }
        return chunks;
    }

    /** The last piece of the chunk whose new text starts at piece {@code first}: see the class comment. */
    private static int cut(List<Piece> pieces, long[] before, int first, int overlapTokens, long limit) {
        int best = -1;
        int lastFitting = first;
        for (int i = first; i < pieces.size(); i++) {
            long tokens = overlapTokens + before[i + 1] - before[first];
            if (i > first && tokens > limit) {
                break;
            }
            lastFitting = i;
            if (tokens >= MIN_FILL * limit
                    && (best < 0 || pieces.get(i).after().compareTo(pieces.get(best).after()) >= 0)) {
                best = i;
            }
        }
        return best >= 0 ? best : lastFitting;
    }

    /**
     * What the chunk after pieces {@code first..last} repeats of them: the most whole sentences from their end that
     * fit the overlap budget; when even the last is too long, the most of its last words that fit.
     */
    private Overlap overlap(String text, List<Piece> pieces, long[] before, int first, int last, int overlapTokens) {
        int sentence = -1;
        for (int j = last; j > first && before[last + 1] - before[j] <= overlapTokens; j--) {
            if (pieces.get(j - 1).after().compareTo(Boundary.SENTENCE) >= 0) {
                sentence = j;
            }
        }
        if (sentence >= 0) {
            return new Overlap(pieces.get(sentence).start(), (int) (before[last + 1] - before[sentence]));
        }
        // the last piece's word starts, but its first (the whole piece is too long)
        Piece piece = pieces.get(last);
        List<Integer> starts = new ArrayList<>();
        Matcher word = WORD.matcher(text).region(piece.start(), piece.end());
        while (word.find()) {
            if (word.end() < piece.end()) {
                starts.add(word.end());
            }
        }
        // by bisection: the earliest start whose words to the piece's end fit
        Overlap best = Overlap.NONE;
        int low = 0;
        int high = starts.size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int tokens = countTokens.applyAsInt(text.substring(starts.get(mid), piece.end()).strip());
            if (tokens <= overlapTokens) {
                best = new Overlap(starts.get(mid), tokens);
                high = mid - 1;
            } else {
                low = mid + 1;
            }
        }
        return best;
    }

    /** Breaks {@code text[start, end)} at the separators of {@code level} and goes on with each part. */
    private void split(String text, int start, int end, int level, Boundary after, int budget, List<Piece> out) {
        Matcher separator = SEPARATORS[level].matcher(text).region(start, end);
        int partStart = start;
        while (partStart < end) {
            int partEnd = separator.find() ? separator.end() : end;
            Boundary partAfter = partEnd == end ? after : SEPARATED[level];
            if (level < ALWAYS_SPLIT) {
                split(text, partStart, partEnd, level + 1, partAfter, budget, out);
            } else {
                fit(text, partStart, partEnd, level + 1, partAfter, budget, out);
            }
            partStart = partEnd;
        }
    }

    /** One piece when {@code text[start, end)} fits the budget; else split at the next level, or by characters. */
    private void fit(String text, int start, int end, int level, Boundary after, int budget, List<Piece> out) {
        String part = text.substring(start, end).strip();
        if (part.isEmpty()) {
            return;
        }
        int tokens = countTokens.applyAsInt(part);
        if (tokens <= budget) {
            out.add(new Piece(start, end, tokens, after));
        } else if (level < SEPARATORS.length) {
            split(text, start, end, level, after, budget, out);
        } else {
            splitWord(start + text.substring(start, end).indexOf(part), part, after, budget, out);
        }
    }

    /** A single word longer than the budget: the only text cut other than at a boundary, into the fewest pieces. */
    private void splitWord(int offset, String word, Boundary after, int budget, List<Piece> out) {
        LOG.info("A word of {} characters is longer than the {}-token budget: cutting it by characters",
                word.length(), budget);
        int from = 0;
        while (from < word.length()) {
            // the most code points from here that fit, by bisection (one at least, whatever it counts)
            int low = 1;
            int high = word.codePointCount(from, word.length());
            while (low < high) {
                int mid = (low + high + 1) >>> 1;
                if (countTokens.applyAsInt(word.substring(from, word.offsetByCodePoints(from, mid))) <= budget) {
                    low = mid;
                } else {
                    high = mid - 1;
                }
            }
            int to = word.offsetByCodePoints(from, low);
            out.add(new Piece(offset + from, offset + to, countTokens.applyAsInt(word.substring(from, to)),
                    to == word.length() ? after : Boundary.CHARACTER));
            from = to;
        }
    }
}
