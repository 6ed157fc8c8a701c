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
//!   smaller bound; unbounded: at no length), with its disproof hand and
//!   `d_exact`;
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

use crate::rules::hand::Hand;
use crate::search::anchors::Epoch;
use crate::search::key::Key;
use crate::search::mate_len::MateLen;
use crate::search::numbers::PnDn;
use crate::search::result::{Disproof, Proof, Rep};
use crate::search::sets::SetRef;

const USED: u8 = 128;

// The lengths are kept as plies; these stand for "none".
const NOT_PROVEN: i32 = i32::MAX;
const NOT_DISPROVEN: i32 = -1;
const NOT_OPEN: i32 = -1;
const P_EXACT: u8 = 1;
const D_EXACT: u8 = 2;
const PA: u8 = 4;

/// A hand in a nibble per kind (at most 8 kinds; counts above 15 read as
/// 15, "any number": the search refuses a position with more than 15
/// pieces of a kind, so no count it meets is larger).
#[inline(always)]
fn pack(h: Hand) -> u32 {
    let mut x = h.packed();
    // Saturate each byte at 15 (every byte is below 128).
    let over = ((x | 0x8080_8080_8080_8080) - 0x1010_1010_1010_1010) & 0x8080_8080_8080_8080;
    let mask = (over >> 7) * 0xff;
    x = (x & !mask) | (0x0f0f_0f0f_0f0f_0f0f & mask);
    x = (x | x >> 4) & 0x00ff_00ff_00ff_00ff;
    x = (x | x >> 8) & 0x0000_ffff_0000_ffff;
    x = (x | x >> 16) & 0xffff_ffff;
    x as u32
}

#[inline(always)]
fn unpack(v: u32) -> Hand {
    let mut x = v as u64;
    x = (x | x << 16) & 0x0000_ffff_0000_ffff;
    x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
    x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    Hand::from_packed(x)
}

/// A table entry: 64 bytes, one cache line.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
pub struct Entry {
    pub(crate) bkey: u64,
    hand: u32,
    proof_hand: u32,
    disproof_hand: u32,
    work: u32,
    pn: u32,
    dn: u32,
    b: i32,
    proven: i32,
    disproven: i32,
    pub(crate) p_epoch: Epoch,
    pub(crate) rep: SetRef,
    pub(crate) lp: SetRef,
    flags: u8,
}

// SAFETY: an all-zero Entry is a valid value: an empty slot.
unsafe impl crate::search::slab::Zeroable for Entry {}

impl Entry {
    /// A new entry for a position, knowing nothing.
    pub fn new(key: Key) -> Entry {
        Entry {
            bkey: key.board,
            hand: pack(key.hand),
            work: 0,
            pn: 1,
            dn: 1,
            proof_hand: 0,
            disproof_hand: 0,
            b: NOT_OPEN,
            proven: NOT_PROVEN,
            disproven: NOT_DISPROVEN,
            p_epoch: 0,
            rep: 0,
            lp: 0,
            flags: USED | P_EXACT | D_EXACT | PA,
        }
    }

    /// Is the slot empty?
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.flags & USED == 0
    }

    /// Empties the slot.
    #[inline(always)]
    pub fn clear(&mut self) {
        *self = Entry::default();
    }

    /// The attacker's hand of the position.
    #[inline(always)]
    pub fn hand(&self) -> Hand {
        unpack(self.hand)
    }

    /// The position of the entry.
    #[inline(always)]
    pub fn key(&self) -> Key {
        Key {
            board: self.bkey,
            hand: self.hand(),
        }
    }

    /// Is this the entry of the position?
    #[inline(always)]
    pub fn is_for(&self, key: Key) -> bool {
        self.hand == pack(key.hand) && self.bkey == key.board && !self.is_empty()
    }

    /// The proof hand.
    #[inline(always)]
    pub fn proof_hand(&self) -> Hand {
        unpack(self.proof_hand)
    }

    /// The disproof hand.
    #[inline(always)]
    pub fn disproof_hand(&self) -> Hand {
        unpack(self.disproof_hand)
    }

    /// The numbers of the open search at bound `b`.
    #[inline(always)]
    pub fn numbers(&self) -> (PnDn, PnDn) {
        (self.pn as PnDn, self.dn as PnDn)
    }

    /// The bound of the open search the numbers are of (None: none yet).
    #[inline(always)]
    pub fn open_bound(&self) -> Option<MateLen> {
        (self.b != NOT_OPEN).then_some(MateLen::plies(self.b))
    }

    /// The length of the proof (None: no proof).
    #[inline(always)]
    pub fn proof_len(&self) -> Option<MateLen> {
        (self.proven != NOT_PROVEN).then_some(MateLen::plies(self.proven))
    }

    /// Is the position proven mated within `b`?
    #[inline(always)]
    pub fn proven_within(&self, b: MateLen) -> bool {
        self.proven <= b.get()
    }

    /// The bound of the disproof (None: no disproof).
    #[inline(always)]
    pub fn disproof_bound(&self) -> Option<MateLen> {
        (self.disproven != NOT_DISPROVEN).then_some(MateLen::plies(self.disproven))
    }

    /// The proof (the entry holds one).
    #[inline(always)]
    pub fn proof(&self) -> Proof {
        Proof {
            len: MateLen::plies(self.proven),
            hand: self.proof_hand(),
            exact: self.p_exact(),
            pa: self.pa(),
            rep: Rep::None,
        }
    }

    /// The disproof (bound -1, below any real one, if the entry holds none).
    #[inline(always)]
    pub fn disproof(&self) -> Disproof {
        Disproof {
            bound: MateLen::plies(self.disproven),
            hand: self.disproof_hand(),
            exact: self.d_exact(),
            rep: Rep::None,
        }
    }

    /// Is the position disproven within `b` (not mated within it)?
    #[inline(always)]
    pub fn disproven_within(&self, b: MateLen) -> bool {
        self.disproven >= b.get()
    }

    /// The nodes spent below the entry (saturating).
    #[inline(always)]
    pub fn work(&self) -> u64 {
        self.work as u64
    }

    /// Adds to the nodes spent below the entry.
    #[inline(always)]
    pub fn add_work(&mut self, work: u64) {
        self.work = self.work.saturating_add(work.min(u32::MAX as u64) as u32);
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
    pub fn set_proof(
        &mut self,
        length: MateLen,
        hand: Hand,
        exact: bool,
        pa: bool,
        epoch: Epoch,
        floor: Epoch,
    ) {
        if length.get() < self.proven || self.p_epoch < floor {
            self.proven = length.get();
            self.proof_hand = pack(hand);
            self.p_epoch = epoch;
            self.flags = self.flags & (USED | D_EXACT)
                | if exact { P_EXACT } else { 0 }
                | if pa { PA } else { 0 };
        }
    }

    /// Records a disproof within `bound`, unless the entry has one within a larger bound.
    pub fn set_disproof(&mut self, bound: MateLen, hand: Hand, exact: bool) {
        if bound.get() > self.disproven {
            self.disproven = bound.get();
            self.disproof_hand = pack(hand);
            self.flags = self.flags & !D_EXACT | if exact { D_EXACT } else { 0 };
        }
    }

    /// Records the numbers of an open search to bound `b`.
    pub fn set_open(&mut self, b: MateLen, pn: PnDn, dn: PnDn) {
        self.b = b.get();
        self.pn = pn.min(u32::MAX as PnDn) as u32;
        self.dn = dn.min(u32::MAX as PnDn) as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn len(n: i32) -> MateLen {
        MateLen::plies(n)
    }

    #[test]
    fn hands_in_nibbles() {
        let h = Hand::from_counts(&[0, 3, 15, 1, 0, 2, 7, 9]).unwrap();
        assert_eq!(unpack(pack(h)), h);
        // "Any number" (127) reads as 15.
        let any = Hand::from_counts(&[127, 2]).unwrap();
        assert_eq!(unpack(pack(any)), Hand::from_counts(&[15, 2]).unwrap());
    }

    #[test]
    fn a_zeroed_entry_is_an_empty_slot() {
        let e = Entry::default();
        assert!(e.is_empty());
        let key = |board| Key {
            board,
            hand: Hand::EMPTY,
        };
        let f = Entry::new(key(0));
        assert!(!f.is_empty() && f.is_for(key(0)));
        assert!(!f.is_for(key(1)));
        assert_eq!(f.key(), key(0));
        assert_eq!(f.hand(), Hand::EMPTY);
        assert_eq!(std::mem::size_of::<Entry>(), 64);
    }

    #[test]
    fn proofs_keep_the_shortest_of_a_usable_epoch() {
        let mut e = Entry::new(Key {
            board: 9,
            hand: Hand::EMPTY,
        });
        assert!(!e.holds_proof());
        assert_eq!(e.proof_len(), None);
        e.set_proof(len(7), Hand::EMPTY, false, false, 1, 0);
        assert_eq!(e.proof_len(), Some(len(7)));
        assert!(e.proven_within(len(7)) && !e.proven_within(len(5)));
        assert!(!e.p_exact() && !e.pa() && e.holds_proof());
        e.set_proof(len(9), Hand::EMPTY, true, true, 2, 0);
        assert_eq!(e.proof_len(), Some(len(7)));
        // A proof of an epoch no longer used is replaced even by a longer one.
        e.set_proof(len(9), Hand::EMPTY, true, true, 3, 2);
        assert_eq!((e.proof_len(), e.p_epoch), (Some(len(9)), 3));
        let p = e.proof();
        assert_eq!(
            (p.len, p.exact, p.pa, p.rep),
            (len(9), true, true, Rep::None)
        );
        assert!(e.p_exact() && e.pa());
    }

    #[test]
    fn disproofs_keep_the_largest_bound() {
        let mut e = Entry::new(Key {
            board: 9,
            hand: Hand::EMPTY,
        });
        assert_eq!(e.disproof_bound(), None);
        assert!(!e.disproven_within(MateLen::ZERO));
        e.set_disproof(len(5), Hand::EMPTY, false);
        e.set_disproof(len(3), Hand::EMPTY, true);
        assert_eq!(e.disproof_bound(), Some(len(5)));
        assert!(e.disproven_within(len(5)) && !e.disproven_within(len(7)));
        assert!(!e.d_exact());
        e.set_disproof(len(7), Hand::EMPTY, true);
        assert_eq!((e.disproof().bound, e.disproof().exact), (len(7), true));
        assert!(e.d_exact());
        // The flags of the proof are untouched.
        assert!(e.p_exact() && e.pa());
    }
}
