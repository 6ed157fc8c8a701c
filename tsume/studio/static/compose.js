// The compose tab: a composing run as a job; the accepted problems appear
// as they come, each with its diagram (the server's, POST /api/position),
// each opens in the editor, and the run can be saved into a collection
// under the root.

import {Job, el, plies, post} from './api.js';

const $ = (id) => document.getElementById(id);
let job = null;
let open = null;
// How many problems the run is asked for.
let target = 0;

function stars(n) {
  return '★'.repeat(Number(n) || 0);
}

function list(problems) {
  const box = $('composed');
  while (box.children.length < problems.length) {
    const p = problems[box.children.length];
    const b = el('button', {type: 'button', class: 'open', 'data-id': p.id}, 'Open');
    b.addEventListener('click', () => open({...p, defender: p.defender, tags: []}, `composed [${p.id}]`));
    const diagram = el('div', {class: 'diagram'});
    box.append(el('li', {'data-id': p.id},
                  el('div', {}, `${p.id}: mate in ${plies(p.length)} `,
                     el('span', {class: 'stars', title: `${p.stars} stars`}, stars(p.stars)), ` ${p.position} `, b),
                  diagram));
    draw(diagram, p);
  }
}

// A problem's diagram, as the editor would show it (the defender's hand by its rule).
async function draw(box, p) {
  const body = {position: p.position, variant: p.variant};
  if (p.defender) body.defender = p.defender;
  try {
    box.innerHTML = (await post('/api/position', body)).svg;
  } catch (err) {
    box.textContent = err.message;
  }
}

function progressText(v) {
  const p = v.progress || {};
  if (p.queued) return `Waiting for a free worker (number ${p.waiting_for} in line)...`;
  const found = `${(p.accepted || []).length} of ${target} accepted`;
  if (p.candidates === undefined) return `Composing: ${found}...`;
  return `Composing: ${found}, ${p.candidates.toLocaleString('en')} candidates in ` +
         `${p.shards} shard${p.shards === 1 ? '' : 's'}, ${p.elapsed} s`;
}

async function run() {
  const methods = [...document.querySelectorAll('input[name="c-method"]:checked')].map((x) => x.value);
  const body = {
    variant: $('c-variant').value, min_length: Number($('c-min').value) || 1,
    max_length: Number($('c-max').value) || 15, methods, count: Number($('c-count').value) || 5,
    time_limit: Number($('c-time').value) || 60, seed: Number($('c-seed').value) || 0,
  };
  const material = $('c-material').value.trim();
  if (material) body.material = material;
  target = body.count;
  $('composed').replaceChildren();
  $('compose').disabled = true;
  $('compose-cancel').disabled = false;
  $('compose-save').disabled = true;
  $('compose-save-status').textContent = '';
  job = new Job('/api/compose', body, (v) => {
    if (v.state !== 'running') return;
    list((v.progress && v.progress.accepted) || []);
    $('compose-progress').textContent = progressText(v);
  });
  let final;
  try {
    final = await job.run();
  } catch (err) {
    $('compose-progress').textContent = err.message;
    $('compose').disabled = false;
    $('compose-cancel').disabled = true;
    return;
  }
  $('compose').disabled = false;
  $('compose-cancel').disabled = true;
  if (final.state === 'done') {
    list(final.result.problems);
    const s = final.result.summary;
    $('compose-progress').textContent = `Done: ${s.accepted} of ${target} accepted from ${s.candidates.toLocaleString('en')} ` +
      `candidates in ${s.elapsed} s (stopped on ${s.stopped}).`;
  } else {
    $('compose-progress').textContent = final.state === 'cancelled'
      ? 'Cancelled: the problems accepted until then can still be saved.' : (final.error || 'Failed.');
  }
  $('compose-save').disabled = false;
}

async function save() {
  const file = $('c-file').value.trim();
  if (!file) { $('compose-save-status').textContent = 'Name a file under the root, such as composed.tsume.'; return; }
  try {
    const done = await post(`/api/jobs/${job.id}/save`, {file, replace: $('c-replace').checked});
    $('compose-save-status').textContent = `Saved ${done.count} problem${done.count === 1 ? '' : 's'} into ${done.file}.`;
    document.dispatchEvent(new CustomEvent('tsume:saved', {detail: done}));
  } catch (err) {
    $('compose-save-status').textContent = err.message;
  }
}

export function initCompose(openProblem) {
  open = openProblem;
  $('compose').addEventListener('click', run);
  $('compose-cancel').addEventListener('click', () => { if (job) job.cancel(); });
  $('compose-save').addEventListener('click', save);
}
