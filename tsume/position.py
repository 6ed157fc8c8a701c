"""The position: board, hands, side to move; make/unmake; attacks; legal moves.

A :class:`Position` is mutable and cheap to copy.  Moves are ints (see
:mod:`tsume.notation`); :meth:`Position.push` and :meth:`Position.pop` make and
unmake them and keep a Zobrist hash of board, hands and side to move.

Generators, all returning lists of legal moves:

* :meth:`Position.legal_moves` -- every legal move, with the game repetition
  rule when the variant has it;
* :meth:`Position.checks` -- the legal moves that give check;
* :meth:`Position.evasions` -- the legal moves when in check.

``checks`` and ``evasions`` never apply the game repetition rule: the tsume
search has its own convention for repeated positions.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .arguments import check_flag
from .errors import IllegalMoveError, PositionError, quote
from .notation import format_board, format_hands, format_move, parse_move, parse_position
from .tables import BLACK, HOP, SLIDE, WHITE, Tables, tables_for
from .variant import ITO, Variant, get_variant

__all__ = ["Position", "BLACK", "WHITE", "COLOUR_NAMES"]

COLOUR_NAMES: Final = ("Black", "White")

#: ``Position(_BLANK)`` is an unfilled object for :meth:`Position.copy` to fill.
#: (``Position.__new__`` would do in pure Python, but compiled code runs
#: ``__init__`` for it and reads the start position every time.)
_BLANK = object()


#: The occupancy bits of the mover that a move changes, by the move's low 14
#: bits (``from | to << 7``; a drop has from-square 0 and changes only ``to``).
_FOOTPRINT: Final = [(1 << (i & 127) if i & 127 else 0) | 1 << (i >> 7) for i in range(1 << 14)]


class Position:
    """A position of a one-dimensional shogi variant.

    >>> pos = Position.start()
    >>> len(pos.legal_moves())
    11
    """

    __slots__ = ("t", "board", "occ", "hands", "turn", "kings", "hash", "handz", "_first_move", "_first_turn", "_stack",
                 "filtered")

    t: Tables
    board: list[int]
    occ: list[int]
    hands: list[list[int]]
    turn: int
    kings: list[int]
    hash: int
    #: the part of ``hash`` that comes from the hands, kept up to date by
    #: push/pop (the search keys its table on ``hash ^ handz`` at every node)
    handz: int

    # --- construction ---------------------------------------------------

    def __init__(
        self, text: str | None | object = None, variant: Variant | str | object = ITO, *, validate: bool | object = True
    ) -> None:
        """Read a position string (default: the variant's start position).

        Raises :class:`~tsume.errors.PositionError` for a string that cannot be
        read, for anything but a string or None, and for a position that cannot
        arise (too many pieces, two kings of a side, the side not to move in
        check).
        """
        # The arguments admit ``object`` so that compiled code reports a wrong
        # type as a TsumeError, as the pure-Python engine does, not a TypeError.
        if text is _BLANK:
            return
        check = check_flag(validate, "validate")
        variant = get_variant(variant)
        if text is None:
            if variant.start is None:
                raise PositionError(f"{variant.title} has no start position; give one")
            text = variant.start
        parsed = parse_position(text, variant)
        self.t = parsed.tables
        self.board = parsed.board
        self.hands = parsed.hands
        self.turn = parsed.turn
        self._first_move = parsed.move_number
        self._rebuild()
        if check:
            self._validate()

    @classmethod
    def start(cls, variant: Variant | str = ITO) -> "Position":
        """The start position of a variant (Rutherford's is provisional)."""
        return cls(None, variant)

    def _rebuild(self) -> None:
        t = self.t
        self.occ = [0, 0]
        self.kings = [0, 0]
        h = 0
        for s in range(1, t.n + 1):
            v = self.board[s]
            if v:
                self.occ[v & 1] |= 1 << s
                h ^= t.z_board[v][s]
                if t.royal[v]:
                    self.kings[v & 1] = s
        hz = 0
        for c in (BLACK, WHITE):
            for ki, cnt in enumerate(self.hands[c]):
                hz ^= t.z_hand[c][ki][cnt]
        h ^= hz
        if self.turn == WHITE:
            h ^= t.z_side
        self.hash = h
        self.handz = hz
        self._stack: list[tuple[int, int, int, int, int, int, int]] = []
        self._first_turn = self.turn
        #: moves the last legal_moves()/checks() call dropped for the
        #: stalemate or drop-mate rule (the solver's hand bookkeeping needs it)
        self.filtered = 0

    def _validate(self) -> None:
        t = self.t
        counts = [0] * t.nkinds
        kings = [0, 0]
        for s in range(1, t.n + 1):
            v = self.board[s]
            if v:
                ki = t.face_kind[v >> 1]
                counts[ki] += 1
                if t.royal[v]:
                    kings[v & 1] += 1
                    if kings[v & 1] > 1:
                        raise PositionError(
                            f"board: two {COLOUR_NAMES[v & 1]} kings (second on square {s})"
                        )
        for c in (BLACK, WHITE):
            for ki in range(t.nkinds):
                counts[ki] += self.hands[c][ki]
        for ki, cnt in enumerate(counts):
            if ki != t.royal_kind and cnt > t.kind_count[ki]:
                raise PositionError(
                    f"position: {cnt} pieces of kind {t.kind_letters[ki]} on board and in hand, "
                    f"but the {t.variant.title} set has {t.kind_count[ki]}"
                )
        other = self.turn ^ 1
        if self.kings[other] and self.is_attacked(self.kings[other], self.turn):
            raise PositionError(
                f"position: {COLOUR_NAMES[other]} (not to move) is in check on square {self.kings[other]}"
            )

    def copy(self) -> "Position":
        """An independent copy, without the move stack."""
        p = Position(_BLANK)
        p.t = self.t
        p.board = self.board[:]
        p.occ = self.occ[:]
        p.hands = [self.hands[0][:], self.hands[1][:]]
        p.turn = self.turn
        p.kings = self.kings[:]
        p.hash = self.hash
        p.handz = self.handz
        p._first_move = self.move_number
        p._first_turn = self.turn
        p._stack = []
        p.filtered = 0
        return p

    def mirror(self) -> "Position":
        """The colour-mirrored position: board reversed, colours and hands swapped."""
        p = self.copy()
        n = self.t.n
        p.board = [0] + [(v ^ 1) if v else 0 for v in reversed(self.board[1:])]
        p.hands = [self.hands[1][:], self.hands[0][:]]
        p.turn = self.turn ^ 1
        p._rebuild()
        assert len(p.board) == n + 1
        return p

    # --- properties ------------------------------------------------------

    @property
    def move_number(self) -> int:
        """The move number: it grows after each White move, as in the position string."""
        return self._first_move + (len(self._stack) + self._first_turn) // 2

    @property
    def variant(self) -> Variant:
        return self.t.variant

    @property
    def n(self) -> int:
        """The number of squares."""
        return self.t.n

    def fen(self, move_number: bool = True) -> str:
        """The position string."""
        parts = [format_board(self.board, self.t), "bw"[self.turn], format_hands(self.hands, self.t)]
        if move_number:
            parts.append(str(self.move_number))
        return " ".join(parts)

    def __str__(self) -> str:
        return self.fen()

    def __repr__(self) -> str:
        return f"Position({self.fen()!r}, {self.variant.spec!r})"

    def key(self) -> tuple:
        """An exact key of board, hands and side to move (the hash may collide; this cannot)."""
        return (tuple(self.board), tuple(self.hands[0]), tuple(self.hands[1]), self.turn)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self.t is other.t and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def piece_at(self, square: int) -> str | None:
        """The letter of the piece on a square (``+`` for promoted, lowercase White), or None."""
        v = self.board[square]
        if not v:
            return None
        letter = self.t.face_letters[v >> 1]
        return letter if v & 1 == BLACK else letter.lower()

    # --- make / unmake ---------------------------------------------------

    def push(self, m: int) -> None:
        """Make a move (no legality check: use :meth:`push_str` or :meth:`is_legal`)."""
        # The hot path of every search: locals instead of repeated attribute
        # lookups, the occupancy change from one table (_FOOTPRINT), hash steps
        # with the side to move folded in (tables.z_from), one hand step
        # (tables.z_hand_step) serving both the hash and handz, and what pop
        # needs kept on the stack rather than worked out again.
        t = self.t
        c = self.turn
        frm = m & 127
        to = m >> 7 & 127
        h = self.hash
        board = self.board
        fp = _FOOTPRINT[m & 16383]
        if frm:
            v = board[frm]
            cap = board[to]
            board[frm] = 0
            if cap:
                nv = t.flip[v]
                board[to] = nv
                ki = t.hand_kind[cap]
                hand = self.hands[c]
                cnt = hand[ki]
                hand[ki] = cnt + 1
                occ = self.occ
                occ[c] ^= fp
                occ[c ^ 1] ^= 1 << to
                zb = t.z_board
                step = t.z_hand_step[c][ki][cnt]
                self.hash = h ^ t.z_from[v][frm] ^ zb[cap][to] ^ zb[nv][to] ^ step
                self.handz ^= step
            else:
                board[to] = v
                self.occ[c] ^= fp
                self.hash = h ^ t.z_from[v][frm] ^ t.z_board[v][to]
            if t.royal[v]:
                self.kings[c] = to
        else:
            f = m >> 14
            v = f << 1 | c
            board[to] = v
            ki = t.face_kind[f]
            hand = self.hands[c]
            cnt = hand[ki] - 1
            hand[ki] = cnt
            self.occ[c] ^= fp
            step = t.z_hand_step[c][ki][cnt]
            self.hash = h ^ step ^ t.z_side ^ t.z_board[v][to]
            self.handz ^= step
            cap = 0
        # (move, captured piece, hash before) come first: repetitions() and
        # tsume.conventions read them.
        self._stack.append((m, cap, h, frm, to, v, fp))
        self.turn = c ^ 1

    def pop(self) -> int:
        """Unmake the last move and return it."""
        m, cap, h, frm, to, v, fp = self._stack.pop()
        c = self.turn ^ 1
        self.turn = c
        self.hash = h
        board = self.board
        self.occ[c] ^= fp
        if frm:
            board[frm] = v
            board[to] = cap
            if cap:
                self.occ[c ^ 1] ^= 1 << to
                t = self.t
                ki = t.hand_kind[cap]
                hand = self.hands[c]
                cnt = hand[ki] - 1
                hand[ki] = cnt
                self.handz ^= t.z_hand_step[c][ki][cnt]
            if self.kings[c] == to:
                self.kings[c] = frm
        else:
            board[to] = 0
            t = self.t
            ki = t.face_kind[v >> 1]
            hand = self.hands[c]
            cnt = hand[ki]
            hand[ki] = cnt + 1
            self.handz ^= t.z_hand_step[c][ki][cnt]
        return m

    @property
    def ply(self) -> int:
        """Moves made since this object was built or copied."""
        return len(self._stack)

    def repetitions(self) -> int:
        """How often the current position has occurred on the move stack (1 if new)."""
        h = self.hash
        return 1 + sum(1 for entry in self._stack if entry[2] == h)

    # --- attacks ---------------------------------------------------------

    def is_attacked(self, k: int, by: int) -> bool:
        """Is square ``k`` attacked by a piece of colour ``by``?"""
        board = self.board
        t = self.t
        # Only squares holding a piece of ``by`` can hold a leaping attacker.
        cand = self.occ[by] & t.leap_zone[by][k]
        if cand:
            masks = t.leap_from[by][k]
            while cand:
                low = cand & -cand
                cand ^= low
                p = low.bit_length() - 1
                if masks[p] >> board[p] & 1:
                    return True
        occ = self.occ[0] | self.occ[1]
        for lattice, d, slide_rng, hop_rng, has_hop in t.ray_att[by]:
            m = occ & lattice[k]
            if not m:
                continue
            if d < 0:
                p = m.bit_length() - 1
                if slide_rng[board[p]] >= k - p:
                    return True
                if has_hop:
                    m ^= 1 << p
                    if m:
                        p = m.bit_length() - 1
                        if hop_rng[board[p]] >= k - p:
                            return True
            else:
                low = m & -m
                p = low.bit_length() - 1
                if slide_rng[board[p]] >= p - k:
                    return True
                if has_hop:
                    m ^= low
                    if m:
                        p = (m & -m).bit_length() - 1
                        if hop_rng[board[p]] >= p - k:
                            return True
        return False

    def _attacked_occ(self, k: int, by: int, occ: int, sq: int, val: int) -> bool:
        """:meth:`is_attacked` as it would be with occupancy ``occ`` and ``val`` on ``sq``.

        This answers "would this move leave that square attacked" without
        making the move: ``occ`` has the from-square cleared and the to-square
        set, and ``sq``/``val`` say what stands on the to-square afterwards.
        """
        board = self.board
        t = self.t
        # The squares of ``by``'s pieces as they would stand: still on the
        # board (``occ`` has a vacated from-square cleared), plus ``sq`` if
        # ``val`` is one of them, less ``sq`` if it is not (a capture).
        own = self.occ[by] & occ
        if val and val & 1 == by:
            own |= 1 << sq
        else:
            own &= ~(1 << sq)
        cand = own & t.leap_zone[by][k]
        if cand:
            masks = t.leap_from[by][k]
            while cand:
                low = cand & -cand
                cand ^= low
                p = low.bit_length() - 1
                if masks[p] >> (val if p == sq else board[p]) & 1:
                    return True
        for lattice, d, slide_rng, hop_rng, has_hop in t.ray_att[by]:
            m = occ & lattice[k]
            if not m:
                continue
            if d < 0:
                p = m.bit_length() - 1
                if slide_rng[val if p == sq else board[p]] >= k - p:
                    return True
                if has_hop:
                    m ^= 1 << p
                    if m:
                        p = m.bit_length() - 1
                        if hop_rng[val if p == sq else board[p]] >= k - p:
                            return True
            else:
                low = m & -m
                p = low.bit_length() - 1
                if slide_rng[val if p == sq else board[p]] >= p - k:
                    return True
                if has_hop:
                    m ^= low
                    if m:
                        p = (m & -m).bit_length() - 1
                        if hop_rng[val if p == sq else board[p]] >= p - k:
                            return True
        return False

    def _move_exposes(self, mv: int, c: int) -> bool:
        """Would the move ``mv`` of colour ``c`` leave its own king attacked?"""
        frm = mv & 127
        to = mv >> 7 & 127
        board = self.board
        occ = self.occ[0] | self.occ[1]
        if frm:
            v = board[frm]
            occ = (occ ^ 1 << frm) | 1 << to
            k = to if frm == self.kings[c] else self.kings[c]
            if board[to]:
                v = self.t.flip[v]
        else:
            v = (mv >> 14) << 1 | c
            occ |= 1 << to
            k = self.kings[c]
        return bool(k) and self._attacked_occ(k, c ^ 1, occ, to, v)

    def attackers(self, k: int, by: int) -> int:
        """The mask of squares holding pieces of colour ``by`` that attack square ``k``."""
        board = self.board
        found = 0
        for p, mask in self.t.leap_att[by][k]:
            if mask >> board[p] & 1:
                found |= 1 << p
        occ = self.occ[0] | self.occ[1]
        for lattice, d, slide_rng, hop_rng, has_hop in self.t.ray_att[by]:
            m = occ & lattice[k]
            for nth in (0, 1):
                if not m:
                    break
                p = m.bit_length() - 1 if d < 0 else (m & -m).bit_length() - 1
                rng = slide_rng if nth == 0 else hop_rng
                if rng[board[p]] >= abs(k - p):
                    found |= 1 << p
                if not has_hop:
                    break
                m ^= 1 << p
        return found

    def is_check(self) -> bool:
        """Is the side to move in check?"""
        k = self.kings[self.turn]
        return bool(k) and self.is_attacked(k, self.turn ^ 1)

    def gives_check(self, m: int) -> bool:
        """Would this (pseudo-legal) move check the opponent?"""
        self.push(m)
        k = self.kings[self.turn]
        r = bool(k) and self.is_attacked(k, self.turn ^ 1)
        self.pop()
        return r

    # --- pseudo-legal moves ----------------------------------------------

    def _piece_moves(self, s: int, out: list[int]) -> None:
        """Append the pseudo-legal board moves of the piece on ``s``."""
        board = self.board
        v = board[s]
        c = v & 1
        t = self.t
        # The leaps: one lookup by which targets hold our own pieces.
        out += t.leap_moves[v][s][self.occ[c] & t.leap_mask[v][s]]
        for path, mv, cp in t.ride_paths[v][s]:
            screened = False
            for to in path:
                w = board[to]
                if not screened:
                    if not w:
                        if mv == SLIDE:
                            out.append(s | to << 7)
                        continue
                    if cp == SLIDE and w & 1 != c:
                        out.append(s | to << 7)
                    if mv == HOP or cp == HOP:
                        screened = True
                        continue
                    break
                if not w:
                    if mv == HOP:
                        out.append(s | to << 7)
                    continue
                if cp == HOP and w & 1 != c:
                    out.append(s | to << 7)
                break

    def _drop_squares(self, c: int) -> int:
        """The mask of squares where colour ``c`` may drop (placement rules only)."""
        t = self.t
        empty = t.board_mask & ~(self.occ[0] | self.occ[1])
        if t.variant.drop_king_limits:
            k = self.kings[c]
            if k:
                # Not behind the own king, and at least two squares from it.
                empty &= t.low_mask[k - 1] if c == BLACK else t.high_mask[k + 1]
        return empty

    def _drop_rows(self, hand: list[int]) -> list[tuple[int, ...]]:
        """By square, the drops of every kind in ``hand`` onto it, in drop-face order.

        A drop's move int does not depend on the colour, only on which kinds
        are in hand, so the rows are built once per set of kinds (a king in
        hand is never dropped).
        """
        t = self.t
        key = tuple(map(bool, hand))
        rows = t.drop_rows.get(key)
        if rows is None:
            faces = [f for ki, has in enumerate(key) if has and ki != t.royal_kind for f in t.drop_faces[ki]]
            rows = t.drop_rows[key] = [tuple(to << 7 | f << 14 for f in faces) for to in range(t.n + 1)]
        return rows

    def _drops(self, c: int, squares: int, out: list[int]) -> None:
        """Append the drops of colour ``c`` onto the squares of the mask ``squares``."""
        hand = self.hands[c]
        if not squares or not any(hand):
            return
        rows = self._drop_rows(hand)
        while squares:
            low = squares & -squares
            squares ^= low
            out += rows[low.bit_length() - 1]

    def _safe_drops(self, c: int, squares: int, out: list[int]) -> None:
        """Append the drops onto ``squares`` that leave colour ``c``'s king safe.

        What a drop does to its own king depends only on the square (any piece
        blocks a line or becomes a screen), so one trial per square serves
        every piece in hand.
        """
        hand = self.hands[c]
        if not squares or not any(hand):
            return
        rows = self._drop_rows(hand)
        k = self.kings[c]
        e = c ^ 1
        occ = self.occ[0] | self.occ[1]
        while squares:
            low = squares & -squares
            squares ^= low
            # Our own piece on the square is no attacker of our king (value 0 will do).
            if not k or not self._attacked_occ(k, e, occ | low, 0, 0):
                out += rows[low.bit_length() - 1]

    def child_hash(self, m: int) -> int:
        """The hash of the position after the move ``m``, without making it."""
        t = self.t
        c = self.turn
        to = m >> 7 & 127
        frm = m & 127
        h = self.hash ^ t.z_side
        if not frm:
            f = m >> 14
            ki = t.face_kind[f]
            return h ^ t.z_hand_step[c][ki][self.hands[c][ki] - 1] ^ t.z_board[f << 1 | c][to]
        board = self.board
        v = board[frm]
        cap = board[to]
        zb = t.z_board
        if cap:
            ki = t.hand_kind[cap]
            step = t.z_hand_step[c][ki][self.hands[c][ki]]
            return h ^ zb[v][frm] ^ zb[cap][to] ^ step ^ zb[t.flip[v]][to]
        return h ^ zb[v][frm] ^ zb[v][to]

    def drop_check_kinds(self) -> int:
        """Bit ``ki`` set when a drop of kind ``ki`` (either face allowed) would check the enemy king.

        Occupancy as it stands; a drop that may give a cannon of ours its
        screen counts for every kind.  Legality beyond drop placement is not tested.
        """
        t = self.t
        c = self.turn
        ek = self.kings[c ^ 1]
        if not ek:
            return 0
        masks = self._checking_drop_squares(c, ek, self._check_region(c, ek), range(t.nkinds))
        out = 0
        for f, mask in masks.items():
            if mask:
                out |= 1 << t.face_kind[f]
        return out

    def ride_checkers(self) -> int:
        """Mask of the pieces checking the side to move along a ride (a leaper cannot be blocked)."""
        k = self.kings[self.turn]
        if not k:
            return 0
        by = self.turn ^ 1
        checkers = self.attackers(k, by)
        board = self.board
        for p, mask in self.t.leap_att[by][k]:
            if checkers >> p & 1 and mask >> board[p] & 1:
                checkers &= ~(1 << p)
        return checkers

    def interposition_squares(self) -> int:
        """Empty squares where the side to move could drop between its king and a ride checker."""
        k = self.kings[self.turn]
        if not k:
            return 0
        t = self.t
        checkers = self.ride_checkers()
        region = 0
        while checkers:
            low = checkers & -checkers
            checkers ^= low
            region |= t.between[low.bit_length() - 1][k]
        return region & self._drop_squares(self.turn)

    def pseudo_legal_moves(self) -> list[int]:
        """Every move obeying piece movement and drop placement, ignoring king safety."""
        out: list[int] = []
        c = self.turn
        m = self.occ[c]
        while m:
            low = m & -m
            self._piece_moves(low.bit_length() - 1, out)
            m ^= low
        self._drops(c, self._drop_squares(c), out)
        return out

    # --- legality --------------------------------------------------------

    def _king_lines(self, c: int, k: int, occ: int) -> tuple[int, int]:
        """``(checkers, danger)`` for the king of colour ``c`` on ``k``, with occupancy ``occ``.

        ``checkers`` is the mask of enemy pieces attacking it.  ``danger``
        (meaningful only when there are none) holds the squares where adding
        or removing a piece may expose it.  Leaps never change with occupancy,
        so only the first pieces along each line from the king matter:
        removing the first may unmask a slider behind it; adding a piece in
        front of an enemy cannon gives it a screen; removing the first or
        second piece may leave a cannon behind them with exactly one screen.
        """
        board = self.board
        t = self.t
        checkers = 0
        cand = self.occ[c ^ 1] & occ & t.leap_zone[c ^ 1][k]
        if cand:
            masks = t.leap_from[c ^ 1][k]
            while cand:
                low = cand & -cand
                cand ^= low
                p = low.bit_length() - 1
                if masks[p] >> board[p] & 1:
                    checkers |= low
        danger = 0
        for lattice, d, slide_rng, hop_rng, has_hop in t.ray_att[c ^ 1]:
            m = occ & lattice[k]
            if not m:
                continue
            p1 = m.bit_length() - 1 if d < 0 else (m & -m).bit_length() - 1
            v1 = board[p1]
            dist1 = p1 - k if p1 > k else k - p1
            if slide_rng[v1] >= dist1:
                checkers |= 1 << p1
            if has_hop and hop_rng[v1] >= dist1:
                danger |= t.between[k][p1] & lattice[k]
            m ^= 1 << p1
            if not m:
                continue
            p2 = m.bit_length() - 1 if d < 0 else (m & -m).bit_length() - 1
            v2 = board[p2]
            dist2 = p2 - k if p2 > k else k - p2
            if slide_rng[v2] >= dist2:
                danger |= 1 << p1
            if has_hop:
                if hop_rng[v2] >= dist2:
                    checkers |= 1 << p2
                m ^= 1 << p2
                if m:
                    p3 = m.bit_length() - 1 if d < 0 else (m & -m).bit_length() - 1
                    if hop_rng[board[p3]] >= (p3 - k if p3 > k else k - p3):
                        danger |= 1 << p1 | 1 << p2
        return checkers, danger

    def _king_escapes(self) -> list[tuple[int, int]]:
        """Safe king steps of the opponent, each with the squares a move of ours must not touch.

        For each leap of the opponent's king (the side not to move) to an empty
        square or onto one of our pieces, where it would stand unattacked:
        ``(square, zone)``.  ``zone`` is the danger mask of :meth:`_king_lines`
        for a king on that square, so a move of ours that changes occupancy
        only outside it cannot open a line onto the square; only the piece we
        move or drop could then attack it, which ``reach`` tells.  Such a move
        leaves the opponent a king-safe move: it neither stalemates nor mates.
        """
        c = self.turn
        e = c ^ 1
        ek = self.kings[e]
        board = self.board
        occ = (self.occ[0] | self.occ[1]) ^ (1 << ek)
        out = []
        for s in self.t.leap_targets[board[ek]][ek]:
            w = board[s]
            if w and w & 1 == e:
                continue
            checkers, zone = self._king_lines(e, s, occ | 1 << s)
            if not checkers:
                out.append((s, zone))
        return out

    def _safe_moves(self, first_only: bool = False, drops: bool = True) -> list[int]:
        """The moves that leave the mover's king safe (movement, drop placement, king safety).

        With ``first_only`` it stops at the first one found; without
        ``drops``, only moves of pieces on the board are looked at.
        """
        c = self.turn
        e = c ^ 1
        k = self.kings[c]
        out: list[int] = []
        if not k:
            out = self.pseudo_legal_moves()
            if not drops:
                out = [mv for mv in out if mv & 127]
            return out[:1] if first_only else out
        t = self.t
        risky: list[int] = []
        buf: list[int] = []
        checkers, danger = self._king_lines(c, k, self.occ[0] | self.occ[1])
        own = self.occ[c]
        if checkers:
            # A non-king move can only lift a check by changing what stands on
            # a checker's square or between it and the king.
            region = checkers
            m = checkers
            while m:
                low = m & -m
                m ^= low
                region |= t.between[low.bit_length() - 1][k]
            # King moves first: with ``first_only`` they are the likeliest answer.
            self._piece_moves(k, buf)
            for mv in buf:
                if not self._move_exposes(mv, c):
                    out.append(mv)
                    if first_only:
                        return out
            if drops:
                self._safe_drops(c, self._drop_squares(c) & region, out)
            if first_only and out:
                return out[:1]
            board = self.board
            span = t.span
            m = own ^ (1 << k)
            while m:
                low = m & -m
                m ^= low
                s = low.bit_length() - 1
                if region >> s & 1:
                    self._piece_moves(s, risky)
                elif span[board[s]][s] & region:
                    buf.clear()
                    self._piece_moves(s, buf)
                    for mv in buf:
                        if region >> (mv >> 7) & 1:
                            risky.append(mv)
        else:
            if drops:
                squares = self._drop_squares(c)
                self._drops(c, squares & ~danger, out)
                if first_only and out:
                    return out[:1]
                self._safe_drops(c, squares & danger, out)
            m = own
            while m:
                low = m & -m
                m ^= low
                s = low.bit_length() - 1
                if s == k or danger >> s & 1:
                    self._piece_moves(s, risky)
                    continue
                if not danger:
                    self._piece_moves(s, out)
                else:
                    buf.clear()
                    self._piece_moves(s, buf)
                    for mv in buf:
                        if danger >> (mv >> 7) & 1:
                            risky.append(mv)
                        else:
                            out.append(mv)
                if first_only and out:
                    return out[:1]
        for mv in risky:
            if not self._move_exposes(mv, c):
                out.append(mv)
                if first_only:
                    return out
        return out

    def has_safe_move(self) -> bool:
        """Has the side to move any move that leaves its own king safe?

        This is the inner test of the stalemate and drop-mate rules: movement,
        drop placement and king safety only.
        """
        return bool(self._safe_moves(first_only=True))

    def has_safe_board_move(self) -> bool:
        """Has the side to move a king-safe move of a piece on the board?

        Such a move needs neither hand, so it exists whatever the hands hold.
        """
        return bool(self._safe_moves(first_only=True, drops=False))

    def _opponent_keeps_safe_drop(self) -> bool:
        """Will the opponent have a king-safe drop after any move of ours?

        After our move the first piece on each line from the enemy king is
        one of today's first two pieces or the piece we moved, so a drop can
        only give one of our cannons a screen on squares before today's second
        piece.  Two drop squares outside those stretches survive any one move.
        """
        c = self.turn
        e = c ^ 1
        t = self.t
        if not any(self.hands[e]):  # a king is never in hand in legal play
            return False
        squares = self._drop_squares(e)
        ke = self.kings[e]
        if ke:
            occ = self.occ[0] | self.occ[1]
            for lattice, d, slide_rng, hop_rng, has_hop in t.ray_att[c]:
                if not has_hop:
                    continue
                ray = lattice[ke]
                m = occ & ray
                far = 0
                for _ in (0, 1):
                    if not m:
                        far = 0
                        break
                    far = m.bit_length() - 1 if d < 0 else (m & -m).bit_length() - 1
                    m ^= 1 << far
                squares &= ~(t.between[ke][far] if far else ray)
        return squares.bit_count() >= 2

    def _opponent_witnesses(self) -> list[int]:
        """Footprints of opponent moves that stay legal after any one move of ours.

        Each entry is the mask of squares a non-king opponent move depends on
        (its two squares for a leap, the whole stretch for a ride).  A move of
        ours touching none of them leaves that opponent move possible; and its
        squares avoid every square that could join the opponent king's danger
        mask (see :meth:`_king_lines`) after one move of ours: on a line with
        cannons, the stretch up to the second piece and the next two pieces;
        on other lines, the first two pieces.  The opponent is then not
        stalemated by that move.
        """
        t = self.t
        e = self.turn ^ 1
        ke = self.kings[e]
        region = 0
        if ke:
            occ = self.occ[0] | self.occ[1]
            for lattice, d, slide_rng, hop_rng, has_hop in t.ray_att[self.turn]:
                ray = lattice[ke]
                m = occ & ray
                found: list[int] = []
                while m and len(found) < (4 if has_hop else 2):
                    p = m.bit_length() - 1 if d < 0 else (m & -m).bit_length() - 1
                    found.append(p)
                    m ^= 1 << p
                if has_hop:
                    if len(found) < 2:
                        region |= ray
                        continue
                    region |= t.between[ke][found[1]] & ray
                for p in found:
                    region |= 1 << p
        between = t.between
        out: list[int] = []
        buf: list[int] = []
        m = self.occ[e] & ~region
        if ke:
            m &= ~(1 << ke)
        while m:
            low = m & -m
            m ^= low
            s = low.bit_length() - 1
            buf.clear()
            self._piece_moves(s, buf)
            leaps = t.leap_targets[self.board[s]][s]
            for mv in buf:
                to = mv >> 7
                if not region >> to & 1:
                    out.append(low | 1 << to if to in leaps else between[s][to] | low | 1 << to)
            if len(out) >= 4:
                break  # a move of ours touches two squares; four footprints nearly always leave one
        return out

    def _check_region(self, c: int, ek: int) -> int:
        """Squares where a change of occupancy may open or close a line of ours onto ``ek``."""
        board = self.board
        reach = self.t.reach
        rider = self.t.rider
        between = self.t.between
        disc = 0
        m = self.occ[c]
        while m:
            low = m & -m
            m ^= low
            s = low.bit_length() - 1
            v = board[s]
            if rider[v] and reach[v][ek] >> s & 1:
                disc |= between[s][ek]
        return disc

    def _checking_drop_squares(self, c: int, ek: int, disc: int, kinds: Iterable[int] | None = None) -> dict[int, int]:
        """For each face colour ``c`` may drop: the mask of drop squares from which it checks ``ek``.

        ``kinds`` defaults to the kinds in ``c``'s hand.  Squares in ``disc``
        (where a drop may give one of our cannons its screen) are included for
        every face: the caller tests them exactly.
        """
        t = self.t
        occ = self.occ[0] | self.occ[1]
        squares = self._drop_squares(c)
        if kinds is None:
            kinds = [ki for ki, cnt in enumerate(self.hands[c]) if cnt]
        out: dict[int, int] = {}
        for ki in kinds:
            if ki == t.royal_kind:
                continue
            for f in t.drop_faces[ki]:
                v = f << 1 | c
                # A leap checks whatever stands between; a ride is looked at square by square.
                mask = squares & (disc | t.leap_reach[v][ek])
                cand = squares & t.reach[v][ek] & ~mask
                if cand:
                    hits = t.ride_hits[v]
                    while cand:
                        low = cand & -cand
                        cand ^= low
                        for before, mode in hits[low.bit_length() - 1].get(ek, ()):
                            # ``before`` holds the squares strictly between, never the drop square.
                            if (occ & before).bit_count() == (0 if mode == SLIDE else 1):
                                mask |= low
                                break
                out[f] = mask
        return out

    def legal_moves(self, repetition: bool | None = None) -> list[int]:
        """Every legal move.

        ``repetition`` (default: the variant's switch) forbids a move whose
        position has occurred twice before on this object's move stack.
        """
        t = self.t
        variant = t.variant
        if repetition is None:
            repetition = variant.repetition
        moves = self._safe_moves()
        c = self.turn
        ek = self.kings[c ^ 1]
        # A side without a king is never stalemated: with no move left it has
        # simply run out of play (in a tsume the attacker then fails).
        stale = variant.stalemate == "illegal" and bool(ek) and not self._opponent_keeps_safe_drop()
        dropmate = not variant.drop_mate and bool(ek) and any(self.hands[c])
        # The third occurrence needs at least eight plies of history.
        rep = repetition and len(self._stack) >= 7
        self.filtered = 0
        if not (stale or dropmate or rep):
            return moves
        disc = self._check_region(c, ek) if dropmate else 0
        # Drops that give check (or may, through a cannon's new screen): only
        # these can fall foul of the drop-mate ban.
        checking = self._checking_drop_squares(c, ek, disc) if dropmate else {}
        esc: list[list[tuple[int, int]]] = []  # this node's king escapes, once needed
        if not (stale or rep):
            # Only the drops that give check can break a rule (the drop-mate
            # ban), so only they are looked at, not every move.
            todo = []
            for f, mask in checking.items():
                while mask:
                    low = mask & -mask
                    mask ^= low
                    todo.append((low.bit_length() - 1) << 7 | f << 14)
            if not todo:
                return moves
            present = set(moves)
            bad = {m for m in todo if m in present and self._no_safe_reply(m, esc, False, True, not disc >> (m >> 7 & 127) & 1)}
            if not bad:
                return moves
            self.filtered = len(bad)
            return [m for m in moves if m not in bad]
        # For the stalemate rule, first look for an opponent move that ours
        # cannot spoil: the cheapest proof in measurements.
        witnesses = self._opponent_witnesses() if stale and moves else []
        footprint = _FOOTPRINT
        out = []
        for m in moves:
            test_mate = dropmate and not m & 127 and bool(checking.get(m >> 14, 0) >> (m >> 7 & 127) & 1)
            if test_mate:
                if self._no_safe_reply(m, esc, stale, True, not disc >> (m >> 7 & 127) & 1):
                    self.filtered += 1
                    continue
            elif stale:
                touch = footprint[m & 16383]
                for w in witnesses:
                    if not w & touch:
                        break
                else:
                    if self._no_safe_reply(m, esc, True, False, False):
                        self.filtered += 1
                        continue
            if rep:
                self.push(m)
                again = self.repetitions() >= 3
                self.pop()
                if again:
                    continue
            out.append(m)
        return out

    def _no_safe_reply(self, m: int, esc: list, stale: bool, mate: bool, checks: bool) -> bool:
        """Is the move ``m`` illegal for leaving the opponent no king-safe move?

        It is when the opponent is then in check and ``mate`` (a drop mate
        under the ban), or not in check and ``stale`` (the stalemate rule).
        ``checks`` says that ``m`` surely gives check.  A king step of the
        opponent that ``m`` cannot spoil (:meth:`_king_escapes`, kept in
        ``esc`` for the node) is looked for first; only without one is ``m`` made.
        """
        if not esc:
            esc.append(self._king_escapes())
        escapes = esc[0]
        c = self.turn
        to = m >> 7 & 127
        if escapes:
            frm = m & 127
            if frm:
                board = self.board
                nv = self.t.flip[board[frm]] if board[to] else board[frm]
            else:
                nv = m >> 14 << 1 | c
            reach_v = self.t.reach[nv]
            touch = _FOOTPRINT[m & 16383]
            for s, zone in escapes:
                if not (zone & touch or reach_v[s] >> to & 1):
                    return False
        ek = self.kings[c ^ 1]
        self.push(m)
        in_check = checks or self.is_attacked(ek, c)
        illegal = (mate if in_check else stale) and not self.has_safe_move()
        self.pop()
        return illegal

    def is_legal(self, m: int, repetition: bool | None = None) -> bool:
        """Is the move int ``m`` legal here?"""
        return m in self.legal_moves(repetition)

    def evasions(self) -> list[int]:
        """The legal moves when the side to move is in check (all legal moves then).

        Only moves touching the checkers' lines are tried (see
        :meth:`_safe_moves`); the game repetition rule is not applied.
        """
        return self.legal_moves(repetition=False)

    def checks(self) -> list[int]:
        """The legal moves that give check (the attacker's moves in a tsume).

        The game repetition rule is not applied.
        """
        t = self.t
        c = self.turn
        e = c ^ 1
        ek = self.kings[e]
        if not ek:
            return []
        board = self.board
        reach = t.reach
        flip = t.flip
        disc = self._check_region(c, ek)
        cands: list[int] = []
        buf: list[int] = []
        m = self.occ[c]
        while m:
            low = m & -m
            m ^= low
            s = low.bit_length() - 1
            buf.clear()
            self._piece_moves(s, buf)
            if disc >> s & 1:
                cands.extend(buf)
                continue
            v = board[s]
            r_plain = reach[v][ek] | disc
            r_flip = reach[flip[v]][ek] | disc
            for mv in buf:
                to = mv >> 7
                if (r_flip if board[to] else r_plain) >> to & 1:
                    cands.append(mv)
        hand = self.hands[c]
        if any(cnt for ki, cnt in enumerate(hand) if ki != t.royal_kind):
            squares = self._drop_squares(c)
            for ki, cnt in enumerate(hand):
                if not cnt or ki == t.royal_kind:
                    continue
                for f in t.drop_faces[ki]:
                    sq = squares & (reach[f << 1 | c][ek] | disc)
                    while sq:
                        low = sq & -sq
                        sq ^= low
                        cands.append((low.bit_length() - 1) << 7 | f << 14)
        self.filtered = 0
        if not cands:
            return cands
        k = self.kings[c]
        # Moves off the danger squares cannot expose our king (when not in check).
        if not k:
            danger = 0
            always_test = False
        else:
            checkers, danger = self._king_lines(c, k, self.occ[0] | self.occ[1])
            always_test = bool(checkers)
        dropmate = not t.variant.drop_mate
        self.filtered = 0
        occ = self.occ[0] | self.occ[1]
        leap_mask = t.leap_mask
        ride_hits = t.ride_hits
        esc: list[list[tuple[int, int]]] = []  # the king escapes, once needed
        out = []
        for mv in cands:
            frm = mv & 127
            to = mv >> 7 & 127
            if frm:
                v = board[frm]
                if board[to]:
                    v = flip[v]
                occ2 = (occ ^ 1 << frm) | 1 << to
                exact = not (disc >> frm & 1 or disc >> to & 1)
            else:
                v = (mv >> 14) << 1 | c
                occ2 = occ | 1 << to
                exact = not disc >> to & 1
            if exact:
                # Only the moved piece can give check: decide it from the tables.
                if not leap_mask[v][to] >> ek & 1:
                    for before, mode in ride_hits[v][to].get(ek, ()):
                        n_between = (occ2 & before).bit_count()
                        if n_between == (0 if mode == SLIDE else 1):
                            break
                    else:
                        continue
            need_safety = bool(k) and (always_test or frm == k or (danger >> frm | danger >> to) & 1)
            need_mate = dropmate and not frm
            if not exact and not self._attacked_occ(ek, c, occ2, to, v):
                continue
            if need_safety and self._move_exposes(mv, c):
                continue  # exposes our own king
            if need_mate:
                if self._no_safe_reply(mv, esc, False, True, True):
                    self.filtered += 1
                    continue  # a drop that mates
            out.append(mv)
        return out

    # --- game state ----------------------------------------------------------

    def is_checkmate(self) -> bool:
        """In check with no legal move."""
        return self.is_check() and not self.evasions()

    def is_stalemate(self) -> bool:
        """Not in check and no legal move (the side to move then loses)."""
        return not self.is_check() and not self.legal_moves()

    def outcome(self) -> int | None:
        """The winner (BLACK or WHITE) if the side to move has no legal move, else None."""
        return self.turn ^ 1 if not self.legal_moves() else None

    # --- strings -------------------------------------------------------------

    def move_str(self, m: int) -> str:
        """The move string of a move int."""
        return format_move(m, self.t)

    def parse_move(self, text: str | object) -> int:
        """Read a move string and check it is legal here.

        Raises :class:`~tsume.errors.MoveError` for a malformed string and
        :class:`~tsume.errors.IllegalMoveError` for an illegal move.
        """
        m = parse_move(text, self.t)
        if m not in self.legal_moves():
            raise IllegalMoveError(f"move {quote(text)} is not legal for {COLOUR_NAMES[self.turn]} in {self.fen()}: {self._why_illegal(m)}")
        return m

    def _why_illegal(self, m: int) -> str:
        frm = m & 127
        to = m >> 7 & 127
        t = self.t
        if frm:
            v = self.board[frm]
            if not v:
                return f"square {frm} is empty"
            if v & 1 != self.turn:
                return f"the piece on {frm} is not {COLOUR_NAMES[self.turn]}'s"
            buf: list[int] = []
            self._piece_moves(frm, buf)
            if m not in buf:
                return f"the {t.face_names[v >> 1]} on {frm} cannot move to {to}"
        else:
            f = m >> 14
            if not self.hands[self.turn][t.face_kind[f]]:
                return f"{COLOUR_NAMES[self.turn]} has no {t.kind_letters[t.face_kind[f]]} in hand"
            if self.board[to]:
                return f"square {to} is occupied"
            if not self._drop_squares(self.turn) >> to & 1:
                return f"dropping on {to} breaks the drop limits near the own king"
        self.push(m)
        try:
            k = self.kings[self.turn ^ 1]
            if k and self.is_attacked(k, self.turn):
                return "it leaves the own king in check"
            if self.repetitions() >= 3 and self.t.variant.repetition:
                return "it repeats a position for the third time"
            ek = self.kings[self.turn]
            if ek and self.is_attacked(ek, self.turn ^ 1):
                return "it is a drop that gives checkmate"
            return "it stalemates the opponent"
        finally:
            self.pop()

    def push_str(self, text: str | object) -> int:
        """Read a move string, check it is legal, make it and return the move int."""
        m = self.parse_move(text)
        self.push(m)
        return m

    def move_readable(self, m: int) -> str:
        """A readable form such as ``T20-18``, ``C23x19=+C`` or ``P*18`` (call before pushing).

        The piece letter has the case of its colour (lowercase White), as in positions.
        """
        t = self.t
        frm = m & 127
        to = m >> 7 & 127
        if not frm:
            return format_move(m, t)
        v = self.board[frm]
        letter = t.face_letters[v >> 1]
        new = t.face_letters[t.flip[v] >> 1]
        if v & 1 == WHITE:
            letter, new = letter.lower(), new.lower()
        if self.board[to]:
            # A king never flips, so there is nothing to say after its capture.
            return f"{letter}{frm}x{to}" + ("" if t.royal[v] else f"={new}")
        return f"{letter}{frm}-{to}"

    def hand_string(self, colour: int) -> str:
        """The pieces in a colour's hand, e.g. ``2PT`` (``-`` if none), always uppercase."""
        t = self.t
        s = "".join(
            (str(cnt) if cnt > 1 else "") + t.kind_letters[ki] for ki, cnt in enumerate(self.hands[colour]) if cnt
        )
        return s or "-"
