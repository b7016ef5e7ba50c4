// A reply from the user's backend: the prompt built from the card, the chat's summary and its messages, sent
// through ST's generate routes with streaming, the text handed over as it arrives.
import { completionText, post, postJson, readEvents } from './api.js';
import { state, substitute, userName } from './state.js';
import { connection } from './connection.js';

/** The summary ST's Summarize extension keeps: extra.memory of the newest message that has one. */
export function currentSummary(messages) {
  for (let i = messages.length - 1; i >= 0; i--) {
    const memory = messages[i]?.extra?.memory;
    if (typeof memory === 'string' && memory.trim()) return { index: i, text: memory };
  }
  return null;
}

function characterBlock(character) {
  const data = character.data ?? character;
  const name = character.name;
  const parts = [
    `Write ${name}'s next reply in a fictional chat between ${name} and ${userName()}.`,
    data.system_prompt, data.description, data.personality && `${name}'s personality: ${data.personality}`,
    data.scenario && `Scenario: ${data.scenario}`,
  ];
  return parts.filter((p) => p && String(p).trim()).map((p) => substitute(p, name)).join('\n\n');
}

/** The chat as a backend reads it: the card, the summary, then the visible messages (the newest last). */
function history(messages, upTo) {
  return messages.slice(0, upTo).filter((m) => m && !m.is_system && typeof m.mes === 'string');
}

/**
 * The world info entries that may apply to this character's chats: those of the global lorebooks and of the
 * character's own (settings.world_info_settings.world_info.globalSelect, card data.extensions.world).
 */
export async function loadWorldInfo(character) {
  const names = new Set([...(state.settings.world_info_settings?.world_info?.globalSelect ?? []),
    character.data?.extensions?.world].filter(Boolean));
  const books = await Promise.all([...names].map((name) => postJson('/api/worldinfo/get', { name }).catch(() => null)));
  return books.flatMap((book) => Object.values(book?.entries ?? {})).filter((e) => !e.disable && e.content);
}

function keyMatches(key, text) {
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(String(key));
  if (regex) {
    try {
      return new RegExp(regex[1], regex[2]).test(text);
    } catch {
      return false;
    }
  }
  return !!key && text.toLowerCase().includes(String(key).toLowerCase());
}

/** The entries that fire: constant ones and those with a key in the last messages (world_info_depth), by order. */
function activeLore(entries, messages, upTo) {
  const depth = Number(state.settings.world_info_settings?.world_info_depth ?? 2);
  const scanned = history(messages, upTo).slice(-depth).map((m) => m.mes).join('\n');
  return (entries ?? []).filter((e) => e.constant || (e.key ?? []).some((k) => keyMatches(k, scanned)))
    .sort((a, b) => (a.order ?? 100) - (b.order ?? 100));
}

export function chatMessages(character, messages, upTo, lore) {
  const summary = currentSummary(messages.slice(0, upTo));
  const prompt = [{ role: 'system', content: characterBlock(character) }];
  const fired = activeLore(lore, messages, upTo);
  if (fired.length) prompt.push({ role: 'system', content: fired.map((e) => substitute(e.content, character.name)).join('\n') });
  const example = (character.data?.mes_example ?? character.mes_example ?? '').trim();
  if (example) prompt.push({ role: 'system', content: `Example dialogue:\n${substitute(example, character.name)}` });
  if (summary) prompt.push({ role: 'system', content: `Summary of the story so far: ${summary.text}` });
  for (const m of history(messages, upTo)) {
    prompt.push({ role: m.is_user ? 'user' : 'assistant', content: m.mes });
  }
  return prompt;
}

/** A text-completion prompt: the story (card, world info, summary), then the messages, plain or in instruct mode. */
export function textPrompt(character, messages, upTo, lore) {
  const summary = currentSummary(messages.slice(0, upTo));
  const story = [characterBlock(character), ...activeLore(lore, messages, upTo).map((e) => substitute(e.content, character.name)),
    summary ? `[Summary: ${summary.text}]` : ''].filter(Boolean).join('\n');
  const turns = history(messages, upTo);
  const instruct = state.settings.power_user?.instruct;
  if (instruct?.enabled) return instructPrompt(instruct, story, turns, character.name);
  return [story, ...turns.map((m) => `${m.name}: ${m.mes}`), `${character.name}:`].join('\n');
}

/**
 * The user's instruct template (power_user.instruct, as ST's frontend keeps it) around each turn: the input or
 * output sequence (first and last ones where the template has them), the text, its suffix; names only when the
 * template says always. Ends with the output sequence the reply follows.
 */
function instructPrompt(instruct, story, turns, charName) {
  const wrap = instruct.wrap ? '\n' : '';
  const named = instruct.names_behavior === 'always';
  const parts = story ? [`${instruct.story_string_prefix ?? ''}${story}${instruct.story_string_suffix ?? ''}`] : [];
  turns.forEach((m, i) => {
    const first = i === 0;
    const last = i === turns.length - 1;
    const sequence = m.is_user
      ? (first && instruct.first_input_sequence) || (last && instruct.last_input_sequence) || instruct.input_sequence
      : (first && instruct.first_output_sequence) || instruct.output_sequence;
    const suffix = (m.is_user ? instruct.input_suffix : instruct.output_suffix) ?? '';
    parts.push(`${sequence ?? ''}${wrap}${named ? `${m.name}: ` : ''}${m.mes}${suffix}`);
  });
  parts.push(`${instruct.last_output_sequence || instruct.output_sequence || ''}${wrap}${named ? `${charName}:` : ''}`);
  return parts.join(wrap);
}

/** Where a text completion stops: the next user turn, and the template's sequences where it says so. */
function stopStrings() {
  const instruct = state.settings.power_user?.instruct;
  const stops = [`\n${userName()}:`];
  if (instruct?.enabled) {
    if (instruct.stop_sequence) stops.push(instruct.stop_sequence);
    if (instruct.sequences_as_stop_strings !== false && instruct.input_sequence) stops.push(instruct.input_sequence);
  }
  return stops;
}

/**
 * Streams a reply to messages[0, upTo) into onText (the whole text so far each time); answers the final text.
 * The signal stops it: the server then aborts the upstream request. lore: loadWorldInfo's entries.
 */
export async function generate(character, messages, upTo, onText, signal, lore) {
  const c = connection();
  if (!c.ready) throw new Error('No backend is set up yet: open Connection first');
  const settings = state.settings;
  let path;
  let body;
  if (c.api === 'openai') {
    const oai = settings.oai_settings ?? {};
    path = '/api/backends/chat-completions/generate';
    body = {
      chat_completion_source: c.source, model: c.model, messages: chatMessages(character, messages, upTo, lore),
      stream: oai.stream_openai !== false, temperature: Number(oai.temp_openai ?? 1),
      max_tokens: Number(oai.openai_max_tokens ?? 300), char_name: character.name, user_name: userName(),
    };
    if (c.source === 'custom') body.custom_url = c.url;
  } else {
    path = '/api/backends/text-completions/generate';
    const length = Number(settings.amount_gen ?? 250);
    body = {
      api_type: c.source, api_server: c.url, prompt: textPrompt(character, messages, upTo, lore), stream: true,
      max_new_tokens: length, max_tokens: length, max_length: length, temperature: 0.8, model: c.model || undefined,
      stop: stopStrings(), stopping_strings: stopStrings(),
      truncation_length: Number(settings.max_context ?? 4096),
    };
  }
  const response = await post(path, body, { signal });
  let text = '';
  let rest;
  try {
    rest = await readEvents(response, (data) => {
      text += completionText(data);
      onText(text);
    });
  } catch (e) {
    if (signal?.aborted) return text;
    throw e;
  }
  if (rest.trim().startsWith('{')) { // not streamed: the whole reply, or an error, as JSON
    const data = JSON.parse(rest);
    if (data?.error) throw new Error(data.error.message ?? JSON.stringify(data.error));
    text = completionText(data);
    onText(text);
  }
  return text.replace(/^\s+/, '');
}
