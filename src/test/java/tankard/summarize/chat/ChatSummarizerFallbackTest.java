package tankard.summarize.chat;

import tankard.store.MemoryTicketStore;
import tankard.store.StripedLocks;
import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.backend.Completions;
import tankard.outbound.OutboundPolicy;
import tankard.outbound.ProviderOrigins;
import tankard.outbound.UpstreamClient;
import tankard.chat.ChatFolder;
import tankard.chat.ChatLocks;
import tankard.chat.ChatService;
import tankard.chat.FileChatStore;
import tankard.config.ConfigLoader;
import tankard.config.TankardConfig;
import tankard.json.JsJson;
import tankard.secrets.SecretStore;
import tankard.store.FileDocumentStore;
import tankard.summarize.SummaryModel;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;
import tankard.tokenizer.TokenizerFiles;
import tankard.tokenizer.Tokenizers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A conversation longer than the model's context goes to summary of summaries over the main backend (here a
 * stand-in that records what it was given), whose result is then merged into the summary so far; the backend
 * model's token window is what the context leaves after the output limit and the prompt.
 */
class ChatSummarizerFallbackTest {
    private Vertx vertx;
    private MockCompletionServer mock;
    private Path work;
    private FileChatStore chatStore;
    private ChatSummarizer summarizer;
    private final List<SummaryModel> models = new ArrayList<>();
    private final List<String> texts = new ArrayList<>();
    private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);

    @BeforeEach
    void setUp() throws IOException {
        vertx = Vertx.vertx();
        mock = MockCompletionServer.start(vertx);
        work = TestServer.tempDir();
        TankardConfig config = ConfigLoader.load(new String[] {"--dataRoot", "data"}, Map.of(), work);
        chatStore = new FileChatStore(config.dataRoot());
        ChatService chats = new ChatService(config.backups(), chatStore, new ChatLocks(new StripedLocks(64)),
                new MemoryTicketStore(System::currentTimeMillis), timer, System::currentTimeMillis);
        Completions completions = new Completions(config, new SecretStore(new FileDocumentStore(config.dataRoot()), false), new UpstreamClient(vertx,
                new OutboundPolicy(config), new ProviderOrigins(config.backends().providerOrigins())));
        summarizer = new ChatSummarizer(chats, completions, new Tokenizers(TokenizerFiles.of(config)), model -> {
            models.add(model);
            return (text, params) -> {
                texts.add(text);
                return "The parts, summarized.";
            };
        });
    }

    @AfterEach
    void tearDown() {
        timer.shutdown();
        mock.close();
        vertx.close();
    }

    private JsonNode summarize(List<String> messages, String fields) throws Exception {
        chatStore.write("default-user", ChatFolder.character("Bramble"), "Hollow Oak.jsonl",
                ChatSummaryHttpTest.chat(messages).getBytes(StandardCharsets.UTF_8));
        JsonNode body = JsJson.parse("{\"avatar_url\":\"Bramble.png\","
                + "\"file_name\":\"Hollow Oak\",\"backend\":{\"chat_completion_source\":\"custom\",\"custom_url\":\""
                + mock.baseUrl() + "\",\"model\":\"gpt-4-0613\"}" + fields + "}");
        return summarizer.summarize("default-user", SummaryOptions.parse(body, name -> Optional.empty(),
                summarizer::knowsSource));
    }

    @Test
    void aConversationThatFitsTakesOneRequest() throws Exception {
        JsonNode answer = summarize(ChatSummaryHttpTest.MESSAGES, ",\"max_tokens\":100,\"context_size\":2000");
        assertEquals(false, answer.path("fallback").asBoolean());
        assertTrue(models.isEmpty());
        assertEquals(1, mock.calls().size());
    }

    @Test
    void aConversationTooLongForTheContextIsSummarizedPartByPartThenMerged() throws Exception {
        List<String> messages = new ArrayList<>(ChatSummaryHttpTest.MESSAGES);
        messages.set(1, messages.get(1).replace("\"extra\":{\"isSmallSys\":false}",
                "\"extra\":{\"memory\":\"Wren arrived.\"}"));
        JsonNode answer = summarize(messages, ",\"max_tokens\":100,\"context_size\":250");
        assertEquals(true, answer.path("fallback").asBoolean(), answer.toString());
        assertEquals(List.of("Bramble: Room four, up the stairs.\n\nWren: I pay five gold écus.\nAnd a tip.\n\n"
                + "Bramble: Thank you kindly."), texts, "the messages after the summary so far");
        SummaryModel model = models.get(0);
        String frame = SummaryPrompt.instruction(null, false) + "\n\n" + SummaryPrompt.content(null, "");
        assertEquals(250 - 100 - model.countTokens(frame) - BackendSummaryModel.PADDING, model.inputWindow());
        assertTrue(model.inputWindow() > 0 && model.countTokens(texts.get(0)) > model.inputWindow());
        assertEquals(1, mock.calls().size(), "one request: the merge");
        assertEquals("Summary so far:\nWren arrived.\n\nWhat happened next:\nThe parts, summarized.",
                mock.lastCall().json().at("/messages/1/content").asText());
        assertEquals(100, mock.lastCall().json().path("max_tokens").asInt());
    }

    @Test
    void theModelsOwnOutputLimitWinsOverALargerConfiguredOne() throws Exception {
        summarize(ChatSummaryHttpTest.MESSAGES, ",\"max_tokens\":100000,\"context_size\":200000");
        assertEquals(8192, mock.lastCall().json().path("max_tokens").asInt(), "gpt-4 writes at most 8192 tokens");
    }
}
