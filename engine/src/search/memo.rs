//! Lines already read, kept for the line reader.
//!
//! A line is kept by (position, value, side to move, thoroughness) while no
//! search under it rested on the line, with the positions it passes through
//! and the epoch it was read in: it is reused only while none of those
//! positions is on the line and its epoch is still used.  The memo is
//! bounded (emptied when full) and emptied by a garbage collection of the
//! table, whose new epoch no older line is used in.

use std::collections::HashMap;

use crate::rules::moves::Move;
use crate::search::anchors::Epoch;
use crate::search::line::Line;
use crate::search::mate_len::MateLen;

/// What a line is kept by: the position's hash, its value, whether the
/// attacker is to move, and whether the reading was thorough.
pub type MemoKey = (u64, MateLen, bool, bool);

struct Kept {
    moves: Vec<Move>,
    left: i32,
    seen: Vec<u64>,
    epoch: Epoch,
}

/// The memo.
pub struct Memo {
    lines: HashMap<MemoKey, Kept>,
    words: usize,
    cap: usize,
    gc_runs: u64,
    read: u64,
}

impl Memo {
    /// A memo of at most about `bytes` bytes.
    pub fn new(bytes: usize) -> Memo {
        Memo {
            lines: HashMap::new(),
            words: 0,
            cap: (bytes / 16).max(1024),
            gc_runs: 0,
            read: 0,
        }
    }

    fn clear(&mut self) {
        self.lines.clear();
        self.words = 0;
    }

    /// The line kept for `key` and the pieces it leaves, if usable: read in
    /// an epoch from `floor` up, and none of its positions on `line`.  The
    /// table has run `gc_runs` collections.
    pub fn get(
        &mut self,
        key: MemoKey,
        gc_runs: u64,
        floor: Epoch,
        line: &Line,
    ) -> Option<(Vec<Move>, i32)> {
        if self.gc_runs != gc_runs {
            self.gc_runs = gc_runs;
            self.clear();
        }
        let k = self.lines.get(&key)?;
        (k.epoch >= floor && !k.seen.iter().any(|&h| line.contains(h)))
            .then(|| (k.moves.clone(), k.left))
    }

    /// Keeps the line `moves`, through the positions `seen`, leaving `left`
    /// pieces, read in `epoch`.
    pub fn put(&mut self, key: MemoKey, moves: &[Move], left: i32, seen: Vec<u64>, epoch: Epoch) {
        let words = 8 + moves.len() / 2 + seen.len();
        if self.words + words > self.cap {
            self.clear();
        }
        self.words += words;
        let moves = moves.to_vec();
        self.lines.insert(
            key,
            Kept {
                moves,
                left,
                seen,
                epoch,
            },
        );
    }

    /// Counts an attacker node read (not taken from the memo).
    pub fn count_read(&mut self) {
        self.read += 1;
    }

    /// Attacker nodes read (not taken from the memo).
    pub fn lines_read(&self) -> u64 {
        self.read
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_reused_while_its_epoch_holds_and_it_is_off_the_line() {
        let mut memo = Memo::new(0);
        let key = (7, MateLen::plies(3), true, true);
        let moves = [Move::board(3, 2)];
        assert_eq!(memo.get(key, 0, 0, &Line::new()), None);
        memo.put(key, &moves, 2, vec![70], 1);
        assert_eq!(memo.get(key, 0, 1, &Line::new()), Some((moves.to_vec(), 2)));
        assert_eq!(memo.get(key, 0, 2, &Line::new()), None);
        let mut line = Line::new();
        line.push(70);
        assert_eq!(memo.get(key, 0, 0, &line), None);
        // A collection of the table empties it.
        assert_eq!(memo.get(key, 1, 0, &Line::new()), None);
        memo.put(key, &moves, 2, vec![70], 1);
        assert!(memo.get(key, 1, 0, &Line::new()).is_some());
    }

    #[test]
    fn a_full_memo_starts_again() {
        let mut memo = Memo::new(0); // 1024 words
        for h in 0..200 {
            memo.put((h, MateLen::plies(1), true, true), &[], 0, vec![h], 0);
        }
        assert!(memo.lines.len() < 200 && memo.words <= memo.cap);
        memo.count_read();
        assert_eq!(memo.lines_read(), 1);
    }
}
