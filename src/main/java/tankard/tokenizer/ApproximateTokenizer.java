package tankard.tokenizer;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A stand-in for a vocabulary Tankard does not ship yet (SentencePiece and Hugging Face models): counts and
 * pieces come from a tiktoken encoding, which is close for English text but not the model's real ids.
 * Replace it in {@link Tokenizers} once a real implementation exists.
 */
final class ApproximateTokenizer implements Tokenizer {
    private final Family family;
    private final TiktokenTokenizer standIn;

    ApproximateTokenizer(Family family, TiktokenTokenizer standIn) {
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

    /**
     * Hugging Face style: ids are merged until their bytes form whole characters, as ST's web tokenizers
     * merge pieces that decode to a lone U+FFFD.
     */
    @Override
    public List<String> chunks(int[] ids) {
        if (family != Family.HUGGINGFACE) {
            return standIn.chunks(ids);
        }
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < ids.length; i++) {
            String text = wholeCharacters(standIn.decodeBytes(Arrays.copyOfRange(ids, start, i + 1)));
            if (text != null) {
                out.add(text);
                start = i + 1;
            }
        }
        return out;
    }

    /** The text of bytes that are complete UTF-8, or null while a character is still cut. */
    private static String wholeCharacters(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
