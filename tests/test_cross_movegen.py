"""Cross-check the engine's move generation against the naive reference rules.

The oracle is :mod:`naive_rules` (written from docs/rules.md alone); the positions come
from :mod:`random_positions` (seeded, so every run checks the same positions).
Each comparison runs over chunks of positions and reports the first few
disagreements with their position strings, so a failure names something to look at.
"""

from __future__ import annotations

import functools

import pytest

from tsume import IllegalMoveError, MoveError, Position, PositionError, get_variant

try:
    from tests import naive_rules as nr
    from tests.random_positions import random_positions
except ImportError:  # pragma: no cover - when tests/ itself is on sys.path
    import naive_rules as nr
    from random_positions import random_positions

SEED = 20240601
CHUNK = 250

#: spec -> number of random positions for the single-ply comparisons
COUNTS = {
    "ito": 2000,
    "rutherford": 2000,
    "ito:drop_mate=no": 600,
    "ito:stalemate=loss": 600,
}
#: spec -> number of those positions also compared at depth 2; only positions with
#: at most PERFT2_MAX_LEGAL legal moves are used, since the naive cost explodes with
#: big hands on both sides (the one-ply tests cover those)
PERFT2_COUNTS = {
    "ito": 120,
    "rutherford": 150,
    "ito:drop_mate=no": 60,
    "ito:stalemate=loss": 60,
}
PERFT2_MAX_LEGAL = 45
MAX_REPORTED = 8


@functools.cache
def variant(spec: str):
    return get_variant(spec)


@functools.cache
def positions(spec: str) -> tuple:
    return tuple(random_positions(SEED, spec, COUNTS[spec]))


@functools.cache
def naive(text: str, spec: str) -> dict:
    """Naive facts about a position: pseudo moves, their verdicts, legal moves, in check."""
    pos = nr.parse(text, spec)
    pseudo = {nr.move_str(m): m for m in nr.pseudo_moves(pos)}
    verdicts = {s: nr.judge(pos, m) for s, m in pseudo.items()}
    return {
        "pseudo": pseudo,
        "verdicts": verdicts,
        "legal": {s: gives for s, (v, gives) in verdicts.items() if v == "legal"},  # string -> gives check
        "in_check": nr.in_check(pos, pos.side),
        "has_safe_move": nr.has_king_safe_move(pos),
    }


def engine_strs(p: Position, moves) -> list:
    return [str(m) for m in moves]


def same_position(a, b, spec: str) -> bool:
    """Equal board, side to move and hands (the move number and hand order aside).

    ``a`` and ``b`` are position strings or naive positions.
    """
    x, y = (nr.parse(t, spec) if isinstance(t, str) else t for t in (a, b))
    return (x.board, x.side, x.hands) == (y.board, y.side, y.hands)


def chunks(specs, limit=None):
    return [(spec, i) for spec in specs for i in range(0, min(COUNTS[spec], limit or COUNTS[spec]), CHUNK)]


def chunk_id(arg):
    return f"{arg[0]}-{arg[1]}" if isinstance(arg, tuple) else str(arg)


def run_chunk(spec: str, start: int, check, size: int = CHUNK) -> None:
    """Apply ``check(text, p)`` (returning a problem string or None) to a chunk."""
    problems = []
    for text in positions(spec)[start:start + size]:
        try:
            p = Position(text, variant(spec))
            problem = check(text, p)
        except Exception as e:  # an engine crash is a failure like any other
            problem = f"engine raised {e!r}"
        if problem:
            problems.append(f"{text!r}: {problem}")
    assert not problems, f"{len(problems)} disagreement(s) in {spec}:\n" + "\n".join(problems[:MAX_REPORTED])


def set_diff(engine: set, oracle: set) -> str | None:
    if engine == oracle:
        return None
    return f"engine only {sorted(engine - oracle)}, naive only {sorted(oracle - engine)}"


ALL_SPECS = list(COUNTS)

# --- the start position ----------------------------------------------------------

ITO_START_PERFT = [1, 11, 121, 1276]


def engine_perft(p: Position, depth: int) -> int:
    if depth == 0:
        return 1
    moves = p.legal_moves(repetition=False)
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        p.push(m)
        total += engine_perft(p, depth - 1)
        p.pop()
    return total


def test_naive_ito_start_perft():
    pos = nr.parse(None, "ito")
    assert [nr.perft(pos, d) for d in range(4)] == ITO_START_PERFT


def test_engine_ito_start_perft():
    p = Position(None, "ito")
    assert [engine_perft(p, d) for d in range(4)] == ITO_START_PERFT


def test_engine_ito_start_perft_repetition_default():
    # no repetition can occur within three plies, so the game rule changes nothing
    p = Position(None, "ito")
    moves = p.legal_moves()
    assert len(moves) == 11 and sorted(engine_strs(p, moves)) == sorted(nr.legal_move_strs(nr.parse(None, "ito")))


# --- hand-made cases ---------------------------------------------------------------

# (position, variant, square, destinations worked out by hand from docs/rules.md)
HAND_DESTINATIONS = [
    # Korean cannon on 10: 9-7 empty, screen on 6, then empties 5-2 and the king on 1;
    # backwards its only piece is its own king on 31, with nothing beyond.
    ("k4p3C20K w - 1", "ito", 10, {1, 2, 3, 4, 5}),
    ("k4p3C20K w - 1", "ito", 31, {29, 30}),
    # Flying Swallow on 20: lands on 18, 16 (odd 19 and 17 ignored), captures on 14; steps back to 21.
    ("k12p2p1PF10K b - 1", "ito", 20, {14, 16, 18, 21}),
    # Rutherford Bishop: even landings at most 8 away both ways.
    ("19B9K1 b - 1", "rutherford", 20, {12, 14, 16, 18, 22, 24, 26, 28}),
    # Rutherford Cannon (+B) on 20: quiet 19, 18; screen 17, captures 14 (distance 6); 21-28 backwards.
    ("13p2p2+B8K1 b - 1", "rutherford", 20, {14, 18, 19} | set(range(21, 29))),
    # Rutherford King: forward only.
    ("k8K9 b - 1", "rutherford", 10, {8, 9}),
]


@pytest.mark.parametrize("text, spec, sq, expected", HAND_DESTINATIONS)
def test_naive_destinations_by_hand(text, spec, sq, expected):
    assert set(nr.destinations(nr.parse(text, spec), sq)) == expected


# (position, variant, moves that must be legal, moves that must not be) -- by hand
HAND_LEGALITY = [
    # 8-5 takes White's last flight square (2) without check: a stalemate, illegal in Ito...
    ("k5GH22K b - 1", "ito", {"7-3", "8-11"}, {"8-5"}),
    # ...and allowed when stalemate is a loss.
    ("k5GH22K b - 1", "ito:stalemate=loss", {"8-5"}, set()),
    # P*2 mates (2 guarded by the horse, 3 by the goose).  White is already without a
    # move, so every other Black move is a stalemate.
    ("k3H1G23K b P 1", "ito", {"P*2"}, {"P*3", "31-30"}),
    ("k3H1G23K b P 1", "ito:drop_mate=no", set(), {"P*2", "P*3", "31-30"}),
    ("k3H1G23K b P 1", "ito:stalemate=loss", {"P*2", "P*3", "31-30"}, set()),
    # Rutherford drops: not behind the own king (on 10), not within distance 1 of it.
    ("k8K9 b P 1", "rutherford", {"P*8", "+P*8", "P*2"}, {"P*9", "P*11", "+P*12"}),
    # Rutherford: a drop may check but never mate (P or +P on 2, guarded by the silver, which also takes 3).
    ("k2S16K b P 1", "rutherford", {"P*3", "+P*3", "4-3"}, {"P*2", "+P*2"}),
]


@pytest.mark.parametrize("text, spec, legal, illegal", HAND_LEGALITY)
def test_legality_by_hand(text, spec, legal, illegal):
    oracle = nr.legal_move_strs(nr.parse(text, spec))
    assert legal <= oracle and not (illegal & oracle)
    p = Position(text, variant(spec))
    engine = set(engine_strs(p, p.legal_moves(repetition=False)))
    assert engine == oracle


@pytest.mark.parametrize("text, expected", [
    # White's king may take the +G on 19, Black's last piece: Black (no king, empty
    # hand) is then left without a move, but a kingless side is never stalemated.
    ("17k+G12 w - 1", {"18-17", "18-19"}),  # 18-20: the Phoenix on 19 steps back to 20
    # Black's only piece, a pawn on square 1, can never move: White's moves stand.
    ("P1k28 w - 1", {"3-2", "3-4", "3-5"}),
])
def test_ito_stalemate_rule_with_kingless_opponent(text, expected):
    """docs/rules.md: a move or drop is illegal if afterwards the opponent is out of check
    with no move that keeps its own king safe.  The project reads this for a side
    that has a king: a side without one (a tsume attacker usually has none) is never
    stalemated (docs/rules.md, decision 4).  Read literally, the defender could not
    take a kingless attacker's last piece.
    """
    assert nr.legal_move_strs(nr.parse(text, "ito")) == expected
    p = Position(text, "ito")
    assert set(engine_strs(p, p.legal_moves(repetition=False))) == expected


@pytest.mark.parametrize("text", ["6K1k w - 1", "7Kk w - 1", "K7k w - 1", "k7K b - 1", "13k b 2B2LN2Pn2s"])
def test_rutherford_king_on_edge(text):
    """A king on the square farthest from its home end (White on square n, Black on 1)."""
    p = Position(text, "rutherford")
    assert set(engine_strs(p, p.legal_moves(repetition=False))) == nr.legal_move_strs(nr.parse(text, "rutherford"))


# --- random positions: one ply --------------------------------------------------------


def test_generator_is_valid_and_mixed():
    for spec in ALL_SPECS:
        texts = positions(spec)
        assert len(set(texts)) > 0.95 * len(texts)
        checked = sum(naive(t, spec)["in_check"] for t in texts)
        assert 0.25 * len(texts) < checked < 0.42 * len(texts), (spec, checked)
        for t in texts:
            assert nr.is_valid(nr.parse(t, spec)), t


@pytest.mark.parametrize("spec, rule", [("ito", "stalemate"), ("ito:drop_mate=no", "drop mate"),
                                        ("ito:drop_mate=no", "stalemate"), ("rutherford", "drop mate")])
def test_generator_exercises_special_rules(spec, rule):
    """The samples must contain moves that the stalemate and drop-mate rules remove."""
    removed = sum(1 for t in positions(spec) if rule in [v for v, _ in naive(t, spec)["verdicts"].values()])
    assert removed >= 10, removed


def test_generator_exercises_stalemate_loss():
    """Under stalemate=loss the samples must contain legal moves that stalemate the opponent."""
    spec = "ito:stalemate=loss"
    count = 0
    for text in positions(spec):
        pos = nr.parse(text, spec)
        for s, gives_check in naive(text, spec)["legal"].items():
            if not gives_check and not nr.has_king_safe_move(nr.make(pos, naive(text, spec)["pseudo"][s])):
                count += 1
    assert count >= 20, count


@pytest.mark.parametrize("arg", chunks(ALL_SPECS), ids=chunk_id)
def test_position_string_round_trip(arg):
    spec, start = arg

    def check(text, p):
        if not same_position(p.fen(), text, spec):
            return f"fen() gives {p.fen()!r}"
        if p.is_check() != naive(text, spec)["in_check"]:
            return f"is_check() is {p.is_check()}"
        return None

    run_chunk(spec, start, check)


@pytest.mark.parametrize("arg", chunks(ALL_SPECS), ids=chunk_id)
def test_legal_moves(arg):
    spec, start = arg

    def check(text, p):
        moves = p.legal_moves(repetition=False)
        strs = engine_strs(p, moves)
        if len(strs) != len(set(strs)):
            return f"duplicate moves {sorted(s for s in strs if strs.count(s) > 1)}"
        if sorted(p.legal_moves()) != sorted(moves):
            return "legal_moves() differs from legal_moves(repetition=False) with no history"
        return set_diff(set(strs), set(naive(text, spec)["legal"]))

    run_chunk(spec, start, check)


@pytest.mark.parametrize("arg", chunks(ALL_SPECS), ids=chunk_id)
def test_pseudo_legal_moves_and_safe_move(arg):
    """Movement and drop placement alone, and the inner test of the stalemate/drop-mate rules."""
    spec, start = arg

    def check(text, p):
        facts = naive(text, spec)
        problem = set_diff(set(engine_strs(p, p.pseudo_legal_moves())), set(facts["pseudo"]))
        if problem:
            return "pseudo_legal_moves: " + problem
        if p.has_safe_move() != facts["has_safe_move"]:
            return f"has_safe_move() is {p.has_safe_move()}"
        return None

    run_chunk(spec, start, check)


@pytest.mark.parametrize("arg", chunks(ALL_SPECS), ids=chunk_id)
def test_checks(arg):
    spec, start = arg

    def check(text, p):
        legal = naive(text, spec)["legal"]  # move string -> gives check
        problem = set_diff(set(engine_strs(p, p.checks())), {s for s, gives in legal.items() if gives})
        if problem:
            return "checks(): " + problem
        wrong = []
        for m in p.legal_moves(repetition=False):
            s = str(m)
            if s in legal and p.gives_check(m) != legal[s]:
                wrong.append(s)
        return f"gives_check() wrong for {wrong}" if wrong else None

    run_chunk(spec, start, check)


@pytest.mark.parametrize("arg", chunks(ALL_SPECS), ids=chunk_id)
def test_evasions(arg):
    spec, start = arg

    def check(text, p):
        facts = naive(text, spec)
        if not facts["in_check"]:
            return None
        problem = set_diff(set(engine_strs(p, p.evasions())), set(facts["legal"]))
        if problem:
            return "evasions(): " + problem
        if p.is_checkmate() != (not facts["legal"]):
            return f"is_checkmate() is {p.is_checkmate()}"
        return None

    run_chunk(spec, start, check)


PARSE_MOVE_COUNT = 200  # is_legal/parse_move are slow, so fewer positions and a sample of moves


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_parse_move_accepts_exactly_legal(spec):
    """Naive pseudo moves (every illegal one up to 8, and 4 legal ones): parse_move
    and is_legal accept a move iff it is legal."""

    def check(text, p):
        facts = naive(text, spec)
        illegal = [s for s in facts["pseudo"] if s not in facts["legal"]][:8]
        for s in illegal + list(facts["legal"])[:4]:
            try:
                m = p.parse_move(s)
                ok = p.is_legal(m, repetition=False)
            except IllegalMoveError:
                ok = False
            except MoveError as e:
                return f"parse_move({s!r}) raised {e!r}"
            if ok != (s in facts["legal"]):
                return f"{s} accepted={ok} but naive verdict is {facts['verdicts'][s][0]!r}"
            if ok and str(m) != s:
                return f"parse_move({s!r}) gives back {str(m)!r}"
        return None

    run_chunk(spec, 0, check, PARSE_MOVE_COUNT)


PUSH_POP_LIMIT = 1000  # positions per spec for the push/pop test


@pytest.mark.parametrize("arg", chunks(ALL_SPECS, PUSH_POP_LIMIT), ids=chunk_id)
def test_push_pop(arg):
    """push makes the naive successor; pop restores fen and hash; the hash after push
    equals the hash of a fresh parse of the new position (checked for every fifth move)."""
    spec, start = arg

    def check(text, p):
        pos = nr.parse(text, spec)
        fen0, hash0 = p.fen(), p.hash
        for i, m in enumerate(p.legal_moves(repetition=False)):
            s = str(m)
            p.push(m)
            child = p.fen(move_number=False)
            child_hash = p.hash
            p.pop()
            if p.fen() != fen0 or p.hash != hash0:
                return f"push/pop of {s} changed the position to {p.fen()!r} (hash {p.hash} != {hash0})"
            naive_move = naive(text, spec)["pseudo"].get(s)
            if naive_move is None:
                return f"engine move {s} is not even pseudo-legal by naive rules"
            expected = nr.make(pos, naive_move)
            if child != nr.to_string(expected, None) and not same_position(child, expected, spec):
                return f"after {s} engine has {child!r}, naive {nr.to_string(expected)!r}"
            if i % 5 == 0 and Position(child, variant(spec), validate=False).hash != child_hash:
                return f"after {s} the incremental hash differs from the hash of {child!r}"
        return None

    run_chunk(spec, start, check)


@pytest.mark.parametrize("spec", ["ito", "rutherford"])
def test_position_validation(spec):
    """The engine rejects exactly the positions the naive rules call invalid: the side
    not to move in check (made by handing the move to the other side), a piece beyond
    the set, a second king of one side."""
    problems = []
    for text in positions(spec)[:400]:
        flipped = nr.parse(text, spec)
        flipped.side = nr.OTHER[flipped.side]
        extra = nr.parse(text, spec)
        extra.hands[extra.side]["P"] = extra.hands[extra.side].get("P", 0) + 1
        for pos in (flipped, extra):
            candidate, valid = nr.to_string(pos), nr.is_valid(pos)
            try:
                Position(candidate, variant(spec))
                accepted = True
            except PositionError:
                accepted = False
            if accepted != valid:
                problems.append(f"{candidate!r}: engine accepted={accepted}, naive valid={valid}")
    for bad in (["k29KK b - 1", "kk29K b - 1"] if spec == "ito" else ["k7KK b - 1", "kk7K w - 1"]):
        with pytest.raises(PositionError):
            Position(bad, variant(spec))
    assert not problems, "\n".join(problems[:MAX_REPORTED])


LONG_COUNT = 150


def test_rutherford_long_boards():
    """Boards of 41..64 squares (the random sets above stop at 40)."""
    spec = "rutherford"
    texts = random_positions(SEED, spec, LONG_COUNT, min_length=41, max_length=64)
    problems = []
    for text in texts:
        facts = naive(text, spec)
        p = Position(text, variant(spec))
        problem = set_diff(set(engine_strs(p, p.legal_moves(repetition=False))), set(facts["legal"]))
        problem = problem or set_diff(set(engine_strs(p, p.checks())), {s for s, g in facts["legal"].items() if g})
        if not problem:
            pos = nr.parse(text, spec)
            for m in p.legal_moves(repetition=False):
                s = str(m)
                p.push(m)
                child = p.fen(move_number=False)
                p.pop()
                if not same_position(child, nr.make(pos, facts["pseudo"][s]), spec):
                    problem = f"after {s} engine has {child!r}"
                    break
        if problem:
            problems.append(f"{text!r}: {problem}")
    assert not problems, "\n".join(problems[:MAX_REPORTED])


# --- random positions: two plies ----------------------------------------------------


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_perft2(spec):
    problems = []
    texts = [t for t in positions(spec) if len(naive(t, spec)["legal"]) <= PERFT2_MAX_LEGAL]
    assert len(texts) >= PERFT2_COUNTS[spec]
    for text in texts[:PERFT2_COUNTS[spec]]:
        pos = nr.parse(text, spec)
        try:
            p = Position(text, variant(spec))
            engine_count = engine_perft(p, 2)
        except Exception as e:
            problems.append(f"{text!r}: engine raised {e!r}")
            continue
        naive_count = sum(len(nr.legal_moves(nr.make(pos, m))) for m in nr.legal_moves(pos))
        if engine_count == naive_count:
            continue
        # find the child where they differ
        detail = ""
        for m in p.legal_moves(repetition=False):
            s = str(m)
            p.push(m)
            child = p.fen()
            eng = set(engine_strs(p, p.legal_moves(repetition=False)))
            p.pop()
            nm = naive(text, spec)["pseudo"].get(s)
            oracle = nr.legal_move_strs(nr.make(pos, nm)) if nm else set()
            if eng != oracle:
                detail = f" after {s} ({child!r}): {set_diff(eng, oracle)}"
                break
        problems.append(f"{text!r}: perft(2) engine {engine_count}, naive {naive_count}{detail}")
    assert not problems, f"{len(problems)} disagreement(s):\n" + "\n".join(problems[:MAX_REPORTED])
