// Small DOM helpers and the toasts every view uses to say what failed.

/** An element: el('button.primary', {type: 'button', onclick}, 'Send'). */
export function el(spec, props = {}, ...children) {
  const [tag, ...classes] = spec.split('.');
  const node = document.createElement(tag || 'div');
  if (classes.length) node.className = classes.join(' ');
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key in node && key !== 'list') node[key] = value;
    else node.setAttribute(key, value === true ? '' : value);
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/** A labelled field. */
export function field(label, input) {
  return el('label', {}, el('span', {}, label), input);
}

/** A select of [value, label] options with `value` selected. */
export function selectOf(id, options, value) {
  return el('select', { id }, options.map(([v, label]) => el('option', { value: String(v), selected: String(v) === String(value) }, label)));
}

export function toast(message, kind = 'info') {
  const box = el(`div.toast.${kind}`, {}, message);
  document.getElementById('toasts').append(box);
  setTimeout(() => box.remove(), kind === 'error' ? 9000 : 4000);
}

/** Shows a failure as the user needs it: what failed and the server's reason. */
export function fail(what, error) {
  console.error(`${what}: ${error?.message ?? error}`);
  toast(`${what}: ${error?.message ?? error}`, 'error');
}

/** A modal dialog with the given body and buttons; resolves with the button's value (null when dismissed). */
export function dialog(title, body, buttons) {
  return new Promise((resolve) => {
    const box = el('dialog', { onclose: () => { box.remove(); resolve(box.returnValue || null); } },
      el('h2', {}, title), body,
      el('div.actions', {}, buttons.map(([label, value, primary]) => el(primary ? 'button.primary' : 'button', {
        type: 'button', value, onclick: () => box.close(value),
      }, label))));
    document.body.append(box);
    box.showModal();
  });
}

/** Offers a file to the user under `name`, as ST's `download` (public/scripts/utils.js) does. */
export function saveDownload(blob, name) {
  const link = el('a', { href: URL.createObjectURL(blob), download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
}

/** The avatar thumbnail ST serves for a card or a persona. */
export function thumbnail(avatar, type = 'avatar') {
  return `/thumbnail?type=${type}&file=${encodeURIComponent(avatar)}`;
}

/** The action, run once the calls stop coming for `ms` (a search box as the user types). */
export function debounce(action, ms) {
  let timer;
  return () => { clearTimeout(timer); timer = setTimeout(action, ms); };
}
