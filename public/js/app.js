// Tankard's own UI: the shell (navigation by the address's hash, theme, toasts, sign-out) and the boot.
import { getJson, postJson } from './api.js';
import { fail } from './ui.js';
import { loadSettings, state } from './state.js';
import { showLibrary } from './library.js';
import { showPersonas } from './personas.js';
import { showChat } from './chat.js';
import { connection, describeConnection, probe, showConnection } from './connection.js';

const view = document.getElementById('view');

function refreshBadge(online) {
  const badge = document.getElementById('connectionBadge');
  const { label, ready } = describeConnection(online);
  badge.textContent = label;
  badge.classList.toggle('ok', ready);
}

/** #/characters, #/chat?avatar=A.png&file=Name - date, #/connection, #/personas */
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
      : name === 'personas' ? showPersonas(view)
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
  refreshBadge(null);
  window.addEventListener('tankard:connection', (e) => refreshBadge(e.detail.online));
  if (connection().ready && !state.settings.firstRun) probe() // a fresh user's settings name a backend never tried.then(() => refreshBadge(true), () => refreshBadge(false));
  window.addEventListener('hashchange', route);
  route();
  document.body.dataset.ready = 'true';
}

boot();
