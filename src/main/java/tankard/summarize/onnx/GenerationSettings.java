package tankard.summarize.onnx;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;

import java.util.List;

/**
 * How a seq2seq model generates, with Hugging Face's names and meanings. Lengths count the decoder start token,
 * as Transformers counts them for encoder-decoder models.
 *
 * @param earlyStopping Transformers' {@code early_stopping}: {@code true} (stop once {@code numBeams} hypotheses
 *                      are done), {@code false} (stop when no open beam can beat the worst done one, judged at the
 *                      current length) or {@code "never"} (judged at the longest possible length)
 * @param forcedBosTokenId the token forced first, or -1 for none
 * @param forcedEosTokenId the token forced at {@code maxLength - 1}, or -1 for none
 * @param badWordsIds  token sequences never to produce (a single token is banned everywhere; a longer one only
 *                     as its last token after the others)
 * @param forcedDecoderIds the token forced when the sequence has this many tokens (Transformers'
 *                     {@code forced_decoder_ids}, as an array by position), -1 for none; empty for none at all
 */
public record GenerationSettings(int numBeams, int minLength, int maxLength, double lengthPenalty,
                                 int noRepeatNgramSize, String earlyStopping, int forcedBosTokenId,
                                 int forcedEosTokenId, int decoderStartTokenId, int eosTokenId,
                                 List<int[]> badWordsIds, int[] forcedDecoderIds) {

    /**
     * The settings a Transformers summarization pipeline uses: {@code config.json}, overridden by
     * {@code generation_config.json}, overridden by {@code config.json}'s {@code task_specific_params.summarization}
     * (the pipeline applies those last); Transformers' defaults for what none of them sets.
     */
    public static GenerationSettings read(JsonNode config, JsonNode generationConfig) {
        ObjectNode merged = JsJson.object();
        config.fields().forEachRemaining(field -> merged.set(field.getKey(), field.getValue()));
        generationConfig.fields().forEachRemaining(field -> merged.set(field.getKey(), field.getValue()));
        config.path("task_specific_params").path("summarization").fields()
                .forEachRemaining(field -> merged.set(field.getKey(), field.getValue()));
        JsonNode eosIds = merged.path("eos_token_id");
        int eos = (eosIds.isArray() ? eosIds.path(0) : eosIds).asInt(2);
        JsonNode early = merged.path("early_stopping");
        return new GenerationSettings(
                Math.max(1, merged.path("num_beams").asInt(1)),
                merged.path("min_length").asInt(0),
                merged.path("max_length").asInt(20),
                merged.path("length_penalty").asDouble(1.0),
                merged.path("no_repeat_ngram_size").asInt(0),
                early.isTextual() ? early.asText() : String.valueOf(early.asBoolean(false)),
                tokenOrNone(merged.path("forced_bos_token_id")),
                tokenOrNone(merged.path("forced_eos_token_id")),
                merged.path("decoder_start_token_id").asInt(eos),
                eos,
                List.of(), new int[0]);
    }

    private static int tokenOrNone(JsonNode id) {
        return id.isIntegralNumber() ? id.asInt() : -1;
    }

    public GenerationSettings withBadWords(List<int[]> ids) {
        return new GenerationSettings(numBeams, minLength, maxLength, lengthPenalty, noRepeatNgramSize,
                earlyStopping, forcedBosTokenId, forcedEosTokenId, decoderStartTokenId, eosTokenId, List.copyOf(ids),
                forcedDecoderIds);
    }

    /** These settings with {@code forced[i]} forced when the sequence has {@code i} tokens (-1: none). */
    public GenerationSettings withForcedDecoderIds(int[] forced) {
        return new GenerationSettings(numBeams, minLength, maxLength, lengthPenalty, noRepeatNgramSize,
                earlyStopping, forcedBosTokenId, forcedEosTokenId, decoderStartTokenId, eosTokenId, badWordsIds,
                forced.clone());
    }
}
