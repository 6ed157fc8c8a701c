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

The generator runs in the Rust engine (``engine/src/unmove.rs``): each
candidate ``P`` is ``pos`` with two or three squares or hand counts changed,
rejected early by the engine's one-piece move generator or drop-square mask
before the full legality test.  tests/test_unmove.py checks, on thousands of
samples, that every ``P`` equals the position its own string reads back as,
and that un-moves and moves agree both ways.
"""

from __future__ import annotations

from ..errors import ArgumentError, quote
from ..position import Move, Position

__all__ = ["unmoves"]


def unmoves(pos: object) -> list[tuple[Position, Move]]:
    """Every (previous position P, move m) such that m is a legal move in P and P.push(m) gives pos.

    ``P`` has the other side to move and no move history (the repetition rule
    is therefore not applied); its move number is explained in the module
    docstring.  Each pair appears once (the three kinds of un-move give
    different pairs: a drop's move has no from-square, and a capture's ``P``
    has one piece fewer in hand than a plain move's), sorted by ``P.key()``
    and then ``m``: a deterministic order.  ``pos`` is not modified.  Raises
    :class:`~tsume.errors.ArgumentError` for anything but a
    :class:`~tsume.position.Position`.
    """
    if not isinstance(pos, Position):
        raise ArgumentError(f"unmoves: pos must be a Position, not {type(pos).__name__} {quote(pos)}")
    return pos.unmoves()
