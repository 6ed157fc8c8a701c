//! Hands: how many pieces of each kind a side holds, packed one byte per kind into a `u64`.

use crate::rules::variant::MAX_KINDS;

/// A hand: byte `k` of the `u64` is the count of kind `k`.
///
/// Packed hands compare cheaply: [`Hand::covers`] tells whether one hand has
/// at least as many of every kind as another (the df-pn search's hand dominance).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Hand(u64);

const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

impl Hand {
    /// The empty hand.
    pub const EMPTY: Hand = Hand(0);

    /// A hand from counts by kind (at most [`MAX_KINDS`] kinds, counts below 128); `None` otherwise.
    pub fn from_counts(counts: &[u8]) -> Option<Hand> {
        if counts.len() > MAX_KINDS || counts.iter().any(|&c| c >= 128) {
            return None;
        }
        Some(Hand(
            counts
                .iter()
                .enumerate()
                .fold(0, |acc, (k, &c)| acc | (c as u64) << (8 * k)),
        ))
    }

    /// The hand of a packed value (as [`Hand::packed`] gives it).
    pub fn from_packed(packed: u64) -> Hand {
        Hand(packed)
    }

    /// The packed value.
    #[inline(always)]
    pub fn packed(self) -> u64 {
        self.0
    }

    /// How many of kind `k`.
    #[inline(always)]
    pub fn count(self, k: usize) -> u8 {
        (self.0 >> (8 * k)) as u8
    }

    /// One more of kind `k`.
    #[inline(always)]
    pub fn add(&mut self, k: usize) {
        self.0 += 1 << (8 * k);
    }

    /// One fewer of kind `k` (the caller knows there is one).
    #[inline(always)]
    pub fn remove(&mut self, k: usize) {
        self.0 -= 1 << (8 * k);
    }

    /// No piece at all?
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of pieces.
    pub fn total(self) -> u32 {
        (0..MAX_KINDS).map(|k| self.count(k) as u32).sum()
    }

    /// The bit set of kinds held (bit `k` for kind `k`).
    #[inline(always)]
    pub fn kinds(self) -> u32 {
        let mut out = 0;
        let mut x = self.0;
        while x != 0 {
            let k = x.trailing_zeros() / 8;
            out |= 1 << k;
            x &= !(0xffu64 << (8 * k));
        }
        out
    }

    /// The counts of the first `nkinds` kinds.
    pub fn counts(self, nkinds: usize) -> Vec<u8> {
        (0..nkinds).map(|k| self.count(k)).collect()
    }

    /// At least as many of every kind as `other`?
    #[inline(always)]
    pub fn covers(self, other: Hand) -> bool {
        // Each byte holds a count below 128: setting its high bit and
        // subtracting borrows out of that bit exactly when self < other.
        ((self.0 | HIGH_BITS) - other.0) & HIGH_BITS == HIGH_BITS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_round_trip() {
        let h = Hand::from_counts(&[0, 2, 1, 0, 3]).unwrap();
        assert_eq!(h.counts(5), vec![0, 2, 1, 0, 3]);
        assert_eq!(h.total(), 6);
        assert_eq!(h.kinds(), 0b10110);
        assert_eq!(Hand::from_packed(h.packed()), h);
        assert!(Hand::from_counts(&[200]).is_none());
        assert!(Hand::from_counts(&[0; 9]).is_none());
    }

    #[test]
    fn add_remove_cover() {
        let mut h = Hand::EMPTY;
        assert!(h.is_empty());
        h.add(3);
        h.add(3);
        h.add(0);
        assert_eq!(h.count(3), 2);
        h.remove(3);
        assert_eq!(h.count(3), 1);
        let small = Hand::from_counts(&[1, 0, 0, 1]).unwrap();
        assert!(h.covers(small));
        assert!(h.covers(Hand::EMPTY));
        assert!(!small.covers(Hand::from_counts(&[0, 1]).unwrap()));
        assert!(Hand::from_counts(&[127; 8])
            .unwrap()
            .covers(Hand::from_counts(&[126; 8]).unwrap()));
    }
}
