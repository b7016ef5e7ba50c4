// Memory a user can see, beside a character chat: the summary (ST's Summarize extension,
// public/scripts/extensions/memory/index.js and settings.html), vector memory (ST's Vector Storage,
// public/scripts/extensions/vectors/index.js) and the prompt inspector (ST's PromptItemize in public/script.js).
// The server's engine does the work (docs/engine.md); settings go where ST keeps them, extension_settings.memory
// and extension_settings.vectors in settings.json, and a summary into extra.memory of a message, saved with a
// tail save from that message on: the chat never travels whole.
import { postJson } from './api.js';
import { saveSettings, state } from './state.js';
import { depthRow, ROLES } from './note.js';
import { dialog, el, fail, field, selectOf, toast } from './ui.js';

// ST: memory/index.js defaultSettings (defaultPrompt, defaultTemplate and the values the panel edits)
const SUMMARY_DEFAULTS = {
  memoryFrozen: false, source: 'extras', template: '[Summary: {{summary}}]', position: 0, role: 0, scan: false,
  depth: 2, promptWords: 200, promptInterval: 10, promptForceWords: 0, overrideResponseLength: 0,
  maxMessagesPerRequest: 0, prompt_builder: 0,
  prompt: 'Ignore previous instructions. Summarize the most important facts and events in the story so far. If a '
    + 'summary already exists in your memory, use that as a base and expand with new facts. Limit the summary to '
    + '{{words}} words or less. Your response should include nothing but the summary.',
};
// ST: settings.html #summary_source; the server's engine summarizes with the main API only
const SOURCES = [['main', 'Main API'], ['extras', 'Extras API (ST only)'], ['webllm', 'WebLLM (ST only)']];
// ST: settings.html memory_prompt_builder radios
const BUILDERS = [[1, 'Raw, blocking'], [2, 'Raw, non-blocking'], [0, 'Classic, blocking']];
// ST: settings.html memory_position radios (extension_prompt_types)
const POSITIONS = [[-1, 'None (not injected)'], [2, 'Before the main prompt / story string'],
  [0, 'After the main prompt / story string'], [1, 'In the chat, at a depth']];
// the engine's itemization parts (src/main/java/tankard/engine/prompt/Itemization.java), as ST's PromptItemize names them
const PARTS = [['system', 'System prompt'], ['storyString', 'Story string (card)'], ['persona', 'Persona'],
  ['worldInfo', 'World info'], ['examples', 'Example dialogue'], ['history', 'Chat history'], ['summary', 'Summary'],
  ['vectors', 'Vector recall'], ['authorsNote', "Author's note"], ['other', 'Other (bias, anchors)']];
/** Messages a "Vectorize all" step inserts (ST: the batch synchronizeChat takes per step). */
const VECTORIZE_STEP = 10;

/** extension_settings.memory as ST's loadSettings fills it: every key it lacks from ST's defaults. */
export function summarySettings() {
  const extensions = state.settings.extension_settings ??= {};
  const memory = extensions.memory ??= {};
  for (const [key, value] of Object.entries(SUMMARY_DEFAULTS)) memory[key] ??= value;
  return memory;
}

function vectorSettings() {
  const extensions = state.settings.extension_settings ??= {};
  return extensions.vectors ??= {};
}

/** ST: getLatestMemoryFromChat: the summary of the newest message that has one, the last message not looked at. */
function latestSummaryIndex(messages) {
  for (let i = messages.length - 2; i >= 0; i--) if (messages[i]?.extra?.memory) return i;
  return -1;
}

/** A checkbox with its label beside it. */
function check(id, label, checked, onchange) {
  return el('label.check', {}, el('input', { id, type: 'checkbox', checked, onchange }), el('span', {}, label));
}

function numberInput(id, value, min, max, step = 1) {
  return el('input', { id, type: 'number', min, max, step, value, inputMode: 'numeric' });
}

/** Saves settings.json (in order with every other save of it: saveSettings). */
function save(what) {
  saveSettings().catch((e) => fail(`Cannot save ${what}`, e));
}

/**
 * The chat's memory panel (chat: chat.js's ChatWindow of a character chat). Answers {node, refresh}: refresh shows
 * the summary again after the chat changed (a reply, a summary made after it), unless the user is editing it.
 */
export function memoryPanel(chat, redraw) {
  const status = el('small.muted', { id: 'memoryStatus', role: 'status' });
  const summary = summaryPart(chat, redraw, status);
  const vectors = vectorPart(chat);
  const inspect = el('button', { type: 'button', id: 'inspectPrompt', title: 'What the engine puts into the prompt, part by part',
    onclick: () => inspectPrompt(chat, vectors.showRecall) }, 'Inspect the prompt');
  // a drawer: open on a wide screen, closed on a phone, where the chat needs the height
  const node = el('details.memory', { id: 'memory', open: !matchMedia('(max-width: 720px)').matches },
    el('summary', {}, el('h2', {}, 'Memory')), summary.node, vectors.node, el('div.row', {}, inspect), status);
  return { node, refresh: summary.refresh };
}

function summaryPart(chat, redraw, status) {
  const memory = summarySettings();
  let dirty = false; // typed into and not saved: a refresh keeps what was typed
  const area = el('textarea', { id: 'summary', rows: 6, placeholder: 'No summary yet', oninput: () => { dirty = true; } });
  const summarizeNow = el('button', { type: 'button', id: 'summarizeNow', title: 'A summary update right now, paused or not', onclick: makeNow }, 'Summarize now');
  const source = selectOf('memorySource', SOURCES, memory.source);
  const sourceHint = el('small.muted', { id: 'memorySourceHint' }, 'Tankard summarizes with the main API only: choose it to have summaries made here.');
  const mainOnly = () => {
    summarizeNow.disabled = memory.source !== 'main';
    sourceHint.hidden = memory.source === 'main';
  };
  source.addEventListener('change', () => { memory.source = source.value; mainOnly(); save('the summary settings'); });
  mainOnly();

  function refresh() {
    if (dirty) return;
    const at = latestSummaryIndex(chat.messages);
    area.value = at < 0 ? '' : chat.messages[at].extra.memory;
    area.placeholder = at < 0 && chat.more ? 'No summary in the messages loaded: scroll up for earlier ones' : 'No summary yet';
  }

  /** ST: onMemoryContentInput → setMemoryContext(value, true): kept on the message before the last. */
  async function saveSummary() {
    if (!chat.messages.length) return;
    const at = Math.max(0, chat.messages.length - 2);
    const message = chat.messages[at];
    message.extra = { ...(message.extra ?? {}), memory: area.value };
    await saveFrom(at, 'Summary saved.');
  }

  /** ST: onMemoryRestoreClick: the summary shown is taken off the newest message before the last that has it. */
  async function restorePrevious() {
    const content = area.value;
    const find = () => chat.messages.slice(0, -1).findLastIndex((m) => m.extra?.memory === content);
    let at = find();
    while (at < 0 && chat.more && await chat.loadEarlier()) at = find(); // it may lie before the loaded window
    if (at < 0) {
      status.textContent = 'No earlier summary to restore.';
      return;
    }
    delete chat.messages[at].extra.memory;
    await saveFrom(at, 'Previous summary restored.');
  }

  async function saveFrom(at, done) {
    try {
      await chat.saveFrom(at);
      dirty = false;
      status.textContent = done;
    } catch (e) {
      fail('Cannot save the summary', e);
      await chat.load().catch(() => {});
      dirty = false;
    }
    redraw(); // shows the chat and, through refresh, the summary as saved
  }

  /** ST: forceSummarizeChat, on the server: POST /api/tankard/memory/summarize (docs/engine.md). */
  async function makeNow() {
    status.textContent = 'Summarizing…';
    summarizeNow.disabled = true;
    try {
      const answer = await postJson('/api/tankard/memory/summarize', chat.ref);
      await chat.reloadKeeping();
      dirty = false;
      area.value = answer.summary;
      status.textContent = 'Summary updated.';
      redraw();
    } catch (e) {
      status.textContent = '';
      fail('Cannot summarize', e);
    }
    mainOnly();
  }

  const settings = summarySettingsPart(memory);
  refresh();
  const node = el('section', { 'aria-labelledby': 'summaryHeading' },
    el('h3', { id: 'summaryHeading' }, 'Summary'),
    field('Summarize with', source), sourceHint,
    field('Current summary', area),
    el('div.row', {},
      el('button', { type: 'button', id: 'saveSummary', onclick: saveSummary }, 'Save summary'),
      el('button', { type: 'button', id: 'restoreSummary', title: 'Restore the previous summary; again and again clears the summaries of this chat', onclick: restorePrevious }, 'Restore previous'),
      summarizeNow),
    check('memoryPause', 'Pause automatic summaries', memory.memoryFrozen, (e) => {
      memory.memoryFrozen = e.target.checked;
      save('the summary settings');
    }),
    settings);
  return { node, refresh };
}

/** ST's "Summary Settings" block: how, how often and where the summary goes; each change saved at once. */
function summarySettingsPart(memory) {
  const builder = selectOf('memoryBuilder', BUILDERS, memory.prompt_builder);
  const prompt = el('textarea', { id: 'memoryPrompt', rows: 5, value: memory.prompt });
  const words = numberInput('memoryWords', memory.promptWords, 25, 1000, 25);
  const responseLength = numberInput('memoryResponseLength', memory.overrideResponseLength, 0, 4096, 16);
  const maxMessages = numberInput('memoryMaxMessages', memory.maxMessagesPerRequest, 0, 250);
  const interval = numberInput('memoryInterval', memory.promptInterval, 0, 250);
  const forceWords = numberInput('memoryForceWords', memory.promptForceWords, 0, 10000, 100);
  const template = el('textarea', { id: 'memoryTemplate', rows: 2, value: memory.template });
  const position = selectOf('memoryPosition', POSITIONS, memory.position);
  const depth = numberInput('memoryDepth', memory.depth, 0, 9999);
  const role = selectOf('memoryRole', ROLES, memory.role);
  const scan = el('input', { id: 'memoryScan', type: 'checkbox', checked: !!memory.scan });
  const bound = (input, min, max) => Math.min(max, Math.max(min, Math.round(Number(input.value) || 0)));
  const read = () => Object.assign(memory, {
    prompt_builder: Number(builder.value), prompt: prompt.value, promptWords: bound(words, 25, 1000),
    overrideResponseLength: bound(responseLength, 0, 4096), maxMessagesPerRequest: bound(maxMessages, 0, 250),
    promptInterval: bound(interval, 0, 250), promptForceWords: bound(forceWords, 0, 10000), template: template.value,
    position: Number(position.value), depth: bound(depth, 0, 9999), role: Number(role.value), scan: scan.checked,
  });
  const node = el('details.settings', { id: 'summarySettings' }, el('summary', {}, 'Summary settings'),
    field('Prompt builder', builder),
    field('Summary prompt ({{words}}: the target length)', prompt),
    field('Target summary length (words)', words),
    field('API response length (tokens, 0: the connection\'s)', responseLength),
    field('Raw: at most this many messages per request (0: no limit)', maxMessages),
    field('Update every … messages (0: never)', interval),
    field('Update every … words (0: never)', forceWords),
    field('Injection template ({{summary}}: the summary)', template),
    field('Injection position', position),
    depthRow(position, 1, depth, role),
    el('label.check', {}, scan, el('span', {}, 'Include in world info scanning')));
  node.addEventListener('change', () => { read(); save('the summary settings'); });
  return node;
}

function vectorPart(chat) {
  const vectors = vectorSettings();
  const progress = el('progress', { id: 'vectorizeProgress', max: 100, value: 0, hidden: true, 'aria-label': 'Vectorization progress' });
  const stats = el('p.muted', { id: 'vectorStats', role: 'status' });
  const recall = el('blockquote.recall', { id: 'recall', hidden: true });
  const recallNote = el('p.muted', { id: 'recallNote' });
  const buttons = [
    el('button', { type: 'button', id: 'vectorizeAll', onclick: vectorizeAll }, 'Vectorize all'),
    el('button', { type: 'button', id: 'showVectorStats', onclick: () => count(0) }, 'View stats'),
    el('button.danger', { type: 'button', id: 'purgeVectors', onclick: purge }, 'Purge'),
  ];
  const enabled = () => { for (const b of buttons) b.disabled = !vectors.enabled_chats; };
  enabled();

  /** One step of the engine's synchronization (insert 0: only counts); shows the counts. */
  async function count(insert) {
    try {
      const answer = await postJson('/api/tankard/memory/vectors', { ...chat.ref, insert });
      stats.textContent = `${answer.saved} of ${answer.messages} messages are in this chat's vector collection.`;
      return answer;
    } catch (e) {
      fail('Cannot reach the vector memory', e);
      return null;
    }
  }

  /** ST: onVectorizeAllClick: a step at a time, with the share done. */
  async function vectorizeAll() {
    buttons[0].disabled = true;
    progress.hidden = false;
    progress.value = 0;
    let pending = null;
    for (let answer = await count(VECTORIZE_STEP); answer; answer = await count(VECTORIZE_STEP)) {
      pending ??= answer.remaining + VECTORIZE_STEP;
      progress.value = pending > 0 ? Math.min(100, Math.round(100 * (pending - answer.remaining) / pending)) : 100;
      if (answer.remaining <= 0) {
        progress.value = 100;
        toast('All messages are vectorized');
        break;
      }
    }
    enabled();
  }

  /** ST: onPurgeClick → purgeVectorIndex(chatId): every source's index of the chat goes. */
  async function purge() {
    const choice = await dialog('Purge the vector memory of this chat?', el('p', {}, 'Its vectors are deleted; they are made again when the chat is vectorized.'),
      [['Cancel', ''], ['Purge', 'purge', true]]);
    if (choice !== 'purge') return;
    try {
      await postJson('/api/vector/purge', { collectionId: chat.ref.file_name });
      stats.textContent = 'Purged.';
      showRecall('');
    } catch (e) {
      fail('Cannot purge the vector memory', e);
    }
  }

  /** What vector memory put into the last prompt (memory.vectors of /api/tankard/prompt), as it went in. */
  function showRecall(text) {
    recall.textContent = text;
    recall.hidden = !text.trim();
    recallNote.textContent = text.trim() ? 'Recalled into the last prompt:' : 'Nothing was recalled into the last prompt.';
  }

  const node = el('section', { 'aria-labelledby': 'vectorHeading' },
    el('h3', { id: 'vectorHeading' }, 'Vector memory'),
    check('vectorsEnabled', 'Enable for chats', !!vectors.enabled_chats, (e) => {
      vectors.enabled_chats = e.target.checked;
      vectors.source ??= 'transformers'; // ST's default: the local model, which the server runs
      enabled();
      save('the vector settings');
    }),
    el('div.row', {}, buttons), progress, stats,
    el('button.link', { type: 'button', id: 'showRecall', onclick: async () => {
      const answer = await lastPrompt(chat);
      if (answer) showRecall(answer.memory?.vectors ?? '');
    } }, 'What was recalled into the last prompt?'),
    recallNote, recall);
  return { node, showRecall };
}

/**
 * The engine's prompt for the chat's last turn (POST /api/tankard/prompt): the one its last reply was written for
 * (a regenerate of it), or the one the next reply gets when the user spoke last. Null when it failed (told).
 */
async function lastPrompt(chat) {
  const last = chat.messages[chat.messages.length - 1];
  const action = last && !last.is_user && !last.is_system ? 'regenerate' : 'send';
  try {
    return await postJson('/api/tankard/prompt', { ...chat.ref, action });
  } catch (e) {
    fail('Cannot build the prompt', e);
    return null;
  }
}

/** The last prompt, part by part against the context (ST's PromptItemize). */
async function inspectPrompt(chat, showRecall) {
  const answer = await lastPrompt(chat);
  if (!answer) return;
  showRecall(answer.memory?.vectors ?? '');
  const { parts, total } = answer.itemization;
  const { size, prompt } = answer.context;
  const percent = (tokens) => (prompt > 0 ? `${Math.round(1000 * tokens / prompt) / 10} %` : '');
  const rows = PARTS.filter(([key]) => key in parts).map(([key, label]) => el('tr', { dataset: { part: key } },
    el('th', { scope: 'row' }, label), el('td', {}, String(parts[key])), el('td', {}, percent(parts[key]))));
  const body = el('div.inspector', { id: 'promptInspector' },
    el('p', {}, `${total} tokens of the ${prompt} the prompt may take (context ${size}, the rest for the reply).`),
    el('meter', { min: 0, max: prompt, value: total, 'aria-label': 'Prompt tokens against the context' }),
    el('table', {}, el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Part'), el('th', { scope: 'col' }, 'Tokens'),
      el('th', { scope: 'col' }, 'Share'))), el('tbody', {}, rows),
    el('tfoot', {}, el('tr', { dataset: { part: 'total' } }, el('th', { scope: 'row' }, 'Total'), el('td', {}, String(total)), el('td', {}, percent(total))))),
    el('details', {}, el('summary', {}, `The request for ${answer.route}`),
      el('pre', { id: 'promptRequest', tabIndex: 0 }, JSON.stringify(answer.request, null, 2))));
  await dialog('The prompt', body, [['Close', 'close', true]]);
}
