//! One table entry: what the search knows of one position at every bound.
//!
//! A position is its board key and the attacker's hand (the defender's
//! follows, see [`crate::search::hands`]).  The entry holds
//!
//! * a **proof**: mated within `proven` plies (and so within every larger
//!   bound), with its proof hand, the epoch it was found in, whether it holds
//!   for this hand only (`p_exact`) and whether its tree met an anchor's board
//!   (`pa`, [`crate::search::anchors`]);
//! * a **disproof**: not mated within `disproven` plies (nor within any
//!   smaller bound; [`crate::search::bound::INF`]: at no length), with its
//!   disproof hand and `d_exact`;
//! * a disproof that rests on repetitions of the line, and a proof that rests
//!   on the line (a useless interposition judged with its repetitions
//!   counted): each a set of line positions in [`crate::search::sets`], with
//!   its bound (and, for the proof, its epoch) in the set's header;
//! * the proof and disproof numbers of an open search to bound `b`;
//! * `work`, the nodes spent below it: garbage collection keeps the entries
//!   with the most.
//!
//! An all-zero entry is an empty slot, so a table of them costs no memory
//! until it is written.

use crate::hand::Hand;
use crate::search::anchors::Epoch;
use crate::search::bound::{Bound, PnDn, NOT_DISPROVEN, NOT_PROVEN};
use crate::search::sets::SetRef;

/// The bit that marks a used slot in the stored hand (a hand's counts stay below 128).
const USED: u64 = 1 << 63;

const P_EXACT: u8 = 1;
const D_EXACT: u8 = 2;
const PA: u8 = 4;

/// A table entry.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub struct Entry {
    pub(crate) bkey: u64,
    key_hand: u64,
    pub(crate) work: u64,
    pub(crate) pn: PnDn,
    pub(crate) dn: PnDn,
    pub(crate) proof_hand: Hand,
    pub(crate) disproof_hand: Hand,
    pub(crate) b: Bound,
    pub(crate) proven: Bound,
    pub(crate) disproven: Bound,
    pub(crate) p_epoch: Epoch,
    pub(crate) rep: SetRef,
    pub(crate) lp: SetRef,
    flags: u8,
}

impl Entry {
    /// A new entry for a position, knowing nothing.
    pub fn new(bkey: u64, hand: Hand) -> Entry {
        Entry {
            bkey,
            key_hand: hand.packed() | USED,
            work: 0,
            pn: 1,
            dn: 1,
            proof_hand: Hand::EMPTY,
            disproof_hand: Hand::EMPTY,
            b: -1,
            proven: NOT_PROVEN,
            disproven: NOT_DISPROVEN,
            p_epoch: 0,
            rep: 0,
            lp: 0,
            flags: P_EXACT | D_EXACT | PA,
        }
    }

    /// Is the slot empty?
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.key_hand == 0
    }

    /// Empties the slot.
    #[inline(always)]
    pub fn clear(&mut self) {
        *self = Entry::default();
    }

    /// The attacker's hand of the position.
    #[inline(always)]
    pub fn hand(&self) -> Hand {
        Hand::from_packed(self.key_hand & !USED)
    }

    /// Is this the entry of the position (board key and attacker hand)?
    #[inline(always)]
    pub fn is_for(&self, bkey: u64, hand: Hand) -> bool {
        self.key_hand == hand.packed() | USED && self.bkey == bkey
    }

    /// Does the proof hold for this hand only?
    #[inline(always)]
    pub fn p_exact(&self) -> bool {
        self.flags & P_EXACT != 0
    }

    /// Does the disproof hold for this hand only?
    #[inline(always)]
    pub fn d_exact(&self) -> bool {
        self.flags & D_EXACT != 0
    }

    /// Did the proof's tree meet an anchor's board?
    #[inline(always)]
    pub fn pa(&self) -> bool {
        self.flags & PA != 0
    }

    /// Does the entry hold a proof of either kind (a result garbage
    /// collection may drop only by starting an epoch)?
    #[inline(always)]
    pub fn holds_proof(&self) -> bool {
        self.proven != NOT_PROVEN || self.lp != 0
    }

    /// Records a proof within `length` found in `epoch`, unless the entry has
    /// a shorter one of an epoch still in use (`floor`).
    pub fn set_proof(&mut self, length: Bound, hand: Hand, exact: bool, pa: bool, epoch: Epoch, floor: Epoch) {
        if length < self.proven || self.p_epoch < floor {
            self.proven = length;
            self.proof_hand = hand;
            self.p_epoch = epoch;
            self.flags = self.flags & D_EXACT | if exact { P_EXACT } else { 0 } | if pa { PA } else { 0 };
        }
    }

    /// Records a disproof within `bound`, unless the entry has one within a larger bound.
    pub fn set_disproof(&mut self, bound: Bound, hand: Hand, exact: bool) {
        if bound > self.disproven {
            self.disproven = bound;
            self.disproof_hand = hand;
            self.flags = self.flags & !D_EXACT | if exact { D_EXACT } else { 0 };
        }
    }

    /// Records the numbers of an open search to bound `b`.
    pub fn set_open(&mut self, b: Bound, pn: PnDn, dn: PnDn) {
        self.b = b;
        self.pn = pn;
        self.dn = dn;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zeroed_entry_is_an_empty_slot() {
        let e = Entry::default();
        assert!(e.is_empty());
        let f = Entry::new(0, Hand::EMPTY);
        assert!(!f.is_empty() && f.is_for(0, Hand::EMPTY));
        assert!(!f.is_for(1, Hand::EMPTY));
        assert_eq!(f.hand(), Hand::EMPTY);
        assert!(std::mem::size_of::<Entry>() <= 96, "{}", std::mem::size_of::<Entry>());
    }

    #[test]
    fn proofs_keep_the_shortest_of_a_usable_epoch() {
        let mut e = Entry::new(9, Hand::EMPTY);
        assert!(!e.holds_proof());
        e.set_proof(7, Hand::EMPTY, false, false, 1, 0);
        assert_eq!(e.proven, 7);
        assert!(!e.p_exact() && !e.pa() && e.holds_proof());
        e.set_proof(9, Hand::EMPTY, true, true, 2, 0);
        assert_eq!(e.proven, 7);
        // A proof of an epoch no longer used is replaced even by a longer one.
        e.set_proof(9, Hand::EMPTY, true, true, 3, 2);
        assert_eq!((e.proven, e.p_epoch), (9, 3));
        assert!(e.p_exact() && e.pa());
    }

    #[test]
    fn disproofs_keep_the_largest_bound() {
        let mut e = Entry::new(9, Hand::EMPTY);
        e.set_disproof(5, Hand::EMPTY, false);
        e.set_disproof(3, Hand::EMPTY, true);
        assert_eq!(e.disproven, 5);
        assert!(!e.d_exact());
        e.set_disproof(7, Hand::EMPTY, true);
        assert!(e.d_exact());
        // The flags of the proof are untouched.
        assert!(e.p_exact() && e.pa());
    }
}
