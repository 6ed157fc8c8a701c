// Diagrams drawn in the page: the SVG that tsume.svg.board draws, from a
// position string.  A booklet holds each position of a solution as a short
// string and draws its diagram only when shown, instead of carrying the SVG of
// every position.  The sizes and the variants' faces come from Python
// (tsume.svg.drawing_data); the steps below are board()'s, one for one, and
// tests/test_browser.py compares the two outputs character for character.
// The script knows no rules: whether a king is in check is given.
(function (global) {
  'use strict';

  // Python's format(x, '.1f') and '.0f': ties go to the even digit.  A tie at
  // one decimal is x = (2k+1)/4 exactly (the only such sums a double holds);
  // at none, x = k + 1/2.  Elsewhere toFixed rounds the exact value, as Python does.
  function fixed(x, digits) {
    const q = digits ? x * 4 : x * 2;
    if (Number.isInteger(q) && q % 2 !== 0) {
      const scaled = digits ? x * 10 : x;  // exact: an odd multiple of 1/2
      const low = Math.floor(scaled);
      return ((low % 2 === 0 ? low : low + 1) / (digits ? 10 : 1)).toFixed(digits);
    }
    return x.toFixed(digits);
  }
  const f1 = (x) => fixed(x, 1);

  // xml.sax.saxutils.escape and quoteattr.
  function escape(text) {
    return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  }
  function quoteattr(text) {
    let data = escape(text).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
    if (data.includes('"')) {
      if (data.includes("'")) return '"' + data.replace(/"/g, '&quot;') + '"';
      return "'" + data + "'";
    }
    return '"' + data + '"';
  }

  // A full-width character: the blocks unicodedata calls East Asian Wide or Fullwidth.
  const CJK = /[\u1100-\u115F\u231A\u231B\u2329\u232A\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uA960-\uA97F\uAC00-\uD7A3\uF900-\uFAFF\uFE10-\uFE19\uFE30-\uFE6F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]/u;
  const MARK = /\p{Mn}|\p{Me}/u;

  function create(data) {
    const L = data.layout;
    const upper = new Set(L.upper);
    const wideAscii = new Set('MWm@%&');
    const em = L.em;

    function charEm(ch) {
      const c = ch.codePointAt(0);
      if (c >= 32 && c < 127) return upper.has(ch) ? em.upper : wideAscii.has(ch) ? em.wide : em.narrow;
      if (MARK.test(ch)) return 0;
      if (CJK.test(ch)) return em.cjk;
      return em.wide;
    }

    function maxTextWidth(text, size) {
      let sum = 0;
      for (const ch of text) sum += charEm(ch);
      return size * sum;
    }

    function wrap(text, width, size) {
      const lines = [];
      let line = '';
      for (const word of text.split(/\s+/).filter(Boolean)) {
        const candidate = line ? `${line} ${word}` : word;
        if (maxTextWidth(candidate, size) <= width) { line = candidate; continue; }
        if (line) lines.push(line);
        line = '';
        for (const ch of word) {
          if (line && maxTextWidth(line + ch, size) > width) { lines.push(line); line = ''; }
          line += ch;
        }
      }
      if (line) lines.push(line);
      return lines;
    }

    // A position string: board, side to move, hands (and a move number).
    function parse(variant, fen) {
      const v = data.variants[variant];
      if (!v) throw new Error(`no drawing data for the variant ${variant}`);
      const [field, side, hands] = fen.split(/\s+/);
      const byLetter = new Map(v.faces.map((f, i) => [f.letter, i + 1]));
      const board = [0];
      for (const m of field.matchAll(/(\d+)|(\+?[A-Za-z])/g)) {
        if (m[1]) { for (let i = Number(m[1]); i > 0; i--) board.push(0); continue; }
        const face = byLetter.get(m[2].toUpperCase());
        if (!face) throw new Error(`no piece ${m[2]} in ${variant}`);
        board.push(face << 1 | (m[2] === m[2].toUpperCase() ? 0 : 1));
      }
      const counts = [v.kinds.map(() => 0), v.kinds.map(() => 0)];
      if (hands && hands !== '-') {
        for (const m of hands.matchAll(/(\d*)([A-Za-z])/g)) {
          const colour = m[2] === m[2].toUpperCase() ? 0 : 1;
          counts[colour][v.kinds.findIndex((k) => k.letter === m[2].toUpperCase())] += Number(m[1] || 1);
        }
      }
      return {v, variant, fen, n: board.length - 1, board, turn: side === 'w' ? 1 : 0, counts};
    }

    function handString(pos, colour) {
      const s = pos.v.kinds.map((k, i) => {
        const c = pos.counts[colour][i];
        return c ? (c > 1 ? String(c) : '') + k.letter : '';
      }).join('');
      return s || '-';
    }

    function faceLabel(pos, value, kanji) {
      const face = pos.v.faces[(value >> 1) - 1];
      if (kanji && face.kanji) return face.kanji;
      return face.letter.replace(/^\++/, '');
    }

    function pentagon(x, y, s, left) {
      const tip = 0.10 * s, shoulder = 0.34 * s, base = 0.90 * s;
      const topSh = 0.16 * s, botSh = 0.84 * s, topB = 0.09 * s, botB = 0.91 * s;
      const pts = left
        ? [[x + tip, y + s / 2], [x + shoulder, y + topSh], [x + base, y + topB], [x + base, y + botB], [x + shoulder, y + botSh]]
        : [[x + s - tip, y + s / 2], [x + s - shoulder, y + topSh], [x + s - base, y + topB], [x + s - base, y + botB],
          [x + s - shoulder, y + botSh]];
      return pts.map(([a, b]) => `${f1(a)},${f1(b)}`).join(' ');
    }

    function piece(pos, value, x, y, s, kanji, square) {
      const colour = value & 1;
      const face = pos.v.faces[(value >> 1) - 1];
      const token = colour ? face.letter.toLowerCase() : face.letter;
      const label = faceLabel(pos, value, kanji);
      const classes = ['piece', colour ? 'white' : 'black'];
      if (face.promoted) classes.push('pro');
      if (label !== faceLabel(pos, value, false)) classes.push('kanji');
      const where = square !== undefined ? ` on ${square}` : '';
      const attrs = square !== undefined ? ` data-square="${square}"` : '';
      const font = s === L.square - 2 ? '' : ` style="font-size:${f1(s * 0.46)}px"`;
      return `<g class="${classes.join(' ')}" data-piece=${quoteattr(token)}${attrs}>` +
        `<title>${escape(L.colours[colour])} ${escape(face.name)}${where}</title>` +
        `<polygon points="${pentagon(x, y, s, colour === 0)}"/>` +
        `<text x="${f1(x + s * (colour === 0 ? 0.54 : 0.46))}" y="${f1(y + s / 2)}"${font}>${escape(label)}</text>` +
        '</g>';
    }

    function sideMarker(x, y, h, colour) {
      const w = h * 0.8;
      const pts = [[x + w / 2, y], [x + w, y + h * 0.3], [x + w, y + h], [x, y + h], [x, y + h * 0.3]];
      return `<polygon class="side-marker ${colour ? 'white' : 'black'}" points="${pts.map(([a, b]) => `${f1(a)},${f1(b)}`).join(' ')}"/>`;
    }

    const handLabel = (colour, toMove) => `${L.colours[colour]}${toMove ? ' to move' : ''}`;
    const countWidth = (count) => count > 1 ? 1 + maxTextWidth(String(count), L.countSize) + 3 : 2;

    function handWidths(pos, colour, toMove) {
      const s = L.handBand * 0.8;
      const counts = pos.counts[colour].filter((c) => c);
      const labelW = maxTextWidth(handLabel(colour, toMove), L.labelSize) + L.signRoom + L.gap;
      let piecesW = 0;
      for (const c of counts) piecesW += s + countWidth(c);
      if (!counts.length) piecesW = maxTextWidth('none', L.labelSize);
      return [labelW, labelW + piecesW];
    }

    function hand(pos, colour, x, y, width, alignRight, kanji, toMove) {
      const h = L.handBand, s = h * 0.8;
      const items = [];
      pos.counts[colour].forEach((cnt, ki) => { if (cnt) items.push([pos.v.kinds[ki].face << 1 | colour, cnt]); });
      const [labelW, total] = handWidths(pos, colour, toMove);
      const left = alignRight ? x + width - total : x;
      const out = [`<g class="hand ${colour ? 'white' : 'black'}" data-hand="${handString(pos, colour)}">`];
      const cy = y + h / 2;
      const sign = left + labelW - L.gap - L.signRoom + 5;
      out.push(`<text class="${toMove ? 'label to-move' : 'label'}" x="${f1(sign - 5)}" y="${f1(cy)}">${escape(handLabel(colour, toMove))}</text>`);
      out.push(sideMarker(sign, cy - 8, 16, colour));
      let px = left + labelW;
      if (!items.length) out.push(`<text class="none" x="${f1(px)}" y="${f1(cy)}">none</text>`);
      for (const [value, cnt] of items) {
        out.push(`<g class="hand-piece" data-count="${cnt}">`);
        out.push(piece(pos, value, px, y + (h - s) / 2, s, kanji));
        px += s;
        if (cnt > 1) out.push(`<text class="count" x="${f1(px + 1)}" y="${f1(y + h - 6)}">${cnt}</text>`);
        px += countWidth(cnt);
        out.push('</g>');
      }
      out.push('</g>');
      return out.join('');
    }

    // The squares a move string names: "12-11" from and to, "P*7" (a drop) only its to-square.
    function moveSquares(move) {
      if (!move) return [];
      const drop = /\*(\d+)$/.exec(move);
      if (drop) return [Number(drop[1])];
      const step = /^(\d+)-(\d+)/.exec(move);
      return step ? [Number(step[1]), Number(step[2])] : [];
    }

    // board(pos, kanji, lastmove, check, fold, size, hands, caption) with
    // standalone=False: the page holds tsume.svg.STYLE once.
    function draw(variant, fen, options = {}) {
      const {kanji = false, lastmove = null, check = false, fold = null, size = null, hands = true} = options;
      let caption = options.caption ?? null;
      const pos = parse(variant, fen);
      const n = pos.n;
      const perRow = fold === null ? n : Math.min(fold, n);
      const rows = Math.floor((n + perRow - 1) / perRow);
      const rowH = L.numberBand + L.square;
      let width = 2 * L.margin + perRow * L.square;
      if (hands) {
        const widest = Math.max(handWidths(pos, 0, pos.turn === 0)[1], handWidths(pos, 1, pos.turn === 1)[1]);
        width = Math.max(width, 2 * L.margin + Math.ceil(widest));
      }
      const top = L.margin + (hands ? L.handBand + 4 : 0);
      const gridH = rows * rowH + (rows - 1) * L.rowGap;
      const shown = fen;
      if (caption === null) caption = `${L.colours[pos.turn]} to move${check ? ', in check' : ''}.  ${shown}`;
      const lines = wrap(caption, width - 2 * L.margin, L.captionSize);
      const captionH = lines.length ? 4 + lines.length * L.captionLeading : 0;
      const height = Math.ceil(top + gridH + (hands ? 4 + L.handBand : 0) + captionH + L.margin);

      const marked = new Map();
      for (const s of moveSquares(lastmove)) if (s >= 1 && s <= n) marked.set(s, 'lastmove');
      let king = 0;
      for (let s = 1; s <= n; s++) {
        const v = pos.board[s];
        if (v && (v & 1) === pos.turn && pos.v.faces[(v >> 1) - 1].royal) { king = s; break; }
      }
      if (check && king) marked.set(king, 'check');
      const cell = (s) => [L.margin + ((s - 1) % perRow) * L.square,
        top + Math.floor((s - 1) / perRow) * (rowH + L.rowGap) + L.numberBand];

      let sizeAttrs = '';
      if (size !== null) {
        const scale = size / L.square;
        sizeAttrs = ` width="${fixed(width * scale, 0)}" height="${fixed(height * scale, 0)}"`;
      }
      const title = pos.v.title;
      const out = [
        `<svg xmlns="http://www.w3.org/2000/svg" class="tsume-board" viewBox="0 0 ${width} ${height}"${sizeAttrs} ` +
        `data-position=${quoteattr(shown)} data-variant=${quoteattr(variant)} ` +
        `role="img" aria-label=${quoteattr(`${title}: ${shown}`)}>`,
        `<title>${escape(title)}: ${escape(shown)}</title>`,
      ];
      if (hands) out.push(hand(pos, 1, L.margin, L.margin, width - 2 * L.margin, false, kanji, pos.turn === 1));
      for (let s = 1; s <= n; s++) {
        const [x, y] = cell(s);
        const cls = 'sq' + (marked.has(s) ? ` ${marked.get(s)}` : '');
        out.push(`<rect class="${cls}" data-square="${s}" x="${x}" y="${y}" width="${L.square}" height="${L.square}"/>` +
          `<text class="num" x="${x + Math.floor(L.square / 2)}" y="${y - 4}">${s}</text>`);
      }
      for (let s = 1; s <= n; s++) {
        const v = pos.board[s];
        if (v) { const [x, y] = cell(s); out.push(piece(pos, v, x + 1, y + 1, L.square - 2, kanji, s)); }
      }
      if (check && king) {
        const [x, y] = cell(king);
        out.push(`<rect class="check-ring" x="${x + 1.5}" y="${y + 1.5}" width="${L.square - 3}" height="${L.square - 3}"/>`);
      }
      let below = top + gridH + 4;
      if (hands) {
        out.push(hand(pos, 0, L.margin, below, width - 2 * L.margin, true, kanji, pos.turn === 0));
        below += L.handBand;
      }
      lines.forEach((line, i) => {
        const baseline = below + 4 + i * L.captionLeading + 1.2 * L.captionSize;
        out.push(`<text class="caption" x="${L.margin}" y="${f1(baseline)}">${escape(line)}</text>`);
      });
      out.push('</svg>');
      return out.join('');
    }

    return {draw, maxTextWidth, wrap};
  }

  global.TsumeBoard = {create, fixed};
})(globalThis);
