// Character management: create (with an avatar) and edit, duplicate, delete (with or without the chats), export as
// PNG or JSON, import from a URL or a site's id, and a card's embedded lorebook imported as a world info book. Every
// call is the one ST's frontend makes (public/script.js, public/scripts/world-info.js), so the files stay ST's.
import { post, postJson } from './api.js';
import { saveSettings, state } from './state.js';
import { dialog, el, fail, field, saveDownload, thumbnail, toast } from './ui.js';

/** A card export (ST's `.export_format` click handler): the PNG with its data, or the card's JSON. */
export async function exportCard(avatar, format) {
  try {
    const response = await post('/api/characters/export', { format, avatar_url: avatar });
    saveDownload(await response.blob(), avatar.replace(/\.png$/, `.${format}`));
  } catch (e) {
    fail('Cannot export the card', e);
  }
}

/** ST's `DuplicateCharacter`: the server copies the card; answers the copy's avatar (null when it failed). */
export async function duplicateCard(avatar) {
  try {
    const answer = await postJson('/api/characters/duplicate', { avatar_url: avatar });
    if (!answer?.path) throw new Error(answer?.message ?? 'the server made no copy');
    toast(`Duplicated as ${answer.path}`);
    await copyTags(avatar, answer.path);
    return answer.path;
  } catch (e) {
    fail('Cannot duplicate the card', e);
    return null;
  }
}

/** The copy gets the card's tags in settings.json's `tag_map`, as ST's `copyTags` (public/scripts/tags.js) gives them. */
async function copyTags(from, to) {
  const tagMap = state.settings.tag_map;
  if (!tagMap?.[from]?.length) return;
  tagMap[to] = [...new Set([...tagMap[from], ...(tagMap[to] ?? [])])];
  await saveSettings().catch((e) => fail('Cannot give the copy its tags', e));
}

/** ST's `deleteCharacter` after its popup: asks, then deletes the card and, if ticked, its chats. */
export async function deleteCard(avatar, name) {
  const withChats = el('input', { type: 'checkbox', id: 'deleteChats' });
  const choice = await dialog(`Delete ${name}?`, el('div', {},
    el('p', {}, 'The card is removed from the library. This cannot be undone.'),
    el('label.check', {}, withChats, el('span', {}, 'Also delete its chats'))),
  [['Cancel', ''], ['Delete', 'delete', true]]);
  if (choice !== 'delete') return false;
  try {
    await postJson('/api/characters/delete', { avatar_url: avatar, delete_chats: withChats.checked });
  } catch (e) {
    fail('Cannot delete the card', e);
    return false;
  }
  toast(`Deleted ${name}`);
  await forgetCard(avatar);
  return true;
}

/**
 * What ST's `deleteCharacter` drops from settings.json with a card: its tags (`tag_map`) and what its account
 * storage remembers of it (the lorebook and regex offers, the media warning).
 */
async function forgetCard(avatar) {
  const settings = state.settings;
  const remembered = [`AlertWI_${avatar}`, `AlertRegex_${avatar}`, `mediaWarningShown:${avatar}`];
  if (!settings.tag_map?.[avatar] && !remembered.some((key) => settings.accountStorage?.[key])) return;
  delete settings.tag_map?.[avatar];
  for (const key of remembered) delete settings.accountStorage?.[key];
  await saveSettings().catch((e) => fail('Cannot save the settings', e));
}

/**
 * The editor's fields: [name in the form and in `data`, label, element, the key ST also keeps at the card's top
 * (its V1 fields; src/endpoints/characters.js, charaFormatData) or null when only in `data`, shown under "More"].
 */
const FIELDS = [
  ['name', 'Name', 'input', 'name'], ['description', 'Description', 'textarea', 'description'],
  ['personality', 'Personality', 'textarea', 'personality'], ['scenario', 'Scenario', 'textarea', 'scenario'],
  ['first_mes', 'First message', 'textarea', 'first_mes'], ['mes_example', 'Example dialogue', 'textarea', 'mes_example'],
  ['creator_notes', "Creator's notes", 'textarea', 'creatorcomment'],
  ['system_prompt', 'System prompt', 'textarea', null, true],
  ['post_history_instructions', 'Post-history instructions', 'textarea', null, true],
  ['creator', 'Creator', 'input', null, true], ['character_version', 'Version', 'input', null, true],
];

/**
 * What ST's `#form_create` sends beside the fields above when a card is made (public/index.html, and
 * `createOrEditCharacter` in public/script.js): the defaults of the fields this editor does not show.
 */
const NEW_CARD_DEFAULTS = {
  fav: 'false', talkativeness: '0.5', world: '', depth_prompt_prompt: '', depth_prompt_depth: '4',
  depth_prompt_role: 'system', extensions: '{}',
};

/** The alternate greetings as a list of boxes, one a greeting, with a button to add one and one to remove each. */
function greetingsEditor(greetings) {
  const list = el('ol.greetings', { id: 'greetings' });
  const add = (text) => {
    const item = el('li', {});
    const area = el('textarea', { rows: 2, value: text, 'aria-label': 'Alternate greeting' });
    item.append(area, el('button.link.danger', { type: 'button', 'aria-label': 'Remove this greeting', onclick: () => item.remove() }, 'remove'));
    list.append(item);
    return area;
  };
  greetings.forEach(add);
  return {
    node: el('fieldset.greetings', {}, el('legend', {}, 'Alternate greetings (swipes of the first message)'), list,
      el('button', { type: 'button', id: 'addGreeting', onclick: () => add('').focus() }, '+ Greeting')),
    values: () => [...list.querySelectorAll('textarea')].map((a) => a.value).filter((g) => g.trim()),
  };
}

/** Creates a card (avatar null) or edits one's fields and image; then calls done with the card's avatar. */
export async function editCard(avatar, done) {
  let card = {};
  if (avatar) {
    try {
      card = await postJson('/api/characters/get', { avatar_url: avatar });
    } catch (e) {
      fail('Cannot read the card', e);
      return;
    }
  }
  const inputs = {};
  const input = ([key, label, kind]) => {
    inputs[key] = el(kind, { name: key, value: card.data?.[key] ?? card[key] ?? '', rows: kind === 'textarea' ? 3 : undefined });
    return field(label, inputs[key]);
  };
  const image = el('input', { type: 'file', id: 'cardAvatar', name: 'avatar', accept: 'image/*' });
  const greetings = greetingsEditor(card.data?.alternate_greetings ?? []);
  const body = el('form', { id: 'cardForm', onsubmit: (e) => e.preventDefault() },
    field(avatar ? 'New image (leave empty to keep it)' : 'Image (optional)', image),
    FIELDS.filter((f) => !f[4]).map(input),
    field('Tags (comma-separated)', inputs.tags = el('input', { name: 'tags', value: (card.tags ?? card.data?.tags ?? []).join(', ') })),
    el('details', { id: 'moreFields' }, el('summary', {}, 'More: greetings, system prompt, creator'),
      greetings.node, FIELDS.filter((f) => f[4]).map(input)));
  const choice = await dialog(avatar ? `Edit ${card.name}` : 'New character', body, [['Cancel', ''], ['Save', 'save', true]]);
  if (choice !== 'save') return;
  const values = Object.fromEntries(FIELDS.map(([key]) => [key, inputs[key].value]));
  const tags = inputs.tags.value.split(',').map((t) => t.trim()).filter(Boolean);
  const alternate = greetings.values();
  if (!values.name.trim()) {
    toast('A character needs a name', 'error');
    return;
  }
  const file = image.files[0];
  try {
    let saved = avatar;
    if (avatar) {
      const top = Object.fromEntries(FIELDS.filter((f) => f[3]).map(([key, , , v1]) => [v1, values[key]]));
      await postJson('/api/characters/merge-attributes', {
        avatar, ...top, tags, data: { ...values, tags, alternate_greetings: alternate },
      });
      if (file) {
        await post('/api/characters/edit-avatar', formOf({ avatar_url: avatar }, file));
        await fetch(thumbnail(avatar), { cache: 'reload' }); // as ST: the cached thumbnail is the old image
      }
    } else {
      const { name, ...fields } = values;
      const form = formOf({ ...NEW_CARD_DEFAULTS, ch_name: name, ...fields, tags: tags.join(',') }, file);
      for (const greeting of alternate) form.append('alternate_greetings', greeting); // repeated, as ST's form
      saved = (await (await post('/api/characters/create', form)).text()).trim(); // the new card's avatar
    }
    toast(avatar ? 'Saved' : `Created ${values.name}`);
    done?.(saved);
  } catch (e) {
    fail('Cannot save the card', e);
  }
}

/** A multipart form of the fields, with the image (if any) as `avatar`, the field ST's routes read it from. */
function formOf(fields, file) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append('avatar', file);
  return form;
}

/** The file types /api/characters/import takes (src/endpoints/characters.js, the /import route). */
export const IMPORTABLE = ['png', 'json', 'charx', 'byaf', 'yaml', 'yml'];

/**
 * Imports one card file; answers its avatar. A refusal throws with the server's reason ({error: true, message}
 * is answered with status 400 by Tankard, with 200 by ST).
 */
export async function importCardFile(file) {
  const form = new FormData();
  form.append('avatar', file);
  form.append('file_type', file.name.split('.').pop().toLowerCase());
  const answer = await postJson('/api/characters/import', form);
  if (answer?.error || !answer?.file_name) {
    throw new Error(typeof answer?.error === 'string' ? answer.error : answer?.message ?? 'the card was refused');
  }
  return `${answer.file_name}.png`;
}

/**
 * ST's `importFromExternalUrl` (public/scripts/utils.js): a URL goes to /api/content/importURL, anything else (a
 * Chub path, a Pygmalion or JanitorAI id…) to importUUID; the server downloads it and hands it back as a file,
 * which is imported as a card or a lorebook by its X-Custom-Content-Type. Answers the card's avatar, if a card.
 */
export async function importFromUrl(text) {
  const url = text.trim();
  const isUrl = /^https?:\/\/\S+$/i.test(url);
  const response = await post(isUrl ? '/api/content/importURL' : '/api/content/importUUID', { url });
  const kind = response.headers.get('X-Custom-Content-Type');
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const name = decodeURIComponent(disposition.split('filename=')[1]?.replace(/"/g, '') || 'import.png');
  const blob = await response.blob();
  const file = new File([blob], name, { type: blob.type });
  if (kind === 'lorebook') {
    const form = new FormData();
    form.append('avatar', file);
    const answer = await postJson('/api/worldinfo/import', form);
    toast(`Imported the lorebook ${answer?.name ?? name}`);
    return null;
  }
  if (kind !== 'character') throw new Error(`the server sent unknown content (${kind ?? 'no type'})`);
  return importCardFile(file);
}

/** The dialog of "Import from URL"; answers the imported card's avatar (null: none). */
export async function askImportUrl() {
  const input = el('input', {
    type: 'text', id: 'importUrl', required: true, inputMode: 'url', autocomplete: 'off',
    placeholder: 'https://chub.ai/characters/… or creator/name',
  });
  const body = el('form', { onsubmit: (e) => { e.preventDefault(); input.closest('dialog').close('import'); } },
    field('A card or lorebook URL, or a Chub, Pygmalion, JanitorAI or AICC id', input),
    el('p.muted', {}, 'Chub, JanitorAI, Pygmalion, AICharacterCards, RisuAI Realm, Perchance, and hosts the '
      + 'server allows in whitelistImportDomains.'));
  const choice = await dialog('Import from URL', body, [['Cancel', ''], ['Import', 'import', true]]);
  if (choice !== 'import' || !input.value.trim()) return null;
  try {
    const avatar = await importFromUrl(input.value);
    if (avatar) toast(`Imported ${avatar.replace(/\.png$/, '')}`);
    return avatar;
  } catch (e) {
    fail(`Cannot import ${input.value.trim()}`, e);
    return null;
  }
}

// ---- the embedded lorebook (ST: public/scripts/world-info.js, checkEmbeddedWorld and importEmbeddedWorldInfo)

/** The book a card carries and the name ST imports it under, or null when it has none. */
export function embeddedBook(card) {
  const book = card?.data?.character_book;
  if (!book || !Array.isArray(book.entries)) return null;
  return { book, name: book.name || `${card.name}'s Lorebook` };
}

/** The names of the user's world info books. */
async function bookNames() {
  return ((await postJson('/api/worldinfo/list', {})) ?? []).map((b) => b.name);
}

/**
 * ST's `checkEmbeddedWorld`: a card's embedded lorebook is offered once per card (ST's account storage key
 * `AlertWI_<avatar>` in settings.json, so ST does not offer it again either), and not when the card links a book
 * that exists; with ST's `power_user.world_import_dialog` off, a note says where the button is instead.
 */
export async function offerEmbeddedBook(card) {
  const embedded = embeddedBook(card);
  const accountStorage = state.settings.accountStorage ??= {};
  const key = `AlertWI_${card.avatar}`;
  if (!embedded || accountStorage[key]) return false;
  try {
    const linked = card.data?.extensions?.world;
    if (linked && (await bookNames()).includes(linked)) return false;
    accountStorage[key] = 'true';
    await saveSettings();
  } catch (e) {
    fail('Cannot check the embedded lorebook', e);
    return false;
  }
  if (state.settings.power_user?.world_import_dialog === false) {
    toast(`${card.name} has an embedded lorebook: "Import card lore" beside the chat imports it`);
    return false;
  }
  return importEmbeddedBook(card, `${card.name} has an embedded lorebook`,
    `Import "${embedded.name}" as a world info book and link it to ${card.name}? `
    + 'You can do it later with "Import card lore" beside the chat.');
}

/** After an import: the card read once, and its lorebook offered (ST offers it when it selects the new card). */
export async function offerImportedBook(avatar) {
  try {
    const card = await postJson('/api/characters/get', { avatar_url: avatar });
    card.avatar ??= avatar;
    return await offerEmbeddedBook(card);
  } catch (e) {
    fail('Cannot read the imported card', e);
    return false;
  }
}

/**
 * ST's `importEmbeddedWorldInfo`: once confirmed (with a warning when a book of that name exists), writes the
 * card's book as a world info book (`/api/worldinfo/edit`, ST's `saveWorldInfo`) in ST's converted form, then
 * links it as the card's world (`data.extensions.world`, which ST sets through `#character_world`).
 */
export async function importEmbeddedBook(card, title, question) {
  const embedded = embeddedBook(card);
  if (!embedded) return false;
  try {
    const replaces = (await bookNames()).includes(embedded.name);
    const choice = await dialog(title ?? `Import "${embedded.name}"?`, el('div', {},
      el('p', {}, question ?? `It becomes a world info book linked to ${card.name}.`),
      replaces ? el('p.error', { id: 'replacesBook' }, `It replaces the book named "${embedded.name}".`) : null),
    [['Not now', ''], ['Import', 'import', true]]);
    if (choice !== 'import') return false;
    await postJson('/api/worldinfo/edit', { name: embedded.name, data: convertCharacterBook(embedded.book) });
    await postJson('/api/characters/merge-attributes', { avatar: card.avatar, data: { extensions: { world: embedded.name } } });
    toast(`The lorebook "${embedded.name}" was imported and linked to ${card.name}`);
    return true;
  } catch (e) {
    fail(`Cannot import the lorebook "${embedded.name}"`, e);
    return false;
  }
}

// ST's constants: world_info_position before/after, world_info_logic.AND_ANY, DEFAULT_DEPTH, DEFAULT_WEIGHT,
// extension_prompt_roles.SYSTEM (public/scripts/world-info.js, public/scripts/extensions.js)
const BEFORE_CHAR = 0;
const AFTER_CHAR = 1;
const AND_ANY = 0;
const DEPTH = 4;
const WEIGHT = 100;
const SYSTEM = 0;

/**
 * A character book (the V2 card spec) as a world info book, entry by entry as ST's `convertCharacterBook`, which
 * also gives the kept original's entries without an `id` their index.
 */
export function convertCharacterBook(book) {
  const entries = {};
  const original = { ...book, entries: book.entries.map((entry, index) => (entry.id === undefined ? { ...entry, id: index } : entry)) };
  original.entries.forEach((entry, index) => {
    const { id } = entry;
    const x = entry.extensions ?? {};
    entries[id] = {
      uid: id, key: entry.keys ?? [], keysecondary: entry.secondary_keys || [], comment: entry.comment || '',
      content: entry.content, constant: entry.constant || false, vectorized: x.vectorized ?? false,
      selective: entry.selective || false, selectiveLogic: x.selectiveLogic ?? AND_ANY, addMemo: !!entry.comment,
      order: entry.insertion_order, position: x.position ?? (entry.position === 'before_char' ? BEFORE_CHAR : AFTER_CHAR),
      disable: !entry.enabled, ignoreBudget: x.ignore_budget ?? false, excludeRecursion: x.exclude_recursion ?? false,
      preventRecursion: x.prevent_recursion ?? false, delayUntilRecursion: x.delay_until_recursion ?? false,
      matchPersonaDescription: x.match_persona_description ?? false,
      matchCharacterDescription: x.match_character_description ?? false,
      matchCharacterPersonality: x.match_character_personality ?? false,
      matchCharacterDepthPrompt: x.match_character_depth_prompt ?? false,
      matchScenario: x.match_scenario ?? false, matchCreatorNotes: x.match_creator_notes ?? false,
      probability: x.probability ?? 100, useProbability: x.useProbability ?? true, depth: x.depth ?? DEPTH,
      outletName: x.outlet_name ?? '', group: x.group ?? '', groupOverride: x.group_override ?? false,
      groupWeight: x.group_weight ?? WEIGHT, scanDepth: x.scan_depth ?? null, caseSensitive: x.case_sensitive ?? null,
      matchWholeWords: x.match_whole_words ?? null, useGroupScoring: x.use_group_scoring ?? null,
      automationId: x.automation_id ?? '', role: x.role ?? SYSTEM, sticky: x.sticky ?? null,
      cooldown: x.cooldown ?? null, delay: x.delay ?? null, triggers: x.triggers || [], displayIndex: x.display_index ?? index,
      extensions: x,
    };
  });
  return { entries, originalData: original };
}

/**
 * The character's buttons beside its chat: edit, duplicate, export, delete, and the embedded lorebook when it has
 * one. `changed(avatar)` is told of an edit (the card to show again) and `gone()` of a delete.
 */
export function characterActions(character, { changed, gone }) {
  const embedded = embeddedBook(character);
  return el('div.cardActions', { id: 'cardActions', role: 'group', 'aria-label': `Manage ${character.name}` },
    el('button', { type: 'button', id: 'editCard', onclick: () => editCard(character.avatar, () => changed(character.avatar)) }, 'Edit'),
    el('button', { type: 'button', id: 'duplicateCard', onclick: () => duplicateCard(character.avatar) }, 'Duplicate'),
    el('button', { type: 'button', id: 'exportPng', title: 'The card as a PNG with its data', onclick: () => exportCard(character.avatar, 'png') }, 'Export PNG'),
    el('button', { type: 'button', id: 'exportJson', title: "The card's data as JSON", onclick: () => exportCard(character.avatar, 'json') }, 'Export JSON'),
    embedded ? el('button', { type: 'button', id: 'importCardLore', title: `Import "${embedded.name}" as a world info book and link it`,
      onclick: () => importEmbeddedBook(character).then((done) => done && changed(character.avatar)) }, 'Import card lore') : null,
    el('button.danger', { type: 'button', id: 'deleteCard', onclick: async () => { if (await deleteCard(character.avatar, character.name)) gone(); } }, 'Delete'));
}
