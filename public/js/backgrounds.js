// The chat background: the images in the user's backgrounds/ folder (ST's routes /api/backgrounds/all, /upload and
// /delete), the one picked kept where ST's frontend keeps it (public/scripts/backgrounds.js setBackground):
// settings.json's background {name, url}, url being the CSS value url("backgrounds/<name>"). The chat page shows it.
import { postJson } from './api.js';
import { saveSettings, state } from './state.js';
import { dialog, el, fail, thumbnail, toast } from './ui.js';

// ST: backgrounds.js background_settings, what a fresh frontend shows
const DEFAULT = '__transparent.png';

/** ST: backgrounds.js generateUrlParameter for a background of the folder. */
function cssUrl(name) {
  return `url("backgrounds/${encodeURIComponent(name)}")`;
}

/**
 * Shows the background behind the chat's messages: the one ST locked to the chat (chat_metadata.custom_background,
 * backgrounds.js onChatChanged), else the one picked; a url("…") value only, as ST writes them.
 */
export function applyBackground(chatMetadata) {
  const url = chatMetadata?.custom_background || state.settings.background?.url;
  document.documentElement.style.setProperty('--chat-background', /^url\("[^"()]*"\)$/.test(url ?? '') ? url : 'none');
}

/** ST: backgrounds.js setBackground: the name and url, every other key (fitting, sort order) kept. */
async function pick(name) {
  state.settings.background = { ...state.settings.background, name, url: cssUrl(name) };
  await saveSettings();
  applyBackground();
}

/** The "Chat background" part of the settings page: pick, upload and delete. */
export function backgroundsSection() {
  const list = el('ul.backgrounds', { id: 'backgroundList', 'aria-label': 'Backgrounds' });
  const upload = el('input', { type: 'file', id: 'backgroundUpload', accept: 'image/*,video/*' });
  const section = el('section.backgroundPicker', { 'aria-labelledby': 'backgroundsHeading' },
    el('h2', { id: 'backgroundsHeading' }, 'Chat background'),
    el('p.muted', {}, 'Shown behind the chat. Kept in your backgrounds folder and settings, as SillyTavern keeps it.'),
    list, el('label', {}, el('span', {}, 'Upload a background'), upload));
  let files = [];

  function draw() {
    const current = state.settings.background?.name;
    list.replaceChildren(...files.map((name) => el(name === current ? 'li.current' : 'li', { dataset: { name } },
      el('button.pick', { type: 'button', 'aria-pressed': String(name === current), 'aria-label': `Use ${name}`,
        onclick: async () => {
          try {
            await pick(name);
            toast(`Background: ${name}`);
          } catch (e) { fail('Cannot pick the background', e); }
          draw();
        } }, el('img', { src: thumbnail(name, 'bg'), alt: '', loading: 'lazy' }), el('span', {}, name)),
      el('button.danger', { type: 'button', 'aria-label': `Delete ${name}`, onclick: () => remove(name) }, 'Delete'))));
    if (!files.length) list.append(el('li.muted', {}, 'No backgrounds yet.'));
  }

  async function refresh() {
    const answer = await postJson('/api/backgrounds/all', {});
    files = (answer?.images ?? []).map((image) => (typeof image === 'string' ? image : image.filename)).filter(Boolean);
    draw();
  }

  /** ST: backgrounds.js delBackground; the one in use gives way to ST's default (ST would keep showing a missing file). */
  async function remove(name) {
    if (await dialog(`Delete ${name}?`, el('p', {}, 'The image is deleted from your backgrounds folder.'),
      [['Cancel', ''], ['Delete', 'delete', true]]) !== 'delete') return;
    try {
      await postJson('/api/backgrounds/delete', { bg: name });
      if (state.settings.background?.name === name) await pick(DEFAULT);
      toast(`Deleted ${name}`);
      await refresh();
    } catch (e) { fail('Cannot delete the background', e); }
  }

  /** ST: backgrounds.js uploadBackground: the upload is picked. */
  upload.addEventListener('change', async () => {
    const file = upload.files[0];
    if (!file) return;
    const form = new FormData();
    form.append('avatar', file);
    try {
      const name = await postJson('/api/backgrounds/upload', form);
      await pick(String(name));
      upload.value = '';
      toast(`Uploaded ${name}`);
      await refresh();
    } catch (e) { fail(`Cannot upload ${file.name}`, e); }
  });

  refresh().catch((e) => fail('Cannot list the backgrounds', e));
  return section;
}
