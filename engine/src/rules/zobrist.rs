//! Zobrist keys: one random number per (piece value, square), per (colour, kind, count in hand), and the side to move.
//!
//! Keys come from SplitMix64 seeded by the variant name and board length, so
//! they are the same in every run.  They are 62 bits wide: the Python search
//! keeps the hashes in ints, and a compiled (mypyc) int below 2**62 needs no
//! allocation.  A collision is still negligible (about 2**31 positions to
//! expect one).

/// Bits of a key.
pub const ZOBRIST_BITS: u32 = 62;

/// A deterministic SplitMix64 stream.
#[derive(Clone, Debug)]
pub struct KeyStream(u64);

impl KeyStream {
    /// A stream seeded from a string (FNV-1a of its bytes).
    pub fn seeded(seed: &str) -> KeyStream {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in seed.bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        KeyStream(h)
    }

    /// The next key.
    pub fn next_key(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) >> (64 - ZOBRIST_BITS)
    }
}

/// The keys of one variant and board length.
#[derive(Clone, Debug)]
pub struct Zobrist {
    n1: usize,
    max_count: usize,
    nkinds: usize,
    board: Vec<u64>,
    hand: Vec<u64>,
    /// The key of White to move.
    pub side: u64,
}

impl Zobrist {
    /// Keys for `nvalues` piece values on squares `1..n1-1`, `nkinds` kinds and up to `max_count` in hand.
    pub fn new(seed: &str, nvalues: usize, n1: usize, nkinds: usize, max_count: usize) -> Zobrist {
        let mut rng = KeyStream::seeded(seed);
        let board = (0..nvalues * n1).map(|_| rng.next_key()).collect();
        let mut hand: Vec<u64> = (0..2 * nkinds * (max_count + 1))
            .map(|_| rng.next_key())
            .collect();
        for c in 0..2 {
            for k in 0..nkinds {
                hand[(c * nkinds + k) * (max_count + 1)] = 0; // an empty hand contributes nothing
            }
        }
        let side = rng.next_key();
        Zobrist {
            n1,
            max_count,
            nkinds,
            board,
            hand,
            side,
        }
    }

    /// The key of piece value `v` on square `s`.
    #[inline(always)]
    pub fn board(&self, v: u8, s: u8) -> u64 {
        self.board[v as usize * self.n1 + s as usize]
    }

    /// The key of colour `c` holding `count` pieces of kind `k`.
    #[inline(always)]
    pub fn hand(&self, c: usize, k: usize, count: u8) -> u64 {
        let count = (count as usize).min(self.max_count);
        self.hand[(c * self.nkinds + k) * (self.max_count + 1) + count]
    }

    /// The change of the hash when colour `c`'s count of kind `k` goes between `count` and `count + 1`.
    #[inline(always)]
    pub fn hand_step(&self, c: usize, k: usize, count: u8) -> u64 {
        self.hand(c, k, count) ^ self.hand(c, k, count.saturating_add(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_stable_distinct_and_62_bit() {
        let a = Zobrist::new("ito/31", 30, 32, 7, 13);
        let b = Zobrist::new("ito/31", 30, 32, 7, 13);
        assert_eq!(a.board(5, 7), b.board(5, 7));
        assert_ne!(a.board(5, 7), a.board(5, 8));
        assert_eq!(a.hand(0, 3, 0), 0);
        assert_ne!(a.hand(1, 3, 1), 0);
        assert_eq!(a.hand_step(1, 3, 0), a.hand(1, 3, 1));
        assert!(a.side < 1 << 62 && a.board(29, 31) < 1 << 62);
        let c = Zobrist::new("ito/30", 30, 32, 7, 13);
        assert_ne!(a.side, c.side);
    }
}
