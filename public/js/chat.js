// A chat: the character's chats beside it, the newest page of messages first and earlier pages as the user
// scrolls up (POST /api/tankard/chats/tail), and saves that send only what changed (tail/save from the first
// changed message's offset). Replies come from the server's engine (generate.js), which saves them; send,
// stream, stop, regenerate, swipe, continue, impersonate, edit, delete, branch; the chat's memory (memory.js).
// A group's chat (#/chat?group=) runs each send as a round of members' replies, picked by groups.js as ST picks them.
import { postJson } from './api.js';
import { humanizedDateTime, substitute, userName } from './state.js';
import { formatted, loadMarkdown } from './markdown.js';
import { editNote } from './note.js';
import { loadChatPersona, personaControls } from './personas.js';
import { dialog, el, fail, thumbnail, toast } from './ui.js';
import { announce, connection } from './connection.js';
import { CUT_OFF, generate } from './generate.js';
import { memoryPanel } from './memory.js';
import { applyBackground } from './backgrounds.js';
import { chatFilesPanel, listChats } from './chatfiles.js';
import { characterActions, offerEmbeddedBook } from './cards.js';
import { DEFAULT_AUTO_MODE_DELAY, activatedMembers, groupChatLink, groupPanel, lastRound, loadGroupChat } from './groups.js';

const PAGE = 50;
/** Messages read at a time while scrolling back: fewer, larger reads through a long chat. */
const EARLIER_PAGE = 200;
/** Messages in the page at most: a long chat's DOM stays small however far back the user scrolls. */
const SHOWN = 120;
/** Messages added to (and, past SHOWN, dropped from) the page at a time while scrolling, and drawn when a chat opens. */
const STEP = 10;
/** How near (px) the view comes to the top or bottom of the messages shown before more are shown there. */
const EDGE = 300;

export function openCharacter(avatar) {
  location.hash = `#/chat?avatar=${encodeURIComponent(avatar)}`;
}

function chatLink({ avatar, file }) {
  const params = new URLSearchParams({ avatar });
  if (file) params.set('file', file);
  return `#/chat?${params}`;
}

function uuid() {
  return crypto.randomUUID?.() ?? 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => {
    const r = Math.random() * 16 | 0;
    return (c === 'x' ? r : (r & 3 | 8)).toString(16);
  });
}

const now = () => new Date().toISOString();

/** One open chat file: the loaded window of its messages, their offsets in the file, and the file's version. */
class ChatWindow {
  constructor(ref) {
    this.ref = ref; // {avatar_url, file_name} or {id}
    this.messages = [];
    this.offsets = [];
    this.size = 0;
    this.mtime = 0;
    this.more = false;
    this.header = null;
  }

  accept(answer, prepend) {
    const offsets = answer.offsets ?? answer.messages.map(() => null);
    if (prepend) {
      this.messages.unshift(...answer.messages);
      this.offsets.unshift(...offsets);
    } else {
      this.messages = answer.messages;
      this.offsets = offsets;
      this.windowStart = answer.cursor.offset;
    }
    if (prepend) this.windowStart = answer.cursor.offset;
    this.header = answer.header ?? this.header;
    this.size = answer.cursor.size;
    this.mtime = answer.cursor.mtime;
    this.more = !!answer.more;
    return answer.messages.length;
  }

  async load() {
    return this.accept(await postJson('/api/tankard/chats/tail', { ...this.ref, count: PAGE }), false);
  }

  async loadEarlier() {
    if (!this.more) return 0;
    const answer = await postJson('/api/tankard/chats/tail', { ...this.ref, count: EARLIER_PAGE, before: this.windowStart });
    if (answer.cursor.size !== this.size || answer.cursor.mtime !== this.mtime) {
      return this.load(); // saved elsewhere meanwhile: the offsets held here may be stale, so start from the end
    }
    return this.accept(answer, true);
  }

  /** Saves messages[from..] over the file's lines from that message on (from = length appends). */
  async saveFrom(from) {
    return this.saveAt(from < this.offsets.length ? this.offsets[from] : this.size, from); // new ones append
  }

  /** Deletes message i: the ones after it are written from its place. */
  async removeAt(i) {
    const offset = this.offsets[i];
    const removed = this.messages.splice(i, 1);
    this.offsets.splice(i, 1);
    try {
      await this.saveAt(offset, i);
    } catch (e) {
      this.messages.splice(i, 0, ...removed);
      this.offsets.splice(i, 0, offset);
      throw e;
    }
  }

  async saveAt(offset, from) {
    if (offset === null || offset === undefined) return this.saveWindow();
    const answer = await postJson('/api/tankard/chats/tail/save', {
      ...this.ref, cursor: { offset, size: this.size, mtime: this.mtime }, messages: this.messages.slice(from),
    });
    this.size = answer.cursor.size;
    this.mtime = answer.cursor.mtime;
    if (answer.cursor.offsets) this.offsets.splice(from, this.offsets.length - from, ...answer.cursor.offsets);
    else await this.reloadKeeping();
    return answer;
  }

  /** Without per-message offsets: the whole loaded window again. */
  async saveWindow() {
    const answer = await postJson('/api/tankard/chats/tail/save', {
      ...this.ref, cursor: { offset: this.windowStart, size: this.size, mtime: this.mtime }, messages: this.messages,
    });
    this.size = answer.cursor.size;
    this.mtime = answer.cursor.mtime;
  }

  /**
   * The end read again after the server wrote it (a reply): the last `count` messages take the place of the loaded
   * ones from the first one's offset on, so a long window is not read again; read whole when they do not meet.
   */
  async refreshEnd(count) {
    const answer = await postJson('/api/tankard/chats/tail', { ...this.ref, count });
    const at = answer.offsets?.length ? this.offsets.indexOf(answer.offsets[0]) : -1;
    if (at < 0) {
      if (!answer.more) this.accept(answer, false); // the chat whole
      else await this.reloadKeeping();
      return;
    }
    this.messages.splice(at, this.messages.length - at, ...answer.messages);
    this.offsets.splice(at, this.offsets.length - at, ...answer.offsets);
    this.header = answer.header ?? this.header;
    this.size = answer.cursor.size;
    this.mtime = answer.cursor.mtime;
  }

  async reloadKeeping() {
    const kept = this.messages.length;
    const answer = await postJson('/api/tankard/chats/tail', { ...this.ref, count: Math.max(PAGE, kept) });
    this.accept(answer, false);
  }
}

/** A new chat with the card's greeting (its alternates as swipes), saved as ST saves one. */
async function newChat(character) {
  const name = `${character.name} - ${humanizedDateTime()}`;
  const data = character.data ?? character;
  const greetings = [data.first_mes ?? character.first_mes, ...(data.alternate_greetings ?? [])]
    .filter((g) => typeof g === 'string' && g.trim()).map((g) => substitute(g, character.name));
  const chat = [{ chat_metadata: { integrity: uuid() }, user_name: 'unused', character_name: 'unused' }];
  if (greetings.length) {
    const greeting = { name: character.name, is_user: false, is_system: false, send_date: now(), mes: greetings[0], extra: {} };
    if (greetings.length > 1) Object.assign(greeting, { swipe_id: 0, swipes: greetings, swipe_info: [] });
    chat.push(greeting);
  }
  await postJson('/api/chats/save', { ch_name: character.name, file_name: name, chat, avatar_url: character.avatar });
  await postJson('/api/characters/merge-attributes', { avatar: character.avatar, chat: name }).catch(() => {});
  return name;
}

export async function showChat(view, params) {
  const avatar = params.get('avatar');
  if (!avatar && !params.get('group')) return showRecent(view);
  const markdown = loadMarkdown(); // meanwhile: the libraries are in before the first message is drawn
  shortDate(Date.now()); // the date format's first use loads its locale data: now, while the chat is on its way
  let character = null;
  let chats = [];
  let file = params.get('file');
  let group = null;
  let members = [];
  let window_ = null;
  if (avatar) {
    // the card and the chat's end (when the address names the chat) are read at the same time, the chats after
    // them, not competing with them for the server; the messages are drawn without waiting for the chats, which the
    // side panel shows when they come
    window_ = file ? new ChatWindow({ avatar_url: avatar, file_name: file }) : null;
    const card = postJson('/api/characters/get', { avatar_url: avatar });
    if (!file) chats = listChats(avatar);
    [character] = await Promise.all([card, window_?.load()]);
    if (file) chats = listChats(avatar);
    chats.catch(() => {}); // a failure is told by the panel, or below
    character.avatar ??= avatar;
    if (!file) {
      chats = await chats;
      file = chats.some((c) => c.name === character.chat) ? character.chat : chats[0]?.name;
      if (!file) file = await newChat(character);
      history.replaceState(null, '', chatLink({ avatar, file }));
      window_ = new ChatWindow({ avatar_url: avatar, file_name: file });
      [chats] = await Promise.all([chats.length ? chats : listChats(avatar), window_.load()]);
    }
  } else {
    ({ group, members, file } = await loadGroupChat(params.get('group'), file));
    if (!params.get('file')) history.replaceState(null, '', groupChatLink(group.id, file));
    window_ = new ChatWindow({ id: file });
    await window_.load();
  }
  await markdown;
  // as ST when it opens a chat: picked now (the "You:" label shows it), saved while the messages are drawn
  const persona = character ? loadChatPersona(character, window_.header?.chat_metadata) : null;
  render(view, { character, chats, file, group, members, chat: window_, persona });
  if (character) offerEmbeddedBook(character); // once per card, as ST when it opens one with a lorebook
}

async function showRecent(view) {
  const [recent, groups] = await Promise.all([
    postJson('/api/chats/recent', {}).catch(() => []), postJson('/api/groups/all', {}).catch(() => []),
  ]);
  view.append(el('section.page', {}, el('div.narrow', {},
    el('h1', {}, 'Chats'),
    recent.length ? el('ul', { id: 'recentChats' }, recent.filter((c) => c.avatar).map((c) => el('li', {},
      el('a', { href: chatLink({ avatar: c.avatar, file: String(c.file_name).replace(/\.jsonl$/, '') }) },
        `${String(c.file_name).replace(/\.jsonl$/, '')}`), el('small.muted', {}, ` ${c.mes ?? ''}`.slice(0, 90)))))
      : el('p.muted', {}, 'No chats yet: pick a character to start one.'),
    groups.length ? el('h2', {}, 'Group chats') : null,
    el('ul', { id: 'groupChats' }, groups.flatMap((g) => (g.chats ?? []).map((id) => el('li', {},
      el('a', { href: groupChatLink(g.id, id) }, `${g.name}: ${id}`))))),
    el('p', {}, el('a', { href: '#/characters' }, 'Characters')))));
}

function render(view, { character, chats, file, group, members, chat, persona }) {
  // not a live region: a streamed reply would be read out word by word; `spoken` tells each reply once, at its end
  const messagesBox = el('div.messages', { id: 'messages', tabIndex: -1, role: 'log', 'aria-label': 'Messages' });
  const spoken = el('p.sr-only', { id: 'spoken', 'aria-live': 'polite' });
  const input = el('textarea', { id: 'input', rows: 2, placeholder: `Message ${group ? group.name : character.name}`, 'aria-label': 'Your message' });
  const send = el('button.primary', { type: 'button', id: 'send' }, 'Send');
  const stop = el('button.danger', { type: 'button', id: 'stop', hidden: true }, 'Stop');
  // ST's keys: Ctrl+Enter regenerates, Alt+Enter continues (public/scripts/RossAscends-mods.js, the keydown handler)
  const actions = el('div.actions', { id: 'chatActions', role: 'group', 'aria-label': 'Reply actions' },
    el('button', { type: 'button', id: 'regenerate', 'aria-keyshortcuts': 'Control+Enter', title: 'A new reply in place of the last one, or a reply to your last message (Ctrl+Enter)', onclick: () => request('regenerate') }, 'Regenerate'),
    el('button', { type: 'button', id: 'continue', 'aria-keyshortcuts': 'Alt+Enter', title: 'More of the last message (Alt+Enter)', onclick: () => request('continue') }, 'Continue'),
    el('button', { type: 'button', id: 'impersonate', title: 'Write your next message for you, into the box', onclick: () => request('impersonate') }, 'Impersonate'));
  let running = null; // the AbortController of the reply being streamed
  let round = null; // a group's round under way: {id}, ST's group_generation_id
  // ST's group auto mode (group-chats.js setAutoModeWorker, groupChatAutoModeWorker): while on, a round every
  // auto_mode_delay seconds when nothing is under way; typing or Stop turns it off. Kept for the page only, as ST
  // keeps it (is_group_automode_enabled is not saved).
  const autoMode = {
    timer: null,
    box: null,
    set(on) {
      clearInterval(this.timer);
      this.timer = null;
      if (this.box) this.box.checked = on;
      if (!on) return;
      this.timer = setInterval(async () => {
        if (!messagesBox.isConnected) {
          this.set(false);
          return;
        }
        if (!running && !round) await groupRound('send'); // activated by the last message, as ST's 'auto'
      }, (Number(group.auto_mode_delay) || DEFAULT_AUTO_MODE_DELAY) * 1000);
    },
  };
  let failure = null; // {message, retry}: the last reply that failed, shown under the messages with a way to retry

  const memory = character ? memoryPanel(chat, () => draw()) : null;
  // on a phone the panel is a drawer, folded at first so the messages have the screen
  const folded = matchMedia('(max-width: 720px)').matches;
  const aside = el(`aside${folded ? '.collapsed' : ''}`, {},
    character ? el('div.who', {}, el('img', { src: thumbnail(character.avatar), alt: '' }),
      el('div', {}, el('b', {}, character.name), el('div', {}, el('a', { href: '#/characters' }, 'All characters')))) : el('b', {}, group.name),
    el('button.asideToggle', { type: 'button', id: 'asideToggle', 'aria-expanded': String(!folded), 'aria-controls': 'chatPanel',
      onclick: (e) => { e.currentTarget.setAttribute('aria-expanded', String(!aside.classList.toggle('collapsed'))); } },
    group ? 'Group, members and chats' : 'Character, chats and memory'),
    el('div', { id: 'chatPanel' },
      character ? characterActions(character, {
        changed: () => window.dispatchEvent(new HashChangeEvent('hashchange')), // the router shows the card again
        gone: () => { location.hash = '#/characters'; },
      }) : null,
      character ? chatFilesPanel({
        character, chats, file, link: (name) => chatLink({ avatar: character.avatar, file: name }), startChat: () => newChat(character),
      }) : null,
      character ? el('div.row', {}, personaControls(character, chat),
        el('button', { type: 'button', id: 'authorsNote', onclick: () => editNote(chat, () => draw()) }, "Author's note"),
        el('a', { href: `#/worldinfo?${new URLSearchParams({ avatar: character.avatar, file })}`, id: 'lorebooks', title: 'World info: link a lorebook to this character or chat' }, 'Lorebooks')) : null,
      group ? groupPanel({ group, members, file, replyAs: (avatar) => groupRound('send', input.value.trim(), avatar), autoMode }) : null,
      memory?.node));

  view.append(el('section.chat', {}, el('h1.sr-only', {}, character ? `Chat with ${character.name}` : `Group chat ${group.name}`),
    aside, el('div.thread', {}, messagesBox, spoken,
    el('div.composer', {}, input, send, stop), actions)));
  applyBackground(chat.header?.chat_metadata);

  function lastBotIndex() {
    const last = chat.messages.length - 1;
    return last >= 0 && !chat.messages[last].is_user && !chat.messages[last].is_system ? last : -1;
  }

  // The page shows messages [shownFrom, shownTo) of the loaded ones: the newest STEP at first (a chat opens sooner
  // with less to draw), more as long as the view cannot scroll up to where earlier ones come; scrolling shows earlier
  // ones STEP at a time (reading earlier pages when it reaches the loaded start) and drops those past SHOWN.
  let shownFrom = 0;
  let shownTo = 0;

  function draw(keepScroll) {
    const before = messagesBox.scrollHeight - messagesBox.scrollTop;
    if (keepScroll) {
      shownTo = Math.min(shownTo, chat.messages.length);
      shownFrom = Math.min(shownFrom, shownTo);
    } else {
      shownTo = chat.messages.length;
      shownFrom = Math.max(0, shownTo - STEP);
    }
    messagesBox.replaceChildren(...[
      olderNote(),
      ...shown(shownFrom, shownTo),
      chat.messages.length ? null : el('p.empty', {}, 'No messages yet. Say hello.'),
      failure ? el('div.failed', { id: 'replyFailed', role: 'alert' }, el('span', {}, failure.message),
        el('button', { type: 'button', id: 'retry', onclick: () => { const { retry } = failure; failure = null; retry(); } }, 'Retry'))
        : null].filter(Boolean));
    memory?.refresh();
    if (keepScroll) messagesBox.scrollTop = messagesBox.scrollHeight - before;
    else messagesBox.scrollTop = messagesBox.scrollHeight;
    // a view too short to scroll up to where steps come gets them all the same: a scroll is what asks for them
    requestAnimationFrame(stepAtEdge);
  }

  function olderNote() {
    return shownFrom > 0 || chat.more ? el('p.older', { id: 'older' }, 'Scroll up for earlier messages') : null;
  }

  function shown(from, to) {
    return chat.messages.slice(from, to).map((m, k) => messageNode(m, from + k));
  }

  // Both steps read the layout before they change the page (still the last frame's: nothing to compute), change it
  // whole, and read it once after (showEarlier) or not at all (showLater): one layout a step, within a scroll's frame.

  /** Up to STEP earlier messages at the top, the view kept where it was; the furthest below dropped past SHOWN. */
  function showEarlier() {
    const from = Math.max(0, shownFrom - STEP);
    const top = messagesBox.querySelector('article.message');
    const offset = () => (top ? top.offsetTop : messagesBox.scrollHeight); // what the added ones push down
    const before = offset();
    const scrolled = messagesBox.scrollTop;
    const added = shown(from, shownFrom);
    if (top) top.before(...added);
    else messagesBox.prepend(...added);
    shownFrom = from;
    messagesBox.querySelector('#older')?.remove();
    const note = olderNote();
    if (note) messagesBox.prepend(note);
    for (; shownTo - shownFrom > SHOWN; shownTo--) messagesBox.querySelector(`[data-index="${shownTo - 1}"]`)?.remove();
    messagesBox.scrollTop = scrolled + offset() - before;
  }

  /** Up to STEP later messages at the bottom; the furthest above dropped past SHOWN, the view kept where it was. */
  function showLater() {
    const to = Math.min(chat.messages.length, shownTo + STEP);
    const keep = Math.max(shownFrom, to - SHOWN); // shown already: SHOWN > STEP
    const firstNode = messagesBox.querySelector(`[data-index="${shownFrom}"]`);
    const keptNode = messagesBox.querySelector(`[data-index="${keep}"]`);
    const dropped = firstNode && keptNode ? keptNode.offsetTop - firstNode.offsetTop : 0; // adding below moves neither
    const scrolled = messagesBox.scrollTop;
    messagesBox.querySelector(`[data-index="${shownTo - 1}"]`)?.after(...shown(shownTo, to));
    shownTo = to;
    for (; shownFrom < keep; shownFrom++) messagesBox.querySelector(`[data-index="${shownFrom}"]`)?.remove();
    messagesBox.scrollTop = scrolled - dropped;
    if (shownFrom === 0 && !chat.more) messagesBox.querySelector('#older')?.remove();
  }

  /** The index of the message whose control was used: read at the click, as earlier pages shift the indexes. */
  function indexOf(event) {
    return Number(event.currentTarget.closest('article').dataset.index);
  }

  function messageNode(m, i) {
    const last = i === chat.messages.length - 1;
    const swipes = Array.isArray(m.swipes) ? m.swipes : null;
    const tools = [
      el('button.link', { type: 'button', title: 'Edit this message', 'aria-label': 'Edit', onclick: (e) => edit(indexOf(e)) }, 'edit'),
      group ? null : el('button.link', { type: 'button', title: 'A new chat with the messages up to this one', 'aria-label': 'Branch', onclick: (e) => branch(indexOf(e)) }, 'branch'),
      el('button.link.danger', { type: 'button', title: 'Delete this message', 'aria-label': 'Delete', onclick: (e) => remove(indexOf(e)) }, 'delete'),
    ];
    if (last && !m.is_system) {
      tools.unshift(m.is_user
        ? el('button.link', { type: 'button', title: 'A reply to this message', 'aria-label': 'Reply', onclick: () => request('regenerate') }, 'reply')
        : el('button.link', { type: 'button', title: group ? 'Write this round of replies again' : 'Write this reply again', 'aria-label': 'Regenerate', onclick: () => request('regenerate') }, 'regenerate'));
    }
    const cut = m.extra?.[CUT_OFF];
    return el(`article.message${m.is_user ? '.user' : ''}${m.is_system ? '.system' : ''}`,
      { dataset: { index: i } },
      el('header', {}, el('b', {}, m.name ?? ''), el('time', { dateTime: m.send_date ?? '' }, shortDate(m.send_date)),
        el('span.tools', {}, tools)),
      el('div.text', {}, formatted(m.mes)),
      typeof cut === 'string' ? el('p.cut', {}, `⚠ ${cut}`) : null,
      swipes && swipes.length > 1 || (last && i === lastBotIndex()) ? el('div.swipes', {},
        el('button.icon', { type: 'button', 'aria-label': 'Previous swipe', disabled: !last || !swipes || (m.swipe_id ?? 0) === 0, onclick: () => swipe(-1) }, '‹'),
        el('span.swipeCount', {}, `${(m.swipe_id ?? 0) + 1}/${swipes?.length ?? 1}`),
        el('button.icon', { type: 'button', 'aria-label': 'Next swipe', disabled: !last, onclick: () => swipe(1) }, '›')) : null);
  }

  /** Saves from message `from`; a chat changed elsewhere is read again and `refused` (or a plain note) told. */
  async function save(from, refused = 'The chat changed in another tab or on another device; it was read again') {
    try {
      await chat.saveFrom(from);
    } catch (e) {
      if (e.status === 409) {
        toast(refused, 'error');
        await chat.load();
        draw();
      } else fail('Cannot save the chat', e);
      throw e;
    }
  }

  function setRunning(controller) {
    running = controller;
    send.hidden = !!controller;
    stop.hidden = !controller;
    for (const button of actions.querySelectorAll('button')) button.disabled = !!controller;
  }

  /**
   * What shows while a reply streams: a new message after the last (send, a reply to the user's message), the
   * last one rewritten (regenerate, swipe) or lengthened (continue), or the message box (impersonate).
   */
  function streamTarget(action, name) {
    const last = chat.messages.length - 1;
    const lastIsReply = last >= 0 && !chat.messages[last].is_user && !chat.messages[last].is_system;
    if (action === 'impersonate') return { show: (text) => { input.value = text; } };
    let index = last;
    let before = '';
    if (action === 'send' || (action === 'regenerate' && !lastIsReply)) {
      chat.messages.push({ name, is_user: false, is_system: false, send_date: now(), mes: '', extra: {} });
      index = last + 1;
    } else if (action === 'continue') before = chat.messages[last]?.mes ?? '';
    else chat.messages[last] = { ...chat.messages[last], mes: '', extra: {} }; // shown only: read again after
    draw();
    const node = () => messagesBox.querySelector(`[data-index="${index}"]`);
    node()?.classList.add('streaming');
    return {
      show: (text) => {
        const box = node()?.querySelector('.text');
        if (box) box.replaceChildren(formatted(before + text));
        messagesBox.scrollTop = messagesBox.scrollHeight;
      },
    };
  }

  /**
   * The chat's end as the server saved it; with `saved` (a test of the last message), once it holds or `wait` ms
   * have passed: a stopped reply is saved when the server sees the browser leave, a moment after the stop.
   */
  async function readBack(saved, wait) {
    for (let waited = 0; saved && waited < wait; waited += 200) {
      await new Promise((resolve) => { setTimeout(resolve, 200); }); // a read that meets the save is refused
      const answer = await postJson('/api/tankard/chats/tail', { ...chat.ref, count: 1 }).catch(() => null);
      if (answer && saved(answer.messages[answer.messages.length - 1])) break;
    }
    await chat.refreshEnd(4); // a reply writes at most the user's message and the reply after the last one
  }

  /**
   * Asks the server's engine for a reply (send, regenerate, swipe, continue, impersonate), shows it as it
   * streams, then the chat's end as the engine saved it. A failure is told with the server's reason and a retry;
   * what the engine saved before it failed (the user's message) stays. In a group, `speaker` (an avatar) is the
   * member who replies and `roundId` the id its round's replies share. Answers whether the reply came whole.
   */
  async function ask(action, text = '', speaker = null, roundId = null) {
    if (running) return false;
    if (!connection().ready) {
      toast('Set up a connection first', 'error');
      if (text) input.value = text;
      location.hash = '#/connection';
      return false;
    }
    failure = null;
    const sizeBefore = chat.size;
    const lastBefore = JSON.stringify(chat.messages[chat.messages.length - 1] ?? null);
    if (text) chat.messages.push({ name: userName(), is_user: true, is_system: false, send_date: now(), mes: text, extra: {} });
    const name = group ? members.find((c) => c?.avatar === speaker)?.name ?? '' : character.name;
    const target = streamTarget(action, name);
    const controller = new AbortController();
    setRunning(controller);
    let answer = null;
    let error = null;
    try {
      const ref = group ? { group_id: group.id, file_name: file, avatar_url: speaker, gen_id: roundId } : chat.ref;
      await persona; // the engine reads the persona from settings.json: the chat's pick is saved first
      answer = await generate(ref, action, text, target.show, controller.signal);
    } catch (e) {
      error = e;
    }
    // a stopped reply that brought text is saved: the last message is new, and not the user's just sent
    const stoppedSaved = (last) => JSON.stringify(last ?? null) !== lastBefore && !(text && last?.is_user);
    try {
      await readBack(answer?.stopped && answer.text.trim() && action !== 'impersonate' ? stoppedSaved : null, 5000);
    } catch (e) {
      fail('Cannot read the chat', e);
    }
    setRunning(null);
    if (error) {
      const kept = chat.size !== sizeBefore; // the engine saved the user's message (and any text that came)
      if (text && !kept) input.value = input.value ? `${text}\n${input.value}` : text; // refused before it was saved
      const again = action === 'send' && kept ? 'regenerate' : action;
      failure = { message: `The backend did not reply: ${error.message}`, retry: () => (again === 'send' ? sendMessage() : request(again)) };
      fail('The backend did not reply', error);
      if (error.status === 502 || error.status === undefined) announce(false);
    } else if (!answer.stopped) announce(true);
    if (action === 'impersonate' && answer) {
      input.value = answer.text.trim();
      input.focus();
    }
    draw();
    const reply = chat.messages[chat.messages.length - 1];
    if (answer && action !== 'impersonate' && reply && !reply.is_user) spoken.textContent = `${reply.name}: ${reply.mes}`;
    return !!answer && !answer.stopped;
  }

  /** A reply asked by the user (send, regenerate, swipe, continue, impersonate): the character's, or a group's round. */
  function request(action, text = '') {
    return group ? groupRound(action, text) : ask(action, text);
  }

  /**
   * A group's round, as ST's generateGroupWrapper runs it: the members who reply (groups.js, or the one `forced`,
   * ST's force_chid) one after the other, each reply asked of the engine with the round's id; the first carries
   * the user's text (a regenerate replaces the last round, as ST's regenerateGroup), the others reply alone. Stop
   * ends the round. With nobody to reply, the user's message is saved alone, as ST's sendMessageAsUser.
   */
  async function groupRound(action, text = '', forced = null) {
    if (running || round) return;
    const before = action === 'regenerate' ? chat.messages.slice(0, chat.messages.length - lastRound(chat.messages)) : chat.messages;
    const speakers = forced ? [forced] : activatedMembers({ group, cards: members, messages: before, type: action, input: text });
    if (!speakers.length) {
      if (text) await sendAlone(text);
      return;
    }
    round = { id: Date.now() };
    input.value = '';
    if (before.length < chat.messages.length - 1) { // the round's first reply is rewritten, the others go
      chat.messages.splice(before.length + 1);
      chat.offsets.splice(before.length + 1);
    }
    try {
      for (const [k, speaker] of speakers.entries()) {
        const first = k === 0;
        if (!await ask(first ? action : 'send', first ? text : '', speaker, round.id)) break; // stopped or failed
      }
    } finally {
      round = null;
    }
  }

  /** The user's message saved with nobody to reply (a group in manual mode): one tail save, as ST saves it. */
  async function sendAlone(text) {
    input.value = '';
    chat.messages.push({ name: userName(), is_user: true, is_system: false, send_date: now(), mes: text, extra: {} });
    draw();
    await save(chat.messages.length - 1).catch((e) => {
      if (e.status !== 409) chat.messages.pop(); // unsaved (a 409 has read the chat again)
      input.value = text;
    });
    draw();
  }

  async function sendMessage() {
    if (running || round) return;
    const text = input.value.trim();
    input.value = '';
    await request('send', text);
  }
  async function swipe(direction) {
    const i = chat.messages.length - 1;
    const m = chat.messages[i];
    if (running || i !== lastBotIndex()) return;
    const swipes = Array.isArray(m.swipes) ? m.swipes : [m.mes];
    const next = (m.swipe_id ?? 0) + direction;
    if (next < 0) return;
    if (next >= swipes.length) {
      await request('swipe');
      return;
    }
    m.swipes = swipes;
    m.swipe_id = next;
    m.mes = swipes[next];
    draw();
    await save(i).catch(() => {});
  }

  async function edit(i) {
    const m = chat.messages[i];
    const area = el('textarea', { rows: 8, value: m.mes ?? '', id: 'editText' });
    const choice = await dialog(`Edit ${m.name}'s message`, area, [['Cancel', ''], ['Save', 'save', true]]);
    if (choice !== 'save') return;
    m.mes = area.value;
    if (Array.isArray(m.swipes)) m.swipes[m.swipe_id ?? 0] = area.value;
    draw(true);
    await save(i).catch(() => {});
  }

  async function remove(i) {
    const choice = await dialog('Delete this message?', el('p', {}, (chat.messages[i].mes ?? '').slice(0, 200)), [['Cancel', ''], ['Delete', 'delete', true]]);
    if (choice !== 'delete') return;
    try {
      await chat.removeAt(i);
    } catch (e) {
      fail('Cannot delete the message', e);
    }
    draw(true);
  }

  async function branch(i) {
    try {
      let whole = chat.messages.slice(0, i + 1);
      if (chat.more) { // earlier messages are not loaded: read the chat whole once
        const all = await postJson('/api/chats/get', { ch_name: character.name, file_name: file, avatar_url: character.avatar });
        const lines = all.filter((line) => !('chat_metadata' in line) || 'mes' in line);
        whole = lines.slice(0, lines.length - (chat.messages.length - 1 - i));
      }
      const taken = new Set((await chats).map((c) => c.name)); // the list may have been on its way at the open
      const base = file.replace(/ - Branch #\d+$/, '');
      let n = 1;
      while (taken.has(`${base} - Branch #${n}`)) n++;
      const name = `${base} - Branch #${n}`;
      const header = { ...(chat.header ?? {}), chat_metadata: { ...(chat.header?.chat_metadata ?? {}), integrity: uuid(), main_chat: file } };
      await postJson('/api/chats/save', { ch_name: character.name, file_name: name, chat: [header, ...whole], avatar_url: character.avatar });
      toast(`Branched into ${name}`);
      location.hash = chatLink({ avatar: character.avatar, file: name });
    } catch (e) {
      fail('Cannot branch the chat', e);
    }
  }

  send.addEventListener('click', sendMessage);
  function stopReply() {
    autoMode.set(false); // ST: stopAutoModeGeneration
    running?.abort();
  }
  stop.addEventListener('click', stopReply);
  input.addEventListener('keyup', () => { if (autoMode.timer && input.value) autoMode.set(false); }); // ST: onSendTextareaInput
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && e.ctrlKey) {
      e.preventDefault();
      request('regenerate');
    } else if (e.key === 'Enter' && e.altKey) {
      e.preventDefault();
      request('continue');
    } else if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      sendMessage();
    } else if (e.key === 'Escape' && running) stopReply();
    else if (!input.value && (e.key === 'ArrowRight' || e.key === 'ArrowLeft') && e.altKey) {
      swipe(e.key === 'ArrowRight' ? 1 : -1);
    }
  });
  let scrolling = false;
  /**
   * Near the top, earlier messages shown (read first at the loaded start); near the bottom, later ones. A step at
   * most every other frame, then the edge looked at again: held at the top of a long chat, a step each frame kept
   * Chromium's compositor behind, and now and then a frame waited 50–60 ms for it (docs/ui.md, Long chats).
   */
  async function stepAtEdge() {
    if (scrolling || !messagesBox.isConnected) return;
    const atTop = messagesBox.scrollTop <= EDGE;
    const below = messagesBox.scrollHeight - messagesBox.scrollTop - messagesBox.clientHeight;
    if (atTop ? shownFrom === 0 && !chat.more : below > EDGE || shownTo === chat.messages.length) return;
    scrolling = true;
    let stepped = false;
    try {
      if (atTop) {
        if (shownFrom === 0) {
          const oldest = chat.messages[0];
          await chat.loadEarlier();
          const read = chat.messages.indexOf(oldest);
          if (read < 0) {
            draw(); // the chat changed meanwhile and was read again from its end
            return;
          }
          shownFrom += read;
          shownTo += read;
          for (const node of messagesBox.querySelectorAll('article.message')) node.dataset.index = Number(node.dataset.index) + read;
        }
        if (shownFrom > 0) showEarlier();
      } else showLater();
      stepped = true;
    } catch (e) {
      fail('Cannot read earlier messages', e);
    } finally {
      if (stepped) requestAnimationFrame(() => requestAnimationFrame(() => { scrolling = false; stepAtEdge(); }));
      else scrolling = false;
    }
  }
  messagesBox.addEventListener('scroll', stepAtEdge, { passive: true });
  draw();
  input.focus();
}

/** One formatter for every message: toLocaleString makes a new one each call, a cost felt at 20 messages a scroll step. */
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });

function shortDate(value) {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? String(value ?? '') : dateFormat.format(date);
}
