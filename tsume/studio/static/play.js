// Solve it yourself: the player makes the attacker's moves on the board, the
// page answers from a play tree (tsume.play.play_tree) -- right moves with
// the solver's longest defence, wrong checks with the defence that escapes.
// The tree and every diagram (SVG frames drawn by tsume.svg) come with the
// data: this script knows no rules, it only looks moves up.  Used by the
// studio and, inlined, by the HTML booklet (offline).

const ESCAPE_WORDS = (check) => {
  if (check.mate_after === false) return 'and no mate follows at all';
  if (typeof check.mate_after === 'number') return `and the mate then takes ${check.mate_after} more plies`;
  return check.within > 0 ? `and no mate follows within the ${check.within} plies left` : 'and it is not mate';
};

function colourOf(fen) {
  return fen.split(' ')[1] === 'w' ? 'white' : 'black';
}

function el(tag, attrs = {}, text = '') {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

export function createPlayer(root, data) {
  const tree = data;
  const frames = data.frames || {};
  root.replaceChildren();
  const player = el('div', {class: 'player', 'data-state': 'your-move', 'data-node': '0'});
  const status = el('p', {class: 'play-status', role: 'status', 'aria-live': 'polite'});
  const board = el('div', {class: 'play-board'});
  const choice = el('div', {class: 'play-choice'});
  choice.hidden = true;
  const controls = el('div', {class: 'play-controls'});
  const hintButton = el('button', {type: 'button', 'data-act': 'hint'}, 'Hint');
  const backButton = el('button', {type: 'button', 'data-act': 'back'}, 'Take back');
  const restartButton = el('button', {type: 'button', 'data-act': 'restart'}, 'Start again');
  controls.append(hintButton, backButton, restartButton);
  const moves = el('ol', {class: 'play-moves'});
  player.append(status, board, choice, controls, moves);
  root.append(player);

  if (tree.status !== 'mate' || !tree.nodes || !tree.nodes.length) {
    player.dataset.state = 'none';
    status.textContent = tree.status === 'nomate'
      ? 'The solver finds no mate here: there is nothing to play.'
      : 'The solver could not settle this problem within its limits: there is nothing to play yet.';
    controls.hidden = true;
    return player;
  }

  // steps: the moves played, each {node, check}; node: where the player is.
  let steps = [];
  let node = 0;
  let selected = null; // {square} or {drop: letter}
  let hinted = null; // the same, marked by a hint
  let hints = 0;
  let timer = null;

  const attacker = colourOf(tree.nodes[0].position);
  const plyOf = (i) => tree.length - tree.nodes[i].remaining;

  function show(key) {
    const svg = frames[key];
    if (svg === undefined) return;
    board.innerHTML = svg;
    player.dataset.frame = key;
    const drawn = board.querySelector('svg');
    player.dataset.position = drawn ? drawn.dataset.position : '';
    mark(selected);
    mark(hinted, 'hint');
  }

  function mark(sel, cls = 'selected') {
    board.querySelectorAll(`.${cls}`).forEach((x) => x.classList.remove(cls));
    if (!sel) return;
    if (sel.square) {
      const sq = board.querySelector(`rect.sq[data-square="${sel.square}"]`);
      if (sq) sq.classList.add(cls);
    } else if (sel.drop) {
      board.querySelectorAll(`g.hand.${attacker} g.piece`).forEach((g) => {
        if (g.dataset.piece.toUpperCase() === sel.drop) g.classList.add(cls);
      });
    }
  }

  function say(text) {
    status.textContent = text;
  }

  function listMoves() {
    moves.replaceChildren();
    steps.forEach((s, i) => {
      const n = plyOf(s.node) + 1;
      const attack = el('li', {class: `move ${s.check.verdict}`}, `${n}. ${s.check.readable}`);
      moves.append(attack);
      if (s.check.reply_readable && (s.check.verdict === 'right' || s.check.verdict === 'escapes')) {
        moves.append(el('li', {class: s.check.verdict === 'escapes' ? 'move refutation' : 'move'},
          `${n + 1}. ${s.check.reply_readable}`));
      }
      if (i === steps.length - 1 && (s.check.verdict === 'mate')) moves.lastChild.textContent += '#';
    });
  }

  function here() {
    const total = tree.nodes[node].remaining;
    const side = attacker === 'black' ? 'Black' : 'White';
    return `${side} to play and mate in ${total === 1 ? '1 ply' : total + ' plies'}.`;
  }

  function yourMove(extra) {
    player.dataset.state = 'your-move';
    player.dataset.node = String(node);
    show(`n${node}`);
    say(`${extra ? extra + ' ' : ''}${here()} Click one of your pieces (or one in your hand), then a square.`);
    backButton.disabled = steps.length === 0;
    hintButton.disabled = false;
  }

  function finish() {
    clearTimeout(timer);
    timer = null;
  }

  function play(check) {
    finish();
    selected = null;
    hinted = null;
    hints = 0;
    const at = node;
    steps.push({node: at, check});
    listMoves();
    show(`c${at}:${check.move}`);
    backButton.disabled = false;
    if (check.verdict === 'mate') {
      player.dataset.state = 'solved';
      const hint = tree.nodes[at].hint;
      const other = check.move !== hint
        ? ` The solution's last move is ${hintReadable(at)}; this one mates too, and a final move that mates is accepted.` : '';
      say(`Mate! Solved in ${tree.length === 1 ? '1 ply' : tree.length + ' plies'}.${other}`);
      hintButton.disabled = true;
    } else if (check.verdict === 'right') {
      player.dataset.state = 'thinking';
      say(`${check.readable}: right. The defender thinks...`);
      timer = setTimeout(() => {
        timer = null;
        if (check.next === undefined || check.next === null) {
          player.dataset.state = 'end';
          say(`${check.readable} is right, but the tree ends here (a limit of its searches).`);
          return;
        }
        node = check.next;
        yourMove(`${check.readable}: right. The longest defence: ${check.reply_readable}.`);
      }, 350);
    } else if (check.verdict === 'escapes') {
      player.dataset.state = 'refuted';
      const why = `${check.readable} does not mate: the defender answers ${check.reply_readable}, ${ESCAPE_WORDS(check)}.`;
      say(`${why} Take it back and try again.`);
      timer = setTimeout(() => { timer = null; show(`r${at}:${check.move}`); }, 350);
      hintButton.disabled = true;
    } else {
      player.dataset.state = 'refuted';
      say(`The solver could not settle ${check.readable} within its limits. Take it back and try another move.`);
      hintButton.disabled = true;
    }
  }

  function hintReadable(i) {
    const n = tree.nodes[i];
    const c = n.checks.find((x) => x.move === n.hint);
    return c ? c.readable : n.hint;
  }

  function back() {
    finish();
    selected = null;
    hinted = null;
    hints = 0;
    const last = steps.pop();
    if (!last) return;
    node = last.node;
    listMoves();
    yourMove('Taken back.');
  }

  function restart() {
    finish();
    steps = [];
    node = 0;
    selected = null;
    hinted = null;
    hints = 0;
    listMoves();
    yourMove('');
  }

  function hint() {
    if (player.dataset.state !== 'your-move') return;
    const n = tree.nodes[node];
    if (!n.hint) { say('No hint: the solver did not settle this position.'); return; }
    hints += 1;
    const drop = n.hint.match(/^\+?([A-Za-z])\*(\d+)$/);
    const from = n.hint.match(/^(\d+)-(\d+)$/);
    if (hints === 1) {
      hinted = drop ? {drop: drop[1].toUpperCase()} : {square: Number(from[1])};
      mark(hinted, 'hint');
      say(drop ? `Hint: drop a piece from your hand (${drop[1].toUpperCase()}).` : `Hint: move the piece on ${from[1]}.`);
    } else {
      say(`Hint: ${hintReadable(node)}.`);
    }
  }

  function pieceOn(square) {
    const g = board.querySelector(`g.piece[data-square="${square}"]`);
    return g ? g.dataset.piece : null;
  }

  function ownPiece(token) {
    return token && ((token === token.toUpperCase()) === (attacker === 'black'));
  }

  function attempt(candidates) {
    const n = tree.nodes[node];
    const found = candidates.map((m) => n.checks.find((c) => c.move === m)).filter(Boolean);
    if (found.length > 1) {
      choice.replaceChildren(el('span', {}, 'Drop it: '));
      found.forEach((c) => {
        const b = el('button', {type: 'button', 'data-move': c.move}, c.move.startsWith('+') ? 'promoted side up' : 'unpromoted');
        b.addEventListener('click', () => { choice.hidden = true; play(c); });
        choice.append(b);
      });
      choice.hidden = false;
      return;
    }
    if (found.length === 1) { play(found[0]); return; }
    selected = null;
    mark(null);
    const legal = candidates.some((m) => n.legal.includes(m));
    say(legal ? `${candidates[0]} is legal but gives no check: in a tsume every attacker move checks.`
              : `${candidates[0]} is not a legal move here.`);
  }

  board.addEventListener('click', (event) => {
    if (player.dataset.state !== 'your-move') return;
    const handPiece = event.target.closest('g.hand-piece');
    if (handPiece) {
      const hand = handPiece.closest('g.hand');
      const g = handPiece.querySelector('g.piece');
      if (hand && hand.classList.contains(attacker) && g) {
        selected = {drop: g.dataset.piece.toUpperCase()};
        mark(selected);
      }
      return;
    }
    const target = event.target.closest('[data-square]');
    if (!target) return;
    const square = Number(target.dataset.square);
    const token = pieceOn(square);
    if (selected === null || (ownPiece(token) && selected.square !== square)) {
      if (ownPiece(token)) { selected = {square}; mark(selected); }
      return;
    }
    if (selected.square === square) { selected = null; mark(null); return; }
    if (selected.drop) attempt([`${selected.drop}*${square}`, `+${selected.drop}*${square}`]);
    else attempt([`${selected.square}-${square}`]);
  });
  hintButton.addEventListener('click', hint);
  backButton.addEventListener('click', back);
  restartButton.addEventListener('click', restart);
  player.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') { selected = null; mark(null); }
  });
  player.tabIndex = 0;
  restart();
  return player;
}
