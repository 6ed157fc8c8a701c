//! The marks: where the plain backward pass cannot follow the
//! useless-interposition rule.
//!
//! That rule compares the lengths of other lines, and of the position with
//! the captured piece handed back, so distances alone cannot apply it.  A
//! defender node with an interposition among its replies
//! ([`Position::interposition_square`]) is marked when the graph is built
//! ([`interposes`]), and the mark spreads to every node from
//! which a marked one can be reached ([`spread`]): a marked starting position
//! is settled by the df-pn solver instead, and an unmarked one is exact.

use crate::census::csr::Parents;
use crate::census::Halt;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::Mask;

/// A node's flags: a defender node with an interposition among its replies
/// (after [`spread`]: a node from which such a node can be reached).
pub(crate) const MARKED: u8 = 2;

/// Is one of the defender's `moves` an interposition: a drop or a move of a
/// piece other than the king onto a square strictly between its king and one
/// of `ranged`, the pieces checking it along a ride
/// ([`Position::ride_checkers`])?
#[inline]
pub(crate) fn interposes(pos: &Position, moves: &[Move], ranged: Mask) -> bool {
    ranged != 0
        && moves
            .iter()
            .any(|&m| pos.interposition_square(m, ranged) != 0)
}

/// Marks every node from which a marked node can be reached (through the
/// parents), `keep_going` asked now and then.
pub(crate) fn spread(
    flags: &mut [u8],
    parents: &Parents,
    keep_going: &mut dyn FnMut() -> bool,
) -> Result<(), Halt> {
    let mut stack: Vec<u32> = (0..flags.len() as u32)
        .filter(|&i| flags[i as usize] & MARKED != 0)
        .collect();
    let mut count = 0usize;
    while let Some(i) = stack.pop() {
        count += 1;
        if count % (1 << 20) == 0 && !keep_going() {
            return Err(Halt::Interrupted);
        }
        for &p in parents.of(i) {
            if flags[p as usize] & MARKED == 0 {
                flags[p as usize] |= MARKED;
                stack.push(p);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::colour::Colour::White;
    use crate::rules::moves::MoveList;
    use crate::rules::position::tests::pos;
    use crate::rules::square::bit;

    #[test]
    fn an_interposition_is_a_move_between_king_and_rider() {
        // Rutherford: the Black Lance on 9 checks the White king on 3 along
        // the file; White holds a Pawn.
        let mut p = pos("rutherford", "2k5L1", White, [&[], &[0, 1]]);
        let ranged = p.ride_checkers();
        assert_eq!(ranged, bit(9));
        let mut moves = MoveList::new();
        p.legal_moves(Some(false), &mut moves);
        assert!(interposes(&p, moves.as_slice(), ranged));
        for m in moves.iter().copied() {
            let expected = m.is_drop() && (4..=8).contains(&m.to());
            assert_eq!(interposes(&p, &[m], ranged), expected, "{m:?}");
        }
        // A king move onto the line is not an interposition.
        assert!(!interposes(&p, &[Move::board(3, 4)], ranged));
        // Nothing interposes against no ride checker.
        assert!(!interposes(&p, &[Move::drop(2, 5)], 0));
    }

    #[test]
    fn marks_spread_to_ancestors_only() {
        // 0 -> 1 -> 2 (marked), 0 -> 3, 4 -> 3.
        let parents = Parents::from_children(5, &[2, 1, 0, 0, 1], &[1, 3, 2, 3]);
        let mut flags = vec![0, 0, MARKED, 0, 0];
        spread(&mut flags, &parents, &mut || true).unwrap();
        assert_eq!(flags, vec![MARKED, MARKED, MARKED, 0, 0]);
    }
}
