//! The two sides.

/// A side: Black (moves toward square 1, moves first) or White.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Colour {
    /// The side that moves toward square 1.
    Black = 0,
    /// The side that moves toward square `n`.
    White = 1,
}

impl Colour {
    /// 0 for Black, 1 for White (the low bit of a piece value).
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour of index 0 or 1 (any odd number is White).
    #[inline(always)]
    pub fn from_index(i: usize) -> Colour {
        if i & 1 == 0 {
            Colour::Black
        } else {
            Colour::White
        }
    }

    /// The other side.
    #[inline(always)]
    pub fn flip(self) -> Colour {
        Colour::from_index(self.index() ^ 1)
    }

    /// The absolute direction of "forward": -1 for Black, +1 for White.
    #[inline(always)]
    pub fn forward(self) -> i32 {
        if self == Colour::Black {
            -1
        } else {
            1
        }
    }

    /// "Black" or "White".
    pub fn name(self) -> &'static str {
        match self {
            Colour::Black => "Black",
            Colour::White => "White",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flip_and_forward() {
        assert_eq!(Colour::Black.flip(), Colour::White);
        assert_eq!(Colour::White.flip().index(), 0);
        assert_eq!(Colour::Black.forward(), -1);
        assert_eq!(Colour::from_index(3), Colour::White);
        assert_eq!(Colour::White.name(), "White");
    }
}
