// The collections tab: the bundled collections and the .tsume files under
// the root; a collection's problems with filters by length and tag; open one
// in the editor; export the problems shown as a booklet.
//
// The table's rows are made once per collection; a filter, applied as one
// types, only takes out the rows it leaves out and puts back those it lets
// through, and never touches a row that stays: no row is rebuilt under the
// pointer (a click on Open as a filter field loses focus stays a click).

import {Job, el, get} from './api.js';

const $ = (id) => document.getElementById(id);
let loaded = null;
let open = null;
// The rows of the loaded collection, in its order: [problem, tr].
let rows = [];

async function listing(select) {
  const data = await get('/api/collections');
  const box = $('collection');
  const keep = select || box.value;
  // (A bundled collection that is also a file under the root says where: listed once.)
  box.replaceChildren(...data.collections.map((c) => el('option', {value: c.name},
    c.bundled ? `${c.name} (bundled${c.path ? `, ${c.path}` : ''})` : c.name)));
  $('root-files').replaceChildren(...data.collections.filter((c) => !c.bundled)
    .map((c) => el('option', {value: c.name})));
  if (keep && data.collections.some((c) => c.name === keep)) box.value = keep;
  else if (data.collections.some((c) => c.name === 'examples')) box.value = 'examples';
  return data.collections;
}

async function choose() {
  const name = $('collection').value;
  if (!name) return;
  try {
    loaded = await get(`/api/collections/${encodeURI(name)}`);
  } catch (err) {
    $('collection-line').textContent = err.message;
    return;
  }
  const tags = new Set();
  loaded.problems.forEach((p) => p.tags.forEach((t) => tags.add(t)));
  const tag = $('f-tag').value;
  $('f-tag').replaceChildren(el('option', {value: ''}, 'any'), ...[...tags].sort().map((t) => el('option', {value: t}, t)));
  if (tags.has(tag)) $('f-tag').value = tag;  // (a tag filter stays while the tag does, as the lengths stay)
  table();
}

function row(p) {
  const b = el('button', {type: 'button', class: 'open'}, 'Open');
  b.addEventListener('click', () => open(p, `${loaded.file} [${p.id}]`));
  const stars = Number(p.rating.stars) || 0;
  return el('tr', {'data-id': p.id},
    el('td', {}, p.id), el('td', {}, String(p.length ?? p.proven_length ?? '-')),
    el('td', {class: 'stars', title: stars ? `${stars} stars` : 'not rated'}, '★'.repeat(stars)),
    el('td', {}, p.tags.join(', ')), el('td', {}, p.title || ''), el('td', {}, b));
}

function shownProblems() {
  if (!loaded) return [];
  const lo = Number($('f-min').value) || 0;
  const hi = Number($('f-max').value) || Infinity;
  const tag = $('f-tag').value;
  return loaded.problems.filter((p) => {
    const n = p.length ?? p.proven_length;
    if ((lo || hi !== Infinity) && (n === null || n === undefined || n < lo || n > hi)) return false;
    return !tag || p.tags.includes(tag);
  });
}

// The loaded collection's rows, made anew.
function table() {
  rows = loaded.problems.map((p) => [p, row(p)]);
  document.querySelector('#problems tbody').replaceChildren();
  filter();
}

// The rows the filters let through in the table, in order; the others out of it.
function filter() {
  if (!loaded) return;
  const shown = new Set(shownProblems());
  const body = document.querySelector('#problems tbody');
  // The table holds some of the rows, in order: walk both together.
  let at = body.firstChild;
  for (const [p, tr] of rows) {
    const here = tr.parentNode === body;
    if (here) at = at.nextSibling;
    if (shown.has(p) && !here) body.insertBefore(tr, at);
    else if (!shown.has(p) && here) tr.remove();
  }
  $('collection-line').textContent = `${shown.size} of ${loaded.count} problem${loaded.count === 1 ? '' : 's'} shown.`;
}

async function booklet() {
  const rows = shownProblems();
  const status = $('booklet-status');
  if (!loaded || !rows.length) { status.textContent = 'No problem shown.'; return; }
  const body = {collection: loaded.file, solutions: $('b-solutions').value, verify: $('b-verify').checked,
                certify: $('b-verify').checked && $('b-certify').checked, play: $('b-play').checked};
  if (rows.length < loaded.count) body.ids = rows.map((p) => p.id);
  $('booklet').disabled = true;
  const job = new Job('/api/booklet', body, (v) => {
    const p = v.progress || {};
    if (v.state === 'running') status.textContent = p.done ? `Making the booklet: ${p.done} of ${p.total}...` : 'Making the booklet...';
  });
  try {
    const final = await job.run();
    if (final.state === 'done') {
      const link = el('a', {href: `/api/jobs/${final.id}/booklet`, download: `${loaded.file.replace(/\.tsume$/, '')}.html`},
                      `Download the booklet (${(final.result.bytes / 1e6).toFixed(1)} MB)`);
      status.replaceChildren(link);
    } else {
      status.textContent = final.error || final.state;
    }
  } catch (err) {
    status.textContent = err.message;
  }
  $('booklet').disabled = false;
}

export async function initCollections(openProblem) {
  open = openProblem;
  $('collection').addEventListener('change', choose);
  $('refresh').addEventListener('click', async () => { await listing(); await choose(); });
  for (const id of ['f-min', 'f-max', 'f-tag']) $(id).addEventListener('input', filter);
  $('booklet').addEventListener('click', booklet);
  document.addEventListener('tsume:saved', async (event) => {
    await listing();
    // Saved into the collection shown: its table shows what was saved.
    if (loaded && loaded.file === event.detail.file) await choose();
  });
  await listing();
  await choose();
}
