package tankard.backend.novelai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.backend.common.JsonFields;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The body ST sends to NovelAI's {@code /ai/generate} for the frontend's settings (src/endpoints/novelai.js, the
 * {@code /generate} route): the sampler fields under {@code parameters}, plus the model's banned token sequences,
 * token biases and repetition-penalty whitelist that ST adds for HypeBot, Clio/Kayra and Erato (getBadWordsList,
 * getLogitBiasList, getRepPenaltyWhitelist).
 */
final class NovelAiSettings {
    /** The frontend's fields that go under {@code parameters} before ST's whitelist. */
    private static final String[] BEFORE_WHITELIST = {"temperature", "max_length", "min_length",
            "tail_free_sampling", "repetition_penalty", "repetition_penalty_range", "repetition_penalty_slope",
            "repetition_penalty_frequency", "repetition_penalty_presence"};
    private static final String[] BEFORE_BAD_WORDS = {"top_a", "top_p", "top_k", "typical_p", "mirostat_lr",
            "mirostat_tau", "phrase_rep_pen", "stop_sequences"};
    private static final String[] AFTER_BIASES = {"generate_until_sentence", "use_cache", "return_full_text",
            "prefix", "order", "num_logprobs", "min_p", "math1_temp", "math1_quad", "math1_quad_entropy_scale"};

    /** Clio and Kayra: brackets and the like banned. */
    private static final int[][] CLIO_BAD_WORDS = {{3}, {49356}, {1431}, {31715}, {34387}, {20765}, {30702},
            {10691}, {49333}, {1266}, {19438}, {43145}, {26523}, {41471}, {2936}, {85, 85}, {49332}, {7286}, {1115},
            {24}};
    private static final int[][] ERATO_BAD_WORDS = {{16067}, {933, 11144}, {25106, 11144},
            {58, 106901, 16073, 33710, 25, 109933}, {933, 58, 11144}, {128030},
            {58, 30591, 33503, 17663, 100204, 25, 11144}};
    private static final int[][] HYPEBOT_BAD_WORDS = hypeBotBadWords();
    private static final int[] CLIO_WHITELIST = {49256, 49264, 49231, 49230, 49287, 85, 49255, 49399, 49262, 336,
            333, 432, 363, 468, 492, 745, 401, 426, 623, 794, 1096, 2919, 2072, 7379, 1259, 2110, 620, 526, 487, 16562,
            603, 805, 761, 2681, 942, 8917, 653, 3513, 506, 5301, 562, 5010, 614, 10942, 539, 2976, 462, 5189, 567,
            2032, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 588, 803, 1040, 49209, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    private static final int[] ERATO_WHITELIST = {6, 1, 11, 13, 25, 198, 12, 9, 8, 279, 264, 459, 323, 477, 539, 912,
            374, 574, 1051, 1550, 1587, 4536, 5828, 15058, 3287, 3250, 1461, 1077, 813, 11074, 872, 1202, 1436, 7846,
            1288, 13434, 1053, 8434, 617, 9167, 1047, 19117, 706, 12775, 649, 4250, 527, 7784, 690, 2834, 15, 16, 17,
            18, 19, 20, 21, 22, 23, 24, 1210, 1359, 608, 220, 596, 956, 3077, 44886, 4265, 3358, 2351, 2846, 311, 389,
            315, 304, 520, 505, 430};
    /** Dinkus and asterism made less likely. */
    private static final int[] CLIO_BIASED = {23, 21};
    private static final int[] ERATO_BIASED = {12488, 128041};

    private NovelAiSettings() {
    }

    private static int[][] hypeBotBadWords() {
        int[] single = {58, 60, 90, 92, 685, 1391, 1782, 2361, 3693, 4083, 4357, 4895, 5512, 5974, 7131, 8183, 8351,
                8762, 8964, 8973, 9063, 11208, 11709, 11907, 11919, 12878, 12962, 13018, 13412, 14631, 14692, 14980,
                15090, 15437, 16151, 16410, 16589, 17241, 17414, 17635, 17816, 17912, 18083, 18161, 18477, 19629,
                19779, 19953, 20520, 20598, 20662, 20740, 21476, 21737, 22133, 22241, 22345, 22935, 23330, 23785,
                23834, 23884, 25295, 25597, 25719, 25787, 25915, 26076, 26358, 26398, 26894, 26933, 27007, 27422,
                28013, 29164, 29225, 29342, 29565, 29795, 30072, 30109, 30138, 30866, 31161, 31478, 32092, 32239,
                32509, 33116, 33250, 33761, 34171, 34758, 34949, 35944, 36338, 36463, 36563, 36786, 36796, 36937,
                37250, 37913, 37981, 38165, 38362, 38381, 38430, 38892, 39850, 39893, 41832, 41888, 42535, 42669,
                42785, 42924, 43839, 44438, 44587, 44926, 45144, 45297, 46110, 46570, 46581, 46956, 47175, 47182,
                47527, 47715, 48600, 48683, 48688, 48874, 48999, 49074, 49082, 49146, 49946, 10221, 4841, 1427};
        int[] tail = {29343, 37405, 35780, 2602, 50256};
        List<int[]> list = new ArrayList<>();
        IntStream.of(single).forEach(token -> list.add(new int[] {token}));
        list.add(new int[] {2602, 834});
        IntStream.of(tail).forEach(token -> list.add(new int[] {token}));
        return list.toArray(int[][]::new);
    }

    /** Whether the model is Clio or Kayra, whose lists ST checks after HypeBot's and before Erato's. */
    private static boolean clioOrKayra(String model) {
        return model.contains("clio") || model.contains("kayra");
    }

    /** The upstream body for the frontend's generate body; {@code model} is its (required) model name. */
    static ObjectNode body(JsonNode request, String model) {
        ObjectNode body = JsonFields.copy(request, JsJson.object(), "input", "model");
        ObjectNode parameters = body.putObject("parameters");
        JsonNode useString = request.get("use_string");
        parameters.set("use_string", useString == null || useString.isNull() ? JsJson.tree(true) : useString);
        JsonFields.copy(request, parameters, BEFORE_WHITELIST);
        parameters.set("repetition_penalty_whitelist", whitelist(model));
        JsonFields.copy(request, parameters, BEFORE_BAD_WORDS);
        ArrayNode badWords = badWords(model, request.get("bad_words_ids"));
        parameters.set("bad_words_ids", badWords.isEmpty() ? JsJson.tree(null) : badWords);
        parameters.set("logit_bias_exp", biases(model, request.get("logit_bias_exp")));
        JsonFields.copy(request, parameters, AFTER_BIASES);
        // text adventures stop at the '>' of the next command
        if ("theme_textadventure".equals(Js.string(request.get("prefix")))) {
            if (clioOrKayra(model)) {
                parameters.put("eos_token_id", 49405);
            }
            if (model.contains("erato")) {
                parameters.put("eos_token_id", 29);
            }
        }
        return body;
    }

    private static JsonNode whitelist(String model) {
        int[] tokens = clioOrKayra(model) ? CLIO_WHITELIST : model.contains("erato") ? ERATO_WHITELIST : null;
        return tokens == null ? JsJson.tree(null) : JsJson.tree(tokens);
    }

    /** The model's banned sequences and the request's integer arrays, empty ones dropped as ST drops them. */
    private static ArrayNode badWords(String model, JsonNode requested) {
        int[][] defaults = new int[0][];
        if (model.contains("hypebot")) {
            defaults = HYPEBOT_BAD_WORDS;
        }
        if (clioOrKayra(model)) {
            defaults = CLIO_BAD_WORDS;
        }
        if (model.contains("erato")) {
            defaults = ERATO_BAD_WORDS;
        }
        List<JsonNode> list = new ArrayList<>();
        for (int[] sequence : defaults) {
            list.add(JsJson.tree(sequence));
        }
        if (requested != null && requested.isArray()) {
            for (JsonNode sequence : requested) {
                if (sequence.isArray() && allIntegers(sequence)) {
                    list.add(sequence);
                }
            }
        }
        // Quirk kept: ST splices while iterating, so an empty array right after a removed one stays
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).isEmpty()) {
                list.remove(i);
            }
        }
        return JsJson.array().addAll(list);
    }

    private static boolean allIntegers(JsonNode sequence) {
        for (JsonNode token : sequence) {
            if (!token.isNumber() || token.doubleValue() != Math.rint(token.doubleValue())
                    || Double.isInfinite(token.doubleValue())) {
                return false;
            }
        }
        return true;
    }

    /** The model's default token biases, then the request's. */
    private static ArrayNode biases(String model, JsonNode requested) {
        int[] biased = new int[0];
        if (model.contains("erato")) {
            biased = ERATO_BIASED;
        }
        if (clioOrKayra(model)) {
            biased = CLIO_BIASED;
        }
        ArrayNode list = JsJson.array();
        for (int token : biased) {
            list.addObject().<ObjectNode>set("sequence", JsJson.array().add(token))
                    .put("bias", -0.08).put("ensure_sequence_finish", false).put("generate_once", false);
        }
        if (requested != null && requested.isArray()) {
            list.addAll((ArrayNode) requested);
        }
        return list;
    }
}
