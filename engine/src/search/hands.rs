//! Proof and disproof hands: which attacker hands a result holds for.
//!
//! Within one search every position has the same pieces in all (the root's:
//! moves and captures only move them between board and hands), so on one
//! board the attacker's hand `A` fixes the defender's (`D` = what is left).
//! A result is therefore stored with the attacker's hand alone, and a bound
//! on it says for which other hands on the same board it holds:
//!
//! * a **proof hand** `L`: every position on the board whose attacker holds
//!   at least `L` (`A >= L`, field by field) is mated within the same
//!   length: more pieces for the attacker, fewer for the defender;
//! * a **disproof hand** `U`: every position whose attacker holds at most `U`
//!   is not mated within the same bound.
//!
//! (A bound on the defender's hand is a bound on the attacker's: "the
//! defender holds at most `du`" is "the attacker holds at least what is left
//! beside `du`", which is how KomoringHeights' drop corrections below read.)
//!
//! The hands are carried from a child to its parent over the move between
//! them: an attacker's drop needed the piece (one more in the parent), a
//! capture brought one (one fewer).  A defender's move leaves the attacker's
//! hand as it is, and the bounds with it.

use crate::rules::hand::Hand;

const HIGH: u64 = 0x8080_8080_8080_8080;
const LOW: u64 = 0x0101_0101_0101_0101;
/// The largest count a field holds: "any number".
const ANY: u8 = 0x7f;

/// A disproof hand that holds for every attacker hand.
#[inline(always)]
pub fn any_hand() -> Hand {
    Hand::from_packed(ANY as u64 * LOW)
}

/// How a move changes the mover's hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum HandChange {
    /// Neither a drop nor a capture.
    #[default]
    None,
    /// A drop of a piece of this kind.
    Drop(u8),
    /// A capture of a piece of this kind.
    Capture(u8),
}

impl HandChange {
    /// The mover's hand after the move.
    #[inline(always)]
    pub fn apply(self, mut hand: Hand) -> Hand {
        match self {
            HandChange::None => {}
            HandChange::Drop(k) => hand.remove(k as usize),
            HandChange::Capture(k) => hand.add(k as usize),
        }
        hand
    }
}

#[inline(always)]
fn set(hand: Hand, k: u8, count: u8) -> Hand {
    let shift = 8 * k as u64;
    Hand::from_packed(hand.packed() & !(0xff << shift) | (count as u64) << shift)
}

/// Field by field, a mask of `0xff` where `x >= y` (every field below 128).
#[inline(always)]
fn ge_mask(x: u64, y: u64) -> u64 {
    let t = ((x | HIGH) - y) & HIGH;
    (t >> 7) * 0xff
}

/// The smaller of each field.
#[inline(always)]
pub fn min(x: Hand, y: Hand) -> Hand {
    let (a, b) = (x.packed(), y.packed());
    let m = ge_mask(a, b);
    Hand::from_packed((b & m) | (a & !m))
}

/// The larger of each field.
#[inline(always)]
pub fn max(x: Hand, y: Hand) -> Hand {
    let (a, b) = (x.packed(), y.packed());
    let m = ge_mask(a, b);
    Hand::from_packed((a & m) | (b & !m))
}

/// A proof hand of the child carried to the parent over the attacker's move:
/// a drop needed the piece, a capture brought one (never below 0).
#[inline]
pub fn proof_before_attack(hand: Hand, change: HandChange) -> Hand {
    match change {
        HandChange::None => hand,
        HandChange::Drop(k) => {
            let c = hand.count(k as usize);
            if c >= ANY {
                hand
            } else {
                set(hand, k, c + 1)
            }
        }
        HandChange::Capture(k) => {
            let c = hand.count(k as usize);
            if c == 0 || c >= ANY {
                hand
            } else {
                set(hand, k, c - 1)
            }
        }
    }
}

/// A disproof hand of the child carried to the parent over the attacker's
/// move; `None` when no parent hand fits (a capture into a bound of none),
/// and the disproof then holds for its own hand only.
#[inline]
pub fn disproof_before_attack(hand: Hand, change: HandChange) -> Option<Hand> {
    match change {
        HandChange::None => Some(hand),
        HandChange::Drop(k) => {
            let c = hand.count(k as usize);
            Some(if c >= ANY { hand } else { set(hand, k, c + 1) })
        }
        HandChange::Capture(k) => {
            let c = hand.count(k as usize);
            match c {
                0 => None,
                ANY => Some(hand),
                _ => Some(set(hand, k, c - 1)),
            }
        }
    }
}

/// KomoringHeights' correction of a disproof: a kind the attacker lacks
/// (`attacker`) whose drop would give check (bit `k` of `checking_kinds`)
/// may not be added, or the disproof would cover a position with a check it
/// never refuted.
pub fn pin_drop_checks(hand: Hand, checking_kinds: u32, attacker: Hand) -> Hand {
    let mut out = hand;
    let mut kinds = checking_kinds;
    while kinds != 0 {
        let k = kinds.trailing_zeros() as u8;
        kinds &= kinds - 1;
        if attacker.count(k as usize) == 0 {
            out = set(out, k, 0);
        }
    }
    out
}

/// KomoringHeights' correction of a proof at a defender node that could
/// interpose: a kind the defender lacks (so the attacker holds all of it
/// that is off the board) could have been interposed had the defender held
/// one, so the proof needs the attacker to keep every piece of that kind.
pub fn keep_kinds_defender_lacks(
    hand: Hand,
    attacker: Hand,
    defender: Hand,
    nkinds: usize,
) -> Hand {
    let mut out = hand;
    for k in 0..nkinds {
        if defender.count(k) == 0 {
            out = set(out, k as u8, attacker.count(k));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(counts: &[u8]) -> Hand {
        Hand::from_counts(counts).unwrap()
    }

    #[test]
    fn min_and_max_by_field() {
        let a = h(&[0, 3, 1, 7]);
        let b = h(&[2, 1, 1, 0]);
        assert_eq!(min(a, b), h(&[0, 1, 1, 0]));
        assert_eq!(max(a, b), h(&[2, 3, 1, 7]));
        assert_eq!(min(a, any_hand()), a);
        assert_eq!(max(a, Hand::EMPTY), a);
    }

    #[test]
    fn any_hand_covers_every_hand() {
        assert!(any_hand().covers(h(&[5, 5, 5, 5, 5, 5, 5, 5])));
        assert_eq!(any_hand().count(7), ANY);
    }

    #[test]
    fn proofs_carried_over_the_attackers_move() {
        let child = h(&[1, 0, 2]);
        // The drop needed the piece; the capture brought one (never below 0).
        assert_eq!(
            proof_before_attack(child, HandChange::Drop(1)),
            h(&[1, 1, 2])
        );
        assert_eq!(
            proof_before_attack(child, HandChange::Capture(2)),
            h(&[1, 0, 1])
        );
        assert_eq!(proof_before_attack(child, HandChange::Capture(1)), child);
        assert_eq!(proof_before_attack(child, HandChange::None), child);
    }

    #[test]
    fn disproofs_carried_over_the_attackers_move() {
        let child = h(&[1, 0, 2]);
        assert_eq!(
            disproof_before_attack(child, HandChange::Drop(1)),
            Some(h(&[1, 1, 2]))
        );
        assert_eq!(
            disproof_before_attack(child, HandChange::Capture(2)),
            Some(h(&[1, 0, 1]))
        );
        assert_eq!(disproof_before_attack(child, HandChange::Capture(1)), None);
        // "Any number" stays so.
        assert_eq!(
            disproof_before_attack(any_hand(), HandChange::Capture(3)),
            Some(any_hand())
        );
        assert_eq!(
            disproof_before_attack(any_hand(), HandChange::Drop(3)),
            Some(any_hand())
        );
    }

    #[test]
    fn a_move_changes_the_movers_hand() {
        let hand = h(&[1, 1]);
        assert_eq!(HandChange::Drop(0).apply(hand), h(&[0, 1]));
        assert_eq!(HandChange::Capture(1).apply(hand), h(&[1, 2]));
        assert_eq!(HandChange::None.apply(hand), hand);
    }

    #[test]
    fn drop_checks_are_pinned_for_kinds_the_attacker_lacks() {
        // Kinds 1 and 2 would give check by a drop; the attacker holds kind 2 only.
        let attacker = h(&[0, 0, 1]);
        assert_eq!(
            pin_drop_checks(any_hand(), 0b110, attacker),
            set(any_hand(), 1, 0)
        );
        assert_eq!(pin_drop_checks(any_hand(), 0, attacker), any_hand());
    }

    #[test]
    fn a_proof_keeps_the_kinds_the_defender_lacks() {
        let attacker = h(&[2, 1, 0]);
        let defender = h(&[0, 1, 2]);
        assert_eq!(
            keep_kinds_defender_lacks(h(&[0, 0, 0]), attacker, defender, 3),
            h(&[2, 0, 0])
        );
    }
}
