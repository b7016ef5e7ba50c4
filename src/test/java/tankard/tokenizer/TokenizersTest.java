package tankard.tokenizer;

import org.junit.jupiter.api.Test;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class TokenizersTest {
    @Test
    void aVocabularyLoadsOnceAndIsSharedByConcurrentCallers() throws Exception {
        Path dir = TestServer.tempDir();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            Files.writeString(dir.resolve("claude.json"), TinyVocabularies.byteLevelBpeJson());
            Files.write(dir.resolve("mistral.model"), TinyVocabularies.unigramModel());
            Tokenizers tokenizers = new Tokenizers(new TokenizerFiles(List.of(dir)));
            for (String id : List.of("claude", "mistral")) {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Tokenizer>> calls = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    calls.add(pool.submit(() -> {
                        start.await();
                        return tokenizers.byId(id);
                    }));
                }
                start.countDown();
                Tokenizer first = calls.get(0).get();
                for (Future<Tokenizer> call : calls) {
                    assertSame(first, call.get(), id);
                }
            }
            assertInstanceOf(HuggingFaceTokenizer.class, tokenizers.byId("claude"));
            assertInstanceOf(SentencePieceTokenizer.class, tokenizers.byId("mistral"));
            assertInstanceOf(ApproximateTokenizer.class, tokenizers.byId("yi"));

            // One shared instance encodes correctly from many threads at once.
            Tokenizer claude = tokenizers.byId("claude");
            String text = "hello world ".repeat(500);
            int[] expected = claude.encode(text);
            List<Future<int[]>> encodings = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                encodings.add(pool.submit(() -> claude.encode(text)));
            }
            for (Future<int[]> encoding : encodings) {
                assertArrayEquals(expected, encoding.get());
            }
        } finally {
            pool.shutdownNow();
            TestServer.deleteTree(dir);
        }
    }

    @Test
    void filesAreFoundInFolderOrderAndGzippedCopiesCount() throws IOException {
        Path first = TestServer.tempDir();
        Path second = TestServer.tempDir();
        try {
            Files.writeString(second.resolve("claude.json"), "{}");
            Files.write(second.resolve("qwen2.json.gz"), new byte[] {1});
            TokenizerFiles files = new TokenizerFiles(List.of(first, second));
            assertEquals(second.resolve("claude.json"), files.find("claude.json"));
            Files.writeString(first.resolve("claude.json"), "{}");
            assertEquals(first.resolve("claude.json"), files.find("claude.json"));
            assertEquals(second.resolve("qwen2.json.gz"), files.find("qwen2.json"));
            assertNull(files.find("nemo.json"));
            Files.createDirectories(first.resolve("nemo.json"));
            assertNull(files.find("nemo.json"), "a folder is not a file");
        } finally {
            TestServer.deleteTree(first);
            TestServer.deleteTree(second);
        }
    }
}
