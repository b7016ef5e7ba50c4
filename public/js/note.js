// The author's note of a chat: its text, where it goes, how deep, how often and as whom, kept in the chat's
// chat_metadata under ST's keys (public/scripts/authors-note.js metadata_keys), so the server's engine injects it.
import { postJson } from './api.js';
import { state } from './state.js';
import { dialog, el, fail, field, selectOf, toast } from './ui.js';

// ST: authors-note.js loadSettings's defaults (DEFAULT_INTERVAL, DEFAULT_POSITION, DEFAULT_DEPTH, DEFAULT_ROLE)
const DEFAULTS = { note_prompt: '', note_interval: 1, note_position: 1, note_depth: 4, note_role: 0 };
const SETTING = { note_prompt: 'default', note_interval: 'defaultInterval', note_position: 'defaultPosition', note_depth: 'defaultDepth', note_role: 'defaultRole' };
// ST's radio values (index.html extension_floating_position) and extension_prompt_roles
const POSITIONS = [[2, 'Before the main prompt / story string'], [0, 'After the main prompt / story string'], [1, 'In the chat, at a depth']];
export const ROLES = [[0, 'System'], [1, 'User'], [2, 'Assistant']];

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

/** Opens the note of a chat (window_: chat.js's ChatWindow); after a save, reloaded() runs. */
export async function editNote(window_, reloaded) {
  const note = noteOf(window_.header?.chat_metadata);
  const text = el('textarea', { id: 'notePrompt', rows: 6, value: note.note_prompt });
  const position = selectOf('notePosition', POSITIONS, note.note_position);
  const depth = el('input', { id: 'noteDepth', type: 'number', min: 0, max: 9999, value: note.note_depth });
  const role = selectOf('noteRole', ROLES, note.note_role);
  const interval = el('input', { id: 'noteInterval', type: 'number', min: 0, max: 9999, value: note.note_interval });
  const body = el('div.form', {}, field('Text', text), field('Where', position), depthRow(position, 1, depth, role),
    field('Every how many messages (0: never)', interval));
  if (await dialog("Author's note", body, [['Cancel', ''], ['Save', 'save', true]]) !== 'save') return;
  const values = {
    note_prompt: text.value, note_interval: Math.max(0, Number(interval.value) || 0), note_position: Number(position.value),
    note_depth: Math.max(0, Number(depth.value) || 0), note_role: Number(role.value),
  };
  try {
    // the header only, on the server: the chat does not travel (a window read before is stale: read it again)
    await postJson('/api/tankard/chats/metadata', { ...window_.ref, chat_metadata: values });
    await window_.load();
    toast("Author's note saved");
  } catch (e) {
    fail("Cannot save the author's note", e);
  }
  reloaded();
}
