// The booklet's page: the step-through viewers and the "Show solution"
// buttons.  A viewer holds its line as data -- the position string after each
// move, as the engine computed it when the booklet was made -- and draws a
// frame (board.js) only when it is shown: a viewer's first frame when the
// viewer comes near the window, the others as the reader steps.
(function () {
  'use strict';
  const drawing = JSON.parse(document.getElementById('tsume-drawing').textContent);
  const boards = TsumeBoard.create(drawing);
  // The page's options (kanji, the size of a square) apply to every diagram it draws.
  const draw = (variant, fen, options) => boards.draw(variant, fen, {...drawing.page, ...options});
  globalThis.TsumeBooklet = {draw};

  const lines = new WeakMap();
  function line(viewer) {
    if (!lines.has(viewer)) lines.set(viewer, JSON.parse(viewer.querySelector('script.line').textContent));
    return lines.get(viewer);
  }

  function frame(viewer, ply) {
    const d = line(viewer), last = d.positions.length - 1, fen = d.positions[ply];
    const caption = ply === 0
      ? `Start: ${drawing.layout.colours[fen.split(' ')[1] === 'w' ? 1 : 0]} to move.  ${fen}`
      : `After ${ply}. ${d.readable[ply - 1]}${ply === last ? '#' : ''} (ply ${ply} of ${last}).  ${fen}`;
    return draw(d.variant, fen, {fold: d.fold, lastmove: ply ? d.moves[ply - 1] : null, check: d.check[ply] === '1',
      caption});
  }

  let active = null;
  function show(viewer, ply) {
    const last = line(viewer).positions.length - 1;
    ply = Math.max(0, Math.min(last, ply));
    viewer.querySelector('.frame-view').innerHTML = frame(viewer, ply);
    viewer.dataset.ply = String(ply);
    viewer.querySelector('.ply-label').textContent = ply + ' / ' + last;
    const solution = viewer.closest('.solution-body') || viewer.parentNode;
    solution.querySelectorAll('button.move').forEach((b) => {
      b.classList.toggle('current', Number(b.dataset.ply) === ply);
    });
    active = viewer;
  }
  function step(viewer, how) {
    const ply = Number(viewer.dataset.ply), last = line(viewer).positions.length - 1;
    const to = {first: 0, prev: ply - 1, next: ply + 1, last: last}[how];
    if (to !== undefined) show(viewer, to);
  }

  // A viewer's first frame is drawn when it comes within a screen of the window.
  const near = new IntersectionObserver((seen) => {
    seen.forEach((e) => {
      if (!e.isIntersecting) return;
      near.unobserve(e.target);
      if (!e.target.querySelector('.frame-view svg')) {
        const keep = active;
        show(e.target, Number(e.target.dataset.ply));
        active = keep;
      }
    });
  }, {rootMargin: '100% 0px'});

  document.querySelectorAll('.viewer').forEach((viewer) => {
    near.observe(viewer);
    viewer.querySelectorAll('.controls button').forEach((b) => {
      b.addEventListener('click', () => step(viewer, b.dataset.go));
    });
    viewer.addEventListener('focus', () => { active = viewer; });
    const body = viewer.closest('.solution-body') || viewer.parentNode;
    body.querySelectorAll('button.move').forEach((b) => {
      b.addEventListener('click', () => show(viewer, Number(b.dataset.ply)));
    });
  });
  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const focused = document.activeElement && document.activeElement.closest &&
      document.activeElement.closest('.solution-body');
    const viewer = focused ? focused.querySelector('.viewer') : active;
    if (!viewer || viewer.offsetParent === null) return;
    const how = {ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last'}[e.key];
    if (how) { e.preventDefault(); step(viewer, how); }
  });
  document.querySelectorAll('button.show-solution').forEach((b) => {
    b.addEventListener('click', () => {
      const body = document.getElementById(b.getAttribute('aria-controls'));
      const open = body.hidden;
      body.hidden = !open;
      b.setAttribute('aria-expanded', String(open));
      b.textContent = open ? 'Hide solution' : 'Show solution';
      if (open) { const v = body.querySelector('.viewer'); if (v) active = v; }
    });
  });
})();
