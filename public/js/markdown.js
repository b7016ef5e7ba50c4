// Messages as ST shows them: Markdown (markdown-it) with the HTML a message may carry, cleaned by DOMPurify
// (public/script.js messageFormatting: showdown, then DOMPurify). Both libraries are vendored under
// public/vendor/ (README there) and load as plain scripts once the first page is drawn and the browser idle (app.js),
// or when a chat opens first: the page a user lands on does not wait for them.

const LIBRARIES = ['vendor/markdown-it/markdown-it.umd.min.js', 'vendor/dompurify/purify.min.js'];

let loading = null;
let parser = null;

function script(src) {
  return new Promise((resolve, reject) => {
    const tag = document.createElement('script');
    tag.src = src;
    tag.onload = resolve;
    tag.onerror = () => reject(new Error(`Cannot load ${src}`));
    document.head.append(tag);
  });
}

/** Loads markdown-it and DOMPurify once; until then (or if they fail) messages show as plain text. */
export function loadMarkdown() {
  loading ??= Promise.all(LIBRARIES.map(script)).then(() => {
    // breaks: a single newline is a line break, as ST's showdown option simpleLineBreaks makes it
    parser = window.markdownit({ html: true, breaks: true, linkify: true });
    window.DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A' && node.hasAttribute('href')) { // a link leaves the chat in a tab of its own
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
  }).catch((e) => {
    loading = null;
    console.error(e.message);
  });
  return loading;
}

/** A message's text as nodes: Markdown and sanitized HTML once the libraries are in, plain text before. */
export function formatted(text) {
  const source = String(text ?? '');
  if (!parser) {
    const plain = document.createElement('span');
    plain.className = 'plain';
    plain.textContent = source;
    return plain;
  }
  const html = parser.render(source).trim();
  if (!source.includes('<') && !html.includes('<a ')) return trusted(html);
  return window.DOMPurify.sanitize(html, { RETURN_DOM_FRAGMENT: true });
}

const template = document.createElement('template');

/**
 * markdown-it's own HTML of a text without "<": it passes HTML through only from a "<" (its html_block, html_inline
 * and autolink rules), escapes all other text and checks link and image addresses (validateLink), so DOMPurify has
 * nothing to take out; a link still goes through it for the hook above.
 */
function trusted(html) {
  template.innerHTML = html;
  return template.content.cloneNode(true);
}
