//! Interpositions: which check a defender's move blocks, and the piece
//! handed back that the useless-interposition convention asks about.
//!
//! An *interposition* is a defender drop or non-king board move onto a
//! square strictly between its king and a piece checking it along a ride.
//! Whether one is useless (docs/solver.md, convention 6) is the search's
//! question; what the rules say is which checker it blocks and what the
//! position looks like when the capturing attacker gives the piece back.

use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::{has, lowest, Mask, Square};

impl Position {
    /// The square of the checker whose ride the move `m` of the side to
    /// move (in check) blocks, if `m` is an interposition, else 0.
    /// `ranged`: the ride checkers ([`Position::ride_checkers`]).
    pub fn interposition_square(&self, m: Move, ranged: Mask) -> Square {
        if ranged == 0 {
            return 0;
        }
        let k = self.king(self.turn());
        if m.from() == k {
            return 0;
        }
        let to = m.to();
        let t = self.tables();
        let mut r = ranged;
        while r != 0 {
            let c = lowest(r);
            r &= r - 1;
            if has(t.between(c, k), to) {
                return c;
            }
        }
        0
    }

    /// Moves one piece of kind `k` from the hand of the side that just moved
    /// to the hand of the side to move, keeping the hashes (the useless
    /// interposition test: the captured piece handed back).
    pub fn hand_back(&mut self, k: usize) {
        let to = self.turn.index();
        let from = to ^ 1;
        let zb = &self.tables.zobrist;
        let from_count = self.hands[from].count(k);
        let to_count = self.hands[to].count(k);
        let step = zb.hand_step(from, k, from_count - 1) ^ zb.hand_step(to, k, to_count);
        self.hands[from].remove(k);
        self.hands[to].add(k);
        self.hash ^= step;
        self.hand_hash ^= step;
    }

    /// Undoes [`Position::hand_back`].
    pub fn take_back(&mut self, k: usize) {
        let to = self.turn.index();
        let from = to ^ 1;
        let zb = &self.tables.zobrist;
        let from_count = self.hands[from].count(k);
        let to_count = self.hands[to].count(k);
        let step = zb.hand_step(from, k, from_count) ^ zb.hand_step(to, k, to_count - 1);
        self.hands[from].add(k);
        self.hands[to].remove(k);
        self.hash ^= step;
        self.hand_hash ^= step;
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::colour::Colour::White;
    use crate::rules::moves::MoveList;
    use crate::rules::position::tests::pos;
    use crate::rules::position::Position;

    /// White's king on 1 checked by Black's lance on 7 along the ride.
    fn lance_check() -> Position {
        pos("rutherford", "k5L3K", White, [&[], &[0, 1]])
    }

    #[test]
    fn a_drop_or_move_between_king_and_ride_checker_interposes() {
        let mut p = lance_check();
        let ranged = p.ride_checkers();
        assert_eq!(ranged.count_ones(), 1);
        let mut list = MoveList::new();
        p.evasions(&mut list);
        let mut interposing = 0;
        for &m in list.iter() {
            let c = p.interposition_square(m, ranged);
            if m.from() == 1 {
                assert_eq!(c, 0, "a king move blocks nothing");
            } else {
                assert_eq!(c, 7, "{}", p.move_string(m));
                assert!((3..7).contains(&m.to()));
                interposing += 1;
            }
        }
        // The pawn dropped either face up on each of 3 to 6.
        assert_eq!(interposing, 8);
        // No ride checker: nothing interposes.
        assert_eq!(p.interposition_square(list.to_vec()[0], 0), 0);
    }

    #[test]
    fn handing_back_keeps_the_hashes_and_takes_back() {
        let mut p = lance_check();
        let before = (p.hash(), p.hand_hash(), p.hand(White), p.hand(White.flip()));
        // White to move: a pawn goes from Black's hand to White's...
        let mut q = pos("rutherford", "k5L3K", White, [&[0, 1], &[]]);
        let fresh = pos("rutherford", "k5L3K", White, [&[], &[0, 1]]);
        q.hand_back(1);
        assert_eq!(q.hand(White), fresh.hand(White));
        assert_eq!((q.hash(), q.hand_hash()), (fresh.hash(), fresh.hand_hash()));
        // ... and back again.
        p.take_back(1);
        assert_eq!(p.hand(White).count(1), 0);
        p.hand_back(1);
        assert_eq!(
            (p.hash(), p.hand_hash(), p.hand(White), p.hand(White.flip())),
            before
        );
    }
}
