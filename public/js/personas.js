// Personas: who the user is in chats. Stored as ST's frontend stores them (public/scripts/personas.js): the
// names in power_user.personas and the descriptions in power_user.persona_descriptions, both keyed by the
// persona's image in "User Avatars/" (uploaded through /api/avatars/upload); the picked one in user_avatar, its
// name in username and its description copied into power_user.persona_description*, which is what the server's
// engine reads for a prompt.
import { postJson } from './api.js';
import { saveSettings, state, userName } from './state.js';
import { dialog, el, fail, field, selectOf, thumbnail, toast } from './ui.js';
import { ROLES, depthRow } from './note.js';

// ST: personas.js persona_description_positions.IN_PROMPT and AT_DEPTH, DEFAULT_DEPTH, DEFAULT_ROLE
const IN_PROMPT = 0;
const AT_DEPTH = 4;
// ST's options (index.html persona_description_position)
const POSITIONS = [[IN_PROMPT, 'In the story string / prompt manager'], [2, "At the top of the author's note"],
  [3, "At the bottom of the author's note"], [AT_DEPTH, 'In the chat, at a depth'], [9, 'Nowhere (off)']];
const DEFAULT_DEPTH = 2;
const DEFAULT_ROLE = 0;

function powerUser() {
  state.settings.power_user ??= {};
  const p = state.settings.power_user;
  p.personas ??= {};
  p.persona_descriptions ??= {};
  return p;
}

/** The picked persona's image (ST's default is user-default.png). */
export function currentAvatar() {
  return state.settings.user_avatar || 'user-default.png';
}

/** Who speaks in a chat: the persona ST locked the chat to (chat_metadata.persona), else the one in use. */
export function chatPersona(metadata) {
  const locked = metadata?.persona;
  const name = locked ? state.settings.power_user?.personas?.[locked] : null;
  return name ? `${name} (locked to this chat)` : userName();
}

/** ST: personas.js isPersonaConnectionLocked: whether a persona is connected to the character. */
function lockedToCharacter(avatar, character) {
  return !!powerUser().persona_descriptions[avatar]?.connections?.some((c) => c.type === 'character' && c.id === character);
}

/**
 * ST: personas.js loadPersonaForCurrentChat, when a chat opens: the persona locked to the chat, else the first one
 * connected to its character, else the default persona (one that is a named persona), picked and saved when it is
 * not the one in use. The server's engine then speaks as it, as ST's frontend does. The pick is made before the
 * first await (userName() names it at once, so the chat's "You:" label needs no later update); the answer is the save.
 */
export async function loadChatPersona(character, metadata) {
  const p = powerUser();
  const named = (avatar) => (avatar && p.personas[avatar] !== undefined ? avatar : null);
  const chosen = named(metadata?.persona)
    ?? Object.keys(p.persona_descriptions).find((avatar) => named(avatar) && lockedToCharacter(avatar, character.avatar))
    ?? named(p.default_persona);
  if (!chosen || chosen === currentAvatar()) return;
  pick(chosen);
  try {
    await saveSettings();
  } catch (e) { fail('Cannot pick the chat\'s persona', e); }
}

/**
 * ST: personas.js lockPersona and unlockPersona: the persona in use locked to (or unlocked from) the chat
 * (chat_metadata.persona, through the metadata route: the chat does not travel), the character (a connection
 * in persona_descriptions[...].connections; others connected to it lose theirs unless
 * persona_allow_multi_connections) and as the default persona (ST's toggleDefaultPersona).
 */
async function editLocks(character, window_, shown) {
  const avatar = currentAvatar();
  const p = powerUser();
  const name = userName();
  const was = { chat: window_.header?.chat_metadata?.persona === avatar, character: lockedToCharacter(avatar, character.avatar),
    default: p.default_persona === avatar };
  const box = (id, checked, label) => {
    const input = el('input', { type: 'checkbox', id, checked });
    return [input, el('label.check', {}, input, el('span', {}, label))];
  };
  const [chat, chatRow] = box('lockChat', was.chat, 'Locked to this chat');
  const [char, charRow] = box('lockCharacter', was.character, `Locked to ${character.name} (chats with no lock of their own)`);
  const [def, defRow] = box('lockDefault', was.default, 'The default persona (chats with no other lock)');
  if (await dialog(`Lock ${name}`, el('div.form', {}, chatRow, charRow, defRow), [['Cancel', ''], ['Save', 'save', true]]) !== 'save') return;
  // ST: lockPersona makes the user a persona first (and the engine follows a chat's lock to a named persona only)
  const unnamed = p.personas[avatar] === undefined && (chat.checked || char.checked || def.checked);
  try {
    if (unnamed || char.checked !== was.character || def.checked !== was.default) {
      if (unnamed) initPersona(avatar, name, '');
      const d = descriptor(avatar);
      const others = (c) => !(c.type === 'character' && c.id === character.avatar);
      d.connections = (d.connections ?? []).filter(others);
      if (char.checked) {
        d.connections.push({ type: 'character', id: character.avatar });
        if (!p.persona_allow_multi_connections) {
          for (const [key, other] of Object.entries(p.persona_descriptions)) {
            if (key !== avatar && other.connections) other.connections = other.connections.filter(others);
          }
        }
      }
      if (def.checked) p.default_persona = avatar;
      else if (was.default) delete p.default_persona;
      await saveSettings();
    }
    if (chat.checked !== was.chat) {
      await postJson('/api/tankard/chats/metadata', { ...window_.ref, chat_metadata: { persona: chat.checked ? avatar : null } });
      await window_.load();
    }
    shown.textContent = `You: ${chatPersona(window_.header?.chat_metadata)}`;
    toast(`Saved the locks of ${name}`);
  } catch (e) { fail(`Cannot lock ${name}`, e); }
}

/** The chat page's "You: name" link to the personas page and its Lock button (window_: chat.js's ChatWindow). */
export function personaControls(character, window_) {
  const shown = el('a.grow', { href: '#/personas', id: 'persona', title: 'Pick or edit your persona' },
    `You: ${chatPersona(window_.header?.chat_metadata)}`);
  return el('div.row.persona', {}, shown, el('button', { type: 'button', id: 'personaLock',
    'aria-label': 'Lock your persona to this chat or character', onclick: () => editLocks(character, window_, shown) }, 'Lock'));
}

/** ST: personas.js initPersona. */
function initPersona(avatar, name, description) {
  const p = powerUser();
  p.personas[avatar] = name;
  p.persona_descriptions[avatar] = {
    description: description || '', position: IN_PROMPT, depth: DEFAULT_DEPTH, role: DEFAULT_ROLE, lorebook: '', title: '',
  };
}

/** A persona's entry in persona_descriptions, made as ST's personas.js lockPersona makes it when missing. */
function descriptor(avatar) {
  return powerUser().persona_descriptions[avatar] ??= {
    description: '', position: IN_PROMPT, depth: DEFAULT_DEPTH, role: DEFAULT_ROLE, lorebook: '', connections: [], title: '',
  };
}

/** ST: personas.js setUserAvatar with selectCurrentPersona and script.js setUserName. */
function pick(avatar) {
  const p = powerUser();
  state.settings.user_avatar = avatar;
  if (p.personas[avatar]) state.settings.username = p.personas[avatar];
  const d = descriptor(avatar);
  p.persona_description = d.description ?? '';
  p.persona_description_position = d.position ?? IN_PROMPT;
  p.persona_description_depth = d.depth ?? DEFAULT_DEPTH;
  p.persona_description_role = d.role ?? DEFAULT_ROLE;
  p.persona_description_lorebook = d.lorebook ?? '';
}

/**
 * A persona's name, description and where it goes, as ST's renamePersona, onPersonaDescriptionInput,
 * onPersonaDescriptionPositionInput, onPersonaDescriptionDepthValueInput and onPersonaDescriptionDepthRoleInput
 * change them: the persona's entry, and the copies in power_user for the one in use.
 */
function update(avatar, name, { description, position, depth, role }) {
  const p = powerUser();
  p.personas[avatar] = name;
  p.persona_descriptions[avatar] ??= { lorebook: '', title: '' };
  Object.assign(p.persona_descriptions[avatar], { description, position, depth, role });
  if (avatar === currentAvatar()) {
    state.settings.username = name;
    Object.assign(p, { persona_description: description, persona_description_position: position,
      persona_description_depth: depth, persona_description_role: role });
  }
}

/** Uploads an image for a persona (ST: changeUserAvatar); overwrite names the persona whose image it replaces. */
async function upload(file, overwrite) {
  const form = new FormData();
  form.append('avatar', file);
  if (overwrite) form.append('overwrite_name', overwrite);
  const answer = await postJson('/api/avatars/upload', form);
  if (overwrite) await fetch(thumbnail(overwrite, 'persona'), { cache: 'reload' }).catch(() => {}); // not the old one's
  return answer?.path ?? overwrite;
}

/** The image of a persona made without one: the user's user-default.png, as ST's createDummyPersona uploads. */
async function defaultImage() {
  const response = await fetch('/User%20Avatars/user-default.png');
  if (response.ok) return new File([await response.blob()], 'avatar.png', { type: 'image/png' });
  const canvas = Object.assign(document.createElement('canvas'), { width: 64, height: 64 }); // deleted: a plain one
  canvas.getContext('2d').fillRect(0, 0, 64, 64);
  return new File([await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'))], 'avatar.png', { type: 'image/png' });
}

/** ST: personas.js createDummyPersona (no image chosen) or changeUserAvatar then createPersona (one chosen). */
async function create(name, description, file) {
  let avatar;
  if (file) avatar = await upload(file);
  else {
    avatar = `${Date.now()}-${name.replace(/[^a-zA-Z0-9]/g, '')}.png`;
    await upload(await defaultImage(), avatar);
  }
  initPersona(avatar, name, description);
  await saveSettings();
  return avatar;
}

function imageInput(id) {
  return el('input', { type: 'file', id, accept: 'image/*' });
}

async function edit(avatar, redraw) {
  const p = powerUser();
  const named = p.personas[avatar] ?? (avatar === currentAvatar() ? userName() : '');
  const name = el('input', { id: 'personaName', value: named, required: true });
  const saved = p.persona_descriptions[avatar] ?? {};
  const description = el('textarea', { id: 'personaDescription', rows: 6, value: saved.description ?? '' });
  const position = selectOf('personaPosition', POSITIONS, saved.position ?? IN_PROMPT);
  const depth = el('input', { id: 'personaDepth', type: 'number', min: 0, max: 9999, value: saved.depth ?? DEFAULT_DEPTH });
  const role = selectOf('personaRole', ROLES, saved.role ?? DEFAULT_ROLE);
  const image = imageInput('personaImage');
  const body = el('div.form', {}, field('Name', name), field('Description', description),
    field('Where the description goes', position), depthRow(position, AT_DEPTH, depth, role),
    field('New image (optional)', image));
  if (await dialog(`Edit ${named || 'this persona'}`, body, [['Cancel', ''], ['Save', 'save', true]]) !== 'save') return;
  if (!name.value.trim()) { toast('A persona needs a name', 'error'); return; }
  try {
    if (image.files[0]) await upload(image.files[0], avatar);
    update(avatar, name.value.trim(), {
      description: description.value, position: Number(position.value), depth: Math.max(0, Number(depth.value) || 0), role: Number(role.value),
    });
    await saveSettings();
    toast(`Saved ${name.value.trim()}`);
  } catch (e) { fail('Cannot save the persona', e); }
  redraw();
}

/** ST: personas.js deletePersona, for one not in use (pick another first). */
async function remove(avatar, shown) {
  if (await dialog(`Delete ${shown}?`, el('p', {}, 'Its image, name and description are deleted.'),
    [['Cancel', ''], ['Delete', 'delete', true]]) !== 'delete') return false;
  try {
    await postJson('/api/avatars/delete', { avatar });
  } catch (e) {
    if (e.status !== 404) { fail('Cannot delete the persona', e); return false; } // no image: the rest still goes
  }
  const p = powerUser();
  delete p.personas[avatar];
  delete p.persona_descriptions[avatar];
  if (p.default_persona === avatar) p.default_persona = null;
  try {
    await saveSettings();
  } catch (e) { fail('Cannot delete the persona', e); }
  return true;
}

/** The characters ST connected a persona to (its "connections"), as their thumbnails. */
function connectionsOf(avatar) {
  const characters = (powerUser().persona_descriptions[avatar]?.connections ?? []).filter((c) => c.type === 'character');
  if (!characters.length) return null;
  return el('p.connections', {}, 'Locked to ', characters.map((c) => el('img', { src: thumbnail(c.id), alt: c.id.replace(/\.png$/, ''), title: c.id })));
}

/** ST: personas.js toggleDefaultPersona: the default persona of new chats and of chats with no other lock. */
async function toggleDefault(avatar, shown, redraw) {
  const p = powerUser();
  const unset = p.default_persona === avatar;
  const text = unset ? `${shown} is no longer used by default.` : `${shown} is used for new chats and chats not locked to another persona.`;
  if (await dialog(unset ? 'Remove the default persona?' : `Make ${shown} the default persona?`, el('p', {}, text),
    [['Cancel', ''], [unset ? 'Remove' : 'Make default', 'ok', true]]) !== 'ok') return;
  if (unset) delete p.default_persona;
  else p.default_persona = avatar;
  try {
    await saveSettings();
    toast(unset ? 'No default persona' : `Default persona: ${shown}`);
  } catch (e) { fail('Cannot set the default persona', e); }
  redraw();
}

/** #/personas: the user's personas, the picked one first; create, pick, edit, delete. */
export async function showPersonas(view) {
  const files = await postJson('/api/avatars/get', {}).catch(() => []);
  const section = el('section.page', {});
  view.append(section);

  function draw() {
    const p = powerUser();
    const current = currentAvatar();
    // every image is a persona, as ST's addMissingPersonas makes it: those without a name are listed unnamed
    const avatars = [...new Set([current, ...Object.keys(p.personas), ...files])]
      .sort((a, b) => (b === current) - (a === current) || String(p.personas[a] ?? a).localeCompare(String(p.personas[b] ?? b)));
    const name = el('input', { id: 'newPersonaName', required: true, autocomplete: 'off' });
    const description = el('textarea', { id: 'newPersonaDescription', rows: 3 });
    const image = imageInput('newPersonaImage');
    const form = el('form.form', { id: 'newPersona', onsubmit: async (e) => {
      e.preventDefault();
      if (!name.value.trim()) return;
      try {
        const avatar = await create(name.value.trim(), description.value, image.files[0]);
        files.push(avatar);
        toast(`Created ${name.value.trim()}`);
        draw();
      } catch (err) { fail('Cannot create the persona', err); }
    } }, el('h2', {}, 'New persona'), field('Name', name), field('Description', description),
    field('Image (optional)', image), el('div.actions', {}, el('button.primary', { type: 'submit', id: 'createPersona' }, 'Create')));

    section.replaceChildren(el('div.narrow', {},
      el('h1', {}, 'Personas'),
      el('p.muted', {}, 'Who you are in chats: the name your messages carry and the description the prompt gives the character.'),
      el('ul.personas', { id: 'personaList' }, avatars.map((avatar) => {
        const picked = avatar === current;
        const shown = p.personas[avatar] ?? (picked ? userName() : '[Unnamed Persona]');
        return el(picked ? 'li.current' : 'li', { dataset: { avatar } },
          files.includes(avatar) ? el('img', { src: thumbnail(avatar, 'persona'), alt: '' }) : el('span.noimage', { 'aria-hidden': 'true' }),
          el('div.grow', {}, el('b', {}, shown), p.default_persona === avatar ? el('span.muted', {}, ' · default persona') : null,
            el('p.muted', {}, p.persona_descriptions[avatar]?.description || 'No description'),
            connectionsOf(avatar)),
          el('div.actions', {},
            el('button', { type: 'button', 'aria-pressed': String(picked), 'aria-label': picked ? `In use: ${shown}` : `Use ${shown}`, disabled: picked, onclick: async () => {
              pick(avatar);
              try {
                await saveSettings();
                toast(`You are now ${userName()}`);
              } catch (e) { fail('Cannot pick the persona', e); }
              draw();
            } }, picked ? 'In use' : 'Use'),
            el('button', { type: 'button', 'aria-label': `Edit ${shown}`, onclick: () => edit(avatar, draw) }, 'Edit'),
            p.personas[avatar] === undefined ? null : el('button', { type: 'button', 'aria-pressed': String(p.default_persona === avatar),
              'aria-label': `Default persona: ${shown}`, onclick: () => toggleDefault(avatar, shown, draw) }, 'Default'),
            picked ? null : el('button.danger', { type: 'button', 'aria-label': `Delete ${shown}`, onclick: async () => {
              if (!await remove(avatar, shown)) return;
              if (files.includes(avatar)) files.splice(files.indexOf(avatar), 1);
              draw();
            } }, 'Delete')));
      })),
      form));
  }
  draw();
}
