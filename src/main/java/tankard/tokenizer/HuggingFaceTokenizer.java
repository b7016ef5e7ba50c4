package tankard.tokenizer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * A Hugging Face {@code tokenizer.json} vocabulary through the tokenizers library's Java binding, the same
 * Rust code ST runs as WebAssembly: ids without special tokens added, decoding keeps special tokens.
 * Thread-safe: the native tokenizer is only read.
 */
final class HuggingFaceTokenizer implements Tokenizer {
    private final ai.djl.huggingface.tokenizers.HuggingFaceTokenizer tokenizer;

    private HuggingFaceTokenizer(ai.djl.huggingface.tokenizers.HuggingFaceTokenizer tokenizer) {
        this.tokenizer = tokenizer;
    }

    /** Loads a {@code .json} (or gzipped {@code .json.gz}) file. Blocking, takes about a second. */
    static HuggingFaceTokenizer load(Path file) throws IOException {
        NativeLibraries.stayOffline();
        Map<String, String> options = Map.of("addSpecialTokens", "false", "truncation", "false",
                "padding", "false");
        try (InputStream raw = Files.newInputStream(file);
             InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw) {
            return new HuggingFaceTokenizer(ai.djl.huggingface.tokenizers.HuggingFaceTokenizer.newInstance(in, options));
        }
    }

    @Override
    public Family family() {
        return Family.HUGGINGFACE;
    }

    @Override
    public int[] encode(String text) {
        return Arrays.stream(tokenizer.encode(text, false, false).getIds()).mapToInt(Math::toIntExact).toArray();
    }

    @Override
    public String decode(int[] ids) {
        return tokenizer.decode(Arrays.stream(ids).asLongStream().toArray(), false);
    }

    /**
     * ST's getWebTokenizersChunks: ids are decoded in growing runs, and a run that decodes to a lone U+FFFD
     * (a character cut between tokens) waits for the next id.
     */
    @Override
    public List<String> chunks(int[] ids) {
        List<String> chunks = new ArrayList<>();
        int lastProcessed = 0;
        for (int i = 0; i < ids.length; i++) {
            String text = decode(Arrays.copyOfRange(ids, lastProcessed, i + 1));
            if (text.equals("\uFFFD")) {
                continue;
            }
            chunks.add(text);
            lastProcessed = i + 1;
        }
        return chunks;
    }
}
