// World info (lorebooks): the user's books in worlds/, their entries, and the links that make the server's engine
// read a book (global, the persona's, the character's or one of its extras, the chat's). Stored as ST's frontend
// stores them (public/scripts/world-info.js): a book is saved whole through /api/worldinfo/edit, as saveWorldInfo.
// #/worldinfo?book=Name, with avatar= and file= when opened from a chat (to link the book to its character and chat).
import { post, postJson, saveQueue } from './api.js';
import { saveSettings, state, userName } from './state.js';
import { dialog, el, fail, field, selectOf, toast } from './ui.js';
import { ROLES } from './note.js';

const PAGE = 100; // entry rows drawn at a time: a 1,000-entry book draws one page, then more on request
const SAVE_DELAY = 1000; // ms after the last change before the whole book is saved (ST: saveWorldDebounced)

// ST: world-info.js newWorldInfoEntryDefinition, the defaults of the fields its template keeps (DEFAULT_DEPTH 4,
// DEFAULT_WEIGHT 100, world_info_logic.AND_ANY)
const ENTRY_TEMPLATE = {
  key: [], keysecondary: [], comment: '', content: '', constant: false, vectorized: false, selective: true,
  selectiveLogic: 0, addMemo: false, order: 100, position: 0, disable: false, ignoreBudget: false,
  excludeRecursion: false, preventRecursion: false, matchPersonaDescription: false, matchCharacterDescription: false,
  matchCharacterPersonality: false, matchCharacterDepthPrompt: false, matchScenario: false, matchCreatorNotes: false,
  delayUntilRecursion: 0, probability: 100, useProbability: true, depth: 4, outletName: '', group: '',
  groupOverride: false, groupWeight: 100, scanDepth: null, caseSensitive: null, matchWholeWords: null,
  useGroupScoring: null, automationId: '', role: 0, sticky: null, cooldown: null, delay: null, triggers: [],
};
// ST: world_info_logic and the labels of its entry editor (index.html, selectiveLogic)
const LOGIC = [[0, 'AND ANY'], [3, 'AND ALL'], [1, 'NOT ALL'], [2, 'NOT ANY']];
// ST: the entry state select (handleEntryStateSelectorHelper): constant, normal (keys), vectorized
const STRATEGIES = [['normal', 'Keys: when a key is hit'], ['constant', 'Constant: always'], ['vectorized', 'Vectorized: when recalled']];
// ST: world_info_position and its position select (index.html), "@depth" once per role
const AT_DEPTH = 4;
const OUTLET = 7;
const POSITIONS = [['0', 'Before the character definitions'], ['1', 'After the character definitions'],
  ['5', 'Before the example messages'], ['6', 'After the example messages'], ['2', "At the top of the author's note"],
  ['3', "At the bottom of the author's note"], ...ROLES.map(([role, name]) => [`${AT_DEPTH}:${role}`, `In the chat at a depth, as ${name}`]),
  [String(OUTLET), 'Outlet ({{outlet::name}} macro)']];

// a key list's next token: a /regex/flags standing alone (its commas kept), else the text up to a comma
const KEY_TOKEN = /\s*(\/(?:\\.|[^\\/])+\/[a-z]*(?=\s*(?:,|$))|[^,]*)\s*(?:,|$)/gy;

function isRegex(token) {
  const parts = /^\/(.+)\/([a-z]*)$/s.exec(token);
  if (!parts) return false;
  try {
    return !!new RegExp(parts[1], parts[2]);
  } catch {
    return false;
  }
}

/** Typed keys as ST's splitKeywordsAndRegexes reads them: comma-separated, trimmed, a valid /regex/ kept whole. */
function keysOf(text) {
  const keys = [];
  KEY_TOKEN.lastIndex = 0;
  for (let match; KEY_TOKEN.lastIndex < text.length && (match = KEY_TOKEN.exec(text));) {
    const token = match[1].trim();
    keys.push(...(token.startsWith('/') && !isRegex(token) ? token.split(',').map((k) => k.trim()) : [token]));
  }
  return keys.filter(Boolean);
}

/** ST: getFreeWorldEntryUid, the lowest uid not taken. */
function freeUid(book) {
  let uid = 0;
  while (uid in book.entries) uid++;
  return uid;
}

function entryTitle(entry) {
  return entry.comment?.trim() || (entry.key ?? []).join(', ') || `Entry ${entry.uid}`;
}

async function bookNames() {
  const books = await postJson('/api/worldinfo/list', {});
  return (books ?? []).map((b) => String(b.file_id));
}

/** settings.json's world_info_settings (ST: getWorldInfoSettings), or the settings themselves where ST reads them so. */
function activationSettings() {
  return state.settings.world_info_settings ?? state.settings; // ST: setWorldInfoSettings's fallback
}

/** settings.json's world_info_settings.world_info, made an object with globalSelect. */
function worldInfoSettings() {
  const nested = activationSettings();
  if (Array.isArray(nested.world_info)) nested.world_info = { globalSelect: nested.world_info }; // ST's old form
  if (!nested.world_info || typeof nested.world_info !== 'object') nested.world_info = {};
  nested.world_info.globalSelect ??= [];
  return nested.world_info;
}

/**
 * The book's name replaced (newName) or dropped (null) where settings.json names it: the global selection, the
 * characters' extra books and the persona's lorebook (ST: deleteWorldInfo and the delete button's charLore loop,
 * updateWorldInfoLinks).
 */
async function relinkSettings(oldName, newName) {
  const worldInfo = worldInfoSettings();
  const swap = (names) => [...new Set(names.flatMap((n) => (n === oldName ? (newName ? [newName] : []) : [n])))];
  worldInfo.globalSelect = swap(worldInfo.globalSelect);
  if (Array.isArray(worldInfo.charLore)) {
    for (const lore of worldInfo.charLore) lore.extraBooks = swap(lore.extraBooks ?? []);
    worldInfo.charLore = worldInfo.charLore.filter((lore) => lore.extraBooks.length);
  }
  if (state.settings.power_user?.persona_description_lorebook === oldName) setPersonaLorebook(newName ?? '');
  await saveSettings();
}

/** The extra books of a character (ST: world_info.charLore, keyed by the avatar's file name without extension). */
function extraBooksOf(avatar) {
  return worldInfoSettings().charLore?.find((lore) => lore.name === avatar.replace(/\.[^.]*$/, ''))?.extraBooks ?? [];
}

/** ST: updateAuxBooks: the character's extra books set, its charLore item dropped when none is left. */
function setExtraBooks(avatar, books) {
  const worldInfo = worldInfoSettings();
  const name = avatar.replace(/\.[^.]*$/, '');
  const others = (worldInfo.charLore ?? []).filter((lore) => lore.name !== name);
  worldInfo.charLore = books.length ? [...others, { name, extraBooks: books }] : others;
}

/** ST: personas.js's lorebook select: the persona in use's lorebook, also in its descriptor if it has a name. */
function setPersonaLorebook(name) {
  const powerUser = state.settings.power_user ??= {};
  powerUser.persona_description_lorebook = name;
  const avatar = state.settings.user_avatar;
  if (powerUser.personas?.[avatar]) {
    powerUser.persona_descriptions ??= {};
    powerUser.persona_descriptions[avatar] = { ...powerUser.persona_descriptions[avatar], lorebook: name };
  }
}

/** The chat the page was opened from: its character's card and the chat's metadata (null without one). */
async function contextOf(params) {
  const avatar = params.get('avatar');
  const file = params.get('file');
  if (!avatar) return null;
  const character = await postJson('/api/characters/get', { avatar_url: avatar });
  const chat = file ? { avatar_url: avatar, file_name: file } : null;
  // a chat deleted meanwhile leaves the character's link
  const header = chat ? await postJson('/api/tankard/chats/tail', { ...chat, count: 0 }).then((a) => a.header, () => null) : null;
  return header ? { avatar, file, character, chat, metadata: header.chat_metadata ?? {} } : { avatar, file, character, chat: null };
}

function link(params, book) {
  const next = new URLSearchParams(params);
  if (book) next.set('book', book);
  else next.delete('book');
  return `#/worldinfo?${next}`;
}

/** Shows the page for `book` (null: the first), drawn again when the address stays the same (a deleted book). */
function show(params, book) {
  const hash = link(params, book);
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}

/** Asks for a book's name; null when cancelled. */
async function askName(title, value) {
  const input = el('input', { id: 'wiBookName', value, required: true, autocomplete: 'off' });
  const body = el('div.form', {}, field('Name', input));
  setTimeout(() => input.select());
  return await dialog(title, body, [['Cancel', ''], ['OK', 'ok', true]]) === 'ok' ? input.value.trim() || null : null;
}

export async function showWorldInfo(view, params) {
  const names = await bookNames();
  const name = names.includes(params.get('book')) ? params.get('book') : names[0] ?? null;
  const context = await contextOf(params);
  const book = name ? await postJson('/api/worldinfo/get', { name }) : null;
  const editor = book ? new BookEditor(name, book) : null;
  const page = el('div.narrow.worldinfo');
  view.append(el('section.page', {}, page));
  page.append(el('h1', {}, 'World info'), bookBar(names, name, editor, params, context), activationBox());
  if (editor) page.append(linksBox(name, context), editor.element);
  else page.append(el('p.muted', { id: 'wiEmpty' }, 'No lorebooks yet: make a new one or import one.'));
}

// ST's global activation settings (index.html's world info panel): [key, label, kind, default, min, max]
const ACTIVATION = [
  ['world_info_depth', 'Scan depth (messages)', 'number', 2, 0, 1000],
  ['world_info_budget', 'Context budget (%)', 'number', 25, 1, 100],
  ['world_info_budget_cap', 'Budget cap (tokens, 0: none)', 'number', 0, 0, 65536],
  ['world_info_min_activations', 'Minimum activations (0: off)', 'number', 0, 0, 100],
  ['world_info_min_activations_depth_max', 'Maximum depth for minimum activations (0: unlimited)', 'number', 0, 0, 100],
  ['world_info_max_recursion_steps', 'Maximum recursion steps (0: unlimited)', 'number', 0, 0, 10],
  ['world_info_recursive', 'Recursive scan', 'boolean', false],
  ['world_info_case_sensitive', 'Case-sensitive keys', 'boolean', false],
  ['world_info_match_whole_words', 'Match whole words', 'boolean', false],
  ['world_info_include_names', 'Include names in the scan', 'boolean', true],
  ['world_info_use_group_scoring', 'Use group scoring', 'boolean', false],
  ['world_info_overflow_alert', 'Alert on budget overflow', 'boolean', false],
];
// ST: world_info_insertion_strategy
const STRATEGY = [[0, 'Sorted evenly'], [1, 'Character lore first'], [2, 'Global lore first']];

/** The settings every book is scanned with, kept where ST keeps them; saved on each change. */
function activationBox() {
  const settings = activationSettings();
  const save = async () => {
    try {
      await saveSettings();
      toast('Activation settings saved');
    } catch (e) { fail('Cannot save the activation settings', e); }
  };
  const controls = ACTIVATION.map(([key, label, kind, fallback, min, max]) => {
    const id = key.replace(/^world_info_/, 'wiSet_');
    if (kind === 'boolean') {
      return el('label.check', {}, el('input', { id, type: 'checkbox', checked: settings[key] ?? fallback,
        onchange: (e) => { settings[key] = e.target.checked; save(); } }), ` ${label}`);
    }
    return field(label, el('input', { id, type: 'number', min, max, value: settings[key] ?? fallback, onchange: (e) => {
      const value = Number(e.target.value);
      settings[key] = e.target.value !== '' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
      e.target.value = settings[key];
      save();
    } }));
  });
  const strategy = selectOf('wiSet_character_strategy', STRATEGY, settings.world_info_character_strategy ?? 1);
  strategy.addEventListener('change', () => { settings.world_info_character_strategy = Number(strategy.value); save(); });
  return el('details.activation', { id: 'wiActivation' }, el('summary', {}, 'Activation settings (every lorebook)'),
    el('div.form', {}, ...controls, field('Insertion strategy', strategy)));
}

/** The book picker and the book's actions: new, rename, delete, import, export. */
function bookBar(names, name, editor, params, context) {
  const book = editor?.book;
  const picker = selectOf('wiBook', names.map((n) => [n, n]), name);
  picker.addEventListener('change', () => show(params, picker.value));
  const importer = el('input', { id: 'wiImport', type: 'file', accept: '.json,application/json', hidden: true });
  importer.addEventListener('change', () => importBook(importer.files[0], names, params).finally(() => { importer.value = ''; }));

  async function create() {
    const wanted = await askName('New lorebook', 'New World');
    if (!wanted) return;
    if (names.includes(wanted)) return fail('Cannot make the lorebook', `"${wanted}" exists already`);
    try {
      await postJson('/api/worldinfo/edit', { name: wanted, data: { entries: {} } }); // ST: createNewWorldInfo
      show(params, wanted);
    } catch (e) { fail('Cannot make the lorebook', e); }
  }

  // ST: renameWorldInfo: saved under the new name, the old deleted, the links moved
  async function rename() {
    const wanted = await askName('Rename lorebook', name);
    if (!wanted || wanted === name) return;
    if (names.some((n) => n.localeCompare(wanted, undefined, { sensitivity: 'base' }) === 0)) {
      return fail('Cannot rename the lorebook', `"${wanted}" exists already`);
    }
    try {
      await editor.close();
      await postJson('/api/worldinfo/edit', { name: wanted, data: book });
      await postJson('/api/worldinfo/delete', { name });
      await relinkSettings(name, wanted);
      if (context?.metadata?.world_info === name) await linkChat(context, wanted);
      await relinkCharacters(name, wanted);
      toast(`Renamed to ${wanted}`);
      show(params, wanted);
    } catch (e) { fail('Cannot rename the lorebook', e); }
  }

  // ST: the duplicate button: the book saved whole under a new name, "Name (1)" offered (getFreeWorldName)
  async function duplicate() {
    const base = name.replace(/\s*\(\d+\)$/, '');
    let index = 1;
    while (names.includes(`${base} (${index})`)) index++;
    const wanted = await askName('Duplicate lorebook', `${base} (${index})`);
    if (!wanted) return;
    if (names.includes(wanted)) return fail('Cannot duplicate the lorebook', `"${wanted}" exists already`);
    try {
      await editor.close();
      await postJson('/api/worldinfo/edit', { name: wanted, data: book });
      show(params, wanted);
    } catch (e) { fail('Cannot duplicate the lorebook', e); }
  }

  async function remove() {
    const body = el('p', {}, `Delete the lorebook "${name}" and its ${Object.keys(book.entries).length} entries? This cannot be undone.`);
    if (await dialog('Delete lorebook', body, [['Cancel', ''], ['Delete', 'delete', true]]) !== 'delete') return;
    try {
      await editor.close();
      await postJson('/api/worldinfo/delete', { name });
      await relinkSettings(name, null);
      toast(`Deleted ${name}`);
      show(params, null);
    } catch (e) { fail('Cannot delete the lorebook', e); }
  }

  // ST: the export button downloads the book as JSON under its name
  function exportBook() {
    const url = URL.createObjectURL(new Blob([JSON.stringify(book)], { type: 'application/json' }));
    const a = el('a', { href: url, download: `${name}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  return el('div.row.books', {},
    el('div.grow', {}, field('Lorebook', picker)),
    el('div.row', { role: 'group', 'aria-label': 'Lorebook actions' },
      el('button', { type: 'button', id: 'wiNewBook', onclick: create }, 'New'),
      el('button', { type: 'button', id: 'wiImportButton', onclick: () => importer.click() }, 'Import'), importer,
      name ? el('button', { type: 'button', id: 'wiRename', onclick: rename }, 'Rename') : null,
      name ? el('button', { type: 'button', id: 'wiDuplicate', onclick: duplicate }, 'Duplicate') : null,
      name ? el('button', { type: 'button', id: 'wiExport', onclick: exportBook }, 'Export') : null,
      name ? el('button.danger', { type: 'button', id: 'wiDelete', onclick: remove }, 'Delete') : null));
}

/** ST: importWorldInfo for JSON books: the file under its own name, after asking before replacing one. */
async function importBook(file, names, params) {
  if (!file) return;
  const wanted = file.name.replace(/\.[^.]*$/, '');
  if (names.includes(wanted)) {
    const body = el('p', {}, `A lorebook "${wanted}" exists already. Replace it?`);
    if (await dialog('Import lorebook', body, [['Cancel', ''], ['Replace', 'replace', true]]) !== 'replace') return;
  }
  try {
    const form = new FormData();
    form.append('avatar', file);
    const answer = await postJson('/api/worldinfo/import', form);
    toast(`Imported ${answer.name}`);
    show(params, answer.name);
  } catch (e) { fail(`Cannot import ${file.name}`, e); }
}

/** ST: updateWorldInfoLinks: asks, then links the characters whose lorebook the renamed book was to its new name. */
async function relinkCharacters(oldName, newName) {
  const characters = await postJson('/api/characters/all', {}); // shallow cards keep data.extensions.world
  const linked = characters.filter((c) => c.data?.extensions?.world === oldName);
  if (!linked.length) return;
  const body = el('p', {}, `It is the lorebook of ${linked.map((c) => c.name).join(', ')}. Link them to "${newName}" too?`);
  if (await dialog('Lorebook renamed', body, [['No', ''], ['Link them', 'relink', true]]) !== 'relink') return;
  for (const character of linked) {
    await postJson('/api/characters/merge-attributes', { avatar: character.avatar, data: { extensions: { world: newName } } });
  }
}

async function linkCharacter(context, world) {
  await postJson('/api/characters/merge-attributes', { avatar: context.avatar, data: { extensions: { world } } });
  context.character.data ??= {};
  context.character.data.extensions = { ...context.character.data.extensions, world };
}

async function linkChat(context, world) {
  // ST's assignLorebookToChat deletes the key to unlink: null asks the route to remove it
  await postJson('/api/tankard/chats/metadata', { ...context.chat, chat_metadata: { world_info: world } });
  context.metadata.world_info = world;
}

/** Which chats read the book: every chat (global), the character's (its card's world), this chat (its metadata). */
function linksBox(name, context) {
  const checkbox = (id, checked, onchange) => el('input', { id, type: 'checkbox', checked, onchange });
  const saving = (what, work) => async (e) => {
    const box = e.target;
    box.disabled = true;
    try {
      await work(box.checked);
      toast(box.checked ? `Linked: ${what}` : `Unlinked: ${what}`);
    } catch (error) {
      box.checked = !box.checked;
      fail(`Cannot change the link (${what})`, error);
    }
    box.disabled = false;
  };
  const global = checkbox('wiGlobal', worldInfoSettings().globalSelect.includes(name), saving('every chat', async (on) => {
    const worldInfo = worldInfoSettings();
    worldInfo.globalSelect = on ? [...new Set([...worldInfo.globalSelect, name])] : worldInfo.globalSelect.filter((n) => n !== name);
    await saveSettings();
  }));
  const persona = checkbox('wiPersona', state.settings.power_user?.persona_description_lorebook === name, saving('your persona', async (on) => {
    setPersonaLorebook(on ? name : '');
    await saveSettings();
  }));
  const rows = [el('label.check', {}, global, ' Active in every chat (global)'),
    el('label.check', {}, persona, ` The lorebook of your persona (${userName()})`)];
  if (context) {
    const { avatar, character } = context;
    const linked = character?.data?.extensions?.world === name;
    rows.push(el('label.check', {}, checkbox('wiCharacter', linked, saving(character.name, (on) => linkCharacter(context, on ? name : ''))),
      ` The lorebook of ${character.name}`));
    const extra = checkbox('wiCharacterExtra', extraBooksOf(avatar).includes(name), saving(`an extra of ${character.name}`, async (on) => {
      const others = extraBooksOf(avatar).filter((n) => n !== name);
      setExtraBooks(avatar, on ? [...others, name] : others);
      await saveSettings();
    }));
    rows.push(el('label.check', {}, extra, ` An additional lorebook of ${character.name}`));
    if (context.chat) {
      rows.push(el('label.check', {}, checkbox('wiChat', context.metadata.world_info === name,
        saving('this chat', (on) => linkChat(context, on ? name : null))), ` The lorebook of this chat (${context.file})`));
    }
    rows.push(el('p', {}, el('a', { id: 'wiBack', href: `#/chat?${new URLSearchParams({ avatar: context.avatar, ...(context.file ? { file: context.file } : {}) })}` },
      `Back to the chat with ${context.character.name}`)));
  } else {
    rows.push(el('p.muted', {}, 'To link it to a character or a chat, open this page from the chat ("Lorebooks" beside it).'));
  }
  return el('fieldset.links', { id: 'wiLinks' }, el('legend', {}, 'Used in'), rows);
}

/** The entries of one book: a filtered, paged list of collapsed rows, one opened for editing; saved debounced. */
class BookEditor {
  constructor(name, book) {
    this.name = name;
    this.book = book;
    this.book.entries ??= {};
    this.shown = PAGE;
    this.opened = null; // the uid being edited
    this.timer = null;
    this.saves = saveQueue();
    this.saving = Promise.resolve(); // the last save, its failure told
    this.search = el('input', { id: 'wiSearch', type: 'search', placeholder: 'Title, keys or content', autocomplete: 'off' });
    this.search.addEventListener('input', () => { this.shown = PAGE; this.draw(); });
    this.status = el('span.muted', { id: 'wiStatus', role: 'status' }, 'All changes saved');
    this.list = el('ul.entries', { id: 'wiEntries' });
    this.more = el('button', { type: 'button', id: 'wiMore', onclick: () => { this.shown += PAGE; this.draw(); } });
    this.count = el('span.muted', { id: 'wiCount' });
    this.element = el('section', { 'aria-label': 'Entries' },
      el('div.row.tools', {}, el('h2.grow', {}, 'Entries'), this.count,
        el('button', { type: 'button', id: 'wiNewEntry', onclick: () => this.add() }, '+ New entry')),
      field('Search the entries', this.search),
      el('div.row', {}, this.status, el('button', { type: 'button', id: 'wiSave', onclick: () => this.saveNow() }, 'Save now')),
      this.list, this.more);
    // leaving the page saves what is pending (the router replaces the view on a hash change)
    this.leave = () => this.close();
    window.addEventListener('hashchange', this.leave);
    this.draw();
  }

  /** Saves what is pending and stops: the book is renamed, deleted or left. */
  async close() {
    window.removeEventListener('hashchange', this.leave);
    await this.saveNow();
  }

  entries() {
    // ST lists in its custom order (displayIndex, else the uid)
    return Object.values(this.book.entries).filter((e) => e && typeof e === 'object')
      .sort((a, b) => (a.displayIndex ?? a.uid) - (b.displayIndex ?? b.uid));
  }

  matching() {
    const words = this.search.value.trim().toLowerCase();
    const all = this.entries();
    if (!words) return all;
    return all.filter((e) => [e.comment, e.content, ...(e.key ?? []), ...(e.keysecondary ?? [])]
      .some((text) => String(text ?? '').toLowerCase().includes(words)));
  }

  draw() {
    const matching = this.matching();
    const page = matching.slice(0, this.shown);
    const open = this.book.entries[this.opened];
    if (open && !page.includes(open)) page.unshift(open); // a new entry shows, whatever the filter and page
    this.list.replaceChildren(...page.map((entry) => this.row(entry)));
    const total = Object.keys(this.book.entries).length;
    this.count.textContent = `${Math.min(this.shown, matching.length)} shown of ${matching.length}`
      + (matching.length < total ? ` (${total} in the book)` : '');
    this.more.hidden = matching.length <= this.shown;
    this.more.textContent = `Show ${Math.min(PAGE, matching.length - this.shown)} more`;
  }

  row(entry) {
    return el('li', { dataset: { uid: entry.uid } }, this.rowButton(entry), entry.uid === this.opened ? this.form(entry) : null);
  }

  /** The collapsed row: title, keys (or "constant") and "off"; it opens or closes the entry's form. */
  rowButton(entry) {
    const isOpen = entry.uid === this.opened;
    const summary = el('span.keys', {}, entry.constant ? 'constant' : (entry.key ?? []).join(', '));
    return el('button.entry', {
      type: 'button', 'aria-expanded': String(isOpen),
      onclick: () => { this.opened = isOpen ? null : entry.uid; this.draw(); if (!isOpen) this.list.querySelector('#wiTitle')?.focus(); },
    }, el('b', {}, entryTitle(entry)), summary, entry.disable ? el('span.off', {}, 'off') : null);
  }

  /** The opened entry's fields; each change goes into the book at once and the book is saved a moment later. */
  form(entry) {
    const changed = () => {
      this.changed();
      const row = this.list.querySelector(`li[data-uid="${entry.uid}"] > button`);
      row?.replaceWith(this.rowButton(entry));
    };
    const bind = (input, read) => {
      input.addEventListener(input.tagName === 'SELECT' || input.type === 'checkbox' ? 'change' : 'input', () => { read(input); changed(); });
      return input;
    };
    const number = (value, fallback) => (Number.isFinite(Number(value)) && value !== '' ? Number(value) : fallback);
    const title = bind(el('input', { id: 'wiTitle', value: entry.comment ?? '' }), (i) => { entry.comment = i.value; });
    const keys = bind(el('input', { id: 'wiKeys', value: (entry.key ?? []).join(', ') }), (i) => { entry.key = keysOf(i.value); });
    const secondary = bind(el('input', { id: 'wiSecondary', value: (entry.keysecondary ?? []).join(', ') }), (i) => { entry.keysecondary = keysOf(i.value); });
    const logic = bind(selectOf('wiLogic', LOGIC, entry.selectiveLogic ?? 0), (i) => { entry.selectiveLogic = Number(i.value); });
    const content = bind(el('textarea', { id: 'wiContent', rows: 6, value: entry.content ?? '' }), (i) => { entry.content = i.value; });
    const strategyNow = entry.constant ? 'constant' : entry.vectorized ? 'vectorized' : 'normal';
    const strategy = bind(selectOf('wiStrategy', STRATEGIES, strategyNow), (i) => {
      entry.constant = i.value === 'constant';
      entry.vectorized = i.value === 'vectorized';
    });
    const positionNow = entry.position === AT_DEPTH ? `${AT_DEPTH}:${entry.role ?? 0}` : String(entry.position ?? 0);
    const position = bind(selectOf('wiPosition', POSITIONS, positionNow), (i) => {
      const [where, role] = i.value.split(':');
      entry.position = Number(where);
      if (role !== undefined) entry.role = Number(role);
      showFor();
    });
    const depth = bind(el('input', { id: 'wiDepth', type: 'number', min: 0, max: 1000, value: entry.depth ?? 4 }), (i) => { entry.depth = number(i.value, 4); });
    const outlet = bind(el('input', { id: 'wiOutlet', value: entry.outletName ?? '' }), (i) => { entry.outletName = i.value; });
    const order = bind(el('input', { id: 'wiOrder', type: 'number', min: 0, max: 10000, value: entry.order ?? 100 }), (i) => { entry.order = number(i.value, 100); });
    const probability = bind(el('input', { id: 'wiProbability', type: 'number', min: 0, max: 100, value: entry.probability ?? 100 }),
      (i) => { entry.probability = Math.min(100, Math.max(0, number(i.value, 100))); });
    const useProbability = bind(el('input', { id: 'wiUseProbability', type: 'checkbox', checked: entry.useProbability !== false }), (i) => { entry.useProbability = i.checked; });
    const disabled = bind(el('input', { id: 'wiDisabled', type: 'checkbox', checked: !!entry.disable }), (i) => { entry.disable = i.checked; });
    const more = this.moreOptions(entry, bind);
    const depthField = field('Depth (messages from the end)', depth);
    const outletField = field('Outlet name', outlet);
    function showFor() {
      depthField.hidden = entry.position !== AT_DEPTH;
      outletField.hidden = entry.position !== OUTLET;
    }
    showFor();
    return el('div.form.entry-form', { id: 'wiEntryForm' },
      field('Title (memo)', title),
      field('Primary keys (comma-separated, /regex/ allowed)', keys),
      el('div.row', {}, el('div.grow', {}, field('Secondary keys (comma-separated, /regex/ allowed)', secondary)), field('Secondary logic', logic)),
      field('Content', content),
      el('div.row', {}, el('div.grow', {}, field('Strategy', strategy)), el('div.grow', {}, field('Position', position))),
      el('div.row', {}, depthField, outletField, field('Order', order), field('Probability (%)', probability)),
      el('div.row', {}, el('label.check', {}, useProbability, ' Use the probability'), el('label.check', {}, disabled, ' Disabled')),
      more,
      el('div.row', {}, el('button.danger', { type: 'button', id: 'wiDeleteEntry', onclick: () => this.remove(entry) }, 'Delete entry')));
  }

  /**
   * The entry's less used fields, folded: matching (scan depth, case, whole words: empty or "global" is null, ST's
   * "use the global setting"), recursion, budget, inclusion group, and the timed effects (sticky, cooldown, delay).
   */
  moreOptions(entry, bind) {
    const orNull = (value) => (value === '' || !Number.isFinite(Number(value)) ? null : Number(value));
    const nullableNumber = (id, key, label) => field(label, bind(el('input', { id, type: 'number', min: 0, value: entry[key] ?? '', placeholder: 'none' }),
      (i) => { entry[key] = orNull(i.value); }));
    const tristate = (id, key, label) => field(label, bind(selectOf(id, [['', 'Use the global setting'], ['true', 'Yes'], ['false', 'No']],
      entry[key] === null || entry[key] === undefined ? '' : String(entry[key])), (i) => { entry[key] = i.value === '' ? null : i.value === 'true'; }));
    const flag = (id, key, label) => el('label.check', {}, bind(el('input', { id, type: 'checkbox', checked: !!entry[key] }),
      (i) => { entry[key] = i.checked; }), ` ${label}`);
    const group = bind(el('input', { id: 'wiGroup', value: entry.group ?? '' }), (i) => { entry.group = i.value; });
    const weight = bind(el('input', { id: 'wiGroupWeight', type: 'number', min: 1, value: entry.groupWeight ?? 100 }),
      (i) => { entry.groupWeight = orNull(i.value) ?? 100; });
    return el('details.more', {}, el('summary', {}, 'More options'),
      el('div.row', {}, nullableNumber('wiScanDepth', 'scanDepth', 'Scan depth (empty: global)'),
        tristate('wiCaseSensitive', 'caseSensitive', 'Case-sensitive'), tristate('wiWholeWords', 'matchWholeWords', 'Whole words')),
      el('div.row', {}, flag('wiExcludeRecursion', 'excludeRecursion', 'Non-recursable'),
        flag('wiPreventRecursion', 'preventRecursion', 'Prevent further recursion'), flag('wiIgnoreBudget', 'ignoreBudget', 'Ignore the budget')),
      el('div.row', {}, el('div.grow', {}, field('Inclusion group', group)), field('Group weight', weight)),
      el('div.row', {}, nullableNumber('wiSticky', 'sticky', 'Sticky (messages)'), nullableNumber('wiCooldown', 'cooldown', 'Cooldown (messages)'),
        nullableNumber('wiDelay', 'delay', 'Delay (messages)')));
  }

  /** ST: createWorldInfoEntry: the lowest free uid and the template's defaults. */
  add() {
    const uid = freeUid(this.book);
    this.book.entries[uid] = { uid, ...structuredClone(ENTRY_TEMPLATE) };
    this.opened = uid;
    this.changed();
    this.draw();
    this.list.querySelector('#wiTitle')?.focus();
  }

  async remove(entry) {
    const body = el('p', {}, `Delete the entry "${entryTitle(entry)}"? This cannot be undone.`);
    if (await dialog('Delete entry', body, [['Cancel', ''], ['Delete', 'delete', true]]) !== 'delete') return;
    delete this.book.entries[entry.uid]; // ST: deleteWorldInfoEntry
    this.opened = null;
    this.draw();
    this.changed();
    await this.saveNow();
  }

  changed() {
    this.status.textContent = 'Unsaved changes';
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.saveNow(), SAVE_DELAY);
  }

  /** Saves the book whole, as ST's saveWorldInfo; saves run one after another. */
  saveNow() {
    if (this.timer === null) return this.saving;
    clearTimeout(this.timer);
    this.timer = null;
    this.status.textContent = 'Saving…';
    this.saving = this.saves(() => post('/api/worldinfo/edit', { name: this.name, data: this.book })).then((last) => {
      if (last && this.timer === null) this.status.textContent = 'All changes saved'; // no change waits either
    }, (e) => {
      this.status.textContent = 'Not saved';
      fail(`Cannot save the lorebook ${this.name}`, e);
    });
    return this.saving;
  }
}
