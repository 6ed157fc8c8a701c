//! Moves and fixed-capacity move lists.
//!
//! A move is the int `from | to << 7 | face << 14`: a board move has its
//! from-square and face 0, a drop has from-square 0 and the face it is dropped
//! as.  Sorting moves as ints and every move string stay as the Python package
//! has always had them.

use std::mem::MaybeUninit;

use crate::rules::square::{bit, bit_or_none, Mask, Square};

/// A move as its int encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Move(u32);

impl Move {
    /// A board move.
    #[inline(always)]
    pub fn board(from: Square, to: Square) -> Move {
        Move(from as u32 | (to as u32) << 7)
    }

    /// A drop of `face` onto `to`.
    #[inline(always)]
    pub fn drop(face: u8, to: Square) -> Move {
        Move((to as u32) << 7 | (face as u32) << 14)
    }

    /// The move of an int, if it has the shape of one (squares `1..=n`; a drop has a face, a board move none).
    pub fn from_raw(raw: u64, n: usize) -> Option<Move> {
        if raw >= 1 << 21 {
            return None;
        }
        let m = Move(raw as u32);
        let ok_to = (1..=n).contains(&(m.to() as usize));
        let ok = if m.is_drop() {
            m.face() != 0
        } else {
            m.face() == 0 && (m.from() as usize) <= n
        };
        (ok && ok_to).then_some(m)
    }

    /// The int encoding.
    #[inline(always)]
    pub fn raw(self) -> u32 {
        self.0
    }

    /// The from-square (0 for a drop).
    #[inline(always)]
    pub fn from(self) -> Square {
        (self.0 & 127) as Square
    }

    /// The to-square.
    #[inline(always)]
    pub fn to(self) -> Square {
        (self.0 >> 7 & 127) as Square
    }

    /// The dropped face (0 for a board move).
    #[inline(always)]
    pub fn face(self) -> u8 {
        (self.0 >> 14) as u8
    }

    /// Is it a drop?
    #[inline(always)]
    pub fn is_drop(self) -> bool {
        self.0 & 127 == 0
    }

    /// The squares whose occupancy by the mover the move changes.
    #[inline(always)]
    pub fn footprint(self) -> Mask {
        bit_or_none(self.from()) | bit(self.to())
    }
}

/// The most moves a list holds: more than any position can have.
///
/// A piece reaches at most `n - 1` squares and a drop face the empty ones, so
/// `p` pieces and `F` drop faces on `n <= 64` squares give at most
/// `p (n - 1) + (n - p) F <= n * max(n - 1, F) <= 64 * 63` moves (`F` <= 31).
pub const MAX_MOVES: usize = 4096;

/// A list of moves on the stack: pushing never allocates.
pub struct MoveList {
    len: usize,
    moves: [MaybeUninit<Move>; MAX_MOVES],
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
        }
    }

    /// Appends a move (a move past the capacity is dropped; the tables make sure none is).
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = MaybeUninit::new(m);
            self.len += 1;
        }
    }

    /// The number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// No moves?
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `len` moves.
    #[inline(always)]
    pub fn truncate(&mut self, len: usize) {
        if len < self.len {
            self.len = len;
        }
    }

    /// The moves.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`, and a Move is Copy.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }

    /// Does the list hold `m`?
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Keeps the moves for which `keep` says yes, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            // SAFETY: i < len, written by push.
            let m = unsafe { self.moves[i].assume_init() };
            if keep(m) {
                self.moves[j] = MaybeUninit::new(m);
                j += 1;
            }
        }
        self.len = j;
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_is_the_python_one() {
        let m = Move::board(20, 18);
        assert_eq!(m.raw(), 20 | 18 << 7);
        assert_eq!((m.from(), m.to(), m.face()), (20, 18, 0));
        assert!(!m.is_drop());
        let d = Move::drop(3, 18);
        assert_eq!(d.raw(), 18 << 7 | 3 << 14);
        assert!(d.is_drop());
        assert_eq!(d.footprint(), bit(18));
        assert_eq!(m.footprint(), bit(18) | bit(20));
        assert!(Move::drop(1, 5) > Move::board(31, 31));
    }

    #[test]
    fn from_raw_checks_shape() {
        assert_eq!(
            Move::from_raw((20 | 18 << 7) as u64, 31),
            Some(Move::board(20, 18))
        );
        assert_eq!(Move::from_raw(0, 31), None);
        assert_eq!(Move::from_raw((32 << 7) as u64 | 1, 31), None);
        assert_eq!(Move::from_raw((5 << 7) as u64, 31), None); // no face, no from-square
        assert_eq!(Move::from_raw(1 << 40, 31), None);
    }

    #[test]
    fn list_push_retain() {
        let mut l = MoveList::new();
        assert!(l.is_empty());
        for s in 1..=10 {
            l.push(Move::board(s, s + 1));
        }
        assert_eq!(l.len(), 10);
        l.retain(|m| m.from() % 2 == 0);
        assert_eq!(
            l.iter().map(|m| m.from()).collect::<Vec<_>>(),
            vec![2, 4, 6, 8, 10]
        );
        assert!(l.contains(Move::board(4, 5)));
        l.truncate(2);
        assert_eq!(l.len(), 2);
        l.clear();
        assert!(l.is_empty());
    }

    #[test]
    fn list_never_overflows() {
        let mut l = MoveList::new();
        for _ in 0..MAX_MOVES + 5 {
            l.push(Move::board(1, 2));
        }
        assert_eq!(l.len(), MAX_MOVES);
    }
}
