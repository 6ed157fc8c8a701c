//! A bounded home for the sets of line positions that results rest on.
//!
//! A disproof that rests on repetitions, or a proof that rests on a useless
//! interposition judged with the line's repetitions counted, holds only
//! while certain positions are on the line again; the table entry keeps
//! them here.  The sets vary in size, so they live in one arena of a fixed
//! number of words: a set is a header (its owning entry's slot, its length,
//! the bound of its result and the epoch it was found in) and its sorted
//! position hashes.  A set its entry no longer points to is garbage;
//! [`Sets::compact`] moves the live ones down over it, and when even that
//! leaves no room the set is not stored (the table then keeps nothing for
//! that result, which costs a search again, never a wrong answer).

/// A stored set: its offset in the arena plus one (0: none).
pub type SetRef = u32;

const HEADER: usize = 2;

/// The arena.
pub struct Sets {
    words: Vec<u64>,
    used: usize,
    capacity: usize,
}

impl Sets {
    /// An arena of `capacity` words (8 bytes each), allocated as it fills.
    pub fn new(capacity: usize) -> Sets {
        let capacity = capacity.min(u32::MAX as usize - 1);
        Sets {
            words: Vec::new(),
            used: 0,
            capacity,
        }
    }

    /// Words in use, garbage included.
    pub fn used(&self) -> usize {
        self.used
    }

    /// The most words the arena holds.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Stores a set for the entry in slot `owner`; `None` when there is no room.
    pub fn alloc(&mut self, owner: u32, bound: i32, epoch: u32, elems: &[u64]) -> Option<SetRef> {
        let need = HEADER + elems.len();
        if self.used + need > self.capacity {
            return None;
        }
        let at = self.used;
        if self.words.len() < at + need {
            // Grow geometrically, never past the capacity.
            let want = (at + need)
                .max(self.words.len() * 2)
                .max(1024)
                .min(self.capacity);
            self.words.resize(want, 0);
        }
        self.words[at] = owner as u64 | (elems.len() as u64) << 32;
        self.words[at + 1] = bound as u32 as u64 | (epoch as u64) << 32;
        self.words[at + HEADER..at + need].copy_from_slice(elems);
        self.used += need;
        Some(at as SetRef + 1)
    }

    /// The bound, epoch and positions of a stored set.
    #[inline]
    pub fn get(&self, r: SetRef) -> (i32, u32, &[u64]) {
        let at = r as usize - 1;
        let len = (self.words[at] >> 32) as usize;
        let meta = self.words[at + 1];
        (
            meta as u32 as i32,
            (meta >> 32) as u32,
            &self.words[at + HEADER..at + HEADER + len],
        )
    }

    /// The slot of the entry that owns a set.
    #[inline]
    pub fn owner(&self, r: SetRef) -> u32 {
        self.words[r as usize - 1] as u32
    }

    /// Records that the set's entry moved to slot `owner`.
    #[inline]
    pub fn set_owner(&mut self, r: SetRef, owner: u32) {
        let at = r as usize - 1;
        self.words[at] = owner as u64 | (self.words[at] >> 32) << 32;
    }

    /// Moves the live sets down over the garbage, in place.
    /// `relocate(owner, old, new)` says whether the entry in slot `owner`
    /// still points to set `old` and, if it does, points it to `new` (its
    /// place after the move, maybe the same).
    pub fn compact(&mut self, mut relocate: impl FnMut(u32, SetRef, SetRef) -> bool) {
        let mut read = 0;
        let mut write = 0;
        while read < self.used {
            let len = (self.words[read] >> 32) as usize;
            let size = HEADER + len;
            let owner = self.words[read] as u32;
            let r = read as SetRef + 1;
            if relocate(owner, r, write as SetRef + 1) {
                if write != read {
                    self.words.copy_within(read..read + size, write);
                }
                write += size;
            }
            read += size;
        }
        self.used = write;
    }

    /// Forgets every set.
    pub fn clear(&mut self) {
        self.used = 0;
    }

    /// Bytes allocated.
    pub fn bytes(&self) -> usize {
        self.words.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_read_and_compact() {
        let mut sets = Sets::new(20);
        let a = sets.alloc(7, 5, 1, &[10, 20]).unwrap();
        let b = sets.alloc(8, -1, 2, &[30]).unwrap();
        let c = sets.alloc(9, 9, 3, &[40, 50, 60]).unwrap();
        assert_eq!(sets.get(a), (5, 1, &[10u64, 20][..]));
        assert_eq!(sets.get(b), (-1, 2, &[30u64][..]));
        assert_eq!(sets.owner(c), 9);
        assert_eq!(sets.used(), 4 + 3 + 5);
        // No room for another three-element set (5 words, 8 left... then 3).
        assert!(sets.alloc(1, 0, 0, &[1, 2, 3]).is_some());
        assert!(sets.alloc(1, 0, 0, &[1, 2, 3]).is_none());
        // Drop the first set: the others move down and their owners are told.
        let mut moves = vec![];
        sets.compact(|owner, old, new| {
            let live = owner != 7 && owner != 1;
            if live {
                moves.push((owner, old, new));
            }
            live
        });
        assert_eq!(sets.used(), 3 + 5);
        assert_eq!(moves, vec![(8, b, 1), (9, c, 4)]);
        assert_eq!(sets.get(4), (9, 3, &[40u64, 50, 60][..]));
        sets.set_owner(4, 11);
        assert_eq!(sets.owner(4), 11);
        assert_eq!(sets.get(4).2, &[40, 50, 60]);
        sets.clear();
        assert_eq!(sets.used(), 0);
    }

    #[test]
    fn the_arena_grows_only_as_it_fills() {
        let mut sets = Sets::new(1 << 20);
        assert_eq!(sets.bytes(), 0);
        sets.alloc(0, 0, 0, &[1]).unwrap();
        assert!(sets.bytes() <= 8 * 1024);
    }
}
