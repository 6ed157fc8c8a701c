// The set-up tab: a position built by clicks (and keys) on the board, both
// hands, the defender's hand rule, and the position string, all kept in
// step.  The server reads and checks every change (POST /api/position): it
// draws the diagram and says in one line what the engine would reject.
//
// A problem opened from a collection (or the composer, or saved) stays that
// problem only while its board does: the first edit that makes it another
// problem detaches it, and the details that came with it (id, title, tags,
// stated length, solution...) are cleared, since they describe the other
// one; what the user typed since stays.  A button takes them back when the
// edit was a correction of the same problem.

import {el, post, put} from './api.js';
import {BoardView} from './board.js';
import {current, problemBody, setProblem} from './state.js';

const $ = (id) => document.getElementById(id);

const ed = {
  variants: {},
  variant: 'ito',
  board: [],
  hands: {black: {}, white: {}},
  side: 'black',
  rule: 'rest',
  tool: null,
  selected: null,
  cursor: 1,
  seq: 0,
  last: null,
  // The problem the board shows, as the editor's fields (problemKey).
  key: null,
};

let view = null;

// The problem opened, while the board may still be it: {origin, inputs (the
// details as opened), notes, key, detached, kept, cleared}; null for none.
let loaded = null;

// The detail fields, by input id, as the notice names them.
const DETAILS = {pid: 'id', title: 'title', author: 'author', tags: 'tags', length: 'stated length',
                 solution: 'solution'};

function spec() {
  return ed.variants[ed.variant];
}

function defender() {
  return ed.side === 'black' ? 'white' : 'black';
}

// A hand as the position string writes it: "2PT" ("" for none).
function handText(counts) {
  return spec().pieces.filter((p) => counts[p.letter])
    .map((p) => (counts[p.letter] > 1 ? counts[p.letter] : '') + p.letter).join('');
}

// The problem's defender rule: rest, none, or the pieces named.
function defenderRule() {
  if (ed.rule !== 'given') return ed.rule;
  return handText(ed.hands[defender()]) || 'none';
}

function fields() {
  const hands = {};
  hands[ed.side] = handText(ed.hands[ed.side]) || '-';
  hands[defender()] = ed.rule === 'given' ? (handText(ed.hands[defender()]) || '-') : '-';
  return {board: ed.board.map((t) => t || null), hands, side_to_move: ed.side, variant: ed.variant,
          defender: ed.rule === 'given' ? 'as-given' : ed.rule};
}

function setLine(text, kind) {
  const line = $('check-line');
  line.textContent = text;
  line.className = `check-line ${kind}`;
}

// The problem the editor's fields make: the same fields, the same problem.
function problemKey(body = fields()) {
  return JSON.stringify(body);
}

// Ask the server about the board as it stands, and show its answer.
async function refresh() {
  const seq = ++ed.seq;
  const body = fields();
  let answer;
  try {
    answer = await post('/api/position', body);
  } catch (err) {
    if (seq === ed.seq) setLine(err.message, 'bad');
    return;
  }
  if (seq !== ed.seq) return; // a later change is on its way
  show(answer, problemKey(body));
}

function show(answer, key) {
  ed.last = answer;
  ed.key = key;
  if (loaded && !loaded.detached && !loaded.kept && key !== loaded.key) detach();
  view.show(answer.svg);
  view.mark('error', answer.error_squares || []);
  view.mark('warning', answer.warning_squares || []);
  marks();
  if (!answer.valid) setLine(answer.error, 'bad');
  else if (answer.tsume_error) setLine(answer.tsume_error, 'bad');
  else {
    const n = answer.checks.length;
    const side = answer.side_to_move === 'black' ? 'Black' : 'White';
    if (n === 0) setLine(`A legal position, but ${side} (to move) has no check: no tsume starts here.`, 'bad');
    else setLine(`A legal problem: ${side} to move, ${n} check${n === 1 ? '' : 's'} to choose from.`, 'ok');
  }
  const warnings = $('warnings');
  warnings.replaceChildren(...(answer.warnings || []).map((w) => el('li', {}, w)));
  $('position').value = answer.input;
  $('position').setAttribute('aria-invalid', String(!answer.valid));
  setProblem({position: answer.input, variant: ed.variant, defender: defenderRule(), length: statedLength()});
  hands();
}

// --- the problem opened, and the edits that make the board another one ------------

function statedLength() {
  return $('length').value ? Number($('length').value) : null;
}

function inputs() {
  return Object.fromEntries(Object.keys(DETAILS).map((id) => [id, $(id).value]));
}

// The board, as it stands, is the problem ``origin`` names (null: a problem of no collection).
function attach(origin) {
  loaded = origin ? {origin, inputs: inputs(), notes: current.problem.notes, key: problemKey(), detached: false,
                     kept: false, cleared: []} : null;
  $('detached').hidden = true;
}

// An edit made the board another problem: what came with the opened one goes.
function detach() {
  loaded.detached = true;
  loaded.cleared = Object.keys(DETAILS).filter((id) => $(id).value !== '' && $(id).value === loaded.inputs[id]);
  for (const id of loaded.cleared) $(id).value = '';
  setProblem({...typedDetails(), length: statedLength(), notes: null}, `new problem (edited from ${loaded.origin})`);
  const names = loaded.cleared.map((id) => DETAILS[id]);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0];
  $('detached-text').textContent = `A new problem, edited from ${loaded.origin}` +
    (names.length ? `: its ${list} were that problem's and are cleared.` : '.') +
    ' Save asks for an id of its own.';
  $('detached').hidden = false;
}

// The edit corrected the opened problem: its details come back, and stay.
function keepDetails() {
  if (!loaded || !loaded.detached) return;
  for (const id of loaded.cleared) if ($(id).value === '') $(id).value = loaded.inputs[id];
  loaded.detached = false;
  loaded.kept = true;
  setProblem({...typedDetails(), length: statedLength(), notes: loaded.notes}, `${loaded.origin} (edited)`);
  $('detached').hidden = true;
}

function marks() {
  view.mark('selected', ed.selected ? [ed.selected] : []);
  view.mark('cursor', [ed.cursor]);
  const token = ed.selected ? ed.board[ed.selected - 1] : null;
  $('selection').textContent = ed.selected
    ? `Square ${ed.selected}: ${token ? describeToken(token) : 'empty'}.`
    : 'No square selected: click a piece to move it, or pick a piece above to place it.';
}

function describeToken(token) {
  const letter = token.replace('+', '').toUpperCase();
  const piece = spec().pieces.find((p) => p.letter === letter);
  const colour = token.replace('+', '') === letter ? 'Black' : 'White';
  if (!piece) return token;
  return `${colour} ${token.startsWith('+') ? piece.promoted : piece.name}`;
}

// --- editing ----------------------------------------------------------------------

function squareClicked(s) {
  ed.cursor = s;
  const here = ed.board[s - 1];
  if (ed.tool === 'erase') {
    ed.board[s - 1] = null;
  } else if (ed.tool) {
    ed.board[s - 1] = ed.tool;
  } else if (ed.selected && ed.selected !== s && !here) {
    ed.board[s - 1] = ed.board[ed.selected - 1];
    ed.board[ed.selected - 1] = null;
    ed.selected = s;
  } else if (ed.selected === s) {
    ed.selected = null;
    marks();
    return;
  } else {
    ed.selected = here ? s : null;
    marks();
    return;
  }
  refresh();
}

function target() {
  return ed.selected || ed.cursor;
}

function promote() {
  const s = target();
  const token = ed.board[s - 1];
  if (!token) return;
  const piece = spec().pieces.find((p) => p.letter === token.replace('+', '').toUpperCase());
  if (token.startsWith('+')) ed.board[s - 1] = token.slice(1);
  else if (piece && piece.promoted) ed.board[s - 1] = `+${token}`;
  else return;
  refresh();
}

function flip() {
  const s = target();
  const token = ed.board[s - 1];
  if (!token) return;
  const bare = token.replace('+', '');
  const other = bare === bare.toUpperCase() ? bare.toLowerCase() : bare.toUpperCase();
  ed.board[s - 1] = (token.startsWith('+') ? '+' : '') + other;
  refresh();
}

function remove() {
  const s = target();
  if (!ed.board[s - 1]) return;
  ed.board[s - 1] = null;
  if (ed.selected === s) ed.selected = null;
  refresh();
}

function shift(by) {
  const s = target();
  const to = s + by;
  if (to < 1 || to > ed.board.length || !ed.board[s - 1] || ed.board[to - 1]) return;
  ed.board[to - 1] = ed.board[s - 1];
  ed.board[s - 1] = null;
  ed.selected = to;
  ed.cursor = to;
  refresh();
}

function keyed(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const n = ed.board.length;
  const key = event.key;
  let done = true;
  if (key === 'ArrowLeft' || key === 'ArrowRight') {
    const by = key === 'ArrowLeft' ? -1 : 1;
    if (event.shiftKey) shift(by);
    else { ed.cursor = Math.max(1, Math.min(n, ed.cursor + by)); marks(); }
  } else if (key === 'Home') { ed.cursor = 1; marks(); }
  else if (key === 'End') { ed.cursor = n; marks(); }
  else if (key === 'Enter' || key === ' ') squareClicked(ed.cursor);
  else if (key === '+') promote();
  else if (key === '~') flip();
  else if (key === 'Delete' || key === 'Backspace') remove();
  else if (key === 'Escape') { ed.selected = null; setTool(null); marks(); }
  else if (/^[A-Za-z]$/.test(key) && spec().pieces.some((p) => p.letter === key.toUpperCase())) {
    ed.board[ed.cursor - 1] = key;
    refresh();
  } else done = false;
  if (done) event.preventDefault();
}

function setTool(tool) {
  ed.tool = tool;
  document.querySelectorAll('#palette button').forEach((b) => {
    b.setAttribute('aria-pressed', String((b.dataset.token || null) === tool));
  });
}

function buildPalette() {
  const palette = $('palette');
  palette.replaceChildren();
  const tool = (token, label, cls, title) => {
    const b = el('button', {type: 'button', class: cls, title, 'aria-pressed': 'false'}, label);
    if (token) b.dataset.token = token;
    b.addEventListener('click', () => setTool(ed.tool === token ? null : token));
    palette.append(b);
  };
  tool(null, 'Move', 'tool', 'Select and move pieces (no piece to place)');
  tool('erase', 'Erase', 'tool', 'Click squares to empty them');
  for (const colour of ['black', 'white']) {
    for (const p of spec().pieces) {
      const letter = colour === 'black' ? p.letter : p.letter.toLowerCase();
      tool(letter, letter, colour, `Place a ${colour === 'black' ? 'Black' : 'White'} ${p.name}`);
      if (p.promoted) tool(`+${letter}`, `+${letter}`, `${colour} pro`, `Place a ${colour === 'black' ? 'Black' : 'White'} ${p.promoted}`);
    }
  }
  setTool(null);
}

function hands() {
  const box = $('hands');
  box.replaceChildren();
  for (const colour of ['black', 'white']) {
    const role = colour === ed.side ? 'attacker' : 'defender';
    const disabled = role === 'defender' && ed.rule !== 'given';
    const editor = el('div', {class: `hand-editor ${colour}${disabled ? ' disabled' : ''}`, 'data-colour': colour});
    const title = `${colour === 'black' ? 'Black' : 'White'}'s hand (${role})` +
      (disabled ? (ed.rule === 'rest' ? ': the rest of the set' : ': nothing') : '');
    editor.append(el('h3', {}, title));
    // A hand the rule fills is shown as the diagram draws it.
    const counts = disabled && ed.last && ed.last.hand_counts ? ed.last.hand_counts[colour] : ed.hands[colour];
    for (const p of spec().pieces.filter((x) => !x.royal)) {
      const count = counts[p.letter] || 0;
      const minus = el('button', {type: 'button', 'data-letter': p.letter, 'data-delta': '-1', disabled: disabled || count === 0,
                                  'aria-label': `one ${p.name} less in ${colour}'s hand`}, '−');
      const plus = el('button', {type: 'button', 'data-letter': p.letter, 'data-delta': '1', disabled: disabled || count >= p.count,
                                 'aria-label': `one ${p.name} more in ${colour}'s hand`}, '+');
      const span = el('span', {class: 'kind', title: p.name}, minus,
                      el('span', {class: 'count', 'data-letter': p.letter}, `${count} ${p.letter}`), plus);
      editor.append(span);
    }
    editor.addEventListener('click', (event) => {
      const b = event.target.closest('button[data-delta]');
      if (!b || b.disabled) return;
      const letter = b.dataset.letter;
      const count = (ed.hands[colour][letter] || 0) + Number(b.dataset.delta);
      ed.hands[colour][letter] = Math.max(0, count);
      refresh();
    });
    box.append(editor);
  }
}

function emptyBoard(n) {
  return Array.from({length: n}, () => null);
}

function setVariant(name, n) {
  ed.variant = name;
  const v = spec();
  const squares = v.board_length || n || 21;
  $('variant').value = name;
  $('squares').value = String(squares);
  $('squares-label').hidden = v.board_length !== null;
  buildPalette();
  return squares;
}

// Set the board (both hands, the side, the defender rule) to a problem's
// position; the server's answer, or null (said under the board) if it cannot
// be read.  ``fallback``: the defender rule when the problem names none and
// its position names no defender piece.
async function setBoard(problem, fallback) {
  const body = {position: problem.position, variant: problem.variant || 'ito'};
  if (problem.defender) body.defender = problem.defender;
  let answer;
  try {
    answer = await post('/api/position', body);
  } catch (err) {
    setLine(err.message, 'bad');
    return null;
  }
  const variant = answer.variant.split(':')[0];
  setVariant(variant in ed.variants ? variant : 'ito', answer.squares);
  ed.board = answer.board.map((t) => t || null);
  ed.side = answer.side_to_move;
  $('side').value = ed.side;
  const given = answer.given_hands;
  const named = Object.keys(given[defender()]).length > 0;
  const rule = problem.defender ? problem.defender.trim().toLowerCase() : null;
  ed.rule = rule === 'rest' || rule === 'none' ? rule : (rule || named ? 'given' : fallback);
  $('defender-rule').value = ed.rule;
  ed.hands = {black: {}, white: {}};
  ed.hands[ed.side] = {...given[ed.side]};
  ed.hands[defender()] = {...(answer.hand_counts || given)[defender()]};
  ed.selected = null;
  return answer;
}

// Open a problem (from a collection or the composer) with its details;
// ``origin`` names where it comes from ("examples [ito-05]").
export async function openProblem(problem, origin) {
  const answer = await setBoard(problem, 'rest');
  if (!answer) return false;
  $('length').value = problem.length || '';
  $('pid').value = problem.id || '';
  $('title').value = problem.title || '';
  $('author').value = problem.author || '';
  $('tags').value = (problem.tags || []).join(', ');
  $('solution').value = (problem.solution || []).join(' ');
  // The whole problem at once, so that no tab ever sees the new id with the old position.
  setProblem({position: answer.input, variant: ed.variant, defender: defenderRule(),
              id: problem.id || null, title: problem.title || null, author: problem.author || null,
              tags: problem.tags || [], solution: problem.solution || null, notes: problem.notes || null,
              length: problem.length || null}, origin === undefined ? null : origin);
  attach(origin);
  await refresh();
  return true;
}

async function save() {
  const status = $('save-status');
  const file = $('save-file').value.trim();
  const id = $('pid').value.trim();
  if (!file) { status.textContent = 'Name a collection file under the root, such as mine.tsume.'; return; }
  if (!id) { status.textContent = 'Give the problem an id (Problem details).'; $('details').open = true; return; }
  details();
  try {
    const done = await put(`/api/collections/${encodeURI(file)}/problems/${encodeURIComponent(id)}`,
                           {problem: problemBody(), replace: $('save-replace').checked});
    status.textContent = `Saved [${done.id}] into ${done.file} (${done.count} problem${done.count === 1 ? '' : 's'}).`;
    // The board is now that saved problem: a later edit detaches it in turn.
    const origin = `${done.file} [${done.id}]`;
    attach(origin);
    setProblem({}, origin);
    document.dispatchEvent(new CustomEvent('tsume:saved', {detail: done}));
  } catch (err) {
    status.textContent = err.message;
  }
}

async function exportSvg() {
  try {
    const answer = await post('/api/position', {...fields(), standalone: true});
    const blob = new Blob([answer.svg], {type: 'image/svg+xml'});
    const a = el('a', {href: URL.createObjectURL(blob), download: `${$('pid').value.trim() || 'position'}.svg`});
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  } catch (err) {
    $('save-status').textContent = err.message;
  }
}

// The details as typed in (id, title, ...).
function typedDetails() {
  const words = (text) => text.split(/[\s]+/).filter(Boolean);
  return {
    id: $('pid').value.trim() || null,
    title: $('title').value.trim() || null,
    author: $('author').value.trim() || null,
    tags: $('tags').value.split(',').map((t) => t.trim()).filter(Boolean),
    solution: words($('solution').value).length ? words($('solution').value) : null,
  };
}

// The details typed in, into the shared problem.
function details() {
  setProblem(typedDetails());
}

export function initEditor(info) {
  for (const v of info.variants) ed.variants[v.name] = v;
  const select = $('variant');
  select.replaceChildren(...info.variants.map((v) => el('option', {value: v.name}, v.title)));
  view = new BoardView($('editor-board'), {onSquare: squareClicked});
  $('editor-board').addEventListener('keydown', keyed);
  select.addEventListener('change', () => {
    const n = setVariant(select.value);
    ed.board = emptyBoard(n);
    ed.board[0] = ed.side === 'black' ? 'k' : 'K';
    ed.hands = {black: {}, white: {}};
    ed.selected = null;
    refresh();
  });
  $('squares').addEventListener('change', () => {
    const n = Math.max(spec().min_length, Math.min(spec().max_length, Number($('squares').value) || 21));
    $('squares').value = String(n);
    ed.board = ed.board.slice(0, n).concat(emptyBoard(Math.max(0, n - ed.board.length)));
    refresh();
  });
  $('side').addEventListener('change', () => { ed.side = $('side').value; refresh(); });
  $('defender-rule').addEventListener('change', () => {
    const rule = $('defender-rule').value;
    // Naming the pieces starts from what the defender held a moment ago.
    if (rule === 'given' && ed.rule !== 'given' && ed.last && ed.last.hand_counts) {
      ed.hands[defender()] = {...ed.last.hand_counts[defender()]};
    }
    ed.rule = rule;
    refresh();
  });
  $('length').addEventListener('change', () => {
    setProblem({length: $('length').value ? Number($('length').value) : null});
  });
  $('clear').addEventListener('click', () => {
    ed.board = emptyBoard(ed.board.length);
    ed.hands = {black: {}, white: {}};
    ed.selected = null;
    refresh();
  });
  // The start position and a typed string are edits of the board like any other.
  $('start').addEventListener('click', async () => {
    if (spec().start && await setBoard({position: spec().start, variant: ed.variant, defender: 'none'})) refresh();
  });
  const read = async () => {
    const text = $('position').value.trim();
    if (!text) return;
    // A typed position that names defender pieces gives them to the defender.
    if (await setBoard({position: text, variant: ed.variant, defender: null}, ed.rule === 'given' ? 'rest' : ed.rule)) {
      refresh();
    }
  };
  $('read').addEventListener('click', read);
  $('position').addEventListener('keydown', (event) => { if (event.key === 'Enter') read(); });
  $('promote').addEventListener('click', promote);
  $('flip').addEventListener('click', flip);
  $('remove').addEventListener('click', remove);
  for (const id of ['pid', 'title', 'author', 'tags', 'solution']) $(id).addEventListener('change', details);
  $('save').addEventListener('click', save);
  $('keep-details').addEventListener('click', keepDetails);
  $('export-svg').addEventListener('click', exportSvg);
}
