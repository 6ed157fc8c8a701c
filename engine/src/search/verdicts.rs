//! A cache of verdicts already reached: a small number by a key, usable
//! while the epoch they were reached in is (they rest on proofs).
//!
//! Fixed size: a newer verdict replaces an older one in its slot.  A key of
//! 0 is never found.

use crate::search::anchors::Epoch;

const SLOTS: usize = 1 << 12;

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    value: i32,
    epoch: Epoch,
}

/// The cache.
pub struct Verdicts {
    slots: Box<[Slot]>,
}

impl Default for Verdicts {
    fn default() -> Self {
        Self::new()
    }
}

impl Verdicts {
    /// The bytes a cache takes.
    pub const BYTES: usize = SLOTS * std::mem::size_of::<Slot>();

    /// An empty cache.
    pub fn new() -> Verdicts {
        Verdicts {
            slots: vec![Slot::default(); SLOTS].into_boxed_slice(),
        }
    }

    #[inline]
    fn index(key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 52) as usize % SLOTS
    }

    /// The verdict kept for `key`, if one of an epoch from `floor` up is.
    pub fn get(&self, key: u64, floor: Epoch) -> Option<i32> {
        let s = self.slots[Verdicts::index(key)];
        (s.key == key && key != 0 && s.epoch >= floor).then_some(s.value)
    }

    /// Keeps `value` for `key`, reached in `epoch`.
    pub fn put(&mut self, key: u64, value: i32, epoch: Epoch) {
        self.slots[Verdicts::index(key)] = Slot { key, value, epoch };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_are_kept_while_their_epoch_is_used() {
        let mut v = Verdicts::new();
        assert_eq!(v.get(12345, 0), None);
        v.put(12345, 1, 4);
        assert_eq!(v.get(12345, 4), Some(1));
        // Reached in an epoch no longer used: not used.
        assert_eq!(v.get(12345, 5), None);
        assert_eq!(v.get(12346, 0), None);
        // Key 0 is never found.
        v.put(0, 7, 0);
        assert_eq!(v.get(0, 0), None);
    }
}
