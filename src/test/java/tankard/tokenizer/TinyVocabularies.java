package tankard.tokenizer;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Small vocabularies made in the tests, in the file formats of ST's tokenizers (which cannot be committed). */
final class TinyVocabularies {
    private TinyVocabularies() {
    }

    /**
     * A byte-level BPE {@code tokenizer.json} as GPT-2/Llama 3/Claude use: id 0 is the special {@code <eos>},
     * ids 1–256 are the bytes 0–255, then the merges h+e=257, l+l=258, he+ll=259, hell+o=260, Ġ+w=261,
     * Ġw+o=262. So "hello world" is [260, 262, 115 (r), 109 (l), 101 (d)].
     */
    static String byteLevelBpeJson() {
        JsonObject vocab = new JsonObject().put("<eos>", 0);
        for (int b = 0; b < 256; b++) {
            vocab.put(byteChar(b), b + 1);
        }
        String[][] merges = {{"h", "e"}, {"l", "l"}, {"he", "ll"}, {"hell", "o"}, {"Ġ", "w"}, {"Ġw", "o"}};
        JsonArray mergeList = new JsonArray();
        for (int i = 0; i < merges.length; i++) {
            vocab.put(merges[i][0] + merges[i][1], 257 + i);
            mergeList.add(merges[i][0] + " " + merges[i][1]);
        }
        JsonObject byteLevel = new JsonObject().put("type", "ByteLevel").put("add_prefix_space", false)
                .put("trim_offsets", true).put("use_regex", true);
        return new JsonObject()
                .put("version", "1.0")
                .putNull("truncation")
                .putNull("padding")
                .put("added_tokens", new JsonArray().add(new JsonObject().put("id", 0).put("content", "<eos>")
                        .put("single_word", false).put("lstrip", false).put("rstrip", false)
                        .put("normalized", false).put("special", true)))
                .putNull("normalizer")
                .put("pre_tokenizer", byteLevel)
                .putNull("post_processor")
                .put("decoder", byteLevel)
                .put("model", new JsonObject().put("type", "BPE").putNull("dropout").putNull("unk_token")
                        .putNull("continuing_subword_prefix").putNull("end_of_word_suffix").put("fuse_unk", false)
                        .put("byte_fallback", false).put("vocab", vocab).put("merges", mergeList))
                .encodePrettily();
    }

    /** GPT-2's printable stand-in for a byte (its bytes_to_unicode table). */
    private static String byteChar(int b) {
        if (printable(b)) {
            return String.valueOf((char) b);
        }
        int unprintableBefore = 0;
        for (int i = 0; i < b; i++) {
            unprintableBefore += printable(i) ? 0 : 1;
        }
        return String.valueOf((char) (256 + unprintableBefore));
    }

    private static boolean printable(int b) {
        return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
    }

    /** The pieces of {@link #unigramModel()}, by id. */
    static final List<String> UNIGRAM_PIECES = List.of("<unk>", "<s>", "</s>", "▁hello", "▁world", "▁", "h", "e",
            "l", "o", "w", "r", "d", "▁he", "ll", "▁🍺");

    /**
     * A SentencePiece unigram {@code .model} (the ModelProto protobuf) without normalisation: 0 {@code <unk>},
     * 1 {@code <s>}, 2 {@code </s>}, then {@link #UNIGRAM_PIECES}. "hello world" is [3, 4]; "hell" is [13, 14]; "🍺" is [15].
     */
    static byte[] unigramModel() {
        ByteArrayOutputStream model = new ByteArrayOutputStream();
        for (int id = 0; id < UNIGRAM_PIECES.size(); id++) {
            String piece = UNIGRAM_PIECES.get(id);
            int type = id == 0 ? 2 : id < 3 ? 3 : 1; // UNKNOWN, CONTROL, NORMAL
            float score = id < 3 ? 0f : piece.startsWith("▁") && piece.length() > 2 ? -1f : piece.length() == 2 ? -1.5f : -4f;
            ByteArrayOutputStream entry = new ByteArrayOutputStream();
            field(entry, 1, piece.getBytes(StandardCharsets.UTF_8));
            fixed32(entry, 2, score);
            varintField(entry, 3, type);
            field(model, 1, entry.toByteArray());
        }
        ByteArrayOutputStream trainer = new ByteArrayOutputStream();
        varintField(trainer, 3, 1); // model_type UNIGRAM
        varintField(trainer, 4, UNIGRAM_PIECES.size());
        field(model, 2, trainer.toByteArray());
        ByteArrayOutputStream normalizer = new ByteArrayOutputStream();
        field(normalizer, 1, "identity".getBytes(StandardCharsets.UTF_8));
        varintField(normalizer, 3, 1); // add_dummy_prefix
        varintField(normalizer, 4, 1); // remove_extra_whitespaces
        varintField(normalizer, 5, 1); // escape_whitespaces
        field(model, 3, normalizer.toByteArray());
        return model.toByteArray();
    }

    private static void field(ByteArrayOutputStream out, int number, byte[] bytes) {
        varint(out, (long) number << 3 | 2);
        varint(out, bytes.length);
        out.writeBytes(bytes);
    }

    private static void varintField(ByteArrayOutputStream out, int number, long value) {
        varint(out, (long) number << 3);
        varint(out, value);
    }

    private static void fixed32(ByteArrayOutputStream out, int number, float value) {
        varint(out, (long) number << 3 | 5);
        int bits = Float.floatToIntBits(value);
        for (int i = 0; i < 4; i++) {
            out.write(bits >>> (8 * i) & 0xFF);
        }
    }

    private static void varint(ByteArrayOutputStream out, long value) {
        while ((value & ~0x7FL) != 0) {
            out.write((int) (value & 0x7F | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
    }
}
