//! The analysis against plain bounded minimax, position by position.

use std::collections::HashMap;

use super::*;
use crate::rules::colour::Colour::Black;
use crate::rules::moves::MoveList;
use crate::rules::position::tests::pos;

/// Plain bounded minimax with a memo: the shortest mate within `b` plies
/// (attacker to move) or the longest defence (defender to move).
struct Minimax(HashMap<(u64, u32), Option<u32>>);

impl Minimax {
    fn attack(&mut self, p: &mut Position, b: u32) -> Option<u32> {
        if b == 0 {
            return None;
        }
        if let Some(&v) = self.0.get(&(p.hash(), b)) {
            return v;
        }
        let mut checks = MoveList::new();
        p.checks(&mut checks);
        let mut best = None;
        for &m in checks.iter() {
            p.push(m);
            let v = self.defend(p, b - 1);
            p.pop();
            if let Some(v) = v {
                best = Some(best.map_or(v + 1, |x: u32| x.min(v + 1)));
            }
        }
        self.0.insert((p.hash(), b), best);
        best
    }

    fn defend(&mut self, p: &mut Position, b: u32) -> Option<u32> {
        let mut replies = MoveList::new();
        p.legal_moves(Some(false), &mut replies);
        if replies.is_empty() {
            return Some(0);
        }
        if b == 0 {
            return None;
        }
        if let Some(&v) = self.0.get(&(p.hash(), b)) {
            return v;
        }
        let mut worst = Some(0);
        for &m in replies.iter() {
            p.push(m);
            let v = self.attack(p, b - 1);
            p.pop();
            match v {
                None => {
                    worst = None;
                    break;
                }
                Some(v) => worst = worst.map(|w: u32| w.max(v + 1)),
            }
        }
        self.0.insert((p.hash(), b), worst);
        worst
    }

    /// The length and every optimal first move of `p` within `b` plies.
    fn answer(&mut self, p: &Position, b: u32) -> (Option<u32>, Vec<Move>) {
        let mut p = p.copy();
        let Some(v) = self.attack(&mut p, b) else {
            return (None, vec![]);
        };
        let mut checks = MoveList::new();
        p.checks(&mut checks);
        let mut firsts = vec![];
        for &m in checks.iter() {
            p.push(m);
            if self.defend(&mut p, v - 1) == Some(v - 1) {
                firsts.push(m);
            }
            p.pop();
        }
        (Some(v), firsts)
    }
}

/// Every legal position of a Rutherford family on `n` squares: the White
/// king and the Black `men` (letters) anywhere, `hand` in Black's hand, the
/// defender's hand `defender`.
fn family(n: usize, men: &[char], hand: &[u8], defender: &[u8]) -> Vec<Position> {
    let mut out = vec![];
    let mut squares = vec![0usize; men.len() + 1];
    let total = (n as u64).pow(squares.len() as u32);
    for code in 0..total {
        let mut x = code;
        for s in squares.iter_mut() {
            *s = (x % n as u64) as usize;
            x /= n as u64;
        }
        let mut cells = vec![None; n];
        let mut clash = false;
        for (j, &s) in squares.iter().enumerate() {
            clash |= cells[s].is_some();
            cells[s] = Some(if j == 0 { 'k' } else { men[j - 1] });
        }
        if clash {
            continue;
        }
        let mut board = String::new();
        let mut run = 0;
        for c in cells {
            match c {
                None => run += 1,
                Some(ch) => {
                    if run > 0 {
                        board += &run.to_string();
                        run = 0;
                    }
                    board.push(ch);
                }
            }
        }
        if run > 0 {
            board += &run.to_string();
        }
        let p = pos("rutherford", &board, Black, [hand, defender]);
        if p.validate().is_ok() {
            out.push(p);
        }
    }
    out
}

fn agree(roots: &[Position], plies: u32) -> Analysis {
    let a = analyse(roots, plies, None, &mut || true).unwrap();
    assert_eq!(a.answers.len(), roots.len());
    let mut mm = Minimax(HashMap::new());
    for (p, ans) in roots.iter().zip(&a.answers) {
        let (length, firsts) = mm.answer(p, plies);
        assert_eq!(ans.length, length, "{:?}", p.board());
        assert_eq!(ans.first_moves, firsts, "{:?}", p.board());
    }
    a
}

#[test]
fn leapers_agree_with_minimax_and_mark_nothing() {
    // Silver and Knight, a Silver in hand, 9 squares: no ride, no mark.
    let roots = family(9, &['S', 'N'], &[0, 0, 1], &[]);
    assert!(roots.len() > 200);
    let a = agree(&roots, 7);
    assert!(a.answers.iter().any(|x| x.length.is_some()));
    assert!(a.answers.iter().all(|x| !x.marked));
    assert!(a.stats.nodes > roots.len() && a.stats.bytes > 0);
}

#[test]
fn riders_mark_interpositions_and_still_count_plain_minimax() {
    // A Lance and a Silver in hand against a king and a Pawn: the Pawn may
    // step between.  Marked or not, the lengths are plain
    // minimax's (the caller settles the marked ones by df-pn).
    let roots = family(9, &['L', 'p'], &[0, 0, 1], &[]);
    let a = agree(&roots, 7);
    assert!(a.answers.iter().any(|x| x.marked));
    assert!(a.answers.iter().any(|x| !x.marked && x.length.is_some()));
}

#[test]
fn a_long_mate() {
    // The 13-ply record of Rutherford's Silver, Knight and a Silver in
    // hand on 11 squares, and the same family's others around it.
    let p = pos("rutherford", "2Sk4N2", Black, [&[0, 0, 1], &[]]);
    let a = agree(std::slice::from_ref(&p), 13);
    assert_eq!(a.answers[0].length, Some(13));
    assert_eq!(a.answers[0].first_moves.len(), 1);
}

#[test]
fn roots_repeat_and_keep_their_order() {
    let roots = family(9, &['S'], &[0, 0, 1], &[]);
    let mut twice: Vec<Position> = roots.iter().rev().map(|p| p.copy()).collect();
    twice.extend(roots.iter().map(|p| p.copy()));
    let a = analyse(&roots, 9, None, &mut || true).unwrap();
    let b = analyse(&twice, 9, None, &mut || true).unwrap();
    let n = roots.len();
    for i in 0..n {
        assert_eq!(b.answers[n + i], a.answers[i]);
        assert_eq!(b.answers[n - 1 - i], a.answers[i]);
    }
    assert_eq!(a.stats.nodes, b.stats.nodes);
    assert_eq!(a.stats.edges, b.stats.edges);
}

#[test]
fn limits_and_bad_input() {
    assert!(analyse(&[], 9, None, &mut || true)
        .unwrap()
        .answers
        .is_empty());
    let roots = family(9, &['S'], &[0, 0, 1], &[]);
    let r = analyse(&roots, 9, Some(100), &mut || true);
    assert_eq!(r.unwrap_err(), Halt::Nodes(100));
    assert_eq!(
        Halt::Nodes(1_234_567).message(),
        "the census graph needs more than 1,234,567 nodes"
    );
    let r = analyse(&roots, 9, None, &mut || false);
    assert_eq!(r.unwrap_err(), Halt::Interrupted);
    let other = pos("rutherford", "k2S7", Black, [&[0, 0, 1], &[]]);
    let mixed = [roots[0].copy(), other];
    assert_eq!(
        analyse(&mixed, 9, None, &mut || true).unwrap_err(),
        Halt::Mixed
    );
}
