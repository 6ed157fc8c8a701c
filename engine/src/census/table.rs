//! The node table: every graph node's key in one arena, found again by an
//! open-addressing index.
//!
//! Node `i`'s key is bytes `i * width ..` of the arena: no per-node
//! allocation, no pointer, and the node number is the key's place.  A slot
//! of the index is 5 bytes, the node number and 8 bits of the key's hash:
//! a probe compares keys only when those bits agree, so a miss seldom
//! touches the arena (measured: the arena compares were a third of the
//! build's time without them).  The index is at most 70 % full, 7 to 14
//! bytes a node; a lookup always ends comparing the whole key, so it never
//! mistakes one position for another.

use crate::census::key::MAX_WORDS;
use crate::census::memory::{big, room};

/// A slot: the node number (little-endian, [`EMPTY`] when free) and a tag.
type Slot = [u8; 5];

/// The node number of an empty slot.
const EMPTY: u32 = u32::MAX;

/// A free slot.
const FREE: Slot = [0xff, 0xff, 0xff, 0xff, 0];

/// The most nodes a table holds (node numbers are `u32`, one kept for [`EMPTY`]).
pub(crate) const MAX_NODES: usize = (u32::MAX - 1) as usize;

/// Every node's key, by node number, and the index that finds a key's node.
pub(crate) struct NodeTable {
    width: usize,
    keys: Vec<u8>,
    slots: Vec<Slot>,
    shift: u32,
    len: usize,
}

/// The hash of a key (FxHash's step over 8-byte words, then a final mix):
/// its high bits choose the slot, its low byte is the tag.
#[inline]
pub(crate) fn hash(key: &[u8]) -> u64 {
    let mut padded = [0u8; 8 * MAX_WORDS];
    padded[..key.len()].copy_from_slice(key);
    hash_padded(&padded, key.len())
}

/// [`hash`] of the first `len` bytes of `buf`, the bytes after them zero
/// (as [`crate::census::key::KeyCodec::encode`] leaves them): no copy.
#[inline]
pub(crate) fn hash_padded(buf: &[u8; 8 * MAX_WORDS], len: usize) -> u64 {
    let mut h: u64 = 0;
    for c in buf.chunks_exact(8).take(len.div_ceil(8)) {
        let w = u64::from_le_bytes(c.try_into().unwrap_or_default());
        h = (h.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    h ^= h >> 29;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^ (h >> 32)
}

/// Are two keys of the same width equal?  (Word by word: a call of
/// `memcmp` for 9 bytes cost more than the comparison.)
#[inline(always)]
fn same(a: &[u8], b: &[u8]) -> bool {
    let (mut x, mut y) = (a.chunks_exact(8), b.chunks_exact(8));
    for (p, q) in (&mut x).zip(&mut y) {
        if u64::from_le_bytes(p.try_into().unwrap_or_default())
            != u64::from_le_bytes(q.try_into().unwrap_or_default())
        {
            return false;
        }
    }
    x.remainder().iter().zip(y.remainder()).all(|(p, q)| p == q)
}

/// Asks the processor to bring `slots[at]` into its cache.
#[inline(always)]
fn prefetch(slots: &[Slot], at: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = slots[at..].as_ptr() as *const i8;
        // SAFETY: SSE is part of x86-64, and a prefetch reads nothing a
        // program sees (it never faults); the address is a slot's anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slots, at);
}

#[inline(always)]
fn node_of(slot: &Slot) -> u32 {
    u32::from_le_bytes([slot[0], slot[1], slot[2], slot[3]])
}

#[inline(always)]
fn slot(i: u32, tag: u8) -> Slot {
    let b = i.to_le_bytes();
    [b[0], b[1], b[2], b[3], tag]
}

impl NodeTable {
    /// An empty table of keys `width` bytes wide.
    pub(crate) fn new(width: usize) -> NodeTable {
        let size = 1024usize;
        NodeTable {
            width,
            keys: Vec::new(),
            slots: big(size, FREE),
            shift: 64 - size.trailing_zeros(),
            len: 0,
        }
    }

    /// The number of nodes.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The key of node `i`.
    #[inline(always)]
    pub(crate) fn key(&self, i: u32) -> &[u8] {
        let at = i as usize * self.width;
        &self.keys[at..at + self.width]
    }

    /// Asks the processor to bring the slot of hash `h` into its cache (the
    /// lookup comes a little later: the loads overlap).
    #[inline(always)]
    pub(crate) fn prefetch(&self, h: u64) {
        prefetch(&self.slots, (h >> self.shift) as usize);
    }

    /// The node of `key` (exactly `width` bytes, of hash `h`) and whether it
    /// is new; a new key gets the next node number, unless the table holds
    /// `limit` nodes already (`None`).
    #[inline]
    pub(crate) fn find_or_insert(
        &mut self,
        key: &[u8],
        h: u64,
        limit: usize,
    ) -> Option<(u32, bool)> {
        debug_assert_eq!(key.len(), self.width);
        let mask = self.slots.len() - 1;
        let tag = h as u8;
        let mut at = (h >> self.shift) as usize;
        loop {
            let s = &self.slots[at];
            let i = node_of(s);
            if i == EMPTY {
                break;
            }
            if s[4] == tag && same(self.key(i), key) {
                return Some((i, false));
            }
            at = (at + 1) & mask;
        }
        if self.len >= limit.min(MAX_NODES) {
            return None;
        }
        let i = self.len as u32;
        self.slots[at] = slot(i, tag);
        if self.keys.len() + self.width > self.keys.capacity() {
            // Twice the room, in huge pages (a plain push would not ask).
            let mut keys = room(2 * self.keys.capacity().max(1 << 16));
            keys.extend_from_slice(&self.keys);
            self.keys = keys;
        }
        self.keys.extend_from_slice(key);
        self.len += 1;
        if self.len * 10 > self.slots.len() * 7 {
            self.grow();
        }
        Some((i, true))
    }

    /// Twice the slots, every node placed again.  The nodes go in small
    /// groups, their new slots prefetched first (the writes land at random).
    fn grow(&mut self) {
        const GROUP: u32 = 16;
        let size = self.slots.len() * 2;
        self.shift = 64 - size.trailing_zeros();
        let mut slots = big(size, FREE);
        let mut hashes = [0u64; GROUP as usize];
        let n = self.len as u32;
        for first in (0..n).step_by(GROUP as usize) {
            let last = (first + GROUP).min(n);
            for i in first..last {
                let h = hash(self.key(i));
                hashes[(i - first) as usize] = h;
                prefetch(&slots, (h >> self.shift) as usize);
            }
            for i in first..last {
                let h = hashes[(i - first) as usize];
                let mut at = (h >> self.shift) as usize;
                while node_of(&slots[at]) != EMPTY {
                    at = (at + 1) & (size - 1);
                }
                slots[at] = slot(i, h as u8);
            }
        }
        self.slots = slots;
    }

    /// Returns the arena's spare capacity (the graph is complete).
    pub(crate) fn shrink(&mut self) {
        self.keys.shrink_to_fit();
    }

    /// The bytes the table holds: the arena and the index.
    pub(crate) fn bytes(&self) -> usize {
        self.keys.capacity() + std::mem::size_of::<Slot>() * self.slots.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put(t: &mut NodeTable, k: &[u8], limit: usize) -> Option<(u32, bool)> {
        t.prefetch(hash(k));
        t.find_or_insert(k, hash(k), limit)
    }

    #[test]
    fn finds_what_it_holds_and_numbers_in_order() {
        let mut t = NodeTable::new(11);
        let key = |x: u32| {
            let mut k = [0u8; 11];
            k[..4].copy_from_slice(&x.to_le_bytes());
            k[10] = (x % 7) as u8;
            k
        };
        for x in 0..5000u32 {
            assert_eq!(put(&mut t, &key(x), usize::MAX), Some((x, true)));
        }
        assert_eq!(t.len(), 5000);
        for x in (0..5000u32).rev() {
            assert_eq!(put(&mut t, &key(x), usize::MAX), Some((x, false)));
            assert_eq!(t.key(x), &key(x));
        }
        assert!(t.bytes() >= 5000 * 11 + 5 * 5000);
    }

    #[test]
    fn equal_tags_still_compare_keys() {
        // Every key given the same hash: the tags agree, the keys decide.
        let mut t = NodeTable::new(2);
        for x in 0..300u16 {
            assert_eq!(
                t.find_or_insert(&x.to_le_bytes(), 42, usize::MAX),
                Some((x as u32, true))
            );
        }
        for x in 0..300u16 {
            assert_eq!(
                t.find_or_insert(&x.to_le_bytes(), 42, usize::MAX),
                Some((x as u32, false))
            );
        }
    }

    #[test]
    fn the_limit_refuses_new_nodes_only() {
        let mut t = NodeTable::new(2);
        assert_eq!(put(&mut t, &[1, 0], 2), Some((0, true)));
        assert_eq!(put(&mut t, &[2, 0], 2), Some((1, true)));
        assert_eq!(put(&mut t, &[3, 0], 2), None);
        assert_eq!(put(&mut t, &[1, 0], 2), Some((0, false)));
        assert_eq!(t.len(), 2);
    }

    #[test]
    fn padded_and_plain_hashes_agree() {
        let mut buf = [0u8; 8 * MAX_WORDS];
        for (i, b) in buf.iter_mut().take(19).enumerate() {
            *b = (i as u8).wrapping_mul(37) | 1;
        }
        for len in [1, 8, 9, 16, 19] {
            let mut b = buf;
            b[len..].fill(0);
            assert_eq!(hash_padded(&b, len), hash(&b[..len]));
        }
        assert!(same(&buf[..19], &buf[..19]));
        let mut other = buf;
        other[18] ^= 1;
        assert!(!same(&buf[..19], &other[..19]));
        other[18] ^= 1;
        other[3] ^= 1;
        assert!(!same(&buf[..19], &other[..19]));
    }

    #[test]
    fn the_hash_spreads_small_differences() {
        let a = hash(&[0u8; 9]);
        let b = hash(&[1u8, 0, 0, 0, 0, 0, 0, 0, 0]);
        let c = hash(&[0u8, 0, 0, 0, 0, 0, 0, 0, 1]);
        assert!(a != b && b != c && a != c);
        assert_ne!(a >> 54, b >> 54);
    }
}
