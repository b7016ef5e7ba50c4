package tankard.tokenizer;

import java.util.ArrayList;
import java.util.List;

/**
 * A stand-in for a vocabulary Tankard does not ship yet (SentencePiece and Hugging Face models): counts and
 * pieces come from a tiktoken encoding, which is close for English text but not the model's real ids.
 * Replace it in {@link Tokenizers} once a real implementation exists.
 */
final class ApproximateTokenizer implements Tokenizer {
    private final Family family;
    private final Tokenizer standIn;

    ApproximateTokenizer(Family family, Tokenizer standIn) {
        this.family = family;
        this.standIn = standIn;
    }

    @Override
    public Family family() {
        return family;
    }

    @Override
    public int[] encode(String text) {
        return standIn.encode(text);
    }

    @Override
    public String decode(int[] ids) {
        return standIn.decode(ids);
    }

    /** Hugging Face style: ids are merged until they decode to whole characters, like ST's web tokenizers. */
    @Override
    public List<String> chunks(int[] ids) {
        if (family != Family.HUGGINGFACE) {
            return standIn.chunks(ids);
        }
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < ids.length; i++) {
            String text = standIn.decode(java.util.Arrays.copyOfRange(ids, start, i + 1));
            if (!text.equals("\uFFFD")) {
                out.add(text);
                start = i + 1;
            }
        }
        return out;
    }
}
