// The user's settings.json, shared with ST's frontend: Tankard's UI reads it whole, changes only the keys it
// owns (where ST keeps them: main_api, oai_settings, textgenerationwebui_settings, power_user, username, background,
// amount_gen, max_context) and saves the whole object back, so everything ST stored there survives.
import { postJson, saveQueue } from './api.js';

export const state = {
  settings: {},
  accounts: false,
  user: null,
};

/** Reads settings.json into state.settings; answers all /api/settings/get says (the preset lists too). */
export async function loadSettings() {
  const answer = await postJson('/api/settings/get', {});
  state.accounts = !!answer.enable_accounts;
  try {
    state.settings = answer.settings ? JSON.parse(answer.settings) : {};
  } catch {
    state.settings = {};
  }
  return answer;
}

const settingsSaves = saveQueue();

/**
 * Saves the whole settings object. One save at a time, in order: each carries every change made before it was sent,
 * so a later one must not land before an earlier one (quick changes on the settings page send several).
 */
export async function saveSettings() {
  await settingsSaves(() => postJson('/api/settings/save', state.settings));
}

/** The persona's name, as ST's frontend names the user in chats. */
export function userName() {
  const settings = state.settings;
  return settings.power_user?.personas?.[settings.user_avatar] || settings.username || 'User';
}

/** ST's chat file names: "Name - 2026-12-02@14h05m09s123ms" (public/scripts/RossAscends-mods.js, humanizedDateTime). */
export function humanizedDateTime(date = new Date()) {
  const pad = (n, l = 2) => String(n).padStart(l, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}@${pad(date.getHours())}h`
    + `${pad(date.getMinutes())}m${pad(date.getSeconds())}s${pad(date.getMilliseconds(), 3)}ms`;
}

/** ST's macros in a card's texts: {{char}}, {{user}} and their old spellings. */
export function substitute(text, charName) {
  return String(text ?? '').replace(/\{\{char\}\}|<BOT>/gi, charName).replace(/\{\{user\}\}|<USER>/gi, userName());
}
