// The character library: a virtualised grid over POST /api/tankard/characters/page, so only the cards on screen
// are asked for and drawn, however large the library. Search, sort, favourites, tags; import by drag and drop or
// the file picker or from a URL; create, edit, duplicate, delete, export (cards.js).
import { postJson } from './api.js';
import { debounce, dialog, el, fail, thumbnail, toast } from './ui.js';
import { openCharacter } from './chat.js';
import { IMPORTABLE, askImportUrl, deleteCard, duplicateCard, editCard, exportCard, importCardFile, offerImportedBook } from './cards.js';

const PAGE = 100;
const CARD_WIDTH = 150;
const CARD_HEIGHT = 275;
const GAP = 12;

/** Filters and sort survive a visit to a chat and back. */
const query = { search: '', sort: 'name', order: '', favorites: false, tags: [] };

export function showLibrary(view) {
  const grid = el('div.grid', { tabIndex: 0, 'aria-label': 'Characters' });
  const spacer = el('div.spacer');
  grid.append(spacer);
  const count = el('span.count', { id: 'libraryCount' });
  const progress = el('div.progress', { hidden: true }, el('div'));
  const fileInput = el('input', {
    type: 'file', id: 'importFile', multiple: true, hidden: true, accept: IMPORTABLE.map((e) => `.${e}`).join(','),
    onchange: () => { importFiles([...fileInput.files]); fileInput.value = ''; },
  });
  const search = el('input', {
    type: 'search', id: 'librarySearch', placeholder: 'Search names, tags, creators', value: query.search,
    'aria-label': 'Search characters',
    oninput: debounce(() => { query.search = search.value; reset(); }, 200),
  });
  const sort = el('select', {
    id: 'librarySort', 'aria-label': 'Sort by',
    onchange: () => { [query.sort, query.order] = sort.value.split(':'); reset(); },
  }, [['name:asc', 'Name A–Z'], ['name:desc', 'Name Z–A'], ['date_last_chat:desc', 'Last chat'],
    ['date_added:desc', 'Newest'], ['date_added:asc', 'Oldest'], ['chat_size:desc', 'Longest chats']]
    .map(([value, label]) => el('option', { value }, label)));
  sort.value = `${query.sort}:${query.order || (query.sort === 'name' ? 'asc' : 'desc')}`;
  const favorites = el('button', {
    type: 'button', id: 'libraryFavorites', 'aria-pressed': String(query.favorites), title: 'Favourites only',
    onclick: () => { query.favorites = !query.favorites; favorites.setAttribute('aria-pressed', query.favorites); reset(); },
  }, '★ Favourites');
  const tagSelect = el('select', {
    id: 'libraryTag', 'aria-label': 'Tag',
    onchange: () => { query.tags = tagSelect.value ? [tagSelect.value] : []; reset(); },
  }, el('option', { value: '' }, 'All tags'));

  view.append(el('section.library', {}, el('h1.sr-only', {}, 'Characters'),
    el('div.tools', {}, search, sort, tagSelect, favorites,
      el('button', { type: 'button', id: 'newCard', onclick: () => editCard(null, reset) }, '+ New'),
      el('button.primary', { type: 'button', id: 'importButton', onclick: () => fileInput.click() }, 'Import'),
      el('button', { type: 'button', id: 'importUrlButton', onclick: () => askImportUrl().then(imported) }, 'Import URL'),
      fileInput, progress, count),
    grid));

  let total = 0;
  let generation = 0;
  let shown = { from: 0, to: 0 };
  const pages = new Map();

  function pageOf(index) {
    const number = Math.floor(index / PAGE);
    if (!pages.has(number)) {
      const asked = generation;
      pages.set(number, postJson('/api/tankard/characters/page', {
        offset: number * PAGE, limit: PAGE, search: query.search, sort: query.sort,
        order: query.order || undefined, favorites: query.favorites || undefined, tags: query.tags,
      }).then((answer) => {
        if (asked !== generation) return null;
        if (total !== answer.total) { total = answer.total; layout(); }
        fillTags(answer.tags);
        return answer.items;
      }).catch((e) => { pages.delete(number); fail('Cannot list the characters', e); return null; }));
    }
    return pages.get(number);
  }

  let tagsShown = false;
  function fillTags(tags) {
    if (tagsShown || !tags) return;
    tagsShown = true;
    tagSelect.append(...tags.map((t) => el('option', { value: t.name }, `${t.name} (${t.count})`)));
    tagSelect.value = query.tags[0] ?? '';
  }

  function columns() {
    return Math.max(1, Math.floor((grid.clientWidth - GAP) / (CARD_WIDTH + GAP)));
  }

  function layout() {
    const rows = Math.ceil(total / columns());
    spacer.style.height = `${rows * (CARD_HEIGHT + GAP) + GAP}px`;
    count.textContent = `${total.toLocaleString()} character${total === 1 ? '' : 's'}`;
    draw();
  }

  /** Draws the rows in view (and one more each side), asking for the pages they need. */
  function draw() {
    const cols = columns();
    const rowHeight = CARD_HEIGHT + GAP;
    const first = Math.max(0, Math.floor(grid.scrollTop / rowHeight) - 1);
    const last = Math.ceil((grid.scrollTop + grid.clientHeight) / rowHeight) + 1;
    const from = first * cols;
    const to = Math.min(total, last * cols);
    const width = (grid.clientWidth - GAP) / cols - GAP;
    shown = { from, to };
    for (const node of [...spacer.children]) {
      const index = Number(node.dataset.index);
      if (index < from || index >= to) node.remove();
    }
    const present = new Set([...spacer.children].map((n) => Number(n.dataset.index)));
    const drawn = generation;
    for (let i = from; i < to; i++) {
      if (present.has(i)) continue;
      pageOf(i).then((items) => {
        const item = items?.[i % PAGE];
        const stillShown = i >= shown.from && i < shown.to; // the page may come after the grid scrolled on
        if (!item || drawn !== generation || !stillShown || spacer.querySelector(`[data-index="${i}"]`)) return;
        const node = card(item, i);
        node.style.cssText = `left:${GAP + (i % cols) * (width + GAP)}px;top:${GAP + Math.floor(i / cols) * rowHeight}px;`
          + `width:${width}px;height:${CARD_HEIGHT}px`;
        spacer.append(node);
      });
    }
  }

  /**
   * A card: a button that opens its chat, and beside it (not inside: a button holds no other control) the
   * favourite star and the "⋯" that edits, duplicates, exports or deletes it.
   */
  function card(item, index) {
    const favButton = el('button.fav', {
      type: 'button', title: item.fav ? 'Remove from favourites' : 'Add to favourites',
      'aria-label': `Favourite: ${item.name}`, 'aria-pressed': String(item.fav),
      onclick: () => toggleFavorite(item, favButton),
    }, item.fav ? '★' : '☆');
    return el('div.card', {
      dataset: { index, avatar: item.avatar },
      oncontextmenu: (e) => { e.preventDefault(); cardMenu(item); },
    }, el('button.open', {
      type: 'button', title: item.description_preview || item.name, onclick: () => openCharacter(item.avatar),
    }, el('img', { src: thumbnail(item.avatar), alt: '', loading: 'lazy' }),
    el('span.name', {}, item.name), el('span.tags', {}, (item.tags || []).join(', '))), favButton,
    el('button.more', {
      type: 'button', 'aria-label': `Manage ${item.name}`, title: 'Edit, duplicate, export or delete',
      onclick: () => cardMenu(item),
    }, '⋯'));
  }

  async function toggleFavorite(item, button) {
    const fav = !item.fav;
    try {
      await postJson('/api/characters/merge-attributes', { avatar: item.avatar, fav, data: { extensions: { fav } } });
      item.fav = fav;
      button.textContent = fav ? '★' : '☆';
      button.setAttribute('aria-pressed', String(fav));
    } catch (e) {
      fail('Cannot change the favourite', e);
    }
  }

  function cardMenu(item) {
    dialog(item.name, el('p.muted', {}, item.description_preview || ''), [
      ['Edit', 'edit'], ['Duplicate', 'duplicate'], ['Export PNG', 'png'], ['Export JSON', 'json'], ['Delete', 'delete'],
      ['Close', '', true],
    ]).then(async (choice) => {
      if (choice === 'edit') editCard(item.avatar, reset);
      else if (choice === 'png' || choice === 'json') exportCard(item.avatar, choice);
      else if (choice === 'duplicate' && await duplicateCard(item.avatar)) reset();
      else if (choice === 'delete' && await deleteCard(item.avatar, item.name)) reset();
    });
  }

  function reset() {
    generation++;
    pages.clear();
    spacer.replaceChildren();
    grid.scrollTop = 0;
    pageOf(0).then(() => layout());
  }

  async function importFiles(files) {
    const usable = files.filter((f) => IMPORTABLE.includes(f.name.split('.').pop().toLowerCase()));
    if (!usable.length) {
      toast(`Tankard imports ${IMPORTABLE.join(', ')} cards`, 'error');
      return;
    }
    progress.hidden = false;
    let done = 0;
    let importedCount = 0;
    let last = null;
    for (const file of usable) {
      try {
        last = await importCardFile(file);
        importedCount++;
      } catch (e) {
        fail(String(e.message).startsWith(file.name) ? 'Cannot import' : `Cannot import ${file.name}`, e); // the server names it
      }
      progress.firstChild.style.width = `${(++done / usable.length) * 100}%`;
      count.textContent = `Importing ${done} of ${usable.length}…`;
    }
    progress.hidden = true;
    if (importedCount) toast(`Imported ${importedCount} character${importedCount === 1 ? '' : 's'}`);
    imported(last);
  }

  /** After an import: the library again, and the last card's embedded lorebook offered (ST selects that card). */
  function imported(avatar) {
    reset();
    if (avatar) offerImportedBook(avatar);
  }

  grid.addEventListener('scroll', () => requestAnimationFrame(draw), { passive: true });
  new ResizeObserver(() => layout()).observe(grid);
  grid.addEventListener('dragover', (e) => { e.preventDefault(); grid.classList.add('dropping'); });
  grid.addEventListener('dragleave', () => grid.classList.remove('dropping'));
  grid.addEventListener('drop', (e) => {
    e.preventDefault();
    grid.classList.remove('dropping');
    importFiles([...e.dataTransfer.files]);
  });
  grid.addEventListener('keydown', (e) => { // arrows move between cards, Enter opens (its open button)
    const cards = [...spacer.children].sort((a, b) => a.dataset.index - b.dataset.index);
    const at = cards.indexOf(document.activeElement?.closest('.card'));
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns(), ArrowUp: -columns() }[e.key];
    if (step === undefined) return;
    e.preventDefault();
    const target = cards[Math.max(0, Math.min(cards.length - 1, at < 0 ? 0 : at + step))];
    target?.querySelector('button.open').focus();
    target?.scrollIntoView({ block: 'nearest' });
  });
  reset();
  search.focus();
}
