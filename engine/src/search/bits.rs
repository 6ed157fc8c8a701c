//! A set of small integers as a row of bits, kept for reuse.

/// The set.
#[derive(Default)]
pub struct Bits {
    words: Vec<u64>,
}

impl Bits {
    /// Empties the set for integers below `n`.
    pub fn reset(&mut self, n: usize) {
        self.words.clear();
        self.words.resize(n.div_ceil(64), 0);
    }

    /// Is `i` in the set?
    #[inline(always)]
    pub fn has(&self, i: usize) -> bool {
        self.words[i / 64] >> (i % 64) & 1 != 0
    }

    /// Puts `i` in the set.
    #[inline(always)]
    pub fn set(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }

    /// Takes `i` out of the set.
    #[inline(always)]
    pub fn unset(&mut self, i: usize) {
        self.words[i / 64] &= !(1 << (i % 64));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_come_and_go() {
        let mut b = Bits::default();
        b.reset(130);
        assert!(!(0..130).any(|i| b.has(i)));
        for i in [0, 63, 64, 129] {
            b.set(i);
        }
        assert!(b.has(63) && b.has(64) && b.has(129) && !b.has(65));
        b.unset(64);
        assert!(!b.has(64) && b.has(63));
        b.reset(10);
        assert!(!b.has(0));
    }
}
