"""Un-moves (retro-moves): every way a position can have been reached by one move.

This is the building block of the composer's *reverse method*: start from a
mate and step backwards, one legal move at a time.  :func:`unmoves` lists, for
a position ``pos``, every pair ``(P, m)`` where ``m`` is a legal move of ``P``
and ``P.push(m)`` gives ``pos``.

The rules are read from docs/rules.md, and legality is left to the engine:

* The side that just moved (the side *not* to move in ``pos``) made ``m``.
  Whatever stands on ``m``'s destination square afterwards is its piece.
* A move that captured turned the capturer over (unpromoted <-> promoted;
  kings never turn), and there is no other way to change face.  So a plain
  move kept the piece's face, and a capture un-flips it: the piece stood on
  its from-square with the *other* face (a king with the same one).  The
  captured piece went to the capturer's hand unpromoted, so an un-capture takes
  one piece of a kind out of the mover's hand and puts it back on the
  destination square as the opponent's, with *either* face (both can stand on
  the board).
* A drop puts a piece of the hand on an empty square unpromoted (Ito), or
  either side up (Rutherford).  So any non-king piece whose face the variant may
  drop can be un-dropped back into the hand.
* Drop limits (Rutherford's "not behind or next to one's own king"), king
  safety, the stalemate and drop-mate rules, piece movement with its screens
  and blockers: none of these is re-implemented here.  Candidates are generated
  as a superset from the piece tables (every square from which the piece's face
  could reach the destination on some board), and each candidate ``P`` is kept
  only if the engine's own validation accepts it (the side not to move in ``P``
  -- the side to move in ``pos`` -- is not in check; the set's piece counts) and
  ``m`` is in ``P.legal_moves()`` and ``P.push(m)`` has exactly ``pos``'s board,
  hands and side to move.

Repetition and move numbers:

* ``P`` is a fresh position with no move history.  The game's repetition rule
  (illegal third occurrence) needs a history, so it is ignored: a move that
  would be illegal only because of what came before ``pos`` is still listed.
  The history of ``pos`` itself (its move stack) is ignored as well.
* The move number follows the engine's convention (docs/rules.md, decision 8:
  it goes up after each White move): ``P`` has ``pos``'s number when Black made
  ``m``, and one less when White made it, so that ``P.push(m).fen() ==
  pos.fen()``.  Position strings have no move 0: when White made ``m`` and
  ``pos`` is at move 1, ``P`` keeps move number 1 (so only there ``P.push(m)``
  says move 2).  Skipping those un-moves instead would leave every move-1
  position, which is what the problem generators produce, without a past.

Speed: each candidate ``P`` is a copy of ``pos`` with two or three squares or
hand counts changed and its derived state recomputed by the engine
(``Position._rebuild``), not a position string to format and parse; the
engine's one-piece move generator and drop-square mask reject most bad
candidates before the full ``legal_moves`` test.  These are private members of
:class:`~tsume.position.Position`, used from inside the package on purpose;
tests/test_unmove.py checks, on thousands of samples, that such a ``P``
equals the position its own string reads back as (hash, occupancy and kings
included).
"""

from __future__ import annotations

from ..errors import ArgumentError, PositionError, quote
from ..position import Position
from ..tables import WHITE, Tables

__all__ = ["unmoves"]


class _Retro:
    """Per-variant-and-length tables for un-moves (built once per :class:`Tables`)."""

    __slots__ = ("origins", "unflip", "capturable")

    def __init__(self, t: Tables) -> None:
        n = t.n
        #: [v][to] -> mask of the squares from which a piece ``v`` could move
        #: to ``to`` on some board (the inverse of ``Tables.span``, which
        #: covers leaps, slides and hops whatever the occupancy).
        self.origins: list[list[int]] = [[0] * (n + 1) for _ in range(t.nvalues)]
        for v in range(2, t.nvalues):
            for s in range(1, n + 1):
                m = t.span[v][s]
                while m:
                    low = m & -m
                    m ^= low
                    self.origins[v][low.bit_length() - 1] |= 1 << s
        #: [v] -> the values that become ``v`` when they capture.  ``flip`` is
        #: its own inverse in both games, but nothing here relies on it.
        self.unflip: list[tuple[int, ...]] = [
            tuple(u for u in range(2, t.nvalues) if t.flip[u] == v) if v >= 2 else () for v in range(t.nvalues)
        ]
        #: [kind] -> the faces a captured piece of that kind may have shown on
        #: the board (both faces; none for the king, which is never captured).
        faces: list[list[int]] = [[] for _ in range(t.nkinds)]
        for f in range(1, len(t.face_kind)):
            ki = t.face_kind[f]
            if ki != t.royal_kind:
                faces[ki].append(f)
        self.capturable: list[tuple[int, ...]] = [tuple(fs) for fs in faces]


_RETRO: dict[Tables, _Retro] = {}


def _retro(t: Tables) -> _Retro:
    r = _RETRO.get(t)
    if r is None:
        r = _RETRO[t] = _Retro(t)
    return r


def _squares(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(low.bit_length() - 1)
    return out


def unmoves(pos: Position) -> list[tuple[Position, int]]:
    """Every (previous position P, move m) such that m is a legal move in P and P.push(m) gives pos.

    ``P`` has the other side to move and no move history (the repetition rule
    is therefore not applied); its move number is explained in the module
    docstring.  Each pair appears once (the three kinds of un-move give
    different pairs: a drop's move has no from-square, and a capture's ``P``
    has one piece fewer in hand than a plain move's), sorted by ``P.key()``
    and then ``m``: a deterministic order, and sorting by ``P.fen()`` would
    cost about a quarter of the run time in string formatting.  ``pos`` is not
    modified.  Raises :class:`~tsume.errors.ArgumentError` for anything but a
    :class:`~tsume.position.Position`.
    """
    if not isinstance(pos, Position):
        raise ArgumentError(f"unmoves: pos must be a Position, not {type(pos).__name__} {quote(pos)}")
    t = pos.t
    retro = _retro(t)
    mover = pos.turn ^ 1  # the side that made the move
    board = pos.board
    hand = pos.hands[mover]
    target = pos.key()
    move_number = pos.move_number - 1 if mover == WHITE else pos.move_number
    move_number = max(move_number, 1)
    empty = t.board_mask & ~(pos.occ[0] | pos.occ[1])
    # The pieces the mover may have captured: a kind in its hand, either face.
    captured = [
        (f << 1 | (mover ^ 1), ki) for ki, cnt in enumerate(hand) if cnt for f in retro.capturable[ki]
    ]
    # One "base" copy of pos with the other side to move: each candidate is a
    # copy of it with two or three entries changed.
    base = pos.copy()
    base.turn = mover
    out: list[tuple[Position, int]] = []

    def consider(changes: tuple[tuple[int, int], ...], hand_kind: int, hand_delta: int, m: int) -> None:
        p = base.copy()
        for s, v in changes:
            p.board[s] = v
        if hand_delta:
            p.hands[mover][hand_kind] += hand_delta
        # _rebuild recomputes occupancy, kings and hash from board, hands and turn.
        p._rebuild()
        p._first_move = move_number
        # Cheap first filters from the engine's own generators, before the
        # full legality test: that one piece's moves (blockers, screens), or
        # the drop squares (Rutherford's limits near the own king).
        frm = m & 127
        if frm:
            buf: list[int] = []
            p._piece_moves(frm, buf)
            if m not in buf:
                return
        elif not p._drop_squares(mover) >> (m >> 7 & 127) & 1:
            return
        try:
            p._validate()  # the engine's own test: counts, kings, side not to move not in check
        except PositionError:
            return
        if m not in p.legal_moves(repetition=False):
            return
        p.push(m)
        same = p.key() == target
        p.pop()
        if same:
            out.append((p, m))

    for to in _squares(pos.occ[mover]):
        now = board[to]
        face = now >> 1
        ki = t.face_kind[face]
        # Un-drop: the piece goes back to the hand, if its face could be dropped.
        if ki != t.royal_kind and face in t.drop_faces[ki]:
            consider(((to, 0),), ki, 1, to << 7 | face << 14)
        # Plain move: same face, from an empty square that could reach ``to``.
        for frm in _squares(retro.origins[now][to] & empty):
            consider(((frm, now), (to, 0)), 0, 0, frm | to << 7)
        # Capture: the piece had the other face (a king the same), and the
        # captured piece stands on ``to`` again, out of the mover's hand.
        if captured:
            for before in retro.unflip[now]:
                for frm in _squares(retro.origins[before][to] & empty):
                    for cap, cap_kind in captured:
                        consider(((frm, before), (to, cap)), cap_kind, -1, frm | to << 7)
    out.sort(key=lambda pm: (pm[0].key(), pm[1]))
    return out
