package tankard.secrets;

import java.util.List;

/**
 * The names under which {@code secrets.json} keeps each source's keys, as ST's {@code SECRET_KEYS}
 * (src/endpoints/secrets.js). Backends look a key up with {@link SecretStore#read(String, String)},
 * e.g. {@code secrets.read(request.user().handle(), SecretKeys.OPENAI)}: the active value, or "" when there is none.
 */
public final class SecretKeys {
    /** Not a secret: marks a file already migrated from the legacy flat format. */
    public static final String MIGRATED = "_migrated";
    public static final String HORDE = "api_key_horde";
    public static final String MANCER = "api_key_mancer";
    public static final String VLLM = "api_key_vllm";
    public static final String APHRODITE = "api_key_aphrodite";
    public static final String TABBY = "api_key_tabby";
    public static final String OPENAI = "api_key_openai";
    public static final String NOVEL = "api_key_novel";
    public static final String CLAUDE = "api_key_claude";
    public static final String DEEPL = "deepl";
    public static final String LIBRE = "libre";
    public static final String LIBRE_URL = "libre_url";
    public static final String LINGVA_URL = "lingva_url";
    public static final String OPENROUTER = "api_key_openrouter";
    public static final String AI21 = "api_key_ai21";
    public static final String ONERING_URL = "oneringtranslator_url";
    public static final String DEEPLX_URL = "deeplx_url";
    public static final String MAKERSUITE = "api_key_makersuite";
    public static final String VERTEXAI = "api_key_vertexai";
    public static final String SERPAPI = "api_key_serpapi";
    public static final String TOGETHERAI = "api_key_togetherai";
    public static final String MISTRALAI = "api_key_mistralai";
    public static final String CUSTOM = "api_key_custom";
    public static final String OOBA = "api_key_ooba";
    public static final String INFERMATICAI = "api_key_infermaticai";
    public static final String DREAMGEN = "api_key_dreamgen";
    public static final String NOMICAI = "api_key_nomicai";
    public static final String KOBOLDCPP = "api_key_koboldcpp";
    public static final String LLAMACPP = "api_key_llamacpp";
    public static final String COHERE = "api_key_cohere";
    public static final String PERPLEXITY = "api_key_perplexity";
    public static final String GROQ = "api_key_groq";
    public static final String AZURE_TTS = "api_key_azure_tts";
    public static final String FEATHERLESS = "api_key_featherless";
    public static final String HUGGINGFACE = "api_key_huggingface";
    public static final String STABILITY = "api_key_stability";
    public static final String CUSTOM_OPENAI_TTS = "api_key_custom_openai_tts";
    public static final String TAVILY = "api_key_tavily";
    public static final String CHUTES = "api_key_chutes";
    public static final String ELECTRONHUB = "api_key_electronhub";
    public static final String NANOGPT = "api_key_nanogpt";
    public static final String BFL = "api_key_bfl";
    public static final String COMFY_RUNPOD = "api_key_comfy_runpod";
    public static final String FALAI = "api_key_falai";
    public static final String GENERIC = "api_key_generic";
    public static final String DEEPSEEK = "api_key_deepseek";
    public static final String SERPER = "api_key_serper";
    public static final String AIMLAPI = "api_key_aimlapi";
    public static final String XAI = "api_key_xai";
    public static final String FIREWORKS = "api_key_fireworks";
    public static final String VERTEXAI_SERVICE_ACCOUNT = "vertexai_service_account_json";
    public static final String MINIMAX = "api_key_minimax";
    public static final String MINIMAX_GROUP_ID = "minimax_group_id";
    public static final String MOONSHOT = "api_key_moonshot";
    public static final String COMETAPI = "api_key_cometapi";
    public static final String AZURE_OPENAI = "api_key_azure_openai";
    public static final String ZAI = "api_key_zai";
    public static final String SILICONFLOW = "api_key_siliconflow";
    public static final String ELEVENLABS = "api_key_elevenlabs";
    public static final String POLLINATIONS = "api_key_pollinations";
    public static final String VOLCENGINE_APP_ID = "volcengine_app_id";
    public static final String VOLCENGINE_ACCESS_KEY = "volcengine_access_key";
    public static final String WORKERS_AI = "api_key_workers_ai";

    /** Every key the frontend knows, in ST's order: the state map lists all of them. */
    public static final List<String> ALL = List.of(HORDE, MANCER, VLLM, APHRODITE, TABBY, OPENAI,
            NOVEL, CLAUDE, DEEPL, LIBRE, LIBRE_URL, LINGVA_URL,
            OPENROUTER, AI21, ONERING_URL, DEEPLX_URL, MAKERSUITE, VERTEXAI,
            SERPAPI, TOGETHERAI, MISTRALAI, CUSTOM, OOBA, INFERMATICAI,
            DREAMGEN, NOMICAI, KOBOLDCPP, LLAMACPP, COHERE, PERPLEXITY,
            GROQ, AZURE_TTS, FEATHERLESS, HUGGINGFACE, STABILITY, CUSTOM_OPENAI_TTS,
            TAVILY, CHUTES, ELECTRONHUB, NANOGPT, BFL, COMFY_RUNPOD,
            FALAI, GENERIC, DEEPSEEK, SERPER, AIMLAPI, XAI,
            FIREWORKS, VERTEXAI_SERVICE_ACCOUNT, MINIMAX, MINIMAX_GROUP_ID, MOONSHOT, COMETAPI,
            AZURE_OPENAI, ZAI, SILICONFLOW, ELEVENLABS, POLLINATIONS, VOLCENGINE_APP_ID,
            VOLCENGINE_ACCESS_KEY, WORKERS_AI);

    /** Keys whose values are not secret (service URLs): shown and readable even without key exposure. */
    public static final List<String> EXPORTABLE = List.of(LIBRE_URL, LINGVA_URL, ONERING_URL, DEEPLX_URL);

    private SecretKeys() {
    }
}
