// The author's note of a chat: its text, where it goes, how deep, how often and as whom, kept in the chat's
// chat_metadata under ST's keys (public/scripts/authors-note.js metadata_keys), so the server's engine injects it;
// beside it, as in ST's panel, the character's note and the defaults of new chats (settings.json's
// extension_settings.note: chara, default, defaultPosition, defaultDepth, defaultInterval, defaultRole).
import { postJson } from './api.js';
import { saveSettings, state } from './state.js';
import { dialog, el, fail, field, selectOf, toast } from './ui.js';

// ST: authors-note.js loadSettings's defaults (DEFAULT_INTERVAL, DEFAULT_POSITION, DEFAULT_DEPTH, DEFAULT_ROLE)
const DEFAULTS = { note_prompt: '', note_interval: 1, note_position: 1, note_depth: 4, note_role: 0 };
const SETTING = { note_prompt: 'default', note_interval: 'defaultInterval', note_position: 'defaultPosition', note_depth: 'defaultDepth', note_role: 'defaultRole' };
// ST's radio values (index.html extension_floating_position) and extension_prompt_roles
const POSITIONS = [[2, 'Before the main prompt / story string'], [0, 'After the main prompt / story string'], [1, 'In the chat, at a depth']];
export const ROLES = [[0, 'System'], [1, 'User'], [2, 'Assistant']];
// ST: authors-note.js chara_note_position
const CHARA_POSITIONS = [[0, "Instead of the chat's note"], [1, "Before the chat's note"], [2, "After the chat's note"]];

/**
 * The depth and role of a prompt injected into the chat (ST's "in-chat @ depth"), enabled only while `position`
 * has the value `atDepth`.
 */
export function depthRow(position, atDepth, depth, role) {
  const toggle = () => {
    depth.disabled = role.disabled = Number(position.value) !== atDepth;
  };
  position.addEventListener('change', toggle);
  toggle();
  return el('div.row', {}, el('div.grow', {}, field('Depth (messages from the end)', depth)), el('div.grow', {}, field('As', role)));
}

/** The chat's note as ST's loadSettings fills it: the chat's own values, else the user's defaults. */
export function noteOf(metadata) {
  const defaults = state.settings.extension_settings?.note ?? {};
  return Object.fromEntries(Object.keys(DEFAULTS).map((key) => [key, metadata?.[key] ?? defaults[SETTING[key]] ?? DEFAULTS[key]]));
}

/** ST: utils.js getCharaFilename: the key of a character's note, its avatar less the extension. */
function charaKey(avatar) {
  return String(avatar ?? '').replace(/\.[^/.]+$/, '');
}

/**
 * ST: authors-note.js onExtensionFloatingCharaPromptInput, onExtensionFloatingCharaCheckboxChanged and
 * onExtensionFloatingCharPositionInput: the character's entry in extension_settings.note.chara, made when it gets
 * a text and dropped when its text is emptied while it is not used.
 */
function setCharaNote(name, { prompt, useChara, position }) {
  const note = (state.settings.extension_settings ??= {}).note ??= {};
  const list = note.chara ??= [];
  const index = list.findIndex((e) => e.name === name);
  if (index >= 0 && !prompt && !useChara) list.splice(index, 1);
  else if (index >= 0) Object.assign(list[index], { prompt, useChara, position });
  else if (prompt) list.push({ name, prompt, useChara, position });
}

/** ST: authors-note.js onExtensionFloatingDefault*Input: the note a chat without its own starts with. */
function setDefaults(values) {
  const note = (state.settings.extension_settings ??= {}).note ??= {};
  Object.entries(values).forEach(([key, value]) => { note[SETTING[key]] = value; });
}

/** The text, where, depth, role and interval fields of a note, their ids prefixed. */
function noteFields(prefix, note) {
  const text = el('textarea', { id: `${prefix}Prompt`, rows: 5, value: note.note_prompt });
  const position = selectOf(`${prefix}Position`, POSITIONS, note.note_position);
  const depth = el('input', { id: `${prefix}Depth`, type: 'number', min: 0, max: 9999, value: note.note_depth });
  const role = selectOf(`${prefix}Role`, ROLES, note.note_role);
  const interval = el('input', { id: `${prefix}Interval`, type: 'number', min: 0, max: 9999, value: note.note_interval });
  return {
    nodes: [field('Text', text), field('Where', position), depthRow(position, 1, depth, role),
      field('Every how many messages (0: never)', interval)],
    values: () => ({
      note_prompt: text.value, note_interval: Math.max(0, Number(interval.value) || 0), note_position: Number(position.value),
      note_depth: Math.max(0, Number(depth.value) || 0), note_role: Number(role.value),
    }),
  };
}

/**
 * Opens the note of a chat (window_: chat.js's ChatWindow), with the character's note and the defaults below it as
 * ST's panel has them; after a save, reloaded() runs.
 */
export async function editNote(window_, reloaded) {
  const chatNote = noteFields('note', noteOf(window_.header?.chat_metadata));
  const name = charaKey(window_.ref.avatar_url);
  const character = window_.header?.character_name || name;
  const own = state.settings.extension_settings?.note?.chara?.find((e) => e.name === name);
  const charaText = el('textarea', { id: 'charaNotePrompt', rows: 4, value: own?.prompt ?? '' });
  const charaUse = el('input', { type: 'checkbox', id: 'charaNoteUse', checked: !!own?.useChara });
  const charaPosition = selectOf('charaNotePosition', CHARA_POSITIONS, own?.position ?? 0);
  const shownDefaults = noteOf({});
  const defaults = noteFields('noteDefault', shownDefaults);
  const body = el('div.form', {}, ...chatNote.nodes,
    el('details.noteMore', { id: 'charaNote' }, el('summary', {}, `${character}'s note`),
      el('p.muted', {}, `Added to the note of every chat with ${character}, when used. Kept in your settings.`),
      field('Text', charaText), el('label.check', {}, charaUse, el('span', {}, 'Use it')), field('Where', charaPosition)),
    el('details.noteMore', { id: 'noteDefaults' }, el('summary', {}, 'Defaults for new chats'),
      el('p.muted', {}, 'The note a chat starts with until it gets its own.'), ...defaults.nodes));
  const before = JSON.stringify(state.settings.extension_settings?.note ?? {});
  if (await dialog("Author's note", body, [['Cancel', ''], ['Save', 'save', true]]) !== 'save') return;
  try {
    // the header only, on the server: the chat does not travel (a window read before is stale: read it again)
    await postJson('/api/tankard/chats/metadata', { ...window_.ref, chat_metadata: chatNote.values() });
    setCharaNote(name, { prompt: charaText.value, useChara: charaUse.checked, position: Number(charaPosition.value) });
    if (JSON.stringify(defaults.values()) !== JSON.stringify(shownDefaults)) setDefaults(defaults.values());
    if (JSON.stringify(state.settings.extension_settings.note) !== before) await saveSettings();
    await window_.load();
    toast("Author's note saved");
  } catch (e) {
    fail("Cannot save the author's note", e);
  }
  reloaded();
}
