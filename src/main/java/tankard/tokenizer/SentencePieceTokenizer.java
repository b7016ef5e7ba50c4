package tankard.tokenizer;

import ai.djl.engine.EngineException;
import ai.djl.sentencepiece.SpProcessor;
import ai.djl.sentencepiece.SpTokenizer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A SentencePiece {@code .model} vocabulary through DJL's binding of the SentencePiece library (the C++ code
 * ST runs as WebAssembly). Decoding goes id by id as ST's does. Thread-safe: the processor is only read.
 */
final class SentencePieceTokenizer implements Tokenizer {
    private final SpTokenizer tokenizer;
    private final SpProcessor processor;
    private final SentencePieceModel model;

    private SentencePieceTokenizer(SpTokenizer tokenizer, SentencePieceModel model) {
        this.tokenizer = tokenizer;
        this.processor = tokenizer.getProcessor();
        this.model = model;
    }

    /** Loads a {@code .model} file. Blocking. */
    static SentencePieceTokenizer load(Path file) throws IOException {
        NativeLibraries.stayOffline();
        byte[] bytes = Files.readAllBytes(file);
        SpTokenizer tokenizer = new SpTokenizer(bytes);
        try {
            return new SentencePieceTokenizer(tokenizer, SentencePieceModel.parse(bytes));
        } catch (RuntimeException e) {
            tokenizer.close();
            throw e;
        }
    }

    @Override
    public Family family() {
        return Family.SENTENCEPIECE;
    }

    @Override
    public int[] encode(String text) {
        return processor.encode(text);
    }

    @Override
    public String decode(int[] ids) {
        return String.join("", chunks(ids));
    }

    /** ST's encodePieces: the pieces as the model cut them ({@code ▁} for spaces, {@code <0xNN>} bytes). */
    @Override
    public List<String> encodeChunks(String text, int[] ids) {
        return tokenizer.tokenize(text);
    }

    /** Each id decoded on its own; an id the model does not have decodes to "", as in ST. */
    @Override
    public List<String> chunks(int[] ids) {
        List<String> out = new ArrayList<>(ids.length);
        for (int id : ids) {
            try {
                out.add(model.needsJavaDecoding(id) ? model.decodeAlone(id) : processor.decode(new int[] {id}));
            } catch (EngineException e) {
                out.add("");
            }
        }
        return out;
    }
}
