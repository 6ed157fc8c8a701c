"""How fast Rutherford's king walks: every small family of mates on a short
board, then the same positions on longer boards, and the plies each square
adds.

Run:  .venv/bin/python benchmarks/walk_growth.py [--men 1-2] [--hand 0-2]
          [--white 0] [--board 16] [--boards 24,32,48,64] [--workers 2]

Each position has White's king on square 1 (it walks towards the far end:
Rutherford's king never steps back), one to ``--men`` Black men of any
kind, either side up, on squares 2 to 8, ``--hand`` Black pieces in hand,
``--white`` White men besides the king on those squares too (none by
default), no Black king and nothing in White's hand (``--defender rest`` gives White
the rest of the set).  Every position that mates in 9 plies or more on a
``--board``-square board is solved again with the board lengthened at its
far end, to each length of ``--boards``.  A walk driving the king two
squares a turn adds one ply a square; one square a turn, two.  A Rutherford
problem of 101 plies needs more than 1.5 plies a square over the 64-square
board.  Prints how many positions grow at each rate from one board to the
next, and the longest mates on the longest board.  Not a test.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from tsume import Limits, Position, Problem, TsumeError, solve
from tsume.position import build_position
from tsume.tables import tables_for
from tsume.variant import get_variant

RUTHERFORD = get_variant("rutherford")
KINDS = [k for base in "PSNBL" for k in (base, "+" + base)]
NODES = 300_000


def position(men: dict[int, str], held: tuple[int, ...], n: int) -> Position:
    """White's king on square 1 and ``men`` (square: symbol) on an ``n``-square
    board, Black to move holding ``held`` (counts in the order of the
    tables' kind letters); validated (PositionError if it is no legal position)."""
    t = tables_for(RUTHERFORD, n)
    pieces = [(1, t.piece("k"))] + [(s, t.piece(m)) for s, m in men.items()]
    pos = build_position(RUTHERFORD, n, pieces, [list(held), [0] * len(held)])
    pos.validate()
    return pos


def positions(most_men: tuple[int, int], most_hand: tuple[int, int],
              white: tuple[int, int] = (0, 0)) -> list[tuple[dict[int, str], tuple[int, ...]]]:
    """Every family member: (men by square, Black's hand counts), in a fixed order."""
    letters = tables_for(RUTHERFORD, RUTHERFORD.min_length).kind_letters
    hands = [tuple(h.count(k) for k in letters) for k in range(most_hand[0], most_hand[1] + 1)
             for h in itertools.combinations_with_replacement("PSNBL", k)]
    out = []
    for k in range(most_men[0], most_men[1] + 1):
        for w in range(white[0], white[1] + 1):
            for squares in itertools.combinations(range(2, 9), k + w):
                for kinds in itertools.product(KINDS, repeat=k + w):
                    # Any w of the men are White's (lower case).
                    for whites in itertools.combinations(range(k + w), w):
                        men = {sq: (kind.lower() if i in whites else kind)
                               for i, (sq, kind) in enumerate(zip(squares, kinds))}
                        out.extend((men, h) for h in hands)
    return out


def length(men: dict[int, str], held: tuple[int, ...], n: int, defender: str) -> int | None:
    try:
        r = solve(Problem(position(men, held, n), defender=defender), limits=Limits(nodes=NODES), variations=False)
    except TsumeError:
        return None  # not a legal problem (a man that can never move, a king in check)
    return r.length


def grow(job: tuple[dict[int, str], tuple[int, ...], int, tuple[int, ...], str]) -> list[int | None] | None:
    """The mate lengths of one position on the short board and on each longer one (None: no mate found)."""
    men, held, n, boards, defender = job
    first = length(men, held, n, defender)
    if first is None or first < 9:
        return None
    return [first] + [length(men, held, m, defender) for m in boards]


def span(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    return int(low), int(high or low)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--men", default="1-2", help="Black men on the board, MIN-MAX (default 1-2)")
    ap.add_argument("--hand", default="0-2", help="Black pieces in hand, MIN-MAX (default 0-2)")
    ap.add_argument("--white", default="0", help="White men besides the king, MIN-MAX (default 0)")
    ap.add_argument("--board", type=int, default=16, help="the short board's length (default 16)")
    ap.add_argument("--boards", default="24,32,48,64", help="the longer boards, comma-separated")
    ap.add_argument("--defender", default="none", help="White's hand: none (default) or rest")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    boards = tuple(int(x) for x in a.boards.split(","))
    family = positions(span(a.men), span(a.hand), span(a.white))
    started = time.time()
    jobs = [(men, held, a.board, boards, a.defender) for men, held in family]
    with ProcessPoolExecutor(a.workers) as pool:
        grown = [(job, r) for job, r in zip(jobs, pool.map(grow, jobs, chunksize=64)) if r is not None]
    print(f"{len(family)} positions, {len(grown)} mating in 9 plies or more on {a.board} squares "
          f"({time.time() - started:.0f} s with {a.workers} workers)")
    lengths = (a.board,) + boards
    for i in range(len(boards)):
        rates: Counter[str] = Counter()
        for _job, r in grown:
            if r[i] is None:
                continue
            rates["no mate" if r[i + 1] is None else f"{(r[i + 1] - r[i]) / (lengths[i + 1] - lengths[i]):.2f}"] += 1
        print(f"{lengths[i]} -> {lengths[i + 1]} squares, plies a square:",
              ", ".join(f"{k}: {v}" for k, v in sorted(rates.items())))
    longest = sorted(((r[-1], position(job[0], job[1], a.board).fen(move_number=False))
                      for job, r in grown if r[-1] is not None), reverse=True)[:5]
    print(f"longest on {lengths[-1]} squares:", "; ".join(f"{p} (on {a.board} squares): {n} plies" for n, p in longest)
          if longest else "none")


if __name__ == "__main__":
    main()
