// The samplers beyond temperature and top P, for the settings page's "More samplers" group (settings.js): those
// ST 1.18's frontend shows for the connection in use, with its sliders' ranges and the settings keys it keeps them
// under. Chat completion: public/index.html's #range_block_openai, each block shown for the sources its
// data-source names (openai.js toggleChatCompletionForms). Text completion: #textgenerationwebui_api-settings, each
// block shown for the types its data-tg-type names, or all but those with data-tg-type-mode="except"
// (textgen-settings.js showTypeSpecificControls). The server's engine sends them as ST's createGenerationParameters
// and getTextGenGenerationData do.

// ST's seed and multiple-swipes fields have no maximum
const NO_MAX = Number.MAX_SAFE_INTEGER;

/** [key, label, min, max, step, ST's default (openai.js default_settings), the sources ST shows it for]. */
const CHAT = [
  ['freq_pen_openai', 'Frequency penalty', -2, 2, 0.01, 0, 'openai,aimlapi,openrouter,custom,cohere,perplexity,groq,siliconflow,mistralai,electronhub,nanogpt,deepseek,xai,pollinations,moonshot,fireworks,cometapi,azure_openai,chutes,workers_ai'],
  ['pres_pen_openai', 'Presence penalty', -2, 2, 0.01, 0, 'openai,aimlapi,openrouter,custom,cohere,perplexity,groq,siliconflow,mistralai,electronhub,nanogpt,deepseek,xai,pollinations,moonshot,fireworks,cometapi,azure_openai,chutes,workers_ai'],
  ['top_k_openai', 'Top K', 0, 500, 1, 0, 'claude,aimlapi,openrouter,makersuite,vertexai,cohere,perplexity,electronhub,chutes,nanogpt,workers_ai'],
  ['repetition_penalty_openai', 'Repetition penalty', 1, 2, 0.01, 1, 'openrouter,nanogpt,chutes,workers_ai'],
  ['min_p_openai', 'Min P', 0, 1, 0.001, 0, 'openrouter,nanogpt,chutes'],
  ['top_a_openai', 'Top A', 0, 1, 0.001, 0, 'openrouter,nanogpt'],
  ['seed', 'Seed (-1: random)', -1, 2147483647, 1, -1, 'openai,openrouter,mistralai,custom,cohere,groq,electronhub,chutes,nanogpt,xai,pollinations,aimlapi,makersuite,vertexai,azure_openai,workers_ai'],
];

/**
 * [key, label, min, max, step, ST's default (textgen-settings.js settings), the types ST shows it for ('!' in front:
 * all but those)]; a boolean default makes a checkbox.
 */
const TEXT = [
  ['n', 'Multiple swipes per generation', 1, NO_MAX, 1, 1, 'mancer,vllm,aphrodite,tabby,infermaticai,llamacpp'],
  ['top_k', 'Top K', -1, 500, 1, 40, '!generic'],
  ['typical_p', 'Typical P', 0, 1, 0.01, 1, '!generic'],
  ['min_p', 'Min P', 0, 1, 0.001, 0, '!generic'],
  ['top_a', 'Top A', 0, 1, 0.01, 0, '!generic,llamacpp'],
  ['tfs', 'TFS', 0, 1, 0.001, 1, '!generic,llamacpp'],
  ['epsilon_cutoff', 'Epsilon cutoff', 0, 9, 0.01, 0, 'ooba,mancer,aphrodite'],
  ['eta_cutoff', 'Eta cutoff', 0, 20, 0.01, 0, 'ooba,mancer,aphrodite'],
  ['nsigma', 'Top nsigma', 0, 5, 0.01, 0, 'ooba,aphrodite,koboldcpp,llamacpp'],
  ['min_keep', 'Min keep', 0, 50, 1, 0, 'llamacpp'],
  ['rep_pen', 'Repetition penalty', 1, 3, 0.01, 1.2, '!generic'],
  ['rep_pen_range', 'Repetition penalty range', -1, 8192, 1, 0, 'ooba,koboldcpp,tabby,ollama,llamacpp'],
  ['rep_pen_slope', 'Repetition penalty slope', 0, 10, 0.01, 1, 'koboldcpp'],
  ['rep_pen_decay', 'Repetition penalty decay', -1, 8192, 1, 0, 'tabby'],
  ['encoder_rep_pen', 'Encoder penalty', 0.8, 1.5, 0.01, 1, 'ooba'],
  ['freq_pen', 'Frequency penalty', -2, 2, 0.01, 0, ''],
  ['presence_pen', 'Presence penalty', -2, 2, 0.01, 0, ''],
  ['no_repeat_ngram_size', 'No repeat ngram size', 0, 20, 1, 0, 'aphrodite,ooba'],
  ['skew', 'Skew', -5, 5, 0.01, 0, 'tabby,aphrodite'],
  ['min_length', 'Min length', 0, 2000, 1, 0, 'mancer,ooba,tabby,dreamgen,infermaticai,aphrodite'],
  ['max_tokens_second', 'Maximum tokens/second', 0, 20, 1, 0, 'ooba'],
  ['adaptive_target', 'Adaptive-P target', -0.01, 1, 0.01, -0.01, 'koboldcpp,llamacpp,ooba,tabby'],
  ['adaptive_decay', 'Adaptive-P decay', 0, 0.99, 0.01, 0.9, 'koboldcpp,llamacpp,ooba,tabby'],
  ['smoothing_factor', 'Smoothing factor', 0, 10, 0.01, 0, 'mancer,ooba,koboldcpp,aphrodite,tabby'],
  ['smoothing_curve', 'Smoothing curve', 1, 10, 0.01, 1, 'mancer,ooba,koboldcpp,aphrodite'],
  ['xtc_threshold', 'XTC threshold', 0, 0.5, 0.01, 0.1, 'koboldcpp,aphrodite,mancer,tabby,ooba,llamacpp'],
  ['xtc_probability', 'XTC probability', 0, 1, 0.01, 0, 'koboldcpp,aphrodite,mancer,tabby,ooba,llamacpp'],
  ['dry_multiplier', 'DRY multiplier', 0, 5, 0.01, 0, 'aphrodite,mancer,ooba,koboldcpp,tabby,llamacpp,dreamgen'],
  ['dry_base', 'DRY base', 1, 4, 0.01, 1.75, 'aphrodite,mancer,ooba,koboldcpp,tabby,llamacpp,dreamgen'],
  ['dry_allowed_length', 'DRY allowed length', 1, 20, 1, 2, 'aphrodite,mancer,ooba,koboldcpp,tabby,llamacpp,dreamgen'],
  ['dry_penalty_last_n', 'DRY penalty range', 0, 8192, 1, 0, 'llamacpp,koboldcpp,tabby,aphrodite'],
  ['dynatemp', 'Dynamic temperature', 0, 0, 0, false, 'ooba,mancer,koboldcpp,tabby,llamacpp,aphrodite'],
  ['min_temp', 'Dynamic temperature: minimum', 0, 5, 0.01, 0, 'ooba,mancer,koboldcpp,tabby,llamacpp,aphrodite'],
  ['max_temp', 'Dynamic temperature: maximum', 0, 5, 0.01, 2, 'ooba,mancer,koboldcpp,tabby,llamacpp,aphrodite'],
  ['dynatemp_exponent', 'Dynamic temperature: exponent', 0.001, 10, 0.001, 1, 'ooba,mancer,koboldcpp,tabby,llamacpp,aphrodite'],
  ['mirostat_mode', 'Mirostat mode (0: off)', 0, 2, 1, 0, 'ooba,infermaticai,koboldcpp,llamacpp,tabby'],
  ['mirostat_tau', 'Mirostat tau', 0, 20, 0.01, 5, 'ooba,infermaticai,koboldcpp,llamacpp,tabby'],
  ['mirostat_eta', 'Mirostat eta', 0, 1, 0.01, 0.1, 'ooba,infermaticai,koboldcpp,llamacpp,tabby'],
  ['num_beams', 'Number of beams', 1, 20, 1, 1, 'ooba'],
  ['length_penalty', 'Length penalty', -5, 5, 0.1, 1, 'ooba'],
  ['early_stopping', 'Early stopping', 0, 0, 0, false, 'ooba'],
  ['penalty_alpha', 'Contrastive search: penalty alpha', 0, 5, 0.05, 0, 'ooba'],
  ['do_sample', 'Do sample', 0, 0, 0, true, 'ooba'],
  ['add_bos_token', 'Add the BOS token', 0, 0, 0, true, 'ooba,tabby'],
  ['ban_eos_token', 'Ban the EOS token', 0, 0, 0, false, 'ooba,llamacpp,tabby,koboldcpp,dreamgen'],
  ['ignore_eos_token', 'Ignore the EOS token', 0, 0, 0, false, 'vllm,aphrodite,infermaticai'],
  ['skip_special_tokens', 'Skip special tokens', 0, 0, 0, true, '!generic'],
  ['include_reasoning', 'Request model reasoning', 0, 0, 0, true, 'openrouter'],
  ['temperature_last', 'Temperature last', 0, 0, 0, true, 'ooba,aphrodite,tabby'],
  ['speculative_ngram', 'Speculative ngram', 0, 0, 0, false, 'tabby'],
  ['spaces_between_special_tokens', 'Spaces between special tokens', 0, 0, 0, true, 'vllm,aphrodite,infermaticai'],
  ['seed', 'Seed (-1: random)', -1, NO_MAX, 1, -1, 'mancer,ooba,koboldcpp,vllm,aphrodite,llamacpp,ollama,infermaticai,huggingface,generic'],
];

/** Whether ST shows a block for `source`: its list names it ('!' in front: does not name it); an empty list, always. */
function shownFor(list, source) {
  if (!list) return true;
  const except = list.startsWith('!');
  return list.slice(except ? 1 : 0).split(',').includes(source) !== except;
}

/**
 * The samplers ST shows for the connection: {key, label, min, max, step, fallback} each, fallback ST's default for
 * a key settings.json lacks (a boolean one is a switch).
 */
export function samplersFor(api, source) {
  return (api === 'openai' ? CHAT : TEXT).filter((row) => shownFor(row[6], source))
    .map(([key, label, min, max, step, fallback]) => ({ key, label, min, max, step, fallback }));
}
