"""Bounded searches of one attacker alternative, bound by bound: what an
exact length costs (docs/performance.md, "Verify").

Run:  .venv/bin/python benchmarks/alternative_bounds.py POSITION MOVE BOUNDS
                                                       [--variant V] [--defender-hand H] [--node-limit N]
                                                       [--option NAME=VALUE ...] [--entries]

The attacker's MOVE is played from POSITION (the attacker to move; the
position stays on the line, so a repetition of it fails for the attacker, as
in ``tsume verify``), and one engine asks "mated within b plies?" for each b
of BOUNDS (comma-separated; -1 means no bound), in order and sharing its
table, as the verifier's climb to an alternative's shortest mate does.  Each
line gives the bound, the answer, the nodes and CPU seconds it took and the
table entries after it.  For example, the alternative that dominates
``ito-L01-0004`` (a mate in 1 whose ``C*1`` mates in 20 plies):

    .venv/bin/python benchmarks/alternative_bounds.py "2T1k5+P20 b C2G2H 1" "C*1" 1,3,5,7,9,11,13,15,17,19

(bounds count from the position after the move, so 19 is "mated within 20
plies of the alternative").  ``--option`` sets a field of
:class:`tsume.search.Options` (``--option one_plus_epsilon=8``, ``--option
heuristic_init=true``) to compare the search's switches on one question;
``--entries`` adds what the table's entries hold after each search: how many
are proofs, disproofs (at any length or within a bound) and positions left
open, which shows how much of the work went into the answer.
"""

from __future__ import annotations

import argparse
import time


from tsume.problem import Problem
from tsume.errors import TsumeError
from tsume.limits import Limits
from tsume.search import Options, Search, SearchLimit


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("position")
    ap.add_argument("move", help="the attacker's alternative, as tsume writes moves (e.g. C*1)")
    ap.add_argument("bounds", help="comma-separated bounds in plies after the move; -1 for no bound")
    ap.add_argument("--variant", default="ito")
    ap.add_argument("--defender-hand", default=None, help="rest (default), none or letters")
    ap.add_argument("--node-limit", type=int, default=None, help="stop each search after this many nodes in all")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="set a field of tsume.search.Options (repeatable)")
    ap.add_argument("--entries", action="store_true",
                    help="also count the table's proofs, disproofs and open positions after each search")
    args = ap.parse_args()
    try:
        pos = Problem(args.position, variant=args.variant, defender=args.defender_hand).position()
        bounds = [int(x) for x in args.bounds.split(",")]
        search = Search(pos, limits=Limits(nodes=args.node_limit), options=parse_options(args.option))
        move = pos.parse_move(args.move)
        if move not in pos.checks():
            raise ValueError(f"{args.move} is not a check")
        search.walk(move)
    except (TsumeError, ValueError) as exc:
        ap.error(str(exc))
    print(f"{'bound':>6} {'answer':>10} {'nodes':>10} {'seconds':>8} {'entries':>9}"
          + ("   proofs  no mate  bounded     open" if args.entries else ""))
    for b in bounds:
        n0, t0 = search.nodes, time.process_time()
        try:
            status = "proven" if search.mate(b if b >= 0 else None) else "disproven"
        except SearchLimit:
            status = "unknown"
        print(f"{b if b >= 0 else 'none':>6} {status:>10} {search.nodes - n0:>10,} "
              f"{time.process_time() - t0:>8.2f} {search.stats()['table_entries']:>9,}"
              + (" {:>8,} {:>8,} {:>8,} {:>8,}".format(*search.table_census()) if args.entries else ""), flush=True)
    return 0


def parse_options(items: list[str]) -> Options:
    """Options with the fields named in ``items`` (NAME=VALUE) set."""
    fields = Options().as_dict()
    values: dict[str, object] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or name not in fields:
            raise ValueError(f"--option {item!r}: expected NAME=VALUE with NAME one of {', '.join(fields)}")
        if isinstance(fields[name], bool):
            if text.lower() not in ("true", "false", "1", "0"):
                raise ValueError(f"--option {item!r}: {name} is true or false")
            values[name] = text.lower() in ("true", "1")
        else:
            try:
                values[name] = int(text)
            except ValueError:
                raise ValueError(f"--option {item!r}: {name} is a whole number") from None
    return Options(**values)


if __name__ == "__main__":
    raise SystemExit(main())
