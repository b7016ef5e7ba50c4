// #/settings: the generation settings of the connection in use and their presets, kept as ST 1.18's frontend keeps
// them, so ST and Tankard share them: the values in settings.json (oai_settings for chat completion;
// textgenerationwebui_settings, amount_gen, max_context and power_user's instruct, context and sysprompt for text
// completion) and the presets as files in the user's "OpenAI Settings/", "TextGen Settings/", "instruct/",
// "context/" and "sysprompt/" (POST /api/presets/save and /delete; /api/settings/get lists them). The server's
// engine reads these settings for every prompt. Below them, the chat background (backgrounds.js).
import { postJson } from './api.js';
import { loadSettings, saveSettings, state } from './state.js';
import { announce, connection, describeConnection } from './connection.js';
import { backgroundsSection } from './backgrounds.js';
import { samplersFor } from './samplers.js';
import { dialog, el, fail, field, saveDownload, toast } from './ui.js';

// ST: openai.js settingsToUpdate, the preset keys whose oai_settings key differs
const OAI_RENAMED = {
  temperature: 'temp_openai', frequency_penalty: 'freq_pen_openai', presence_penalty: 'pres_pen_openai',
  top_p: 'top_p_openai', top_k: 'top_k_openai', top_a: 'top_a_openai', min_p: 'min_p_openai',
  repetition_penalty: 'repetition_penalty_openai',
};
// ST: the rest of settingsToUpdate, less the connection's keys (OAI_CONNECTION)
const OAI_PRESET_KEYS = [...Object.keys(OAI_RENAMED), 'max_context_unlocked', 'tool_reasoning_mode', 'openai_max_context',
  'openai_max_tokens', 'names_behavior', 'send_if_empty', 'impersonation_prompt', 'new_chat_prompt', 'new_group_chat_prompt',
  'new_example_chat_prompt', 'continue_nudge_prompt', 'bias_preset_selected', 'wi_format', 'scenario_format',
  'personality_format', 'group_nudge_prompt', 'stream_openai', 'prompts', 'prompt_order', 'assistant_prefill',
  'assistant_impersonation', 'use_sysprompt', 'squash_system_messages', 'media_inlining', 'inline_image_quality',
  'continue_prefill', 'continue_postfix', 'function_calling', 'tool_call_recurse_limit', 'show_thoughts', 'reasoning_effort',
  'verbosity', 'enable_web_search', 'seed', 'n', 'request_images', 'request_image_aspect_ratio', 'request_image_resolution'];
// ST: settingsToUpdate's connection keys (the source, its models, endpoints, URLs and proxies)
const OAI_CONNECTION = /^(chat_completion_source|group_models|sort_models|reverse_proxy|show_external_models|proxy_password|bypass_status_check|workers_ai_account_id)$|_model$|_endpoint$|^(custom|openrouter|vertexai|azure|nanogpt)_/;

// ST: openai.js sensitiveFields, which its preset import and export ask about
const OAI_SENSITIVE = ['reverse_proxy', 'proxy_password', 'custom_url', 'custom_include_body', 'custom_exclude_body',
  'custom_include_headers', 'vertexai_region', 'vertexai_express_project_id', 'azure_base_url', 'azure_deployment_name',
  'workers_ai_account_id'];

// ST: preset-manager.js getPresetSettings's filteredKeys (those a text completion or template preset can hold)
const NOT_IN_PRESETS = /^(api_server|preset|streaming|truncation_length|n|streaming_url|stopping_strings|can_use_tokenization|can_use_streaming|enabled|bind_to_context|seed|legacy_api|server_urls|type|bypass_status_check|max_tokens_second|openrouter_providers|openrouter_quantizations|openrouter_allow_fallbacks|derived|include_reasoning|global_banned_tokens|send_banned_tokens)$|_model$/;
// ST: instruct-mode.js controls, the template's keys a pick copies
const INSTRUCT_KEYS = ['enabled', 'wrap', 'macro', 'story_string_prefix', 'story_string_suffix', 'input_sequence',
  'input_suffix', 'output_sequence', 'output_suffix', 'system_sequence', 'system_suffix', 'last_system_sequence',
  'user_alignment_message', 'stop_sequence', 'first_output_sequence', 'last_output_sequence', 'first_input_sequence',
  'last_input_sequence', 'activation_regex', 'bind_to_context', 'skip_examples', 'names_behavior', 'system_same_as_user',
  'sequences_as_stop_strings'];
// ST: power-user.js contextControls: [key, default, kept in power_user itself rather than power_user.context]
const CONTEXT_KEYS = [['story_string'], ['example_separator'], ['chat_start'], ['use_stop_strings', false],
  ['names_as_stop_strings', true], ['story_string_position', 0], ['story_string_depth', 1], ['story_string_role', 0],
  ['always_force_name2', true, true], ['trim_sentences', false, true], ['single_line', false, true]];

// ST: power-user.js MAX_CONTEXT_DEFAULT, MAX_RESPONSE_DEFAULT, MAX_CONTEXT_UNLOCKED, MAX_RESPONSE_UNLOCKED: the text
// completion sliders' ends, locked and unlocked
const TEXT_CONTEXT = [8192, 512 * 1024];
const TEXT_RESPONSE = [2048, 64 * 1024];

/**
 * Text completion lengths past the locked sliders' ends need ST's "unlocked" switch (power_user.max_context_unlocked),
 * else ST's frontend cuts them back when it opens (power-user.js switchMaxContextSize).
 */
function needsUnlock(context, response) {
  return context > TEXT_CONTEXT[0] || response > TEXT_RESPONSE[0];
}

function powerUser() {
  const p = state.settings.power_user ??= {};
  p.instruct ??= {};
  p.context ??= {};
  p.sysprompt ??= {};
  return p;
}

const oai = () => (state.settings.oai_settings ??= {});
const textgen = () => (state.settings.textgenerationwebui_settings ??= {});
const without = (object, unwanted) => Object.fromEntries(Object.entries(object).filter(([key]) => !unwanted.test(key)));

/**
 * The five kinds of preset: where a kind's picked name is kept, what picking one writes into settings.json (ST's
 * functions named on each) and what a save stores.
 */
const KINDS = {
  openai: {
    label: 'Preset', folder: 'OpenAI Settings',
    picked: () => oai().preset_settings_openai,
    /** ST: openai.js onSettingsPresetChange. */
    apply(name, preset) {
      const s = oai();
      s.preset_settings_openai = name;
      for (const key of Object.keys(preset)) {
        const connectionKey = OAI_CONNECTION.test(key);
        if (preset[key] === undefined || (!connectionKey && !OAI_PRESET_KEYS.includes(key))) continue;
        if (connectionKey && !(s.bind_preset_to_connection ?? true)) continue; // ST's default: bound
        s[OAI_RENAMED[key] ?? key] = preset[key];
      }
      s.extensions = preset.extensions || {};
    },
    /** ST: openai.js getChatCompletionPreset. */
    body() {
      const s = oai();
      const body = Object.fromEntries(OAI_PRESET_KEYS.map((key) => [key, s[OAI_RENAMED[key] ?? key]]));
      for (const key of Object.keys(s)) if (OAI_CONNECTION.test(key)) body[key] = s[key];
      body.extensions = s.extensions;
      return body;
    },
  },
  textgenerationwebui: {
    label: 'Preset', folder: 'TextGen Settings',
    picked: () => textgen().preset,
    /** ST: textgen-settings.js selectPreset and script.js setGenerationParamsFromPreset. */
    apply(name, preset) {
      const s = textgen();
      s.preset = name;
      for (const [key, value] of Object.entries(without(preset, /^(genamt|max_length|name)$/))) {
        if (value !== null && value !== undefined && !NOT_IN_PRESETS.test(key)) s[key] = value;
      }
      if (preset.genamt !== undefined) state.settings.amount_gen = preset.genamt;
      if (preset.max_length !== undefined) state.settings.max_context = preset.max_length;
      powerUser().max_context_unlocked = needsUnlock(state.settings.max_context, state.settings.amount_gen);
    },
    /** ST: preset-manager.js getPresetSettings: the settings less the connection's, with the lengths. */
    body() {
      return { ...without(textgen(), NOT_IN_PRESETS), genamt: state.settings.amount_gen, max_length: state.settings.max_context };
    },
  },
  instruct: {
    label: 'Instruct template', folder: 'instruct',
    picked: () => powerUser().instruct.preset,
    /** ST: instruct-mode.js, #instruct_presets' change handler (bind_to_context picks the context template too). */
    apply(name, preset, lists) {
      const instruct = powerUser().instruct;
      instruct.preset = name;
      for (const key of INSTRUCT_KEYS) if (preset[key] !== undefined) instruct[key] = preset[key];
      if (instruct.bind_to_context && lists.context.has(name)) KINDS.context.apply(name, lists.context.get(name), lists, false);
    },
    body: (name) => ({ ...without(powerUser().instruct, NOT_IN_PRESETS), name }),
  },
  context: {
    label: 'Context template', folder: 'context',
    picked: () => powerUser().context.preset,
    /** ST: power-user.js, #context_presets' change handler (bind_to_context picks and turns on the instruct template). */
    apply(name, preset, lists, bound = true) {
      const p = powerUser();
      p.context.preset = name;
      for (const [key, fallback, global] of CONTEXT_KEYS) {
        const value = preset[key] ?? fallback;
        if (value !== undefined) (global ? p : p.context)[key] = value;
      }
      if (bound && p.instruct.bind_to_context && lists.instruct.has(name)) {
        const instruct = lists.instruct.get(name);
        p.instruct.preset = name;
        for (const key of INSTRUCT_KEYS) if (instruct[key] !== undefined) p.instruct[key] = instruct[key];
        p.instruct.enabled = true; // ST: instruct-mode.js selectInstructPreset
      }
    },
    /** ST: power-user.js getContextSettings. */
    body(name) {
      const p = powerUser();
      const body = Object.fromEntries(CONTEXT_KEYS.map(([key, fallback, global]) => {
        const value = (global ? p : p.context)[key];
        return [key, typeof fallback === 'boolean' ? !!value : value];
      }));
      return { ...body, name };
    },
  },
  sysprompt: {
    label: 'System prompt', folder: 'sysprompt',
    picked: () => powerUser().sysprompt.name,
    /** ST: sysprompt.js, #sysprompt_select's change handler: it turns the system prompt on. */
    apply(name, preset) {
      Object.assign(powerUser().sysprompt, { enabled: true, name, content: preset.content || '', post_history: preset.post_history || '' });
    },
    body: (name) => ({ ...without(powerUser().sysprompt, NOT_IN_PRESETS), name }),
  },
};

/** The presets /api/settings/get lists, by kind: name → preset, in the server's order. */
function presetLists(answer) {
  const parsed = (names = [], texts = []) => new Map(names.map((name, i) => {
    try {
      return [name, JSON.parse(texts[i])];
    } catch {
      return [name, {}];
    }
  }));
  const named = (list = []) => new Map(list.filter((p) => p?.name).map((p) => [p.name, p]));
  return {
    openai: parsed(answer.openai_setting_names, answer.openai_settings),
    textgenerationwebui: parsed(answer.textgenerationwebui_preset_names, answer.textgenerationwebui_presets),
    instruct: named(answer.instruct), context: named(answer.context), sysprompt: named(answer.sysprompt),
  };
}

/** A number the user typed, or null when it is not one within [min, max]. */
function numberIn(input) {
  const value = input.valueAsNumber;
  return Number.isFinite(value) && value >= Number(input.min) && value <= Number(input.max) ? value : null;
}

export async function showSettings(view) {
  const lists = presetLists(await loadSettings()); // read again: ST may have changed them since the page loaded
  const section = el('section.page', {});
  const backgrounds = backgroundsSection();
  let samplersOpen = false; // the "More samplers" group stays as the user left it when the page is drawn again
  view.append(section);

  async function commit(message) {
    const before = describeConnection(null).label;
    try {
      await saveSettings();
      if (message) toast(message);
    } catch (e) { fail('Cannot save the settings', e); }
    if (describeConnection(null).label !== before) announce(null); // a preset bound to a connection switched it
    draw();
  }

  /** A picker of one kind of preset, with Save (over the picked one), Save as and Delete. */
  function presetRow(apiId) {
    const kind = KINDS[apiId];
    const list = lists[apiId];
    const picked = kind.picked();
    const select = el('select', { id: `${apiId}Preset` },
      picked && !list.has(picked) ? el('option', { value: '', selected: true }, `${picked} (not saved)`) : null,
      [...list.keys()].map((name) => el('option', { value: name, selected: name === picked }, name)));
    select.addEventListener('change', () => {
      if (!list.has(select.value)) return;
      kind.apply(select.value, structuredClone(list.get(select.value)), lists);
      commit(`${kind.label}: ${select.value}`);
    });

    /** ST: preset-manager.js savePreset and updateList: the file saved, then picked. */
    async function store(name, preset, said) {
      const answer = await postJson('/api/presets/save', { apiId, name, preset });
      const stored = answer?.name ?? name;
      list.set(stored, 'name' in preset ? { ...preset, name: stored } : preset);
      kind.apply(stored, structuredClone(list.get(stored)), lists);
      await commit(said(stored));
    }

    async function save(name) {
      try {
        await store(name, kind.body(name), (stored) => `Saved ${stored} in ${kind.folder}/`);
      } catch (e) { fail(`Cannot save ${name}`, e); }
    }

    /**
     * A preset file from the user's disk, saved and picked. Chat completion (ST: openai.js onPresetImportFileChange):
     * named by its file, its proxy and endpoint settings kept only when the user says so, an existing one overwritten
     * only when confirmed. The others (ST: preset-manager.js, [data-preset-manager-file]'s change handler): named by
     * its `name`, else its file.
     */
    async function importFile(file) {
      let preset;
      try {
        preset = JSON.parse(await file.text());
      } catch { /* refused below */ }
      if (!preset || typeof preset !== 'object' || Array.isArray(preset)) {
        toast(`Cannot import ${file.name}: not a preset file (JSON)`, 'error');
        return;
      }
      let name;
      if (apiId === 'openai') {
        name = file.name.replace(/\.[^/.]+$/, '');
        const sensitive = OAI_SENSITIVE.filter((key) => preset[key]);
        if (sensitive.length) {
          const answer = await dialog('The preset holds proxy or custom endpoint settings',
            el('p', {}, `${sensitive.join(', ')}. Remove them before importing?`),
            [['Cancel import', ''], ['Import as it is', 'keep'], ['Remove them', 'remove', true]]);
          if (!answer) return;
          if (answer === 'remove') sensitive.forEach((key) => delete preset[key]);
        }
        if (list.has(name) && await dialog(`${name} exists. Overwrite it?`, el('p', {}, `Its file in ${kind.folder}/ is replaced.`),
          [['Cancel', ''], ['Overwrite', 'overwrite', true]]) !== 'overwrite') return;
      } else {
        name = preset.name ?? file.name.replace('.json', '').replace('.settings', '');
        preset.name = name;
      }
      try {
        await store(name, preset, (stored) => `Imported ${stored}`);
      } catch (e) { fail(`Cannot import ${name}`, e); }
    }

    /**
     * The picked preset as a file. Chat completion (ST: openai.js onExportPresetClick): the saved preset, its
     * connection (ST's settingsToUpdate marked so) and proxy settings left out unless the user keeps them. The others
     * (ST: [data-preset-manager-export]'s click handler): the settings as a save would store them.
     */
    async function exportFile() {
      const name = select.value;
      let preset = apiId === 'openai' ? structuredClone(list.get(name)) : kind.body(name);
      if (apiId === 'openai') {
        const sensitive = OAI_SENSITIVE.filter((key) => preset[key]);
        const connectionBox = el('input', { type: 'checkbox', id: 'exportConnection' });
        const sensitiveBox = el('input', { type: 'checkbox', id: 'exportSensitive' });
        const body = el('div.form', {},
          el('label.check', {}, connectionBox, el('span', {}, 'With the connection (source, models, URLs); never the API keys')),
          sensitive.length ? el('label.check', {}, sensitiveBox, el('span', {}, `With its proxy and endpoint settings (${sensitive.join(', ')})`)) : null);
        if (await dialog(`Export ${name}`, body, [['Cancel', ''], ['Export', 'export', true]]) !== 'export') return;
        if (!sensitiveBox.checked) sensitive.forEach((key) => delete preset[key]);
        if (!connectionBox.checked) preset = without(preset, OAI_CONNECTION);
      }
      saveDownload(new Blob([JSON.stringify(preset, null, 4)], { type: 'application/json' }), `${name}.json`);
    }

    /**
     * ST: preset-manager.js, [data-preset-manager-restore]'s click handler: a shipped default gets its shipped
     * settings back (POST /api/presets/restore), another is picked again as it was saved.
     */
    async function restore() {
      const name = select.value;
      try {
        const { isDefault, preset } = await postJson('/api/presets/restore', { apiId, name });
        if (isDefault && !Object.keys(preset).length) { toast(`${name}: the shipped default cannot be read`, 'error'); return; }
        const what = isDefault ? `${name} gets SillyTavern's shipped settings back.`
          : `${name} is not a shipped default: its saved settings are picked again.`;
        if (await dialog(`Restore ${name}?`, el('p', {}, what), [['Cancel', ''], ['Restore', 'restore', true]]) !== 'restore') return;
        if (isDefault) {
          await store(name, preset, (stored) => `Restored ${stored}`);
        } else {
          kind.apply(name, structuredClone(list.get(name)), lists);
          await commit(`Restored ${name}`);
        }
      } catch (e) { fail(`Cannot restore ${name}`, e); }
    }

    async function saveAs() {
      const name = el('input', { id: 'presetName', value: kind.picked() ?? '', required: true, autocomplete: 'off',
        onkeydown: (e) => { if (e.key === 'Enter') { e.preventDefault(); name.closest('dialog').close('save'); } } });
      const body = el('div.form', {}, field('Name', name), el('p.muted', {}, `Saved in ${kind.folder}/, where SillyTavern keeps them.`));
      if (await dialog(`Save the ${kind.label.toLowerCase()} as`, body, [['Cancel', ''], ['Save', 'save', true]]) !== 'save') return;
      if (name.value.trim()) await save(name.value.trim());
    }

    /** ST: preset-manager.js deletePreset, openai.js onDeletePresetClick: the first one left is picked instead. */
    async function remove() {
      const name = select.value;
      if (await dialog(`Delete ${name}?`, el('p', {}, `Its file in ${kind.folder}/ is deleted.`),
        [['Cancel', ''], ['Delete', 'delete', true]]) !== 'delete') return;
      try {
        await postJson('/api/presets/delete', { apiId, name });
        list.delete(name);
        const next = list.keys().next().value;
        if (next !== undefined) kind.apply(next, structuredClone(list.get(next)), lists);
        await commit(`Deleted ${name}`);
      } catch (e) { fail(`Cannot delete ${name}`, e); }
    }

    const importer = el('input', { type: 'file', id: `${apiId}PresetImportFile`, accept: '.json,.settings,application/json', hidden: true,
      onchange: () => { const [file] = importer.files; importer.value = ''; if (file) importFile(file); } });
    const { label } = kind;
    const lower = label.toLowerCase();
    return el('div.presetRow', {}, field(label, select), el('div.row', { role: 'group', 'aria-label': `${label} files` },
      el('button', { type: 'button', id: `${apiId}PresetSave`, disabled: !list.has(picked), 'aria-label': `Save over ${lower} ${picked ?? ''}`,
        onclick: () => save(select.value) }, 'Save'),
      el('button', { type: 'button', id: `${apiId}PresetSaveAs`, 'aria-label': `Save as… a new ${lower}`, onclick: saveAs }, 'Save as…'),
      el('button', { type: 'button', id: `${apiId}PresetImport`, 'aria-label': `Import a ${lower} file`, onclick: () => importer.click() }, 'Import'),
      importer,
      el('button', { type: 'button', id: `${apiId}PresetExport`, disabled: !list.has(select.value),
        'aria-label': `Export ${lower} ${select.value}`, onclick: exportFile }, 'Export'),
      // ST's preset managers have a restore button; its chat completion presets have none
      apiId === 'openai' ? null : el('button', { type: 'button', id: `${apiId}PresetRestore`, disabled: !list.has(select.value),
        'aria-label': `Restore ${lower} ${select.value}`, onclick: restore }, 'Restore'),
      el('button.danger', { type: 'button', id: `${apiId}PresetDelete`, disabled: !list.has(select.value),
        'aria-label': `Delete ${lower} ${select.value}`, onclick: remove }, 'Delete')));
  }

  /** A number field bound to holder()[key] (shown as fallback when unset); own, the API's limits, win over the field's. */
  function numberField(id, label, [holder, key, own = {}], limits) {
    const { min, max, step, hint, fallback = '' } = { ...limits, ...own };
    const input = el('input', { id, type: 'number', inputMode: 'decimal', min, max, step, value: holder()[key] ?? fallback });
    input.addEventListener('change', () => {
      const value = numberIn(input);
      if (value === null) { toast(`${label}: a number from ${min} to ${max}`, 'error'); input.value = holder()[key] ?? fallback; return; }
      holder()[key] = value;
      if (own.unlocks && needsUnlock(state.settings.max_context, state.settings.amount_gen)) powerUser().max_context_unlocked = true;
      commit();
    });
    return el('label', {}, el('span', {}, label), input, hint ? el('small.muted', {}, hint) : null);
  }

  function checkbox(id, label, holder, key, fallback = false) {
    const input = el('input', { id, type: 'checkbox', checked: !!(holder()[key] ?? fallback) });
    input.addEventListener('change', () => { holder()[key] = input.checked; commit(); });
    return el('label.check', {}, input, el('span', {}, label));
  }

  /**
   * The fields both APIs have: where each is kept ([holder, key]) and the ranges of ST's sliders (index.html; the
   * context and response length as far as ST's "unlocked" sliders go).
   */
  function commonFields({ temperature, topP, length, context, stream }) {
    return [
      numberField('genTemperature', 'Temperature', temperature, { min: 0, step: 0.01 }),
      numberField('genTopP', 'Top P', topP, { min: 0, max: 1, step: 0.01 }),
      numberField('genMaxTokens', 'Response length (tokens)', length, { step: 1 }),
      numberField('genContext', 'Context size (tokens)', context, { min: 512, max: 2000000, step: 1,
        hint: 'The prompt and the reply fit in this many tokens; older messages are left out first.' }),
      checkbox('genStream', 'Stream replies as they are written', ...stream)];
  }

  /** ST's other samplers for the connection in use (samplers.js), folded away as ST's own are in its drawer. */
  function moreSamplers(holder) {
    const c = connection();
    return el('details.samplers', { id: 'moreSamplers', open: samplersOpen, ontoggle: (e) => { samplersOpen = e.target.open; } },
      el('summary', {}, 'More samplers'),
      samplersFor(c.api, c.source).map(({ key, label, min, max, step, fallback }) => (typeof fallback === 'boolean'
        ? checkbox(`sampler_${key}`, label, holder, key, fallback)
        : numberField(`sampler_${key}`, label, [holder, key, { min, max, step, fallback }], {}))));
  }

  function chatCompletion() {
    return [presetRow('openai'),
      // ST: openai.js default_settings.bind_preset_to_connection
      checkbox('bindPresetToConnection', 'Presets switch the connection too (source, model, URL)', oai, 'bind_preset_to_connection', true),
      ...commonFields({
        temperature: [oai, 'temp_openai', { max: 2 }], topP: [oai, 'top_p_openai'],
        length: [oai, 'openai_max_tokens', { min: 1, max: 128000 }], context: [oai, 'openai_max_context'],
        stream: [oai, 'stream_openai'],
      }), moreSamplers(oai)];
  }

  function textCompletion() {
    const p = powerUser();
    const root = () => state.settings;
    return [presetRow('textgenerationwebui'), ...commonFields({
      temperature: [textgen, 'temp', { max: 5 }], topP: [textgen, 'top_p'],
      length: [root, 'amount_gen', { min: 16, max: TEXT_RESPONSE[1], unlocks: true }],
      context: [root, 'max_context', { max: TEXT_CONTEXT[1], unlocks: true }],
      stream: [textgen, 'streaming'],
    }),
    moreSamplers(textgen),
    el('h2', {}, 'Formatting'),
    checkbox('instructEnabled', 'Instruct mode', () => p.instruct, 'enabled'),
    presetRow('instruct'),
    presetRow('context'),
    checkbox('syspromptEnabled', 'Use the system prompt', () => p.sysprompt, 'enabled'),
    presetRow('sysprompt')];
  }

  function draw() {
    const focused = document.activeElement?.id;
    const c = connection();
    const chat = c.api === 'openai';
    const usable = chat || c.api === 'textgenerationwebui';
    section.replaceChildren(el('div.narrow', {},
      el('h1', {}, 'Generation settings'),
      el('p.muted', {}, usable ? `For ${chat ? 'chat completion' : 'text completion'}: ${describeConnection(null).label}. ` : '',
        'Saved in your settings and presets as SillyTavern keeps them, so both use the same. ',
        el('a', { href: '#/connection' }, 'Change the connection')),
      usable ? el('form.form.settings', { id: 'generationSettings', onsubmit: (e) => e.preventDefault() },
        chat ? chatCompletion() : textCompletion())
        : el('p', {}, 'Connect a chat or text completion backend first.'),
      backgrounds));
    if (focused) document.getElementById(focused)?.focus();
  }
  draw();
}
