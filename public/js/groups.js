// Group chats, kept where and as ST 1.18's frontend keeps them (public/scripts/group-chats.js): the group's JSON
// through /api/groups/create, edit and delete, its chats through /api/chats/group/*. The page #/groups lists the
// groups and makes one; #/groups?id= edits one. Who speaks in a round is decided here, as ST's frontend decides it
// (generateGroupWrapper and its activate* functions); each member's reply then comes from the server's engine.
import { postJson, saveQueue } from './api.js';
import { humanizedDateTime, substitute } from './state.js';
import { debounce, dialog, el, fail, field, selectOf, thumbnail, toast } from './ui.js';

/** ST's group_activation_strategy. */
const STRATEGY = { NATURAL: 0, LIST: 1, MANUAL: 2, POOLED: 3 };
/** ST's group_generation_mode: swap the card fields per speaker, or join the members' (with or without the muted). */
const GENERATION_MODES = [[0, 'Swap character cards'], [1, 'Join character cards (exclude muted)'], [2, 'Join character cards (include muted)']];
const STRATEGIES = [[STRATEGY.NATURAL, 'Natural order'], [STRATEGY.LIST, 'List order'], [STRATEGY.MANUAL, 'Manual'], [STRATEGY.POOLED, 'Pooled order']];
/** ST's DEFAULT_AUTO_MODE_DELAY (seconds) and talkativeness_default (public/script.js). */
export const DEFAULT_AUTO_MODE_DELAY = 5;
const TALKATIVENESS = 0.5;
/** ST's default_avatar, what a group without an image of its own names. */
const DEFAULT_AVATAR = 'img/ai4.png';
/** Characters offered at a time to add: a search narrows them (a library of 20,000 cards never travels whole). */
const CANDIDATES = 50;

async function allGroups() {
  const answer = await postJson('/api/groups/all', {});
  return Array.isArray(answer) ? answer : [];
}

/** Saves the group whole, as ST's editGroup (`_save`) does. */
function saveGroup(group) {
  return postJson('/api/groups/edit', group);
}

/** #/groups: the groups and a new one; #/groups?id=…: one group's editor; #/groups?new: a new group's. */
export async function showGroups(view, params) {
  const id = params.get('id');
  if (id || params.has('new')) {
    const group = id ? (await allGroups()).find((g) => g.id === id) : null;
    if (id && !group) {
      view.append(el('section.page', {}, el('div.narrow', {}, el('h1', {}, 'Group not found'),
        el('p', {}, el('a', { href: '#/groups' }, 'All groups')))));
      return;
    }
    view.append(await groupEditor(group));
    return;
  }
  const groups = await allGroups();
  view.append(el('section.page', {}, el('div.narrow', {},
    el('h1', {}, 'Groups'),
    el('p', {}, el('a.button', { href: '#/groups?new', id: 'newGroup' }, '+ New group')),
    groups.length ? el('ul.groups', { id: 'groupList' }, groups.map((g) => el('li', {},
      el('a', { href: groupChatLink(g.id), dataset: { group: g.id } }, g.name),
      el('small.muted', {}, ` ${(g.members ?? []).length} member${(g.members ?? []).length === 1 ? '' : 's'}`),
      el('a.button', { href: `#/groups?id=${encodeURIComponent(g.id)}`, 'aria-label': `Edit ${g.name}` }, 'Edit'))))
      : el('p.muted', {}, 'No groups yet: make one of your characters.'))));
}

/** A group chat's address (`file`: the chat's id; none: the group's current chat). */
export function groupChatLink(groupId, file) {
  const params = new URLSearchParams({ group: groupId });
  if (file) params.set('file', file);
  return `#/chat?${params}`;
}

/** The members' names by avatar, from their cards (a missing card keeps its file name). */
async function namesOf(avatars) {
  const cards = await Promise.all(avatars.map((avatar) => postJson('/api/characters/get', { avatar_url: avatar }).catch(() => null)));
  return new Map(avatars.map((avatar, i) => [avatar, cards[i]?.name ?? avatar]));
}

/**
 * The editor of a group (null: a new one): name, members (add, remove, move up and down, mute), activation
 * strategy, generation mode, self responses and auto mode's delay. A new group is made by "Create"; an existing
 * one is saved at each change, as ST's group panel saves it (editGroup).
 */
async function groupEditor(existing) {
  const group = existing ?? {
    name: '', members: [], allow_self_responses: false, activation_strategy: STRATEGY.NATURAL, generation_mode: 0,
    disabled_members: [], auto_mode_delay: DEFAULT_AUTO_MODE_DELAY,
  };
  group.members ??= [];
  group.disabled_members ??= [];
  const names = await namesOf(group.members);
  const nameOf = (avatar) => names.get(avatar) ?? avatar;
  let found = []; // the characters the search offers: {avatar, name}
  const status = el('p.muted', { id: 'groupStatus', role: 'status' });
  const saves = saveQueue();

  function changed() {
    if (!existing) return;
    status.textContent = 'Saving…';
    saves(() => saveGroup(group)).then((last) => {
      if (last) status.textContent = 'All changes saved';
    }, (e) => { status.textContent = ''; fail('Cannot save the group', e); });
  }

  const name = el('input', { type: 'text', id: 'groupName', value: group.name ?? '', autocomplete: 'off',
    placeholder: 'Group: the members\' names', onchange: () => { group.name = name.value.trim() || group.name; changed(); } });
  const members = el('ol.members', { id: 'groupMembers', 'aria-label': 'Members, in the order they speak' });
  const candidates = el('select', { id: 'groupCandidate' });
  const search = el('input', { type: 'search', id: 'groupSearch', autocomplete: 'off', placeholder: 'Part of a name or a tag',
    oninput: debounce(() => findCandidates(), 300) });
  const strategy = selectOf('groupStrategy', STRATEGIES, group.activation_strategy ?? STRATEGY.NATURAL);
  strategy.addEventListener('change', () => { group.activation_strategy = Number(strategy.value); changed(); });
  const mode = selectOf('groupGenerationMode', GENERATION_MODES, group.generation_mode ?? 0);
  mode.addEventListener('change', () => { group.generation_mode = Number(mode.value); changed(); });
  const self = el('input', { type: 'checkbox', id: 'groupSelfResponses', checked: !!group.allow_self_responses,
    onchange: () => { group.allow_self_responses = self.checked; changed(); } });
  const delay = el('input', { type: 'number', id: 'groupAutoDelay', min: 1, max: 999, step: 1,
    value: group.auto_mode_delay ?? DEFAULT_AUTO_MODE_DELAY,
    onchange: () => { group.auto_mode_delay = Math.max(1, Number(delay.value) || DEFAULT_AUTO_MODE_DELAY); changed(); } });

  /** The members' rows; `focus`: the button to focus again once drawn (a move keeps the keyboard on it). */
  function drawMembers(focus) {
    members.replaceChildren(...group.members.map((avatar, i) => {
      const muted = group.disabled_members.includes(avatar);
      const who = nameOf(avatar);
      return el(`li${muted ? '.muted' : ''}`, { dataset: { avatar } },
        el('img', { src: thumbnail(avatar), alt: '' }), el('span.grow', {}, who, muted ? el('small', {}, ' (muted)') : null),
        el('button', { type: 'button', dataset: { act: 'up' }, 'aria-label': `Move ${who} up`, disabled: i === 0, onclick: () => move(i, -1, 'up') }, '↑'),
        el('button', { type: 'button', dataset: { act: 'down' }, 'aria-label': `Move ${who} down`, disabled: i === group.members.length - 1, onclick: () => move(i, 1, 'down') }, '↓'),
        el('button', { type: 'button', dataset: { act: 'mute' }, 'aria-pressed': String(muted), 'aria-label': `Mute ${who}`, title: 'A muted member does not reply unless asked', onclick: () => mute(avatar) }, muted ? 'Unmute' : 'Mute'),
        el('button.danger', { type: 'button', dataset: { act: 'remove' }, 'aria-label': `Remove ${who}`, onclick: () => remove(avatar) }, 'Remove'));
    }));
    if (!group.members.length) members.append(el('li.muted', {}, 'No members yet'));
    candidates.replaceChildren(...found.filter((c) => !group.members.includes(c.avatar))
      .map((c) => el('option', { value: c.avatar }, c.name)));
    if (focus) members.querySelector(`li[data-avatar="${CSS.escape(focus.avatar)}"] [data-act="${focus.act}"]:not(:disabled)`)?.focus();
  }

  /** ST's reorderGroupMember: swapped with its neighbour. */
  function move(i, by, act) {
    const j = i + by;
    if (j < 0 || j >= group.members.length) return;
    [group.members[i], group.members[j]] = [group.members[j], group.members[i]];
    drawMembers({ avatar: group.members[j], act });
    changed();
  }

  /** ST's onGroupActionClick 'enable' / 'disable': the member in or out of disabled_members. */
  function mute(avatar) {
    const at = group.disabled_members.indexOf(avatar);
    if (at >= 0) group.disabled_members.splice(at, 1);
    else group.disabled_members.push(avatar);
    drawMembers({ avatar, act: 'mute' });
    changed();
  }

  /** ST's modifyGroupMember: removed from members (disabled_members left as ST leaves it). */
  function remove(avatar) {
    group.members.splice(group.members.indexOf(avatar), 1);
    drawMembers();
    changed();
  }

  /** The first characters whose name, tag or creator holds the search (Tankard's paged character list). */
  async function findCandidates() {
    try {
      const answer = await postJson('/api/tankard/characters/page', { limit: CANDIDATES, search: search.value.trim() || undefined });
      found = answer.items;
      drawMembers();
    } catch (e) {
      fail('Cannot list the characters', e);
    }
  }

  /** ST's modifyGroupMember adding one: a new member goes first (unshift). */
  function add() {
    if (!candidates.value) return;
    names.set(candidates.value, candidates.selectedOptions[0].textContent);
    group.members.unshift(candidates.value);
    drawMembers();
    changed();
    candidates.focus();
  }

  /** ST's createGroup: the group with its first chat named by the clock. */
  async function create() {
    if (!group.members.length) {
      toast('Add at least one member first', 'error');
      return;
    }
    const chatName = humanizedDateTime();
    const body = {
      name: name.value.trim() || `Group: ${group.members.map(nameOf).join(', ')}`,
      members: group.members, avatar_url: DEFAULT_AVATAR, allow_self_responses: self.checked, hideMutedSprites: false,
      activation_strategy: Number(strategy.value), generation_mode: Number(mode.value), disabled_members: group.disabled_members,
      fav: false, chat_id: chatName, chats: [chatName], auto_mode_delay: Number(delay.value) || DEFAULT_AUTO_MODE_DELAY,
    };
    try {
      const made = await postJson('/api/groups/create', body);
      toast(`Made the group ${body.name}`);
      location.hash = groupChatLink(made.id);
    } catch (e) {
      fail('Cannot make the group', e);
    }
  }

  /** ST's deleteGroup: the group and its chats (the server deletes them). */
  async function removeGroup() {
    const choice = await dialog(`Delete ${group.name}?`, el('p', {}, 'The group and its chats are deleted. The characters stay.'),
      [['Cancel', ''], ['Delete', 'delete', true]]);
    if (choice !== 'delete') return;
    try {
      await postJson('/api/groups/delete', { id: group.id });
      toast(`Deleted ${group.name}`);
      location.hash = '#/groups';
    } catch (e) {
      fail('Cannot delete the group', e);
    }
  }

  await findCandidates();
  return el('section.page', {}, el('div.narrow', { id: 'groupEditor' },
    el('h1', {}, existing ? `Group: ${group.name}` : 'New group'),
    el('p', {}, el('a', { href: '#/groups' }, 'All groups'), existing ? ' · ' : null,
      existing ? el('a', { href: groupChatLink(group.id), id: 'groupOpenChat' }, 'Open the group chat') : null),
    field('Name', name),
    el('h2', {}, 'Members'),
    members,
    el('div.row', {}, field('Find a character', search), field('Character', candidates),
      el('button', { type: 'button', id: 'groupAdd', onclick: add }, 'Add member')),
    el('h2', {}, 'Replies'),
    field('Who replies (activation strategy)', strategy),
    field('Card fields in the prompt (generation mode)', mode),
    el('label.check', {}, self, el('span', {}, 'Allow a member to reply to itself')),
    field('Auto mode: a round every (seconds)', delay),
    existing ? status : null,
    el('div.row', {}, existing
      ? el('button.danger', { type: 'button', id: 'groupDelete', onclick: removeGroup }, 'Delete group')
      : el('button.primary', { type: 'button', id: 'groupCreate', onclick: create }, 'Create group'))));
}

/** Goes to the address, or shows it again when it is the one shown (a list that changed). */
function go(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}

/** The group's first messages of a fresh chat: each member's greeting, as ST's getGroupChat and getFirstCharacterMessage. */
function greetings(members) {
  return members.filter(Boolean).map((card) => {
    const data = card.data ?? {};
    const texts = [card.first_mes ?? data.first_mes, ...(data.alternate_greetings ?? [])].filter((t) => t);
    const text = texts[Math.floor(Math.random() * texts.length)] ?? '';
    return { is_user: false, is_system: false, name: card.name, send_date: new Date().toISOString(), original_avatar: card.avatar,
      extra: { gen_id: Date.now() * Math.random() * 1000000 }, mes: substitute(String(text).trim(), card.name),
      force_avatar: thumbnail(card.avatar) };
  }).filter((m) => m.mes);
}

/**
 * A group chat to open: the group, its members' cards (null for a missing one) and the chat's id (the group's
 * chat_id unless one is named). A chat that is not on disk yet is written with the members' greetings, as ST's
 * getGroupChat does for a fresh one.
 */
export async function loadGroupChat(groupId, file) {
  const group = (await allGroups()).find((g) => g.id === groupId);
  if (!group) throw new Error(`No such group: ${groupId}`);
  group.chats ??= [];
  const members = await Promise.all((group.members ?? []).map((avatar) => postJson('/api/characters/get', { avatar_url: avatar })
    .then((card) => ({ ...card, avatar }), () => null)));
  let chatId = file || group.chat_id || group.chats[group.chats.length - 1];
  if (!chatId) chatId = humanizedDateTime();
  if (!group.chats.includes(chatId) || group.chat_id !== chatId) { // ST's openGroupChat: the group remembers it
    if (!group.chats.includes(chatId)) group.chats.push(chatId);
    group.chat_id = chatId;
    await saveGroup(group);
  }
  // ST's chat search by group (its chats on disk, with their sizes): the chat is fresh when it is not among them
  const onDisk = await postJson('/api/chats/search', { query: '', group_id: group.id }).then((a) => (Array.isArray(a) ? a : []));
  if (!onDisk.some((c) => String(c.file_name).replace(/\.jsonl$/, '') === chatId)) { // ST answers the id
    await postJson('/api/chats/group/save', { id: chatId, chat: [
      { chat_metadata: { integrity: crypto.randomUUID?.() ?? String(Date.now()) }, user_name: 'unused', character_name: 'unused' },
      ...greetings(members)] });
  }
  return { group, members, file: chatId };
}

// Who speaks: ST's generateGroupWrapper and its activate* functions, over the group's member avatars.

/** ST's extractAllWords (public/scripts/utils.js). */
function words(text) {
  return [...String(text ?? '').matchAll(/\b\w+\b/gim)].map((m) => m[0].toLowerCase());
}

function shuffled(list) {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/** ST: regenerateGroup: how many messages at the end are the last round's replies (extra.gen_id). */
export function lastRound(messages) {
  const last = messages[messages.length - 1];
  const id = last && !last.is_user && !last.is_system ? last.extra?.gen_id : null;
  let count = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    const thisId = m.extra?.gen_id;
    if ((id && thisId && id !== thisId) || m.is_user || m.is_system) break;
    count++;
  }
  return count;
}

/** ST's activateNaturalOrder: mentioned members, then each by its talkativeness, else one at random. */
function activateNaturalOrder(members, cards, input, lastMessage, allowSelf, isUserInput) {
  const card = (avatar) => cards.find((c) => c?.avatar === avatar);
  const banned = allowSelf || isUserInput || !lastMessage || lastMessage.is_user ? undefined : lastMessage.name;
  const activated = [];
  for (const word of words(input)) {
    const mentioned = members.find((m) => card(m) && card(m).name !== banned && words(card(m).name).includes(word));
    if (mentioned) activated.push(mentioned);
  }
  const chatty = [];
  for (const member of shuffled(members)) {
    const c = card(member);
    if (!c || c.name === banned) continue;
    const talkativeness = c.talkativeness ?? c.data?.extensions?.talkativeness;
    const value = talkativeness === undefined || talkativeness === '' || Number.isNaN(Number(talkativeness)) ? TALKATIVENESS : Number(talkativeness);
    if (value >= Math.random()) activated.push(member);
    if (value > 0) chatty.push(member);
  }
  const pool = chatty.length ? chatty : members;
  for (let tries = 0; !activated.length && tries < pool.length; tries++) {
    const pick = pool[Math.floor(Math.random() * pool.length)];
    if (card(pick)) activated.push(pick);
  }
  return [...new Set(activated)];
}

/** ST's activatePooledOrder: one who has not spoken since the user, else anyone but the last speaker. */
function activatePooledOrder(members, messages, isUserInput) {
  const spoken = [];
  for (const m of [...messages].reverse()) {
    if (m.is_user || isUserInput) break;
    if (m.is_system) continue;
    if (m.original_avatar) spoken.push(m.original_avatar);
  }
  const notYet = members.filter((m) => !spoken.includes(m));
  if (notYet.length) return [notYet[Math.floor(Math.random() * notYet.length)]];
  const last = messages[messages.length - 1];
  const pool = members.length > 1 && last && !last.is_user && last.original_avatar ? members.filter((m) => m !== last.original_avatar) : members;
  return pool.length ? [pool[Math.floor(Math.random() * pool.length)]] : [];
}

/**
 * ST's activateSwipe: the member who wrote the last reply (by original_avatar, else by name); after the user's
 * message, the last member who spoke, else one at random.
 */
function activateSwipe(members, cards, messages) {
  const last = messages[messages.length - 1];
  if (!last) return [];
  if (last.is_user || last.is_system) {
    const spoke = [...messages].reverse().find((m) => !m.is_user && !m.is_system && m.original_avatar);
    return [spoke ? spoke.original_avatar : shuffled(members)[0]].filter(Boolean);
  }
  if (last.original_avatar) return [last.original_avatar];
  const byName = cards.find((c) => c && c.name === last.name && members.includes(c.avatar));
  return byName ? [byName.avatar] : [];
}

/**
 * The members who reply, in order (avatars), as ST's generateGroupWrapper picks them: `type` is send (auto mode's
 * too: an empty send is activated by the last message), regenerate, swipe, continue or impersonate; `messages` the chat as the round starts (a regenerate's last
 * round left out); `input` what the user typed. Manual mode activates nobody for the user's message; the
 * "reply as" buttons name the member themselves (ST's force_chid).
 */
export function activatedMembers({ group, cards, messages, type, input }) {
  const members = group.members ?? [];
  if (type === 'swipe' || type === 'continue') return activateSwipe(members, cards, messages);
  if (type === 'impersonate') return members.length ? [members[Math.floor(Math.random() * members.length)]] : [];
  const enabled = members.filter((m) => !(group.disabled_members ?? []).includes(m) && cards.some((c) => c?.avatar === m));
  const lastMessage = messages[messages.length - 1];
  const isUserInput = !!input && type === 'send';
  const activationText = isUserInput ? input : lastMessage && !lastMessage.is_system ? lastMessage.mes : '';
  switch (Number(group.activation_strategy ?? STRATEGY.NATURAL)) {
    case STRATEGY.LIST: return [...new Set(enabled)];
    case STRATEGY.POOLED: return activatePooledOrder(enabled, messages, isUserInput);
    case STRATEGY.MANUAL: return isUserInput ? [] : shuffled(enabled).slice(0, 1);
    default: return activateNaturalOrder(enabled, cards, activationText, lastMessage, group.allow_self_responses, isUserInput);
  }
}

/**
 * The side panel of a group chat: the group, its members with "Reply as" (ST's per-member speak button), auto
 * mode, and the group's chats (new, open, rename, delete, as ST's group chat functions do).
 */
export function groupPanel({ group, members, file, replyAs, autoMode }) {
  const auto = el('input', { type: 'checkbox', id: 'groupAutoMode', onchange: () => autoMode.set(auto.checked) });
  autoMode.box = auto;
  const memberList = el('ul.members', { id: 'groupChatMembers', 'aria-label': 'Members' }, (group.members ?? []).map((avatar) => {
    const card = members.find((c) => c?.avatar === avatar);
    const muted = (group.disabled_members ?? []).includes(avatar);
    const who = card?.name ?? avatar;
    return el(`li${muted ? '.muted' : ''}`, { dataset: { avatar } }, el('img', { src: thumbnail(avatar), alt: '' }),
      el('span.grow', {}, who, muted ? el('small', {}, ' (muted)') : null),
      card ? el('button', { type: 'button', 'aria-label': `Reply as ${who}`, title: `A reply from ${who} now`, onclick: () => replyAs(avatar) }, 'Reply') : null);
  }));
  const chatList = el('ul', { id: 'groupChatList', 'aria-label': `${group.name}'s chats` }, [...group.chats].reverse().map((name) => el('li', {},
    el('button.open', { type: 'button', 'aria-current': String(name === file), dataset: { chat: name }, onclick: () => { location.hash = groupChatLink(group.id, name); } }, name),
    el('button.more', { type: 'button', 'aria-label': `Manage the chat ${name}`, title: 'Rename or delete', onclick: () => manage(name) }, '⋯'))));

  /** ST's createNewGroupChat: a new chat named by the clock, remembered by the group. */
  function newChat() {
    location.hash = groupChatLink(group.id, humanizedDateTime());
  }

  async function manage(name) {
    const choice = await dialog(name, el('p.muted', {}, 'What to do with this chat?'), [['Rename', 'rename'], ['Delete', 'delete'], ['Close', '', true]]);
    if (choice === 'rename') await rename(name);
    else if (choice === 'delete') await remove(name);
  }

  /** ST's renameGroupOrCharacterChat and renameGroupChat: the file, then the group's chats and chat_id. */
  async function rename(name) {
    const input = el('input', { type: 'text', id: 'renameChat', value: name, required: true, autocomplete: 'off' });
    const body = el('form', { onsubmit: (e) => { e.preventDefault(); input.closest('dialog').close('rename'); } }, field('New name', input));
    if (await dialog('Rename the chat', body, [['Cancel', ''], ['Rename', 'rename', true]]) !== 'rename') return;
    const wanted = input.value.trim();
    if (!wanted || wanted === name) return;
    if (wanted.toLowerCase() === name.toLowerCase() || group.chats.some((c) => c.toLowerCase() === wanted.toLowerCase())) {
      toast(`Cannot rename the chat: a chat named ${wanted} exists already, or the name differs only in case`, 'error');
      return;
    }
    try {
      const answer = await postJson('/api/chats/rename', { is_group: true, original_file: `${name}.jsonl`, renamed_file: `${wanted}.jsonl` });
      const renamed = answer?.sanitizedFileName ?? wanted;
      group.chats.splice(group.chats.indexOf(name), 1);
      group.chats.push(renamed);
      if (group.chat_id === name) group.chat_id = renamed;
      await saveGroup(group);
      toast(`Renamed to ${renamed}`);
      go(groupChatLink(group.id, name === file ? renamed : file));
    } catch (e) {
      fail('Cannot rename the chat', e);
    }
  }

  /** ST's deleteGroupChat: the file, then the group's chats; the open one gives way to the last left (or a new one). */
  async function remove(name) {
    const choice = await dialog(`Delete ${name}?`, el('p', {}, 'The chat file is deleted. This cannot be undone.'), [['Cancel', ''], ['Delete', 'delete', true]]);
    if (choice !== 'delete') return;
    try {
      await postJson('/api/chats/group/delete', { id: name });
      group.chats.splice(group.chats.indexOf(name), 1);
      if (group.chat_id === name) group.chat_id = group.chats[group.chats.length - 1] ?? '';
      await saveGroup(group);
      toast(`Deleted ${name}`);
      go(groupChatLink(group.id, name === file ? group.chat_id || humanizedDateTime() : file));
    } catch (e) {
      fail('Cannot delete the chat', e);
    }
  }

  return el('div', { id: 'groupPanel' },
    el('div.row', {}, el('a', { href: `#/groups?id=${encodeURIComponent(group.id)}`, id: 'groupEdit' }, 'Edit group'),
      el('a', { href: '#/groups' }, 'All groups')),
    el('h2', {}, 'Members'), memberList,
    el('label.check', { title: 'Members reply on their own, one round every few seconds, until you type or stop' }, auto,
      el('span', {}, `Auto mode (every ${group.auto_mode_delay ?? DEFAULT_AUTO_MODE_DELAY} s)`)),
    el('section.chatFiles', { 'aria-label': 'Chats' },
      el('div.row', {}, el('h2.grow', {}, 'Chats'), el('button', { type: 'button', id: 'groupNewChat', onclick: newChat }, '+ New')),
      chatList));
}
