package tankard.backend.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.config.TankardConfig;
import tankard.json.JsJson;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Every {@code api_type} of the Text Completion API, keyed by it (ST's TEXTGEN_TYPES in src/constants.js). */
final class TextCompletionApis {
    private static final String MODELS = "/v1/models";
    private static final String COMPLETIONS = "/v1/completions";
    /** vLLM's completion parameters; Featherless keeps the same. */
    private static final Set<String> VLLM_FIELDS = Set.of("model", "prompt", "best_of", "echo",
            "frequency_penalty", "logit_bias", "logprobs", "max_tokens", "n", "presence_penalty", "seed", "stop",
            "stream", "suffix", "temperature", "top_p", "user", "use_beam_search", "top_k", "min_p",
            "repetition_penalty", "length_penalty", "early_stopping", "stop_token_ids", "ignore_eos", "min_tokens",
            "skip_special_tokens", "spaces_between_special_tokens", "truncate_prompt_tokens",
            "include_stop_str_in_output", "response_format", "guided_json", "guided_regex", "guided_choice",
            "guided_grammar", "guided_decoding_backend", "guided_whitespace_pattern");
    private static final Set<String> TOGETHERAI_FIELDS = Set.of("model", "prompt", "max_tokens", "temperature",
            "top_p", "top_k", "repetition_penalty", "min_p", "presence_penalty", "frequency_penalty", "stream", "stop");
    private static final Set<String> INFERMATICAI_FIELDS = Set.of("model", "prompt", "max_tokens", "temperature",
            "top_p", "top_k", "repetition_penalty", "stream", "stop", "presence_penalty", "frequency_penalty", "min_p",
            "seed", "ignore_eos", "n", "best_of", "min_tokens", "spaces_between_special_tokens",
            "skip_special_tokens", "logprobs");
    /** OpenAI's legacy completion parameters, all the generic type sends. */
    private static final Set<String> OPENAI_FIELDS = Set.of("model", "prompt", "stream", "temperature", "top_p",
            "frequency_penalty", "presence_penalty", "stop", "seed", "logit_bias", "logprobs", "max_tokens", "n",
            "best_of");
    /** OpenAI allows at most four stop strings. */
    private static final int OPENAI_MAX_STOP = 4;

    private TextCompletionApis() {
    }

    static Map<String, TextCompletionApi> all(TankardConfig.Backends settings) {
        List<TextCompletionApi> apis = List.of(
                new OobaApi(),
                new TextCompletionApi("mancer", AuthHeaders.API_KEY_AND_BEARER, "/oai/v1/models",
                        "/oai/v1/completions", null),
                new TextCompletionApi("vllm", AuthHeaders.BEARER, MODELS, COMPLETIONS, VLLM_FIELDS),
                new TextCompletionApi("aphrodite", AuthHeaders.API_KEY_AND_BEARER, MODELS, COMPLETIONS, null),
                new TabbyApi(),
                new KoboldCppApi(),
                new TogetherAiApi(),
                new TextCompletionApi("llamacpp", AuthHeaders.BEARER, MODELS, "/completion", null),
                new OllamaApi(settings.ollamaKeepAlive(), settings.ollamaBatchSize()),
                new InfermaticAiApi(INFERMATICAI_FIELDS),
                new TextCompletionApi("dreamgen", AuthHeaders.BEARER, "/api/openai/v1/models",
                        "/api/openai/v1/completions", null),
                new OpenRouterTextApi(),
                new TextCompletionApi("featherless", AuthHeaders.REFERER_AND_BEARER, MODELS, COMPLETIONS, VLLM_FIELDS),
                new HuggingFaceApi(),
                new GenericApi());
        return apis.stream().collect(Collectors.toUnmodifiableMap(TextCompletionApi::type, Function.identity()));
    }

    /** TogetherAI lists its models as a bare array of objects named by {@code name}. */
    private static final class TogetherAiApi extends TextCompletionApi {
        TogetherAiApi() {
            super("togetherai", AuthHeaders.BEARER, "/api/models?&info", COMPLETIONS, TOGETHERAI_FIELDS);
        }

        @Override
        JsonNode models(JsonNode answer) {
            return answer.isArray() ? OllamaApi.withIds((ArrayNode) answer) : answer;
        }
    }

    /** Hugging Face's text-generation-inference: {@code /info} only proves the server is up. */
    private static final class HuggingFaceApi extends TextCompletionApi {
        HuggingFaceApi() {
            super("huggingface", AuthHeaders.BEARER, "/info", COMPLETIONS, null);
        }

        @Override
        JsonNode models(JsonNode answer) {
            return JsJson.object().set("data", JsJson.array());
        }
    }

    /** Any OpenAI-compatible completions server: OpenAI's parameters only, at most four stop strings. */
    private static final class GenericApi extends TextCompletionApi {
        GenericApi() {
            super("generic", AuthHeaders.BEARER, MODELS, COMPLETIONS, OPENAI_FIELDS);
        }

        @Override
        ObjectNode requestBody(ObjectNode body) {
            ObjectNode out = super.requestBody(body);
            JsonNode stop = out.get("stop");
            if (stop != null && stop.isArray() && stop.size() > OPENAI_MAX_STOP) {
                ArrayNode first = JsJson.array();
                for (int i = 0; i < OPENAI_MAX_STOP; i++) {
                    first.add(stop.get(i));
                }
                out.set("stop", first);
            }
            return out;
        }
    }
}
