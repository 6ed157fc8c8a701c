//! Perft: the number of leaf nodes of the legal move tree, every move (leaves included) made and unmade.

use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;

/// The number of move sequences of length `depth` from `pos` (no bulk counting).
///
/// The game repetition rule applies when the variant has it.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    perft_interruptible(pos, depth, &mut || true).unwrap_or(0)
}

/// [`perft`] that asks `keep_going` now and then (after each subtree of depth 2) and stops with `None` when it says no.
pub fn perft_interruptible(
    pos: &mut Position,
    depth: u32,
    keep_going: &mut dyn FnMut() -> bool,
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    let mut moves = MoveList::new();
    pos.legal_moves(None, &mut moves);
    let mut n = 0;
    if depth == 1 {
        for &m in moves.iter() {
            pos.push(m);
            n += 1;
            pos.pop();
        }
        return Some(n);
    }
    for &m in moves.iter() {
        pos.push(m);
        let sub = perft_interruptible(pos, depth - 1, keep_going);
        pos.pop();
        n += sub?;
        if depth == 2 && !keep_going() {
            return None;
        }
    }
    Some(n)
}

/// Perft split by first move, in generation order (empty at depth 0); `None` if interrupted.
pub fn divide(
    pos: &mut Position,
    depth: u32,
    keep_going: &mut dyn FnMut() -> bool,
) -> Option<Vec<(Move, u64)>> {
    let mut out = vec![];
    if depth == 0 {
        return Some(out);
    }
    let mut moves = MoveList::new();
    pos.legal_moves(None, &mut moves);
    for &m in moves.iter() {
        pos.push(m);
        let sub = perft_interruptible(pos, depth - 1, keep_going);
        pos.pop();
        out.push((m, sub?));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::colour::Colour;
    use crate::rules::position::tests::{ito_start, pos};

    #[test]
    fn ito_start_counts() {
        let mut p = ito_start();
        assert_eq!(perft(&mut p, 0), 1);
        assert_eq!(perft(&mut p, 1), 11);
        let before = p.hash();
        let d = divide(&mut p, 2, &mut || true).unwrap();
        assert_eq!(d.len(), 11);
        assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), perft(&mut p, 2));
        assert_eq!(p.hash(), before);
        assert_eq!(p.ply(), 0);
    }

    #[test]
    fn interrupt_stops() {
        let mut p = pos("rutherford", "klsnbp9PBNSLK", Colour::Black, [&[], &[]]);
        let mut calls = 0;
        let r = perft_interruptible(&mut p, 4, &mut || {
            calls += 1;
            calls < 3
        });
        assert_eq!(r, None);
        assert_eq!(calls, 3);
        assert_eq!(p.ply(), 0);
    }
}
