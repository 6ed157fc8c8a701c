//! Test positions: a tsume position from a position string, the defender
//! holding the rest of the set unless the string gives it pieces.

use crate::rules::hand::Hand;
use crate::rules::position::Position;
use crate::rules::variant::builtin;

/// The tsume position of `fen` in the built-in `variant`.
pub(crate) fn tsume(variant: &str, fen: &str) -> Position {
    let pos = Position::from_fen(&builtin(variant), fen).unwrap();
    let attacker = pos.turn();
    let defender = attacker.flip();
    if !pos.hand(defender).is_empty() {
        return pos;
    }
    let t = pos.tables().clone();
    let mut counts: Vec<i32> = (0..t.nkinds)
        .map(|k| {
            if k == t.royal_kind {
                0
            } else {
                t.kind_count[k] as i32
            }
        })
        .collect();
    for &v in pos.board() {
        if v != 0 && !t.royal[v as usize] {
            counts[t.face_kind[(v >> 1) as usize] as usize] -= 1;
        }
    }
    for (k, c) in counts.iter_mut().enumerate() {
        *c -= pos.hand(attacker).count(k) as i32;
    }
    let rest: Vec<u8> = counts.iter().map(|&c| c.max(0) as u8).collect();
    let mut hands = [Hand::EMPTY; 2];
    hands[attacker.index()] = pos.hand(attacker);
    hands[defender.index()] = Hand::from_counts(&rest).unwrap();
    pos.with_hands(hands)
}

/// The tsume position of `fen` with the defender's hand as the string gives it (maybe empty).
pub(crate) fn tsume_as_given(variant: &str, fen: &str) -> Position {
    Position::from_fen(&builtin(variant), fen).unwrap()
}
