// A character's chat files beside its chat: the list (newest first), search through them on the server, start,
// import, rename, export and delete, each with the route ST's "Manage chat files" uses (public/script.js), so the
// files stay where and as ST keeps them. No chat is downloaded whole to list or search them.
import { postJson } from './api.js';
import { userName } from './state.js';
import { debounce, dialog, el, fail, field, saveDownload, toast } from './ui.js';

const base = (name) => String(name).replace(/\.jsonl$/, '');
const messages = (n) => (n === undefined ? '? messages' : `${n} message${n === 1 ? '' : 's'}`);

/** Chats as the server lists them, named without `.jsonl`, the last written first. */
function newestFirst(answer) {
  return answer.map((c) => ({ ...c, name: base(c.file_name) }))
    .sort((a, b) => (new Date(b.last_mes).getTime() || 0) - (new Date(a.last_mes).getTime() || 0));
}

/** A character's chats, newest first ([] when it has none). */
export async function listChats(avatar) {
  const answer = await postJson('/api/characters/chats', { avatar_url: avatar });
  return Array.isArray(answer) ? newestFirst(answer) : [];
}

/**
 * The panel: a heading with New and Import, a search box, and the chats, each a link to open it and a button for
 * its actions. `link(file)` is a chat's address; `startChat()` makes a new chat and answers its name.
 */
export function chatFilesPanel({ character, chats: listed, file, link, startChat }) {
  let chats = Array.isArray(listed) ? listed : []; // the list, or a promise of it: a chat opens without waiting
  const list = el('ul', { id: 'chatList', 'aria-label': `${character.name}'s chats` });
  const found = el('p.muted', { id: 'chatSearchStatus', role: 'status' });
  const picker = el('input', {
    type: 'file', id: 'chatImportFile', accept: '.json,.jsonl', multiple: true, hidden: true,
    onchange: () => { importChats([...picker.files]); picker.value = ''; },
  });
  const search = el('input', {
    type: 'search', id: 'chatSearch', placeholder: 'Search names and messages', autocomplete: 'off',
    oninput: debounce(() => runSearch(), 300),
  });
  let searchAsked = 0;

  function show(items, searching) {
    list.replaceChildren(...items.map((c) => el('li', {},
      el('button.open', {
        type: 'button', 'aria-current': String(c.name === file), dataset: { chat: c.name },
        onclick: () => { location.hash = link(c.name); },
      }, c.name, el('small', {}, searching ? c.preview_message ?? '' : `${messages(c.chat_items)} · ${c.file_size ?? ''}`)),
      el('button.more', {
        type: 'button', 'aria-label': `Manage the chat ${c.name}`, title: 'Rename, export or delete',
        onclick: () => manage(c.name),
      }, '⋯'))));
  }

  /** ST's chat search (`/api/chats/search`): the server reads the files; an empty box shows the list again. */
  async function runSearch() {
    const query = search.value.trim();
    const asked = ++searchAsked;
    if (!query) {
      found.textContent = '';
      show(chats, false);
      return;
    }
    try {
      const results = await postJson('/api/chats/search', { query, avatar_url: character.avatar, group_id: null });
      if (asked !== searchAsked) return; // a later search is on its way
      const items = newestFirst(results);
      found.textContent = `${items.length} chat${items.length === 1 ? '' : 's'} found`;
      show(items, true);
    } catch (e) {
      fail('Cannot search the chats', e);
    }
  }

  async function refresh() {
    try {
      chats = await listChats(character.avatar);
      await runSearch();
    } catch (e) {
      fail('Cannot list the chats', e);
    }
  }

  async function manage(name) {
    const choice = await dialog(name, el('p.muted', {}, 'What to do with this chat?'), [
      ['Rename', 'rename'], ['Export JSONL', 'jsonl'], ['Export text', 'txt'], ['Delete', 'delete'], ['Close', '', true]]);
    if (choice === 'rename') await rename(name);
    else if (choice === 'jsonl' || choice === 'txt') await exportChat(name, choice);
    else if (choice === 'delete') await remove(name);
  }

  /** ST's `renameGroupOrCharacterChat`; the card's `chat` follows when it named this one. */
  async function rename(name) {
    const input = el('input', { type: 'text', id: 'renameChat', value: name, required: true, autocomplete: 'off' });
    const body = el('form', { onsubmit: (e) => { e.preventDefault(); input.closest('dialog').close('rename'); } },
      field('New name', input));
    if (await dialog('Rename the chat', body, [['Cancel', ''], ['Rename', 'rename', true]]) !== 'rename') return;
    const wanted = input.value.trim();
    if (!wanted || wanted === name) return;
    if (wanted.toLowerCase() === name.toLowerCase()) { // as ST: a file system may not tell the two apart
      toast('Cannot rename the chat: the name is the same as before, but for case', 'error');
      return;
    }
    if (chats.some((c) => c.name.toLowerCase() === wanted.toLowerCase())) {
      toast(`Cannot rename the chat: a chat named ${wanted} exists already`, 'error');
      return;
    }
    try {
      const answer = await postJson('/api/chats/rename', {
        is_group: false, avatar_url: character.avatar, original_file: `${name}.jsonl`, renamed_file: `${wanted}.jsonl`,
      });
      const renamed = answer?.sanitizedFileName ?? wanted;
      if (character.chat === name) {
        await postJson('/api/characters/merge-attributes', { avatar: character.avatar, chat: renamed });
        character.chat = renamed;
      }
      toast(`Renamed to ${renamed}`);
      if (name === file) location.hash = link(renamed);
      else await refresh();
    } catch (e) {
      // ST's route answers a bare {error: true} when the name is taken or the chat is gone
      fail('Cannot rename the chat', e.message.startsWith('400') ? new Error(`${wanted} exists or ${name} is gone`) : e);
    }
  }

  /** ST's `.exportChatButton` handler: the server sends the text (JSONL as stored, or "Name: message" lines). */
  async function exportChat(name, format) {
    try {
      const exportName = `${name}.${format}`;
      const answer = await postJson('/api/chats/export', {
        is_group: false, avatar_url: character.avatar, file: `${name}.jsonl`, exportfilename: exportName, format,
      });
      saveDownload(new Blob([answer.result], { type: format === 'txt' ? 'text/plain' : 'application/octet-stream' }), exportName);
    } catch (e) {
      fail('Cannot export the chat', e);
    }
  }

  /** ST's `delChat`; when it was the card's chat, the card's `chat` names the newest left (deleteCharacterChatByName). */
  async function remove(name) {
    const choice = await dialog(`Delete ${name}?`, el('p', {}, 'The chat file is deleted. This cannot be undone.'),
      [['Cancel', ''], ['Delete', 'delete', true]]);
    if (choice !== 'delete') return;
    try {
      await postJson('/api/chats/delete', { chatfile: `${name}.jsonl`, avatar_url: character.avatar });
      toast(`Deleted ${name}`);
      const left = chats.filter((c) => c.name !== name);
      if (character.chat === name && left.length) {
        await postJson('/api/characters/merge-attributes', { avatar: character.avatar, chat: left[0].name });
        character.chat = left[0].name;
      }
      if (name === file) location.hash = link(left[0]?.name ?? null);
      else await refresh();
    } catch (e) {
      fail('Cannot delete the chat', e);
    }
  }

  /** ST's chat import (`#chat_import_file`): each file as the server takes it, then the first new chat opened. */
  async function importChats(files) {
    const opened = [];
    for (const upload of files) {
      const type = upload.name.split('.').pop().toLowerCase();
      if (type !== 'json' && type !== 'jsonl') {
        toast(`Cannot import ${upload.name}: chats are imported from .json and .jsonl files`, 'error');
        continue;
      }
      const form = new FormData();
      form.append('file_type', type);
      form.append('avatar_url', character.avatar);
      form.append('character_name', character.name);
      form.append('user_name', userName());
      form.append('avatar', upload);
      try {
        const answer = await postJson('/api/chats/import', form);
        if (answer?.error || !answer?.res) throw new Error(answer?.message ?? 'the server refused the file');
        opened.push(...(answer.fileNames ?? []).map(base));
      } catch (e) {
        fail(`Cannot import ${upload.name}`, e);
      }
    }
    if (!opened.length) return;
    toast(`Imported ${opened.length} chat${opened.length === 1 ? '' : 's'}`);
    location.hash = link(opened[0]);
  }

  Promise.resolve(listed).then((list) => {
    chats = list;
    if (!search.value.trim()) show(chats, false);
  }, (e) => fail('Cannot list the chats', e));
  return el('section.chatFiles', { 'aria-label': 'Chats' },
    el('div.row', {}, el('h2.grow', {}, 'Chats'),
      el('button', {
        type: 'button', id: 'newChat', onclick: async () => {
          try {
            location.hash = link(await startChat());
          } catch (e) { fail('Cannot start a chat', e); }
        },
      }, '+ New'),
      el('button', { type: 'button', id: 'importChat', title: 'SillyTavern JSONL, or CAI Tools, Oobabooga, Agnai, RisuAI or Kobold Lite JSON', onclick: () => picker.click() }, 'Import'),
      picker),
    field('Search chats', search), found, list);
}
