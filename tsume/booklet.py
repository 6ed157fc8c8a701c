"""Booklets: a collection as one self-contained HTML page to read, solve and print.

:func:`build` turns problems into an HTML document: a numbered diagram per
problem (stipulation "mate in N", both hands, title, author) and each
solution -- the main line in the readable notation, the variations with their
lengths -- at the back (``solutions="end"``), behind a "Show solution" button
(``"hidden"``), or under the diagram (``"inline"``).  Every solution has a
step-through viewer: the positions after each move of the main line are
computed here, in Python, and embedded as SVG frames, so the page's script only
switches frames (buttons, or the arrow keys).  Nothing is fetched: the style
sheet, the diagrams and the script are all in the file.  Printing the page
("print to PDF") gives one problem per page and the solutions on their own
pages; buttons and viewers are left out of print.

The solutions are the solver's (:func:`tsume.solve.solve`), not the
collection's ``solution:`` lines, so a booklet never prints a line the engine
has not proven; a problem the solver cannot settle within the limits says so.
With ``verify=True`` each problem is verified (:func:`tsume.verify.verify`)
and any that is not sound is marked with the findings that make it so.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from .arguments import check_callback, check_flag
from .collection import Record
from .errors import ArgumentError
from .limits import Limits
from .outcome import Status, Verdict
from .position import COLOUR_NAMES, Position
from .problem import REST
from .render import hand_text, mated, numbered, plies
from .solve import solve
from .svg import STYLE, board
from .verify import verify as verify_problem

__all__ = ["build", "prepare", "render", "Entry", "SOLUTIONS", "DEFAULT_NODE_LIMIT", "DEFAULT_LIMITS"]

#: Where the solutions go: at the back, behind a button, or under each diagram.
SOLUTIONS = ("end", "hidden", "inline")
#: The solver's node limit per problem unless the caller gives one: every
#: bundled problem solves well within it (the slowest, in long-ito, in ~4 s).
DEFAULT_NODE_LIMIT = 5_000_000
#: The limits per problem unless the caller gives others.
DEFAULT_LIMITS = Limits(nodes=DEFAULT_NODE_LIMIT)


@dataclass
class Entry:
    """One problem as a booklet prints it: the problem, its position as solved, its solution."""

    number: int
    #: The collection's record: id, title, author, stated length, and the
    #: problem solved (``problem.problem()``).
    problem: Record
    #: The position as solved (``problem.problem().position()``).
    position: Position
    #: The solver's status (with ``verify``: MATE when the verifier proved a main line).
    status: Status
    length: int | None = None
    mainline: list[str] = field(default_factory=list)
    readable: list[str] = field(default_factory=list)
    leftover: str | None = None
    #: (ply, readable move, length, readable line); the length is None for a
    #: useless interposition (in ``useless``) or a defence the solver or
    #: verifier left unsettled (a limit stopped it, or no mate follows).
    variations: list[tuple[int, str, int | None, list[str]]] = field(default_factory=list)
    #: The plies and moves of the useless interpositions among ``variations``.
    useless: set[tuple[int, str]] = field(default_factory=set)
    #: The verifier's verdict, when verified.
    verdict: Verdict | None = None
    #: The verifier's findings, one readable line each, when verified.
    findings: list[str] = field(default_factory=list)
    #: The play tree (tsume.play.play_tree) with its SVG frames, for the play mode.
    play: dict | None = None


def prepare(record: Record, number: int, *, verify: bool = False, limits: Limits = DEFAULT_LIMITS,
            play: bool = False, kanji: bool = False) -> Entry:
    """Solve (and with ``verify`` verify) one problem for a booklet, within
    ``limits``; with ``play``, also build its play tree and the diagrams of
    every position in it (``kanji`` for their faces)."""
    tsume = record.problem()
    entry = Entry(number=number, problem=record, position=tsume.position(), status=Status.UNKNOWN)
    if verify:
        report = verify_problem(record, limits=limits)
        entry.verdict = report.verdict
        entry.findings = [f.message for f in report.findings]
        result: object = report
        entry.status = (Status.MATE if report.length is not None
                        else Status.UNKNOWN if report.verdict == Verdict.UNKNOWN else Status.NOMATE)
    else:
        result = solve(tsume, limits=limits)
        entry.status = result.status
    entry.length = getattr(result, "length", None)
    entry.mainline = list(getattr(result, "mainline", []))
    entry.readable = list(getattr(result, "readable", []))
    entry.leftover = getattr(result, "leftover", None)
    for v in getattr(result, "variations", []):
        length = None if v.useless else v.length
        entry.variations.append((v.ply, v.readable, length, list(v.readable_line)))
        if v.useless:
            entry.useless.add((v.ply, v.readable))
    if play:
        from .play import frames, play_tree

        tree = play_tree(tsume, limits=limits)
        entry.play = {**tree, "frames": frames(tree, kanji=kanji)}
    return entry


def _frames(entry: Entry, kanji: bool) -> list[str]:
    """The SVG of the position before the first move and after each move of the main line."""
    pos = entry.position.copy()
    total = len(entry.mainline)
    # The page holds the diagrams' style sheet once (render()), not each frame.
    out = [board(pos, kanji=kanji, standalone=False,
                 caption=f"Start: {COLOUR_NAMES[pos.turn]} to move.  {pos.fen()}")]
    for i, (move, readable) in enumerate(zip(entry.mainline, entry.readable), 1):
        m = pos.parse_move(move)
        pos.push(m)
        mark = "#" if i == total else ""  # the solver's mate (a useless interposition may remain)
        out.append(board(pos, kanji=kanji, lastmove=m, standalone=False,
                         caption=f"After {i}. {readable}{mark} (ply {i} of {total}).  {pos.fen()}"))
    return out


def _stipulation(entry: Entry) -> str:
    stated = entry.problem.length
    length = stated if stated is not None else entry.length
    return f"Mate in {length}" if length is not None else "Mate"


def _hands_line(entry: Entry) -> str:
    pos = entry.position
    attacker, defender = pos.turn, pos.turn ^ 1
    held = hand_text(pos, defender)
    if entry.problem.problem().defender == REST:
        held = f"{held} (the rest of the set)" if held != "-" else "nothing (the rest of the set is empty)"
    elif held == "-":
        held = "nothing"
    own = hand_text(pos, attacker)
    return (f"{COLOUR_NAMES[attacker]} (attacker) holds: {escape(own if own != '-' else 'nothing')}. "
            f"{COLOUR_NAMES[defender]} (defender) holds: {escape(held)}.")


def _meta(entry: Entry) -> str:
    pr = entry.problem
    parts = []
    if pr.title:
        parts.append(f'<span class="title">{escape(pr.title)}</span>')
    if pr.author:
        parts.append(f'<span class="author">{escape(pr.author)}</span>')
    parts.append(f'<span class="pid">{escape(pr.id)}</span>')
    parts.append(f'<span class="variant">{escape(entry.position.variant.title)}</span>')
    return " &middot; ".join(parts)


def _verdict(entry: Entry) -> str:
    if entry.verdict is None:
        return ""
    if entry.verdict == Verdict.SOUND:
        return '<p class="verdict sound">Verified sound.</p>'
    items = "".join(f"<li>{escape(f)}</li>" for f in entry.findings)
    word = {Verdict.FLAWED: "Flawed", Verdict.UNSOUND: "Not sound",
            Verdict.UNKNOWN: "Not verified (a limit stopped the verifier)"}
    head = word.get(entry.verdict, entry.verdict)
    return f'<div class="verdict {escape(entry.verdict)}"><p>{head}.</p><ul>{items}</ul></div>'


def _solution(entry: Entry, kanji: bool) -> str:
    """The solution block of one problem: main line, viewer, variations."""
    pr = entry.problem
    head = f'<h3><span class="number">{entry.number}</span> {escape(pr.id)}</h3>'
    if entry.status != Status.MATE:
        why = {Status.NOMATE: "The solver finds no mate.",
               Status.UNKNOWN: "The solver could not settle this problem within the booklet's limits."}
        return f'{head}<p class="no-solution">{why.get(entry.status, entry.status)}</p>'
    moves = mated(entry.readable)
    # The ply numbers are text, not list markers: markers sit outside the
    # box, where a narrow screen or a clipped screenshot loses them.
    items = "".join(f'<li><span class="ply">{i}.</span><button type="button" class="move" data-ply="{i}">'
                    f"{escape(mv)}</button></li>" for i, mv in enumerate(moves, 1))
    lengths = f"Mate in {plies(entry.length or 0)}"
    if pr.length is not None and pr.length != entry.length:
        lengths += f" (the collection states {plies(pr.length)})"
    left = entry.leftover if entry.leftover not in (None, "-") else "nothing"
    out = [head, f'<p class="length">{lengths}; the attacker has {escape(left)} left.</p>',
           f'<ol class="mainline">{items}</ol>']
    frames = _frames(entry, kanji)
    out.append(f'<div class="viewer" tabindex="0" data-frames="{len(frames)}" data-ply="0" '
               f'aria-label="Step through the solution of problem {entry.number}">')
    out.append(f'<div class="frame-view" style="--squares:{entry.position.n}">{frames[0]}</div>')
    out.append('<div class="controls">'
               '<button type="button" data-go="first" title="Start (Home)">&laquo; Start</button>'
               '<button type="button" data-go="prev" title="Back (left arrow)">&lsaquo; Back</button>'
               f'<span class="ply-label">0 / {len(frames) - 1}</span>'
               '<button type="button" data-go="next" title="Forward (right arrow)">Forward &rsaquo;</button>'
               '<button type="button" data-go="last" title="End (End)">End &raquo;</button></div>')
    out.extend(f'<template class="frame">{f}</template>' for f in frames)
    out.append("</div>")
    counted = [v for v in entry.variations if v[2] is not None]
    useless = [v for v in entry.variations if (v[0], v[1]) in entry.useless]
    unsettled = [v for v in entry.variations if v[2] is None and (v[0], v[1]) not in entry.useless]
    if counted:
        out.append('<p class="variations-head">Variations (other defences, with the length of the problem along each):</p>'
                   '<ul class="variations">')
        for ply, move, length, line in counted:
            moves = "  ".join(numbered(mated(line), ply)) if line else f"{ply}. {move}"
            out.append(f'<li>{escape(moves)} <span class="vlen">({plies(length or 0)})</span></li>')
        out.append("</ul>")
    if useless:
        by_ply: dict[int, list[str]] = {}
        for ply, move, _, _ in useless:
            by_ply.setdefault(ply, []).append(move)
        text = "; ".join(f"at ply {p}: {', '.join(ms)}" for p, ms in sorted(by_ply.items()))
        out.append(f'<p class="useless">Useless interpositions (refuted, not counted): {escape(text)}.</p>')
    if unsettled:
        text = "; ".join(f"{ply}. {move}" for ply, move, _, _ in unsettled)
        out.append(f'<p class="unsettled">Defences with no mate proven after them (a limit stopped the search, or the king escapes): {escape(text)}.</p>')
    return "".join(out)


_CSS = """
:root{--ink:#1a1a1a;--muted:#5f5f5f;--rule:#d9cfb8;--accent:#8a2b1d}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1100px;padding:1rem;font-family:Georgia,'Times New Roman',serif;color:var(--ink);
line-height:1.45;background:#fff}
header.cover{padding:2rem 0;border-bottom:2px solid var(--rule)}
header.cover h1{margin:0 0 .5rem;font-size:2rem}
.problem,.solution{padding:1rem 0;border-bottom:1px solid var(--rule)}
.problem h2{margin:.2rem 0;font-size:1.3rem}
.number{display:inline-block;min-width:2.2em;padding:0 .35em;margin-right:.4em;border-radius:.3em;
background:var(--ink);color:#fff;text-align:center;font-family:sans-serif}
.meta{margin:.2rem 0;color:var(--muted)}
.meta .title{color:var(--ink);font-style:italic}
.diagram,.frame-view{overflow-x:auto}
/* About 30 px a square, never wider than the page; below 18 px a square the
   diagram scrolls sideways instead of shrinking (a phone). */
.diagram svg,.frame-view svg{display:block;height:auto;width:calc(var(--squares) * 30px + 16px);max-width:100%;
min-width:calc(var(--squares) * 18px + 16px)}
.hands{margin:.3rem 0;font-size:.95rem}
.verdict{margin:.5rem 0;padding:.3rem .7rem;border-left:4px solid var(--accent);background:#fbeeee}
.verdict.sound{border-left-color:#2e7d32;background:#eef7ee}
.verdict p{margin:.2rem 0;font-weight:bold}
button{font:inherit;font-size:.9rem;padding:.25em .7em;margin:.15em;border:1px solid #8c7b5b;border-radius:.3em;
background:#f7f1e3;color:var(--ink);cursor:pointer}
button:hover{background:#efe4c9}
button:focus-visible{outline:2px solid #1565c0}
ol.mainline li{min-width:8em;font-family:ui-monospace,Menlo,Consolas,monospace}
.viewer{margin:.6rem 0;padding:.4rem;border:1px solid var(--rule);border-radius:.4rem}
.viewer:focus{outline:2px solid #1565c0}
.ply-label{min-width:5em;text-align:center;font-family:sans-serif}
.variations{margin:.3rem 0;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.92rem}
.useless,.unsettled,.no-solution{color:var(--muted)}
.solutions>h1{border-bottom:2px solid var(--rule)}
@media (max-width:640px){body{padding:.5rem}ol.mainline li{min-width:6em}}
@media print{
 body{max-width:none;padding:0}
 .problem{break-before:page;border:none}
 .solutions{break-before:page}
 .solutions .solution{break-inside:avoid}
 .solutions.paged .solution{break-before:page}
 .viewer,button.show-solution{display:none}
 .solution-body[hidden]{display:none}
 ol.mainline button.move{border:none;background:none}
 .diagram svg{min-width:0;max-width:100%}
}
"""

_SCRIPT = """
(function(){
  'use strict';
  var active = null;
  function show(viewer, ply){
    var frames = viewer.querySelectorAll('template.frame');
    ply = Math.max(0, Math.min(frames.length - 1, ply));
    var view = viewer.querySelector('.frame-view');
    view.replaceChildren(frames[ply].content.cloneNode(true));
    viewer.dataset.ply = String(ply);
    viewer.querySelector('.ply-label').textContent = ply + ' / ' + (frames.length - 1);
    var solution = viewer.closest('.solution-body') || viewer.parentNode;
    solution.querySelectorAll('button.move').forEach(function(b){
      b.classList.toggle('current', Number(b.dataset.ply) === ply);
    });
    active = viewer;
  }
  function step(viewer, how){
    var ply = Number(viewer.dataset.ply), last = viewer.querySelectorAll('template.frame').length - 1;
    var to = {first: 0, prev: ply - 1, next: ply + 1, last: last}[how];
    if (to !== undefined) show(viewer, to);
  }
  document.querySelectorAll('.viewer').forEach(function(viewer){
    viewer.querySelectorAll('.controls button').forEach(function(b){
      b.addEventListener('click', function(){ step(viewer, b.dataset.go); });
    });
    viewer.addEventListener('focus', function(){ active = viewer; });
    var body = viewer.closest('.solution-body') || viewer.parentNode;
    body.querySelectorAll('button.move').forEach(function(b){
      b.addEventListener('click', function(){ show(viewer, Number(b.dataset.ply)); });
    });
  });
  document.addEventListener('keydown', function(e){
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var viewer = (document.activeElement && document.activeElement.closest &&
                  document.activeElement.closest('.solution-body')) ;
    viewer = viewer ? viewer.querySelector('.viewer') : active;
    if (!viewer || viewer.offsetParent === null) return;
    var how = {ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last'}[e.key];
    if (how) { e.preventDefault(); step(viewer, how); }
  });
  document.querySelectorAll('button.show-solution').forEach(function(b){
    b.addEventListener('click', function(){
      var body = document.getElementById(b.getAttribute('aria-controls'));
      var open = body.hidden;
      body.hidden = !open;
      b.setAttribute('aria-expanded', String(open));
      b.textContent = open ? 'Hide solution' : 'Show solution';
      if (open) { var v = body.querySelector('.viewer'); if (v) active = v; }
    });
  });
})();
"""


#: The play mode's script and style sheet, shared with the studio.
_ASSETS = Path(__file__).resolve().parent / "studio" / "static"

_PLAY_GLUE = """
document.querySelectorAll('.play').forEach((box) => {
  const start = box.querySelector('button.play-start');
  start.addEventListener('click', () => {
    const data = JSON.parse(box.querySelector('script.play-data').textContent);
    start.hidden = true;
    createPlayer(box.querySelector('.play-area'), data);
  });
});
"""


def _asset(name: str) -> str:
    return (_ASSETS / name).read_text(encoding="utf-8")


def _play_box(entry: Entry) -> str:
    """The play mode of one problem: a button, and its play tree as JSON
    (``<`` escaped, so that no text in it can end the script element)."""
    data = json.dumps(entry.play, separators=(",", ":")).replace("<", "\\u003c")
    return (f'<div class="play" id="play-{entry.number}"><button type="button" class="play-start">'
            f'Solve it yourself</button><div class="play-area"></div>'
            f'<script type="application/json" class="play-data">{data}</script></div>')


def render(entries: Sequence[Entry], *, title: str, solutions: str = "end", kanji: bool = False,
           source: str | None = None) -> str:
    """The HTML document of prepared entries (see the module's docstring)."""
    if solutions not in SOLUTIONS:
        raise ArgumentError(f"solutions must be one of {', '.join(SOLUTIONS)}, not {solutions!r}")
    from . import __version__

    made = datetime.date.today().isoformat()
    where = f" from {escape(source)}" if source else ""
    count = len(entries)
    intro = (
        f"<p>{count} problem{'s' if count != 1 else ''}{where}. In each, the attacker is to move and mates "
        "by continuous checks against the longest defence; the defender holds the pieces listed. Black "
        "plays toward square 1 (leftward), White toward the last square; a piece points the way its owner "
        "plays, and a red letter is a promoted piece.</p>"
    )
    if solutions == "end":
        intro += "<p>The solutions follow the problems.</p>"
    elif solutions == "hidden":
        intro += "<p>Each solution is behind its &ldquo;Show solution&rdquo; button.</p>"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="generator" content="tsume {escape(__version__)}">',
        # The move lists' rules first, as the studio links them before its own.
        f"<title>{escape(title)}</title><style>{_asset('moves.css')}{_CSS}</style>",
        f"<style>{_asset('play.css')}</style>" if any(e.play is not None for e in entries) else "",
        # The diagrams' own style sheet, once for all of them.
        STYLE.replace("<style>", '<style id="tsume-board-style">'),
        "</head><body>",
        f'<header class="cover"><h1>{escape(title)}</h1>{intro}'
        f'<p class="made">Made with tsume {escape(__version__)} on {made}.</p></header>',
        '<main class="problems">',
    ]
    for e in entries:
        out.append(f'<article class="problem" id="problem-{e.number}" data-id="{escape(e.problem.id)}" '
                   f'data-number="{e.number}">')
        out.append(f'<h2><span class="number">{e.number}</span> {escape(_stipulation(e))}</h2>')
        out.append(f'<p class="meta">{_meta(e)}</p>')
        out.append(f'<div class="diagram" style="--squares:{e.position.n}">'
                   f'{board(e.position, kanji=kanji, standalone=False)}</div>')
        out.append(f'<p class="hands">{_hands_line(e)}</p>')
        out.append(_verdict(e))
        if e.play is not None:
            out.append(_play_box(e))
        body = f'<div class="solution" id="solution-{e.number}" data-id="{escape(e.problem.id)}">'
        if solutions == "inline":
            out.append(f'{body}<div class="solution-body" id="solution-body-{e.number}">{_solution(e, kanji)}'
                       "</div></div>")
        elif solutions == "hidden":
            out.append(f'{body}<button type="button" class="show-solution" aria-expanded="false" '
                       f'aria-controls="solution-body-{e.number}">Show solution</button>'
                       f'<div class="solution-body" id="solution-body-{e.number}" hidden>{_solution(e, kanji)}'
                       "</div></div>")
        out.append("</article>")
    out.append("</main>")
    if solutions == "end":
        out.append('<section class="solutions"><h1>Solutions</h1>')
        for e in entries:
            out.append(f'<div class="solution" id="solution-{e.number}" data-id="{escape(e.problem.id)}">'
                       f'<div class="solution-body" id="solution-body-{e.number}">{_solution(e, kanji)}</div></div>')
        out.append("</section>")
    out.append(f"<script>{_SCRIPT}</script>")
    if any(e.play is not None for e in entries):
        # The studio's play mode, inlined: one script for both (tsume/studio/static/play.js).
        out.append(f'<script type="module">{_asset("play.js")}\n{_PLAY_GLUE}</script>')
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def build(
    problems: Sequence[Record],
    *,
    title: str | None = None,
    solutions: str = "end",
    verify: bool = False,
    kanji: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    source: str | None = None,
    progress: Callable[[int, int, Entry], None] | None = None,
    play: bool = False,
) -> str:
    """A booklet of ``problems`` (collection records) as one self-contained HTML document.

    ``title`` defaults to "Tsume" plus the ``source`` name; ``solutions`` is
    one of :data:`SOLUTIONS`; ``verify`` verifies every problem and marks any
    that is not sound; ``kanji`` draws kanji on the pieces; ``play`` adds a
    "Solve it yourself" mode to each problem, its play tree
    (:func:`tsume.play.play_tree`) embedded, so that it works offline.
    ``limits`` (:class:`~tsume.limits.Limits`, by default
    :data:`DEFAULT_LIMITS`) bound the solver (or verifier, or the play tree)
    per problem.  ``progress(done, total, entry)`` is called after each
    problem.  A bad argument raises a :class:`~tsume.errors.TsumeError`.
    """
    if (isinstance(problems, (str, bytes)) or not isinstance(problems, Sequence)
            or not all(isinstance(p, Record) for p in problems)):
        raise ArgumentError("build() takes a list of collection records (tsume.collection.load)")
    if not problems:
        raise ArgumentError("a booklet needs at least one problem")
    if solutions not in SOLUTIONS:
        raise ArgumentError(f"solutions must be one of {', '.join(SOLUTIONS)}, not {solutions!r}")
    if title is not None and not isinstance(title, str):
        raise ArgumentError(f"title must be a string, not {type(title).__name__}")
    if not isinstance(limits, Limits):
        raise ArgumentError(f"limits must be a tsume.Limits, not {type(limits).__name__}")
    verify, kanji, play = check_flag(verify, "verify"), check_flag(kanji, "kanji"), check_flag(play, "play")
    progress = check_callback(progress)
    entries = []
    for i, pr in enumerate(problems, 1):
        entry = prepare(pr, i, verify=verify, limits=limits, play=play, kanji=kanji)
        entries.append(entry)
        if progress is not None:
            progress(i, len(problems), entry)
    if title is None:
        title = f"Tsume: {source}" if source else "Tsume"
    return render(entries, title=title, solutions=solutions, kanji=kanji, source=source)
