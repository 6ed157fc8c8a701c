//! Random playouts on the built-in variants and a test variant: every legal
//! move keeps the mover's king safe, make/unmake restores everything, and the
//! incremental hashes equal those of the same position built from scratch.

use tsume_engine::{Colour, Move, MoveList, Position, Variant};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

fn builtin(name: &str) -> Variant {
    Variant::list_from_json(tsume_engine::rules::variant::BUILTIN_JSON)
        .unwrap()
        .into_iter()
        .find(|v| v.name == name)
        .unwrap()
}

/// A variant unlike both games: a stride-3 rider with a range, a hopping cannon, long leaps, drops either side up.
const MINI: &str = r#"{
  "name": "mini", "min_length": 12, "max_length": 40,
  "kinds": [
    {"letter": "K", "royal": true, "count": 1, "unpromoted": {"name": "King", "leaps": [1, -1]}},
    {"letter": "J", "unpromoted": {"name": "Jumper", "leaps": [5, -5]}, "promoted": {"name": "Super Jumper", "leaps": [5, -5, 1, -1]}},
    {"letter": "C", "unpromoted": {"name": "Cannon", "rides": [{"direction": 1, "move": "hop", "capture": "hop"}, {"direction": -1, "move": "hop", "capture": "hop"}]},
     "promoted": {"name": "Chariot", "rides": [{"direction": 1}, {"direction": -1}]}},
    {"letter": "P", "unpromoted": {"name": "Pawn", "leaps": [1]}, "promoted": {"name": "Tokin", "leaps": [1, -1]}},
    {"letter": "S", "unpromoted": {"name": "Skipper", "rides": [{"direction": 1, "stride": 3, "max_distance": 6}]},
     "promoted": {"name": "Great Skipper", "rides": [{"direction": 1, "stride": 3}, {"direction": -1, "stride": 3}]}}
  ],
  "drop_promoted": true, "drop_king_limits": true, "drop_mate": false, "stalemate": "illegal"
}"#;

fn playouts(v: &Variant, fen: &str, games: usize, plies: usize, seed: u64) {
    let mut rng = Rng(seed);
    let start = Position::from_fen(v, fen).unwrap();
    for _ in 0..games {
        let mut p = start.copy();
        let mut seen = vec![];
        for _ in 0..plies {
            let mut l = MoveList::new();
            p.legal_moves(None, &mut l);
            let mut pseudo = MoveList::new();
            p.pseudo_legal_moves(&mut pseudo);
            for &m in l.iter() {
                assert!(pseudo.contains(m), "{} {m:?}", p.fen());
                let mover = p.turn();
                let child = p.child_hashes(m);
                p.push(m);
                let k = p.king(mover);
                assert!(k == 0 || !p.is_attacked(k, mover.flip()), "{}", p.fen());
                assert_eq!((p.hash(), p.hand_hash()), child);
                p.pop();
            }
            if l.is_empty() {
                break;
            }
            let m: Move = l[rng.below(l.len())];
            seen.push((p.fen(), p.hash()));
            p.push(m);
            let fresh = Position::from_fen(v, &p.fen()).unwrap();
            assert_eq!(fresh.hash(), p.hash());
            assert_eq!(fresh.hand_hash(), p.hand_hash());
            assert_eq!(fresh.king(Colour::Black), p.king(Colour::Black));
            assert_eq!(fresh.occupied(), p.occupied());
        }
        while let Some((fen, h)) = seen.pop() {
            p.pop();
            assert_eq!(p.fen(), fen);
            assert_eq!(p.hash(), h);
        }
    }
}

#[test]
fn ito() {
    playouts(&builtin("ito"), "k3fg1hc2tp5PT2CH1GF3K b -", 20, 80, 1);
    playouts(&builtin("ito"), "2k1p2+f3h4c2G5PT2K1 b TCHfg", 20, 40, 2);
}

#[test]
fn rutherford() {
    playouts(&builtin("rutherford"), "klsnbp9PBNSLK b -", 20, 80, 3);
    playouts(
        &builtin("rutherford"),
        "k2s2n17b1p8P1B10L1N10SLK b -",
        10,
        60,
        4,
    );
}

#[test]
fn a_test_variant() {
    let v = Variant::from_json(MINI).unwrap();
    playouts(&v, "k1p1s2c6C2S1P1K b 2J", 20, 60, 5);
}
