//! Mate lengths, and bounds on them, in plies.
//!
//! "Mated within `n` plies" holds within every larger bound too.  Lengths
//! count plies: odd with the attacker to move, even with the defender.  A
//! search for a mate of any length starts at [`MateLen::INFINITE`] and each
//! ply down takes one off, so it never falls to a bounded value: every value
//! from `2^29` up is unbounded, however deep the search went.  A bound may
//! fall below zero at the bottom of a bounded search: nothing is mated
//! within it.

use std::ops::{Add, Sub};

/// The least unbounded value.
const UNBOUNDED: i32 = 1 << 29;

/// A length or a bound in plies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MateLen(i32);

impl MateLen {
    /// Mate on the board: no ply left.
    pub const ZERO: MateLen = MateLen(0);

    /// No bound: the bound of a search for a mate of any length.
    pub const INFINITE: MateLen = MateLen(1 << 30);

    /// The most plies a bounded value holds.
    pub const MAX_PLIES: i32 = UNBOUNDED - 1;

    /// `n` plies (`n` at most [`MateLen::MAX_PLIES`] for a bounded value).
    #[inline(always)]
    pub const fn plies(n: i32) -> MateLen {
        MateLen(n)
    }

    /// The number of plies (of an unbounded value: at least 2^29).
    #[inline(always)]
    pub const fn get(self) -> i32 {
        self.0
    }

    /// A real bound, not "no bound"?
    #[inline(always)]
    pub const fn is_bounded(self) -> bool {
        self.0 < UNBOUNDED
    }

    /// The plies of a bounded value; None for "no bound".
    #[inline(always)]
    pub const fn bounded(self) -> Option<i32> {
        if self.is_bounded() {
            Some(self.0)
        } else {
            None
        }
    }
}

impl Add<i32> for MateLen {
    type Output = MateLen;
    /// Plies more (saturating: "no bound" stays so).
    #[inline(always)]
    fn add(self, n: i32) -> MateLen {
        MateLen(self.0.saturating_add(n))
    }
}

impl Sub<i32> for MateLen {
    type Output = MateLen;
    /// Plies fewer.
    #[inline(always)]
    fn sub(self, n: i32) -> MateLen {
        MateLen(self.0 - n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unbounded_searches_stay_unbounded() {
        // A path of a million plies from INFINITE is still unbounded.
        assert!(!(MateLen::INFINITE - 1_000_000).is_bounded());
        assert!(MateLen::plies(MateLen::MAX_PLIES).is_bounded());
        assert!(!(MateLen::plies(MateLen::MAX_PLIES) + 1).is_bounded());
        assert_eq!(MateLen::INFINITE.bounded(), None);
        assert_eq!(MateLen::plies(7).bounded(), Some(7));
    }

    #[test]
    fn lengths_order_and_step_by_plies() {
        let five = MateLen::plies(5);
        assert!(MateLen::ZERO < five && five < MateLen::INFINITE);
        assert_eq!((five + 2).get(), 7);
        assert_eq!(five - 6, MateLen::plies(-1));
        assert!(MateLen::plies(-1) < MateLen::ZERO);
        assert_eq!(MateLen::plies(i32::MAX) + 1, MateLen::plies(i32::MAX));
    }
}
