package tankard.tokenizer;

import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.IntArrayList;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A tiktoken byte-pair encoding (JTokkit). Special-token text is encoded as ordinary text. */
final class TiktokenTokenizer implements Tokenizer {
    private final Encoding encoding;

    TiktokenTokenizer(Encoding encoding) {
        this.encoding = encoding;
    }

    @Override
    public Family family() {
        return Family.TIKTOKEN;
    }

    @Override
    public int[] encode(String text) {
        return encoding.encodeOrdinary(text).toArray();
    }

    @Override
    public String decode(int[] ids) {
        return new String(decodeBytes(ids), StandardCharsets.UTF_8);
    }

    byte[] decodeBytes(int[] ids) {
        return encoding.decodeBytes(list(ids));
    }

    /** Each id decoded on its own (a piece of a multi-byte character reads as U+FFFD, as in ST). */
    @Override
    public List<String> chunks(int[] ids) {
        List<String> out = new ArrayList<>(ids.length);
        for (int id : ids) {
            out.add(decode(new int[] {id}));
        }
        return out;
    }

    private static IntArrayList list(int[] ids) {
        IntArrayList list = new IntArrayList(ids.length);
        for (int id : ids) {
            list.add(id);
        }
        return list;
    }
}
