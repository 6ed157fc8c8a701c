// The solve & verify tab: a search as a job (progress, cancel), then its
// answer: the main line stepped through on the board (buttons, arrow keys,
// the move list) -- or, when a limit stopped the search after a mate was
// found, the mating line known --, the variations and useless
// interpositions, and verify's verdict with every finding -- each of these
// clickable to show its position on the board.  Every diagram is the
// server's (POST /api/position with the moves played), so the page cannot
// disagree with the engine.

import {Job, el, plies, post} from './api.js';
import {BoardView} from './board.js';
import {SEARCHED, onProblem, problemBody, staleNote} from './state.js';

const $ = (id) => document.getElementById(id);

// ``fields``: those of ``problem`` the answer shown depends on (null: no answer shown).
const shown = {problem: null, fields: null, mainline: [], readable: [], ply: 0, frames: new Map(), seq: 0};
let view = null;
let job = null;

function limits() {
  const out = {};
  const time = Number($('limit-time').value);
  const nodes = Number($('limit-nodes').value);
  const memory = Number($('limit-memory').value);
  if (time > 0) out.time_limit = Math.min(time, 3600);
  if (nodes > 0) out.nodes = Math.floor(nodes);
  if (memory > 0) out.memory = Math.min(memory, 8192);
  return out;
}

function busy(on) {
  $('solve').disabled = on;
  $('verify').disabled = on;
  $('cancel-search').disabled = !on;
}

function progressText(v) {
  const p = v.progress || {};
  if (p.queued) return `Waiting for a free worker (number ${p.waiting_for} in line)...`;
  if (p.nodes === undefined) return 'Starting...';
  // A table that keeps filling up is collected again and again: a larger
  // memory limit may save more time than it costs.
  const full = p.gc_runs > 0 ?
    `; the table filled up ${p.gc_runs.toLocaleString('en')} time${p.gc_runs === 1 ? '' : 's'}` +
    ' (a larger memory limit may be faster)' : '';
  return `Searching: ${p.nodes.toLocaleString('en')} nodes, ${p.seconds} s, ` +
         `${(p.nodes_per_second || 0).toLocaleString('en')} nodes/s${full}`;
}

async function run(kind) {
  const problem = problemBody();
  const body = {problem, limits: limits()};
  if (kind === 'verify') body.strict = $('strict').checked;
  busy(true);
  clear();
  $('search-progress').textContent = 'Starting...';
  job = new Job(`/api/${kind}`, body, (v) => {
    if (v.state === 'running') $('search-progress').textContent = progressText(v);
  });
  let final;
  try {
    final = await job.run();
  } catch (err) {
    $('search-progress').textContent = err.message;
    busy(false);
    return;
  }
  busy(false);
  const seconds = final.elapsed === null ? '' : ` in ${final.elapsed} s`;
  if (final.state === 'done') {
    $('search-progress').textContent = `Done${seconds}.`;
    if (kind === 'solve') showSolve(problem, final.result);
    else showVerify(problem, final.result.problems[0], final.id);
    // The board may have changed while the search ran.
    stale();
  } else if (final.state === 'cancelled') {
    $('search-progress').textContent = 'Cancelled.';
  } else {
    $('search-progress').textContent = final.error || 'Failed.';
  }
}

function clear() {
  for (const id of ['result-line', 'verdict', 'findings', 'variations', 'alternatives']) $(id).replaceChildren();
  $('mainline').replaceChildren();
  $('line-title').hidden = true;
  $('stepper').hidden = true;
  shown.mainline = [];
  shown.readable = [];
  shown.fields = null;
  stale();
}

// An answer made for another problem than the one set up now says so, and
// which it was made for: its lines and diagrams stay those of its own
// position (every frame is drawn from it), never played on the new board.
function stale() {
  const note = shown.fields ? staleNote(shown.problem, shown.fields, 'solve or verify again') : '';
  $('result-stale').textContent = note;
  $('result-stale').hidden = !note;
  $('result').classList.toggle('stale', Boolean(note));
}

// --- the main line and its stepper ------------------------------------------------------

// The line to step through: the main line, or (``title`` naming it) another mating line.
function setLine(problem, mainline, readable, title) {
  shown.problem = problem;
  shown.mainline = mainline;
  shown.readable = readable;
  shown.frames = new Map();
  $('line-title').textContent = title ? `${title}:` : '';
  $('line-title').hidden = !title;
  $('stepper').setAttribute('aria-label', `${title || 'The main line'}: arrow keys step`);
  const list = $('mainline');
  list.replaceChildren();
  readable.forEach((move, i) => {
    const mark = i === readable.length - 1 ? '#' : '';
    const button = el('button', {type: 'button', class: 'move', 'data-ply': i + 1}, `${move}${mark}`);
    button.addEventListener('click', () => go(i + 1));
    list.append(el('li', {}, el('span', {class: 'ply'}, `${i + 1}.`), button));
  });
  $('stepper').hidden = false;
  go(0);
}

async function frame(moves, key) {
  if (shown.frames.has(key)) return shown.frames.get(key);
  const p = shown.problem;
  const body = {position: p.position, variant: p.variant, moves};
  if (p.defender) body.defender = p.defender;
  const answer = await post('/api/position', body);
  shown.frames.set(key, answer.svg);
  return answer.svg;
}

async function go(ply) {
  ply = Math.max(0, Math.min(shown.mainline.length, ply));
  const seq = ++shown.seq;
  const svg = await frame(shown.mainline.slice(0, ply), `ply ${ply}`);
  if (seq !== shown.seq) return;
  view.show(svg);
  shown.ply = ply;
  $('stepper').dataset.ply = String(ply);
  $('ply-label').textContent = `${ply} / ${shown.mainline.length}`;
  document.querySelectorAll('#mainline button.move').forEach((b) => {
    b.classList.toggle('current', Number(b.dataset.ply) === ply);
  });
}

// Show a position off the main line: the main line to ``ply - 1``, then ``moves``.
async function showAt(ply, moves, label) {
  const before = shown.mainline.slice(0, Math.max(0, ply - 1));
  const seq = ++shown.seq;
  const all = before.concat(moves);
  const svg = await frame(all, `at ${all.join(' ')}`);
  if (seq !== shown.seq) return;
  view.show(svg);
  $('stepper').dataset.ply = '';
  $('ply-label').textContent = label;
  document.querySelectorAll('#mainline button.move').forEach((b) => b.classList.remove('current'));
}

function step(how) {
  const to = {first: 0, prev: shown.ply - 1, next: shown.ply + 1, last: shown.mainline.length}[how];
  if (to !== undefined) go(to);
}

// --- answers ------------------------------------------------------------------------------

// A main-line move as the lists name it: "9. C4-6#".
function plyName(ply) {
  const move = shown.readable[ply - 1];
  if (move === undefined) return `ply ${ply}`;
  return `${ply}. ${move}${ply === shown.readable.length ? '#' : ''}`;
}

function variationsList(variations, title) {
  const counted = variations.filter((v) => !v.useless);
  const useless = variations.filter((v) => v.useless);
  const box = $('variations');
  box.replaceChildren();
  if (counted.length) {
    box.append(el('h3', {}, title));
    const list = el('ul', {class: 'variations'});
    for (const v of counted) {
      const what = v.length === null || v.length === undefined ? (v.status || 'not settled') : plies(v.length);
      const b = el('button', {type: 'button', 'data-ply': v.ply, 'data-move': v.move},
                   `${v.ply}. ${(v.readable_line && v.readable_line.join('  ')) || v.readable} (${what})`);
      b.addEventListener('click', () => showAt(v.ply, [v.move], `variation at ply ${v.ply}: ${v.readable}`));
      list.append(el('li', {}, b));
    }
    box.append(list);
  }
  if (useless.length) {
    box.append(el('h3', {}, 'Useless interpositions (refuted, not counted)'));
    // Grouped after the check they answer, the main line's ply before theirs
    // (the mate's, for those the mating move leaves): never as a ply past the mate.
    const groups = new Map();
    for (const v of useless) groups.set(v.ply - 1, [...(groups.get(v.ply - 1) || []), v]);
    const list = el('ul', {class: 'variations useless'});
    for (const [check, group] of [...groups].sort((a, b) => a[0] - b[0])) {
      const after = `after ${plyName(check)}`;
      const item = el('li', {'data-check': check}, el('span', {class: 'after'}, `${after}:`));
      for (const v of group) {
        const b = el('button', {type: 'button', 'data-ply': v.ply, 'data-move': v.move}, v.readable);
        b.addEventListener('click', () => showAt(v.ply, [v.move], `useless interposition ${after}: ${v.readable}`));
        item.append(b);
      }
      list.append(item);
    }
    box.append(list);
  }
}

function showSolve(problem, result) {
  shown.problem = problem;
  shown.fields = SEARCHED;
  const line = $('result-line');
  if (result.status === 'mate') {
    line.textContent = `Mate in ${plies(result.length)}; the attacker has ${result.leftover === '-' ? 'nothing' : result.leftover} left.`;
    setLine(problem, result.mainline, result.readable);
    variationsList(result.variations, 'Variations (other defences; the length of the problem along each)');
  } else if (result.status === 'nomate') {
    line.textContent = 'No mate.';
  } else {
    line.textContent = `Unknown: the ${result.reason || 'limit'} stopped the search.` +
      (result.upper_bound ? ` A mate in at most ${plies(result.upper_bound)} was found; the shortest is not proven.` : '');
    // What is known: a mating line within that bound, read off the proofs.
    if (result.upper_bound && result.line && result.line.length) {
      setLine(problem, result.line, result.readable_line, `A mating line (${plies(result.line.length)})`);
    }
  }
  line.dataset.status = result.status;
}

function showVerify(problem, report, jobId) {
  shown.problem = problem;
  shown.fields = [...SEARCHED, 'length', 'solution'];
  const verdict = $('verdict');
  verdict.replaceChildren(el('p', {class: `verdict ${report.verdict}`, 'data-verdict': report.verdict},
    {sound: 'Sound.', flawed: 'Flawed: only tolerated blemishes.', unsound: 'Unsound.',
     unknown: 'Unknown: a limit stopped a proof.'}[report.verdict] || report.verdict));
  // A sound problem's certificate: the checker accepted it (docs/certificates.md).
  const cert = report.certificate;
  if (cert && cert.certified) {
    verdict.append(el('p', {class: 'certificate certified', id: 'certified'}, 'Certified: the checker accepts its certificate. ',
      el('a', {id: 'certificate-download', href: `/api/jobs/${jobId}/certificate`, download: cert.file_name},
         `Download the certificate (${(cert.bytes / 1024).toFixed(1)} KB)`)));
  } else if (cert && report.verdict === 'sound') {
    verdict.append(el('p', {class: 'certificate', id: 'certified'}, `Not certified: ${cert.reason.replace(/^not certified: /, '')}.`));
  }
  const line = $('result-line');
  line.dataset.status = report.verdict;
  if (report.length !== null) {
    line.textContent = `Mate in ${plies(report.length)}; the attacker has ${report.leftover === '-' ? 'nothing' : report.leftover} left.`;
    setLine(problem, report.mainline, report.readable);
  } else {
    line.textContent = 'No main line.';
  }
  const findings = $('findings');
  findings.replaceChildren();
  if (report.findings.length) {
    findings.append(el('h3', {}, 'Findings (click one to see it on the board)'));
    const list = el('ul', {class: 'findings'});
    for (const f of report.findings) {
      const b = el('button', {type: 'button', class: `finding ${f.severity}`, 'data-kind': f.kind,
                              'data-ply': f.ply === undefined ? '' : f.ply, 'data-move': f.move || ''},
                   `${f.severity}: ${f.kind}: ${f.message}`);
      b.addEventListener('click', () => {
        if (f.ply !== undefined && f.move) showAt(f.ply, [f.move], `${f.kind} at ply ${f.ply}: ${f.move}`);
        else if (f.ply !== undefined) go(Math.min(f.ply, shown.mainline.length));
        else go(shown.mainline.length);
      });
      list.append(el('li', {class: f.severity}, b));
    }
    findings.append(list);
  }
  variationsList(report.variations, 'Variations (other defences; the length of the problem along each)');
  const mating = report.alternatives.filter((a) => a.status === 'mate');
  const alts = $('alternatives');
  alts.replaceChildren();
  if (mating.length) {
    alts.append(el('h3', {}, 'Attacker alternatives that mate'));
    const list = el('ul', {class: 'alternatives'});
    for (const a of mating) {
      const b = el('button', {type: 'button', 'data-ply': a.ply, 'data-move': a.move},
                   `${a.ply}. ${a.readable}: ${a.kind || 'mate'}, in ${plies(a.length)}`);
      b.addEventListener('click', () => showAt(a.ply, [a.move], `alternative at ply ${a.ply}: ${a.readable}`));
      list.append(el('li', {}, b));
    }
    alts.append(list);
  }
}

export function initResults() {
  view = new BoardView($('stepper-board'));
  $('stepper').hidden = true;
  $('solve').addEventListener('click', () => run('solve'));
  $('verify').addEventListener('click', () => run('verify'));
  $('cancel-search').addEventListener('click', () => { if (job) job.cancel(); });
  onProblem(stale);
  document.querySelectorAll('#stepper .controls button').forEach((b) => {
    b.addEventListener('click', () => step(b.dataset.go));
  });
  $('stepper').addEventListener('keydown', (event) => {
    const how = {ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last'}[event.key];
    if (how) { event.preventDefault(); step(how); }
  });
}

