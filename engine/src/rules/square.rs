//! Squares and square masks.
//!
//! Squares are numbered `1..=n` (at most [`MAX_SQUARES`]); a [`Mask`] is a set
//! of squares with bit `s - 1` standing for square `s`.

/// A square, `1..=n`; 0 stands for "none" (no king, or a drop's from-square).
pub type Square = u8;

/// A set of squares: bit `s - 1` for square `s`.
pub type Mask = u64;

/// The longest board the engine supports (one bit of a [`Mask`] per square).
pub const MAX_SQUARES: usize = 64;

/// The mask holding only square `s` (`s` in `1..=64`).
#[inline(always)]
pub fn bit(s: Square) -> Mask {
    1u64 << (s - 1)
}

/// The mask holding square `s`, or nothing for square 0.
#[inline(always)]
pub fn bit_or_none(s: Square) -> Mask {
    if s == 0 {
        0
    } else {
        bit(s)
    }
}

/// Does `m` hold square `s` (false for square 0)?
#[inline(always)]
pub fn has(m: Mask, s: Square) -> bool {
    s != 0 && (m >> (s - 1)) & 1 != 0
}

/// The lowest square of a non-empty mask.
#[inline(always)]
pub fn lowest(m: Mask) -> Square {
    debug_assert!(m != 0);
    (m.trailing_zeros() + 1) as Square
}

/// The highest square of a non-empty mask.
#[inline(always)]
pub fn highest(m: Mask) -> Square {
    debug_assert!(m != 0);
    (64 - m.leading_zeros()) as Square
}

/// The squares of `1..=n`.
#[inline]
pub fn board_mask(n: usize) -> Mask {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Iterates the squares of a mask, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub Mask);

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let s = lowest(self.0);
            self.0 &= self.0 - 1;
            Some(s)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_and_ends() {
        assert_eq!(bit(1), 1);
        assert_eq!(bit(64), 1 << 63);
        assert_eq!(bit_or_none(0), 0);
        assert!(has(bit(5), 5));
        assert!(!has(bit(5), 0));
        let m = bit(3) | bit(9) | bit(64);
        assert_eq!(lowest(m), 3);
        assert_eq!(highest(m), 64);
        assert_eq!(Squares(m).collect::<Vec<_>>(), vec![3, 9, 64]);
    }

    #[test]
    fn board_masks() {
        assert_eq!(board_mask(31).count_ones(), 31);
        assert_eq!(board_mask(64), u64::MAX);
        assert_eq!(highest(board_mask(9)), 9);
    }
}
