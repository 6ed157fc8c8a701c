//! Drops that share their fate, counted once.
//!
//! At a defender node the drops onto one square mostly stand or fall
//! together, so their proof numbers count as the largest of them, not as
//! their sum (`same_square_max`).  At an attacker node the drops of one
//! piece on one side of the king count as the largest of their disproof
//! numbers plus one for each other one not yet disproved (`drop_groups`):
//! summed, a king move that leaves room for many drops looked far harder to
//! refute than it is.  Neither changes what is proved, only where the search
//! looks first.
//!
//! A child's group is 0 when it counts alone; a defender node's drop onto
//! square `s` is in group `s`; an attacker node's drop of face `f` on the
//! side of the king `side` (0 below, 1 above) is in group `1 + 2f + side`.

use crate::search::numbers::{add, PnDn};

/// The most groups (ids `1..GROUPS`).
pub const GROUPS: usize = 66;

/// The group of a defender's drop onto `to`.
#[inline(always)]
pub fn same_square(to: u8) -> u8 {
    to
}

/// The group of an attacker's drop of `face` onto `to`, the enemy king on `king`.
#[inline(always)]
pub fn drop_group(face: u8, to: u8, king: u8) -> u8 {
    1 + 2 * face + (to > king) as u8
}

/// The deltas of one node's children, summed with the groups counted once.
pub struct GroupSums {
    max: [PnDn; GROUPS],
    nonzero: [u32; GROUPS],
    touched: u128,
    alone: PnDn,
    /// 1 at an attacker node: each other member not yet refuted adds one.
    extra: PnDn,
}

impl GroupSums {
    /// Empty sums; `extra`: a group counts its largest number plus one per
    /// other nonzero member (attacker node) or just its largest (defender node).
    pub fn new(extra: bool) -> GroupSums {
        GroupSums {
            max: [0; GROUPS],
            nonzero: [0; GROUPS],
            touched: 0,
            alone: 0,
            extra: extra as PnDn,
        }
    }

    /// Starts again with no child.
    pub fn clear(&mut self, extra: bool) {
        let mut t = self.touched;
        while t != 0 {
            let g = t.trailing_zeros() as usize;
            t &= t - 1;
            self.max[g] = 0;
            self.nonzero[g] = 0;
        }
        self.touched = 0;
        self.alone = 0;
        self.extra = extra as PnDn;
    }

    /// Adds a child's delta.
    #[inline(always)]
    pub fn add(&mut self, group: u8, delta: PnDn) {
        if group == 0 {
            self.alone = add(self.alone, delta);
            return;
        }
        let g = group as usize;
        self.touched |= 1 << g;
        if delta > 0 {
            self.nonzero[g] += 1;
            if delta > self.max[g] {
                self.max[g] = delta;
            }
        }
    }

    /// The node's delta.
    pub fn total(&self) -> PnDn {
        let mut sum = self.alone;
        let mut t = self.touched;
        while t != 0 {
            let g = t.trailing_zeros() as usize;
            t &= t - 1;
            if self.max[g] > 0 {
                sum = add(
                    sum,
                    add(self.max[g], self.extra * (self.nonzero[g] as PnDn - 1)),
                );
            }
        }
        sum
    }

    /// What a child's own delta counts as while it is the largest of its group.
    #[inline(always)]
    pub fn counted(&self, group: u8, delta: PnDn) -> PnDn {
        if group == 0 {
            delta
        } else {
            self.max[group as usize].max(delta)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_defender_group_counts_its_largest() {
        let mut s = GroupSums::new(false);
        s.add(0, 3);
        s.add(5, 2);
        s.add(5, 7);
        s.add(5, 0);
        s.add(9, 1);
        assert_eq!(s.total(), 3 + 7 + 1);
        assert_eq!(s.counted(5, 2), 7);
        assert_eq!(s.counted(0, 3), 3);
    }

    #[test]
    fn an_attacker_group_adds_one_per_other_open_member() {
        let mut s = GroupSums::new(true);
        s.add(drop_group(2, 10, 5), 4);
        s.add(drop_group(2, 11, 5), 1);
        s.add(drop_group(2, 12, 5), 0);
        s.add(drop_group(2, 3, 5), 2); // the other side of the king
        assert_eq!(s.total(), (4 + 1) + 2);
        // A group whose members are all refuted counts nothing.
        s.clear(true);
        s.add(7, 0);
        s.add(7, 0);
        assert_eq!(s.total(), 0);
    }

    #[test]
    fn group_ids() {
        assert_eq!(drop_group(0, 4, 5), 1);
        assert_eq!(drop_group(0, 6, 5), 2);
        assert!((drop_group(31, 63, 1) as usize) < GROUPS);
        assert!((same_square(64) as usize) < GROUPS);
        assert_eq!(same_square(17), 17);
    }
}
