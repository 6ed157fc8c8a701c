//! A position as the table knows it: its board and the attacker's hand.
//!
//! Within one search the pieces are the root's, so the defender's hand
//! follows from the board and the attacker's ([`crate::search::hands`]):
//! positions on one board differ by the attacker's hand alone, and the
//! table keeps them side by side to reuse results across hands.

use crate::rules::hand::Hand;
use crate::rules::position::Position;

/// A board key and an attacker hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    /// The board's key (its pieces and the side to move, not the hands).
    pub board: u64,
    /// The attacker's hand.
    pub hand: Hand,
}

impl Key {
    /// The key of `pos` with `attacker_hand` the attacker's hand there.
    #[inline(always)]
    pub fn of(pos: &Position, attacker_hand: Hand) -> Key {
        Key {
            board: pos.board_key(),
            hand: attacker_hand,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::colour::Colour::Black;
    use crate::rules::position::tests::pos;

    #[test]
    fn positions_differing_in_hands_share_a_board() {
        let a = pos("ito", "k29K", Black, [&[0, 1], &[]]);
        let b = pos("ito", "k29K", Black, [&[0, 0, 1], &[]]);
        let (ka, kb) = (Key::of(&a, a.hand(Black)), Key::of(&b, b.hand(Black)));
        assert_eq!(ka.board, kb.board);
        assert_ne!(ka, kb);
        assert_ne!(a.hash(), b.hash());
    }
}
