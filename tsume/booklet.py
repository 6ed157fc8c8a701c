"""Booklets: a collection as one self-contained HTML page to read, solve and print.

:func:`build` turns problems into an HTML document: a numbered diagram per
problem (stipulation "mate in N", both hands, title, author) and each
solution -- the main line in the readable notation, the variations with their
lengths -- at the back (``solutions="end"``), behind a "Show solution" button
(``"hidden"``), or under the diagram (``"inline"``).  Every solution has a
step-through viewer: the positions after each move of the main line are
computed here, in Python, and embedded as position strings; the page's script
(``booklet_static/board.js``, the steps of :func:`tsume.svg.board`) draws a
position's diagram when it is shown, so the page knows no rules and carries one
SVG per problem, not one per position.  Nothing is fetched: the style sheet,
the diagrams, the data and the scripts are all in the file.  Diagrams are 32
pixels a square, a file longer than 32 squares folded into rows, so that square
numbers and captions stay legible.  Printing the page ("print to PDF") gives
one problem per page and the solutions on their own pages; buttons and viewers
are left out of print.

The solutions are the solver's (:func:`tsume.solve.solve`), not the
collection's ``solution:`` lines, so a booklet never prints a line the engine
has not proven; a problem the solver cannot settle within the limits says so.
With ``verify=True`` each problem is verified (:func:`tsume.verify.verify`)
and any that is not sound is marked with the findings that make it so.  With
``certify=True`` as well, each sound problem's certificate
(docs/certificates.md) is written and checked by the independent checker; a
problem whose certificate checks is marked "Certified", its certificate
embedded as a download, and one that cannot be certified says why.
"""

from __future__ import annotations

import base64
import datetime
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from .arguments import check_callback, check_flag, check_positive_int
from .certificate import file_name
from .certificate.write import MAX_NODES, CertificateError, write_certificate
from .collection import Record
from .errors import ArgumentError
from .limits import Limits
from .outcome import Status, Verdict
from .position import COLOUR_NAMES, Position
from .problem import REST, Problem
from .play import frame_keys, play_tree
from .render import hand_text, mated, numbered, plies
from .solve import solve
from .svg import STYLE, board, drawing_data
from .variant import get_variant
from .verify import verify as verify_problem

__all__ = ["build", "prepare", "render", "Entry", "SOLUTIONS", "DEFAULT_NODE_LIMIT", "DEFAULT_LIMITS"]

#: Where the solutions go: at the back, behind a button, or under each diagram.
SOLUTIONS = ("end", "hidden", "inline")
#: The solver's node limit per problem unless the caller gives one: every
#: bundled problem solves well within it (the slowest, in long-ito, in ~4 s).
DEFAULT_NODE_LIMIT = 5_000_000
#: The limits per problem unless the caller gives others.
DEFAULT_LIMITS = Limits(nodes=DEFAULT_NODE_LIMIT)
#: A square's width on screen, in pixels: the square numbers and captions
#: (fonts of 0.3 of a square, tsume.svg) are then 9.6 px.
SQUARE_PX = 32
#: The most squares in a row: 32 of them (1,037 px) fit the page's column, so
#: a longer file is folded into rows of equal length.
ROW_SQUARES = 32


@dataclass
class Entry:
    """One problem as a booklet prints it: the problem, its position as solved, its solution."""

    number: int
    #: The collection's record: id, title, author, stated length.
    problem: Record
    #: The problem solved: the record's (``problem.problem()``).
    tsume: Problem
    #: The position as solved (``tsume.position()``).
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
    #: The play tree (tsume.play.play_tree) and every position its page shows
    #: (``positions``: key -> [position string, last move, in check]), for the play mode.
    play: dict | None = None
    #: With ``certify``: the certificate file of a sound problem the checker
    #: accepts, else None and ``uncertified`` says why.
    certificate: bytes | None = None
    uncertified: str | None = None


def prepare(record: Record, number: int, *, verify: bool = False, limits: Limits = DEFAULT_LIMITS,
            play: bool = False, certify: bool = False, certificate_nodes: int | None = MAX_NODES) -> Entry:
    """Solve (and with ``verify`` verify) one problem for a booklet, within
    ``limits``; with ``play``, also build its play tree and every position
    it shows; with ``certify`` (and ``verify``), write and check a sound
    problem's certificate (at most ``certificate_nodes`` nodes of refutations
    and strategies)."""
    tsume = record.problem()
    entry = Entry(number=number, problem=record, tsume=tsume, position=tsume.position(), status=Status.UNKNOWN)
    if verify:
        report = verify_problem(tsume, limits=limits, id=record.id)
        entry.verdict = report.verdict
        entry.findings = [f.message for f in report.findings]
        result: object = report
        entry.status = (Status.MATE if report.length is not None
                        else Status.UNKNOWN if report.verdict == Verdict.UNKNOWN else Status.NOMATE)
        if certify and report.verdict == Verdict.SOUND:
            try:
                # The writer returns only what the checker accepts.
                entry.certificate = write_certificate(tsume, report, limits=limits, max_nodes=certificate_nodes)
            except CertificateError as exc:
                entry.uncertified = str(exc)
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
        tree = play_tree(tsume, limits=limits)
        entry.play = {**tree, "positions": _play_positions(tree)}
    return entry


def _fold(n: int) -> int:
    """The squares per row of an ``n``-square file: all of them, or rows of
    equal length, none longer than :data:`ROW_SQUARES`."""
    rows = -(-n // ROW_SQUARES)
    return -(-n // rows)


def _line(entry: Entry) -> dict:
    """The viewer's data: the position before the first move and after each
    move of the main line, whether the side to move is in check there (one
    digit each), and the moves; the page draws the frames from it."""
    pos = entry.position.copy()
    positions, check = [pos.fen()], ["0"]
    for move in entry.mainline:
        pos.push_str(move)
        positions.append(pos.fen())
        check.append("1" if pos.is_check() else "0")
    return {"variant": pos.variant.spec, "fold": _fold(pos.n), "positions": positions, "check": "".join(check),
            "moves": entry.mainline, "readable": entry.readable}


def _play_positions(tree: dict) -> dict[str, list]:
    """Every position the play mode shows, keyed as tsume.play.frames keys
    its diagrams: [position string, the move that led there (tinted), 1 if
    the side to move is in check]."""
    variant = get_variant(tree["variant"])
    out: dict[str, list] = {}
    for key, start, moves in frame_keys(tree):
        pos = Position(start, variant)
        last = tree["nodes"][int(key[1:])].get("last") if not moves and key != "n0" else None
        for move in moves:
            pos.push_str(move)
            last = move
        out[key] = [pos.fen(), last or "", 1 if pos.is_check() else 0]
    return out


def _script_json(data: object) -> str:
    """JSON for a ``<script type="application/json">`` element: ``<`` escaped,
    so that no text in it can end the element."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c")


def _stipulation(entry: Entry) -> str:
    stated = entry.problem.length
    length = stated if stated is not None else entry.length
    return f"Mate in {length}" if length is not None else "Mate"


def _hands_line(entry: Entry) -> str:
    pos = entry.position
    attacker, defender = pos.turn, pos.turn ^ 1
    held = hand_text(pos, defender)
    if entry.tsume.defender == REST:
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
        if entry.certificate is not None:
            href = "data:application/gzip;base64," + base64.b64encode(entry.certificate).decode("ascii")
            name = file_name(entry.problem.id)
            return ('<div class="verdict sound certified"><p>Verified sound. <span class="certified-mark">Certified</span>'
                    f'</p><p class="certificate">Its certificate checks (<a download="{escape(name)}" href="{href}">'
                    f"download the certificate</a>, {len(entry.certificate) / 1024:.1f} KB; "
                    "check it with <code>tsume check</code>).</p></div>")
        if entry.uncertified is not None:
            why = entry.uncertified.removeprefix("not certified: ")
            return (f'<div class="verdict sound"><p>Verified sound.</p><p class="certificate uncertified">'
                    f"Not certified: {escape(why)}.</p></div>")
        return '<p class="verdict sound">Verified sound.</p>'
    items = "".join(f"<li>{escape(f)}</li>" for f in entry.findings)
    word = {Verdict.FLAWED: "Flawed", Verdict.UNSOUND: "Not sound",
            Verdict.UNKNOWN: "Not verified (a limit stopped the verifier)"}
    head = word.get(entry.verdict, entry.verdict)
    return f'<div class="verdict {escape(entry.verdict)}"><p>{head}.</p><ul>{items}</ul></div>'


def _first_frame_height(entry: Entry, line: dict) -> int:
    """The height in pixels of a viewer's first frame as the page draws it
    (board.js draws what svg.board() draws)."""
    pos = entry.position
    caption = f"Start: {COLOUR_NAMES[pos.turn]} to move.  {pos.fen()}"
    drawn = board(pos, standalone=False, fold=line["fold"], size=SQUARE_PX, caption=caption)
    found = re.search(r'height="(\d+)"', drawn)
    return int(found.group(1)) if found else 0


def _solution(entry: Entry) -> str:
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
    line = _line(entry)
    frames = len(line["positions"])
    out.append(f'<div class="viewer" tabindex="0" data-frames="{frames}" data-ply="0" '
               f'aria-label="Step through the solution of problem {entry.number}">')
    # The first frame is drawn as the viewer nears the window: its room is kept
    # now, so that drawing it does not move the page under the reader.
    out.append(f'<div class="frame-view" style="min-height:{_first_frame_height(entry, line)}px"></div>')
    out.append('<div class="controls">'
               '<button type="button" data-go="first" title="Start (Home)">&laquo; Start</button>'
               '<button type="button" data-go="prev" title="Back (left arrow)">&lsaquo; Back</button>'
               f'<span class="ply-label">0 / {frames - 1}</span>'
               '<button type="button" data-go="next" title="Forward (right arrow)">Forward &rsaquo;</button>'
               '<button type="button" data-go="last" title="End (End)">End &raquo;</button></div>')
    out.append(f'<script type="application/json" class="line">{_script_json(line)}</script>')
    out.append("</div>")
    counted = [v for v in entry.variations if v[2] is not None]
    useless = [v for v in entry.variations if (v[0], v[1]) in entry.useless]
    unsettled = [v for v in entry.variations if v[2] is None and (v[0], v[1]) not in entry.useless]
    if counted:
        out.append('<p class="variations-head">Variations (other defences, with the length of the problem along each):</p>'
                   '<ul class="variations">')
        for ply, move, length, vline in counted:
            text = "  ".join(numbered(mated(vline), ply)) if vline else f"{ply}. {move}"
            out.append(f'<li>{escape(text)} <span class="vlen">({plies(length or 0)})</span></li>')
        out.append("</ul>")
    if useless:
        # Each group after the check it answers, the mating move's included.
        checks = numbered(mated(entry.readable))
        by_check: dict[int, list[str]] = {}
        for ply, move, _, _ in useless:
            by_check.setdefault(ply - 1, []).append(move)
        text = "; ".join(f"after {checks[p - 1] if 0 < p <= len(checks) else p}: {', '.join(ms)}"
                         for p, ms in sorted(by_check.items()))
        out.append(f'<p class="useless">Useless interpositions (refuted, not counted): {escape(text)}.</p>')
    if unsettled:
        text = "; ".join(f"{ply}. {move}" for ply, move, _, _ in unsettled)
        out.append(f'<p class="unsettled">Defences with no mate proven after them (a limit stopped the search, or the king escapes): {escape(text)}.</p>')
    return "".join(out)


_HERE = Path(__file__).resolve().parent
#: The booklet's style sheet and scripts: the page's own, and the diagrams' renderer.
_STATIC = _HERE / "booklet_static"
#: The move lists' style and the play mode's script and style sheet, shared with the studio.
_STUDIO = _HERE / "studio" / "static"

# The play mode is the studio's (play.js), given the diagrams as a lazy
# object: each is drawn from its position the first time the player needs it.
_PLAY_GLUE = """
document.querySelectorAll('.play').forEach((box) => {
  const start = box.querySelector('button.play-start');
  start.addEventListener('click', () => {
    const data = JSON.parse(box.querySelector('script.play-data').textContent);
    const drawn = {};
    const frames = new Proxy(drawn, {get(_, key) {
      if (typeof key !== 'string' || !Object.hasOwn(data.positions, key)) return undefined;
      const at = data.positions[key];
      drawn[key] ??= TsumeBooklet.draw(data.variant, at[0], {fold: data.fold, lastmove: at[1] || null, check: !!at[2]});
      return drawn[key];
    }});
    start.hidden = true;
    createPlayer(box.querySelector('.play-area'), {...data, frames});
  });
});
"""


def _asset(folder: Path, name: str) -> str:
    return (folder / name).read_text(encoding="utf-8")


def _play_box(entry: Entry) -> str:
    """The play mode of one problem: a button, and its play tree and positions as JSON."""
    assert entry.play is not None
    data = {**entry.play, "fold": _fold(entry.position.n)}
    return (f'<div class="play" id="play-{entry.number}"><button type="button" class="play-start">'
            f'Solve it yourself</button><div class="play-area"></div>'
            f'<script type="application/json" class="play-data">{_script_json(data)}</script></div>')


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
        f"<title>{escape(title)}</title><style>{_asset(_STUDIO, 'moves.css')}{_asset(_STATIC, 'booklet.css')}</style>",
        f"<style>{_asset(_STUDIO, 'play.css')}</style>" if any(e.play is not None for e in entries) else "",
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
        out.append(f'<div class="diagram">{board(e.position, kanji=kanji, standalone=False, fold=_fold(e.position.n), size=SQUARE_PX)}'
                   "</div>")
        out.append(f'<p class="hands">{_hands_line(e)}</p>')
        out.append(_verdict(e))
        if e.play is not None:
            out.append(_play_box(e))
        body = f'<div class="solution" id="solution-{e.number}" data-id="{escape(e.problem.id)}">'
        if solutions == "inline":
            out.append(f'{body}<div class="solution-body" id="solution-body-{e.number}">{_solution(e)}'
                       "</div></div>")
        elif solutions == "hidden":
            out.append(f'{body}<button type="button" class="show-solution" aria-expanded="false" '
                       f'aria-controls="solution-body-{e.number}">Show solution</button>'
                       f'<div class="solution-body" id="solution-body-{e.number}" hidden>{_solution(e)}'
                       "</div></div>")
        out.append("</article>")
    out.append("</main>")
    if solutions == "end":
        out.append('<section class="solutions"><h1>Solutions</h1>')
        for e in entries:
            out.append(f'<div class="solution" id="solution-{e.number}" data-id="{escape(e.problem.id)}">'
                       f'<div class="solution-body" id="solution-body-{e.number}">{_solution(e)}</div></div>')
        out.append("</section>")
    variants = {e.position.variant.spec: e.position.variant for e in entries}
    drawing = {**drawing_data(list(variants.values())), "page": {"kanji": kanji, "size": SQUARE_PX}}
    out.append(f'<script type="application/json" id="tsume-drawing">{_script_json(drawing)}</script>')
    out.append(f"<script>{_asset(_STATIC, 'board.js')}\n{_asset(_STATIC, 'booklet.js')}</script>")
    if any(e.play is not None for e in entries):
        # The studio's play mode, inlined: one script for both (tsume/studio/static/play.js).
        out.append(f'<script type="module">{_asset(_STUDIO, "play.js")}\n{_PLAY_GLUE}</script>')
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
    certify: bool = False,
    certificate_nodes: int | None = MAX_NODES,
) -> str:
    """A booklet of ``problems`` (collection records) as one self-contained HTML document.

    ``title`` defaults to "Tsume" plus the ``source`` name; ``solutions`` is
    one of :data:`SOLUTIONS`; ``verify`` verifies every problem and marks any
    that is not sound; ``kanji`` draws kanji on the pieces; ``play`` adds a
    "Solve it yourself" mode to each problem, its play tree
    (:func:`tsume.play.play_tree`) embedded, so that it works offline;
    ``certify`` (with ``verify``) certifies every sound problem and marks
    those whose certificate checks; ``certificate_nodes`` bounds each
    certificate's refutations and strategies (None: no bound).
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
    certify = check_flag(certify, "certify")
    certificate_nodes = check_positive_int(certificate_nodes, "certificate_nodes")
    if certify and not verify:
        raise ArgumentError("certify needs verify: only a problem verified sound is certified")
    progress = check_callback(progress)
    entries = []
    for i, pr in enumerate(problems, 1):
        entry = prepare(pr, i, verify=verify, limits=limits, play=play, certify=certify,
                        certificate_nodes=certificate_nodes)
        entries.append(entry)
        if progress is not None:
            progress(i, len(problems), entry)
    if title is None:
        title = f"Tsume: {source}" if source else "Tsume"
    return render(entries, title=title, solutions=solutions, kanji=kanji, source=source)
