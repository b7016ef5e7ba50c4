// The connection panel: which backend replies, kept in settings.json where ST's frontend keeps it (main_api,
// oai_settings, textgenerationwebui_settings), and its key in the secrets store, so a connection made here works in
// ST's frontend and the other way round.
import { postJson } from './api.js';
import { saveSettings, state } from './state.js';
import { el, fail, field, toast } from './ui.js';

/** Chat-completion sources: ST's names, the settings key of their model, their secret. */
const CHAT_SOURCES = {
  custom: ['Custom (OpenAI-compatible)', 'custom_model', 'api_key_custom'],
  openai: ['OpenAI', 'openai_model', 'api_key_openai'],
  claude: ['Anthropic Claude', 'claude_model', 'api_key_claude'],
  openrouter: ['OpenRouter', 'openrouter_model', 'api_key_openrouter'],
  makersuite: ['Google AI Studio', 'google_model', 'api_key_makersuite'],
  mistralai: ['Mistral AI', 'mistralai_model', 'api_key_mistralai'],
  deepseek: ['DeepSeek', 'deepseek_model', 'api_key_deepseek'],
  groq: ['Groq', 'groq_model', 'api_key_groq'],
  xai: ['xAI Grok', 'xai_model', 'api_key_xai'],
};
/** Text-completion types: ST's names, their model key (where they name one) and secret. */
const TEXT_SOURCES = {
  koboldcpp: ['KoboldCpp', null, 'api_key_koboldcpp'],
  llamacpp: ['llama.cpp', 'llamacpp_model', 'api_key_llamacpp'],
  ooba: ['Text Generation WebUI (ooba)', null, 'api_key_ooba'],
  ollama: ['Ollama', 'ollama_model', null],
  vllm: ['vLLM', 'vllm_model', 'api_key_vllm'],
  tabby: ['TabbyAPI', 'tabby_model', 'api_key_tabby'],
  generic: ['Generic (OpenAI-compatible completions)', 'generic_model', 'api_key_generic'],
};

/** The connection the settings describe: {api, source, url, model, ready}. */
export function connection() {
  const s = state.settings;
  if (s.main_api === 'openai') {
    const oai = s.oai_settings ?? {};
    const source = oai.chat_completion_source || 'openai';
    const model = oai[CHAT_SOURCES[source]?.[1] ?? `${source}_model`] ?? '';
    const url = source === 'custom' ? oai.custom_url ?? '' : '';
    return { api: 'openai', source, url, model, ready: source !== 'custom' || !!url };
  }
  if (s.main_api === 'textgenerationwebui') {
    const tg = s.textgenerationwebui_settings ?? {};
    const source = tg.type || 'ooba';
    const modelKey = TEXT_SOURCES[source]?.[1];
    return { api: 'textgenerationwebui', source, url: tg.server_urls?.[source] ?? '', model: modelKey ? tg[modelKey] ?? '' : '', ready: !!tg.server_urls?.[source] };
  }
  return { api: s.main_api ?? '', source: '', url: '', model: '', ready: false };
}

/** How the badge names a connection; online is what its last status check said (null: not checked). */
export function describeConnection(online) {
  const c = connection();
  // ST's untried default, until a reply tried it
  if (!c.ready || (state.settings.firstRun && online === null)) return { label: 'not connected', ready: false };
  const names = c.api === 'openai' ? CHAT_SOURCES : TEXT_SOURCES;
  const label = `${names[c.source]?.[0] ?? c.source}${c.model ? ` · ${c.model}` : ''}`;
  return { label: online === false ? `${label} · offline` : label, ready: online === true };
}

/** Asks the backend for its status (through ST's status routes); answers its model ids, throws when it is down. */
export async function probe(c = connection()) {
  const answer = c.api === 'openai'
    ? await postJson('/api/backends/chat-completions/status', {
      chat_completion_source: c.source, custom_url: c.source === 'custom' ? c.url : undefined,
    })
    : await postJson('/api/backends/text-completions/status', { api_server: c.url, api_type: c.source });
  if (!answer || answer.error) throw new Error(answer?.error?.message ?? 'the backend did not answer');
  return (Array.isArray(answer.data) ? answer.data : answer.data?.data ?? answer.models ?? [])
    .map((m) => (typeof m === 'string' ? m : m.id ?? m.name)).filter(Boolean);
}

/** Tells the page whether the backend answered (the badge turns green or says offline). */
export function announce(online) {
  window.dispatchEvent(new CustomEvent('tankard:connection', { detail: { online } }));
}

export async function showConnection(view) {
  const current = connection();
  const settings = state.settings;
  const secrets = await postJson('/api/secrets/read', {}).catch(() => ({}));
  const api = el('select', { id: 'connApi', 'aria-label': 'API' },
    el('option', { value: 'openai' }, 'Chat completion'), el('option', { value: 'textgenerationwebui' }, 'Text completion'));
  api.value = current.api === 'textgenerationwebui' ? 'textgenerationwebui' : 'openai';
  const source = el('select', { id: 'connSource', 'aria-label': 'Source' });
  const url = el('input', { id: 'connUrl', type: 'url', placeholder: 'http://127.0.0.1:5000/v1' });
  const key = el('input', { id: 'connKey', type: 'password', autocomplete: 'off' });
  const keyNote = el('small.muted');
  const model = el('input', { id: 'connModel', list: 'connModels', placeholder: 'model id' });
  const models = el('datalist', { id: 'connModels' });
  const status = el('p', { id: 'connStatus', role: 'status' });
  const urlField = field('Server URL', url);

  function sources() {
    return api.value === 'openai' ? CHAT_SOURCES : TEXT_SOURCES;
  }

  function fill() {
    source.replaceChildren(...Object.entries(sources()).map(([value, [label]]) => el('option', { value }, label)));
    const wanted = api.value === current.api ? current.source : api.value === 'openai' ? 'custom' : 'koboldcpp';
    source.value = sources()[wanted] ? wanted : Object.keys(sources())[0];
    fillSource();
  }

  function fillSource() {
    const chat = api.value === 'openai';
    urlField.hidden = chat && source.value !== 'custom';
    const oai = settings.oai_settings ?? {};
    const tg = settings.textgenerationwebui_settings ?? {};
    url.value = chat ? oai.custom_url ?? '' : tg.server_urls?.[source.value] ?? '';
    const [, modelKey, secret] = sources()[source.value];
    model.value = modelKey ? (chat ? oai[modelKey] : tg[modelKey]) ?? '' : '';
    model.parentElement.hidden = !modelKey;
    key.value = '';
    key.parentElement.hidden = !secret;
    keyNote.textContent = secret && hasSecret(secrets, secret) ? 'A key is saved; type a new one to replace it.' : '';
    models.replaceChildren();
  }

  async function connect() {
    status.textContent = 'Connecting…';
    status.className = '';
    const chat = api.value === 'openai';
    const [, modelKey, secret] = sources()[source.value];
    try {
      if (secret && key.value.trim()) {
        await postJson('/api/secrets/write', { key: secret, value: key.value.trim(), label: 'Tankard' });
        key.value = '';
        keyNote.textContent = 'A key is saved; type a new one to replace it.';
      }
      const list = await probe({ api: api.value, source: source.value, url: url.value.trim() });
      models.replaceChildren(...list.map((id) => el('option', { value: id })));
      if (modelKey && !model.value && list.length) model.value = list[0];
      store(chat, modelKey);
      settings.firstRun = false; // a backend answered: the "connect first" hint is done with
      await saveSettings();
      status.textContent = `Connected${list.length ? `: ${list.length} model${list.length === 1 ? '' : 's'}` : ''}.`;
      status.className = 'ok';
      announce(true);
    } catch (e) {
      status.textContent = `Cannot connect: ${e.message}`;
      status.className = 'error';
      announce(false);
      fail('Cannot connect', e);
    }
  }

  function store(chat, modelKey) {
    settings.main_api = api.value;
    if (chat) {
      const oai = settings.oai_settings ??= {};
      oai.chat_completion_source = source.value;
      if (source.value === 'custom') oai.custom_url = url.value.trim();
      if (modelKey) oai[modelKey] = model.value.trim();
    } else {
      const tg = settings.textgenerationwebui_settings ??= {};
      tg.type = source.value;
      (tg.server_urls ??= {})[source.value] = url.value.trim();
      if (modelKey) tg[modelKey] = model.value.trim();
    }
  }

  api.addEventListener('change', fill);
  source.addEventListener('change', fillSource);
  view.append(el('section.page', {}, el('div.narrow', {},
    el('h1', {}, 'Connection'),
    el('p.muted', {}, 'Where replies come from. Saved in your settings as SillyTavern keeps them, so ST uses the same connection.'),
    el('form', { id: 'connectionForm', onsubmit: (e) => { e.preventDefault(); connect(); } },
      field('API', api), field('Source', source), urlField,
      el('label', {}, el('span', {}, 'API key'), key, keyNote),
      el('label', {}, el('span', {}, 'Model'), model, models),
      el('div.row', {}, el('button.primary', { type: 'submit', id: 'connect' }, 'Connect'),
        el('a', { href: '#/characters' }, 'Back to the characters'))),
    status)));
  fill();
  (current.ready ? model : url).focus();
  if (!current.ready) toast('Set up where replies come from, then pick a character.');
}

function hasSecret(secrets, key) {
  const value = secrets?.[key];
  return Array.isArray(value) ? value.length > 0 : !!value;
}
