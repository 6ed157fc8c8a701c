//! Compact exact node keys: a position packed into a few bytes, and back.
//!
//! A key holds the board as its occupancy (one bit a square) followed by the
//! value of each occupied square, then both hands, then the side to move.
//! Every field is as narrow as the analysed positions allow: a piece value
//! takes the bits of the largest value, and a hand count of kind `k` the bits
//! of the most pieces of that kind any starting position holds (board and
//! hands together: play only moves pieces between board and hands, and kings
//! are never taken).  Ito `attacker=GT, hand=GT` packs into 9 bytes with
//! `defender-hand=none`, 16 with the rest of the set in the defender's hand;
//! the position's board array alone is 65 bytes.
//!
//! The encoding is exact (two positions have the same key exactly when board,
//! hands and side to move are the same), so the graph never merges two
//! positions, unlike a hash.

use crate::rules::colour::Colour;
use crate::rules::hand::Hand;
use crate::rules::position::Position;
use crate::rules::square::{bit, Squares, MAX_SQUARES};
use crate::rules::tables::Tables;

/// The most 64-bit words a key takes: 64 squares, 64 values of 6 bits,
/// 2 x 8 hand counts of 7 bits and the side fit in 9.
pub(crate) const MAX_WORDS: usize = 10;

/// A key being written or read: its words, bits beyond its width zero.
pub(crate) type Words = [u64; MAX_WORDS];

/// The layout of the keys of one analysis.
#[derive(Clone, Debug)]
pub(crate) struct KeyCodec {
    n: usize,
    value_bits: u32,
    /// Bits of each kind's hand count (0: never in a hand).
    kind_bits: Vec<u32>,
    /// The width of a key in bytes.
    bytes: usize,
}

/// The bits needed to write numbers up to `x`.
fn bits_for(x: u64) -> u32 {
    64 - x.leading_zeros()
}

impl KeyCodec {
    /// The layout for the positions reachable from `roots` (all of `tables`).
    pub(crate) fn new(tables: &Tables, roots: &[Position]) -> KeyCodec {
        let nk = tables.nkinds;
        let mut most = vec![0u64; nk];
        let mut pieces = 0u64;
        for p in roots {
            let mut total = vec![0u64; nk];
            let mut count = 0u64;
            for s in Squares(p.occupied()) {
                let v = p.piece(s);
                count += 1;
                // Kings never leave the board, so they need no hand bits.
                if !tables.royal[v as usize] {
                    total[tables.face_kind[(v >> 1) as usize] as usize] += 1;
                }
            }
            for c in [Colour::Black, Colour::White] {
                for (k, x) in total.iter_mut().enumerate() {
                    let h = p.hand(c).count(k) as u64;
                    *x += h;
                    count += h;
                }
            }
            for (m, x) in most.iter_mut().zip(&total) {
                *m = (*m).max(*x);
            }
            pieces = pieces.max(count);
        }
        let n = tables.n;
        let value_bits = bits_for(tables.nvalues as u64 - 1);
        let kind_bits: Vec<u32> = most.iter().map(|&m| bits_for(m)).collect();
        let on_board = pieces.min(n as u64) as usize;
        let bits =
            n + on_board * value_bits as usize + 2 * kind_bits.iter().sum::<u32>() as usize + 1;
        debug_assert!(bits <= 64 * MAX_WORDS);
        KeyCodec {
            n,
            value_bits,
            kind_bits,
            bytes: bits.div_ceil(8).max(1),
        }
    }

    /// The width of a key in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    /// The key of `pos`, into `out` (its first [`KeyCodec::bytes`] bytes;
    /// the rest of its last 8-byte word is zero).
    ///
    /// Panics when a count does not fit its field: the positions would not
    /// be those the layout was made for, and a key cut short could merge two
    /// positions.
    #[inline]
    pub(crate) fn encode(&self, pos: &Position, out: &mut [u8; 8 * MAX_WORDS]) {
        let mut w = Writer::default();
        let occ = pos.occupied();
        w.put(occ, self.n as u32);
        for s in Squares(occ) {
            w.put(pos.piece(s) as u64, self.value_bits);
        }
        for c in [Colour::Black, Colour::White] {
            let h = pos.hand(c);
            for (k, &b) in self.kind_bits.iter().enumerate() {
                let x = h.count(k) as u64;
                assert!(x >> b == 0, "census key: a hand count beyond its field");
                w.put(x, b);
            }
        }
        w.put(pos.turn().index() as u64, 1);
        assert!(
            w.at <= 8 * self.bytes,
            "census key: more pieces than its layout"
        );
        // Whole words: the bytes after the key, up to its last word, are zero.
        for (i, x) in w.words.iter().enumerate().take(self.bytes.div_ceil(8)) {
            out[8 * i..8 * i + 8].copy_from_slice(&x.to_le_bytes());
        }
    }

    /// Sets `pos` (of the same tables) to the position of `key`, its move stack empty.
    pub(crate) fn decode(&self, key: &[u8], pos: &mut Position) {
        let mut r = Reader::new(key);
        let t = pos.tables.clone();
        for s in Squares(pos.occupied()) {
            pos.board[s as usize] = 0;
        }
        pos.occ = [0; 2];
        pos.kings = [0; 2];
        let mut hash = 0;
        let occ = r.get(self.n as u32);
        for s in Squares(occ) {
            let v = r.get(self.value_bits) as u8;
            let c = (v & 1) as usize;
            pos.board[s as usize] = v;
            pos.occ[c] |= bit(s);
            if t.royal[v as usize] {
                pos.kings[c] = s;
            }
            hash ^= t.zobrist.board(v, s);
        }
        let mut hand_hash = 0;
        for c in 0..2 {
            let mut counts = [0u8; 8];
            for (k, &b) in self.kind_bits.iter().enumerate() {
                counts[k] = r.get(b) as u8;
                hand_hash ^= t.zobrist.hand(c, k, counts[k]);
            }
            pos.hands[c] = Hand::from_counts(&counts[..self.kind_bits.len()]).unwrap_or_default();
        }
        let turn = Colour::from_index(r.get(1) as usize);
        if turn == Colour::White {
            hash ^= t.zobrist.side;
        }
        pos.turn = turn;
        pos.hash = hash ^ hand_hash;
        pos.hand_hash = hand_hash;
        pos.stack.clear();
        pos.first_turn = turn;
        pos.filtered = 0;
    }
}

/// Writes fields of up to 64 bits, low bits first.
#[derive(Default)]
struct Writer {
    words: Words,
    at: usize,
}

impl Writer {
    #[inline(always)]
    fn put(&mut self, x: u64, bits: u32) {
        if bits == 0 {
            return;
        }
        let (i, off) = (self.at / 64, (self.at % 64) as u32);
        self.words[i] |= x << off;
        if off + bits > 64 {
            self.words[i + 1] |= x >> (64 - off);
        }
        self.at += bits as usize;
    }
}

/// Reads the fields a [`Writer`] wrote.
struct Reader {
    words: Words,
    at: usize,
}

impl Reader {
    fn new(key: &[u8]) -> Reader {
        let mut words = [0u64; MAX_WORDS];
        for (i, chunk) in key.chunks(8).enumerate() {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            words[i] = u64::from_le_bytes(b);
        }
        Reader { words, at: 0 }
    }

    #[inline(always)]
    fn get(&mut self, bits: u32) -> u64 {
        if bits == 0 {
            return 0;
        }
        let (i, off) = (self.at / 64, (self.at % 64) as u32);
        let mut x = self.words[i] >> off;
        if off + bits > 64 {
            x |= self.words[i + 1] << (64 - off);
        }
        self.at += bits as usize;
        if bits == 64 {
            x
        } else {
            x & ((1u64 << bits) - 1)
        }
    }
}

const _: () = assert!(MAX_SQUARES <= 64);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::MoveList;
    use crate::rules::position::tests::pos;

    fn key(codec: &KeyCodec, p: &Position) -> Vec<u8> {
        let mut out = [0u8; 8 * MAX_WORDS];
        codec.encode(p, &mut out);
        out[..codec.bytes()].to_vec()
    }

    #[test]
    fn narrow_fields() {
        // Ito: a king, a Goose and a Tile General, one of each in hand.
        let p = pos("ito", "4k3T1G20", Colour::Black, [&[0, 0, 1, 0, 0, 1], &[]]);
        let t = p.tables().clone();
        let codec = KeyCodec::new(&t, std::slice::from_ref(&p));
        // 31 occupancy bits, 5 values, 2 hands of the two kinds, the side.
        let value_bits = bits_for(t.nvalues as u64 - 1) as usize;
        assert_eq!(
            codec.bytes(),
            (31 + 5 * value_bits + 2 * (2 + 2) + 1).div_ceil(8)
        );
        assert!(codec.bytes() <= 10);
        // Ito's values take 5 bits: Ito attacker=GT, hand=GT, defender-hand=none.
        assert_eq!(value_bits, 5);
        assert_eq!(codec.bytes(), 9);
    }

    /// Every position up to `depth` plies from `p`, captures and drops included.
    fn tree(p: &mut Position, depth: u32, out: &mut Vec<Position>) {
        out.push(p.copy());
        if depth == 0 {
            return;
        }
        let mut moves = MoveList::new();
        p.legal_moves(Some(false), &mut moves);
        for &m in moves.iter() {
            p.push(m);
            tree(p, depth - 1, out);
            p.pop();
        }
    }

    #[test]
    fn round_trip_over_a_tree_and_distinct_keys() {
        // Decoding a key gives the same position back, hashes included, and
        // two positions have the same key exactly when they are the same.
        let root = pos("rutherford", "k2S4N2p1", Colour::Black, [&[0, 0, 1], &[]]);
        let codec = KeyCodec::new(root.tables(), std::slice::from_ref(&root));
        let mut all = vec![];
        tree(&mut root.copy(), 4, &mut all);
        assert!(all.len() > 500);
        let mut scratch = root.copy();
        let keys: Vec<Vec<u8>> = all.iter().map(|p| key(&codec, p)).collect();
        for (k, p) in keys.iter().zip(&all) {
            codec.decode(k, &mut scratch);
            assert!(scratch.same_as(p));
            assert_eq!(scratch.hash(), p.hash());
            assert_eq!(scratch.hand_hash(), p.hand_hash());
            assert_eq!(scratch.king(Colour::White), p.king(Colour::White));
            assert_eq!(scratch.occupied(), p.occupied());
            assert_eq!(scratch.ply(), 0);
        }
        for i in 0..all.len() {
            for j in 0..i {
                assert_eq!(keys[i] == keys[j], all[i].same_as(&all[j]));
            }
        }
    }

    #[test]
    fn side_to_move_is_part_of_the_key() {
        let p = pos("ito", "4k3T1G20", Colour::Black, [&[0, 0, 1], &[]]);
        let t = p.tables().clone();
        let codec = KeyCodec::new(&t, std::slice::from_ref(&p));
        assert_ne!(key(&codec, &p), key(&codec, &p.with_turn(Colour::White)));
    }

    #[test]
    #[should_panic(expected = "census key")]
    fn a_count_beyond_the_layout_panics() {
        let p = pos("ito", "4k3T1G20", Colour::Black, [&[0, 0, 1], &[]]);
        let q = pos("ito", "4k3T1G20", Colour::Black, [&[0, 0, 4], &[]]);
        let codec = KeyCodec::new(p.tables(), std::slice::from_ref(&p));
        let mut out = [0u8; 8 * MAX_WORDS];
        codec.encode(&q, &mut out);
    }
}
