package tankard.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import tankard.json.JsJson;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Teaches a {@link MockCompletionServer} the protocols of ST's text-completion backends: OpenAI's
 * {@code /v1/completions} (also under Mancer's {@code /oai} and DreamGen's {@code /api/openai}), llama.cpp's
 * {@code /completion}, Ollama's NDJSON {@code /api/generate}, and each one's model list, model info, props,
 * slots, pull, download and abort routes, and each one's tokenize API. Completions answer "Text reply N." (N
 * counts them), streamed in two pieces when asked; tokenizers give one token per word ({@link #tokenIds}).
 */
public final class TextCompletionProtocols {
    public static final String OOBA_MODEL = "mock-ooba-model";
    public static final String TABBY_MODEL = "mock-tabby-model";
    public static final String OLLAMA_MODEL = "mock-llama:latest";
    /** llama.cpp's props template, with the NUL its bug puts in place of the last newline. */
    public static final String TEMPLATE = "{{ messages }}\u0000";

    private final AtomicInteger replies = new AtomicInteger();
    private final MockCompletionServer mock;

    private TextCompletionProtocols(MockCompletionServer mock) {
        this.mock = mock;
    }

    public static void install(MockCompletionServer mock) {
        TextCompletionProtocols protocols = new TextCompletionProtocols(mock);
        String openAiList = "{\"object\":\"list\",\"data\":[{\"id\":\"" + MockCompletionServer.MODEL + "\",\"object\":\"model\"}]}";
        for (String prefix : new String[] {"", "/oai", "/api/openai"}) {
            mock.route(prefix + "/v1/completions", protocols::openAiCompletion);
            mock.route(prefix + "/v1/models", request -> json(request, openAiList));
        }
        mock.route("/v1/model/list", request -> json(request, openAiList));
        mock.route("/v1/model", request -> json(request, "{\"id\":\"" + TABBY_MODEL + "\",\"object\":\"model\"}"));
        mock.route("/v1/internal/model/info", request -> json(request, "{\"model_name\":\"" + OOBA_MODEL + "\",\"lora_names\":[]}"));
        mock.route("/api/models", request -> json(request, "[{\"name\":\"together/model\",\"type\":\"language\"}]"));
        mock.route("/api/tags", request -> json(request, "{\"models\":[{\"name\":\"" + OLLAMA_MODEL + "\",\"size\":7}]}"));
        mock.route("/info", request -> json(request, "{\"model_id\":\"tgi-model\"}"));
        mock.route("/completion", protocols::llamaCppCompletion);
        mock.route("/api/generate", protocols::ollamaGenerate);
        mock.route("/props", request -> json(request, "{\"chat_template\":" + JsJson.compact(JsJson.tree(TEMPLATE))
                + ",\"default_generation_settings\":{\"n_ctx\":4096},\"total_slots\":1}"));
        mock.route("/slots", request -> json(request, "[{\"id\":0,\"is_processing\":false}]"));
        mock.route("/slots/0", request -> json(request, "{\"id_slot\":0,\"n_saved\":12}"));
        mock.route("/api/pull", request -> json(request, "{\"status\":\"success\"}"));
        mock.route("/api/extra/abort", request -> json(request, "{\"success\":\"true\"}"));
        mock.route("/v1/auth/permission", request -> json(request, "{\"permission\":\"admin\"}"));
        mock.route("/v1/download", request -> json(request, "{\"download_path\":\"models/x\"}"));
        installTokenizers(mock);
    }

    /** The mock tokenizer: one token per space-separated word, its id 100 + the word's length. */
    public static int[] tokenIds(String text) {
        return Arrays.stream(text.split(" ")).filter(word -> !word.isEmpty()).mapToInt(word -> 100 + word.length())
                .toArray();
    }

    /** Each backend's tokenize endpoint, answering in its own shape; a body without its text field is a 400. */
    private static void installTokenizers(MockCompletionServer mock) {
        // text-generation-webui and TabbyAPI
        String tokensAndLength = "{\"tokens\":%1$s,\"length\":%2$d}";
        mock.route("/v1/internal/encode", request -> tokenize(mock, request, "text", tokensAndLength));
        mock.route("/v1/token/encode", request -> tokenize(mock, request, "text", tokensAndLength));
        // KoboldCpp (also KoboldAI's count) and Aphrodite
        String valueAndIds = "{\"value\":%2$d,\"ids\":%1$s}";
        mock.route("/api/extra/tokencount", request -> tokenize(mock, request, "prompt", valueAndIds));
        mock.route("/v1/tokenize", request -> tokenize(mock, request, "prompt", valueAndIds));
        // llama.cpp tokenizes "content", vLLM "prompt"
        mock.route("/tokenize", request -> {
            if (mock.lastCall().json().has("content")) {
                tokenize(mock, request, "content", "{\"tokens\":%1$s}");
            } else {
                tokenize(mock, request, "prompt", "{\"count\":%2$d,\"max_model_len\":4096,\"tokens\":%1$s}");
            }
        });
    }

    private static void tokenize(MockCompletionServer mock, HttpServerRequest request, String field, String shape) {
        JsonNode text = mock.lastCall().json().get(field);
        if (text == null || !text.isTextual()) {
            request.response().setStatusCode(400).end("{\"error\":\"no " + field + "\"}");
            return;
        }
        int[] ids = tokenIds(text.textValue());
        json(request, String.format(shape, Arrays.toString(ids).replace(" ", ""), ids.length));
    }

    public static String completionEvent(String text) {
        return "data: {\"id\":\"cmpl\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":"
                + JsJson.compact(JsJson.tree(text)) + ",\"finish_reason\":null}]}\n\n";
    }

    public static String llamaCppEvent(String text, boolean stop) {
        return "data: {\"content\":" + JsJson.compact(JsJson.tree(text)) + ",\"stop\":" + stop + "}\n\n";
    }

    public static String ollamaLine(String text, boolean done) {
        return "{\"model\":\"" + OLLAMA_MODEL + "\",\"response\":" + JsJson.compact(JsJson.tree(text))
                + ",\"done\":" + done + "}\n";
    }

    public static String replyText(int n) {
        return "Text reply " + n + ".";
    }

    private void openAiCompletion(HttpServerRequest request) {
        answer(request, TextCompletionProtocols::completionEvent, "data: [DONE]\n\n",
                text -> "{\"id\":\"cmpl\",\"object\":\"text_completion\",\"model\":\"" + MockCompletionServer.MODEL
                        + "\",\"choices\":[{\"index\":0,\"text\":" + JsJson.compact(JsJson.tree(text))
                        + ",\"finish_reason\":\"stop\"}]}");
    }

    private void llamaCppCompletion(HttpServerRequest request) {
        answer(request, text -> llamaCppEvent(text, false), llamaCppEvent("", true),
                text -> "{\"content\":" + JsJson.compact(JsJson.tree(text)) + ",\"stop\":true,\"tokens_predicted\":4}");
    }

    private void ollamaGenerate(HttpServerRequest request) {
        answer(request, text -> ollamaLine(text, false), ollamaLine("", true),
                text -> ollamaLine(text, true).trim());
    }

    /** The reply whole, or as two pieces and the protocol's last line, each written separately. */
    private void answer(HttpServerRequest request, Function<String, String> piece, String last,
                        Function<String, String> whole) {
        String text = replyText(replies.incrementAndGet());
        HttpServerResponse response = request.response();
        if (mock.lastCall().json().path("stream").asBoolean()) {
            int half = text.length() / 2;
            response.setChunked(true);
            response.write(piece.apply(text.substring(0, half)));
            response.write(piece.apply(text.substring(half)));
            response.end(last);
        } else {
            response.putHeader("Content-Type", "application/json").end(whole.apply(text));
        }
    }

    private static void json(HttpServerRequest request, String body) {
        request.response().putHeader("Content-Type", "application/json").end(body);
    }
}
