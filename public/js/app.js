// Tankard's own UI: the shell (navigation by the address's hash, theme, toasts, sign-out) and the boot.
import { getJson, postJson } from './api.js';
import { fail } from './ui.js';
import { loadSettings, state } from './state.js';
import { showLibrary } from './library.js';
import { showPersonas } from './personas.js';
import { showChat } from './chat.js';
import { loadMarkdown } from './markdown.js';
import { showGroups } from './groups.js';
import { showSettings } from './settings.js';
import { showWorldInfo } from './worldinfo.js';
import { announce, connection, describeConnection, probe, showConnection } from './connection.js';

const view = document.getElementById('view');

let online = null; // what the last status check or reply said of the backend (null: not asked yet)

/** The badge, and the hint to connect first while no backend was ever connected (not on the Connection page). */
function refreshBadge() {
  const badge = document.getElementById('connectionBadge');
  const { label, ready } = describeConnection(online);
  badge.textContent = label;
  badge.classList.toggle('ok', ready);
  badge.classList.toggle('offline', online === false);
  document.getElementById('connectHint').hidden = (connection().ready && !state.settings.firstRun) || online === true
    || location.hash.startsWith('#/connection');
}

/** #/characters, #/chat?avatar=A.png&file=Name - date, #/chat?group=id&file=chat, #/groups?id=id, #/connection, #/personas, #/settings, #/worldinfo?book=B */
function route() {
  const [path, query = ''] = location.hash.replace(/^#/, '').split('?');
  const params = new URLSearchParams(query);
  const name = path.replace(/^\//, '') || 'characters';
  for (const link of document.querySelectorAll('[data-nav]')) {
    link.toggleAttribute('aria-current', link.dataset.nav === name);
    if (link.dataset.nav === name) link.setAttribute('aria-current', 'page');
  }
  view.replaceChildren();
  const shown = name === 'chat' ? showChat(view, params)
    : name === 'connection' ? showConnection(view)
      : name === 'groups' ? showGroups(view, params)
      : name === 'personas' ? showPersonas(view)
      : name === 'settings' ? showSettings(view)
      : name === 'worldinfo' ? showWorldInfo(view, params)
      : showLibrary(view, params);
  Promise.resolve(shown).catch((e) => fail('Cannot show this page', e));
}

function setUpTheme() {
  document.getElementById('themeToggle').addEventListener('click', () => {
    const next = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
    document.documentElement.dataset.theme = next;
    localStorage.setItem('tankard.theme', next);
  });
}

async function boot() {
  setUpTheme();
  try {
    await loadSettings();
    if (state.accounts) {
      state.user = await getJson('/api/users/me');
      const logout = document.getElementById('logout');
      logout.hidden = false;
      logout.textContent = `Sign out ${state.user.name ?? state.user.handle}`;
      logout.addEventListener('click', async () => {
        await postJson('/api/users/logout', {}).catch(() => {});
        location.href = '/login';
      });
    }
  } catch (e) {
    document.getElementById('status').textContent = `Cannot reach the server: ${e.message}`;
    return;
  }
  refreshBadge();
  window.addEventListener('tankard:connection', (e) => { online = e.detail.online; refreshBadge(); });
  window.addEventListener('hashchange', refreshBadge);
  // a fresh user's settings name a backend never tried: not probed, the hint asks to connect first
  if (connection().ready && !state.settings.firstRun) probe().then(() => announce(true), () => announce(false));
  window.addEventListener('hashchange', route);
  route();
  document.body.dataset.ready = 'true';
  // a chat's Markdown libraries, once the first page is drawn and the browser idle: the first chat opened need
  // not wait for them, and the page a user lands on does not
  (window.requestIdleCallback ?? setTimeout)(() => loadMarkdown());
}

boot();
