//! The position: board, occupancy, kings, hands, side to move, hashes and the move stack.
//!
//! Make/unmake ([`Position::push`], [`Position::pop`]) keep an incremental
//! Zobrist hash of board, hands and side to move and, separately, the hands'
//! part of it (so the board-only key is `hash ^ hand_hash`).  The attack,
//! generator and rule code live in their own modules as further `impl` blocks.

use std::cmp::Ordering;
use std::sync::Arc;

use crate::rules::colour::Colour;
use crate::rules::error::{EngineError, Result};
use crate::rules::hand::Hand;
use crate::rules::moves::Move;
use crate::rules::square::{bit, Mask, Square, MAX_SQUARES};
use crate::rules::tables::Tables;

/// What [`Position::pop`] needs to unmake a move.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// The move.
    pub mv: Move,
    /// The piece it captured (0 if none).
    pub captured: u8,
    /// The piece value that moved or was dropped (before any flip).
    pub moved: u8,
    /// The hash before the move.
    pub hash: u64,
    /// The hands' part of the hash before the move.
    pub hand_hash: u64,
}

/// A position of a one-dimensional shogi variant.
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) tables: Arc<Tables>,
    pub(crate) board: [u8; MAX_SQUARES + 1],
    pub(crate) occ: [Mask; 2],
    pub(crate) hands: [Hand; 2],
    pub(crate) turn: Colour,
    pub(crate) kings: [Square; 2],
    pub(crate) hash: u64,
    pub(crate) hand_hash: u64,
    pub(crate) stack: Vec<Undo>,
    pub(crate) first_turn: Colour,
    pub(crate) filtered: u32,
}

impl Position {
    /// A position from its board (`board[s - 1]` is the value on square `s`, 0 empty),
    /// hands by colour and kind, and side to move.
    ///
    /// Checks that every value is a piece of the variant and the counts fit a
    /// hand; [`Position::validate`] checks that the position can arise.
    pub fn new(
        tables: Arc<Tables>,
        board: &[u8],
        hands: [&[u8]; 2],
        turn: Colour,
    ) -> Result<Position> {
        let n = tables.n;
        if board.len() != n {
            return Err(EngineError::Position(format!(
                "board: {} squares given for a board of {n}",
                board.len()
            )));
        }
        let mut b = [0u8; MAX_SQUARES + 1];
        for (i, &v) in board.iter().enumerate() {
            if v != 0 && (v < 2 || v as usize >= tables.nvalues) {
                return Err(EngineError::Position(format!(
                    "board: no piece value {v} on square {}",
                    i + 1
                )));
            }
            b[i + 1] = v;
        }
        let mut hs = [Hand::EMPTY; 2];
        for c in 0..2 {
            if hands[c].len() != tables.nkinds {
                return Err(EngineError::Position(format!(
                    "hands: {} counts given for {} kinds",
                    hands[c].len(),
                    tables.nkinds
                )));
            }
            if hands[c].iter().any(|&x| x as usize > tables.max_count) {
                return Err(EngineError::Position(
                    "hands: more pieces than the set holds".into(),
                ));
            }
            hs[c] = Hand::from_counts(hands[c])
                .ok_or_else(|| EngineError::Position("hands: a count too large".into()))?;
        }
        let mut p = Position {
            tables,
            board: b,
            occ: [0; 2],
            hands: hs,
            turn,
            kings: [0; 2],
            hash: 0,
            hand_hash: 0,
            // Empty until a move is made: a position held, not searched,
            // then costs its fields alone (64 undo records are 1.5 KB).
            stack: Vec::new(),
            first_turn: turn,
            filtered: 0,
        };
        p.rebuild()?;
        Ok(p)
    }

    /// Recomputes occupancy, kings and hashes from board, hands and side; empties the move stack.
    fn rebuild(&mut self) -> Result<()> {
        let t = &*self.tables;
        self.occ = [0; 2];
        self.kings = [0; 2];
        let mut h = 0;
        for s in 1..=t.n as Square {
            let v = self.board[s as usize];
            if v != 0 {
                let c = (v & 1) as usize;
                self.occ[c] |= bit(s);
                h ^= t.zobrist.board(v, s);
                if t.royal[v as usize] {
                    if self.kings[c] != 0 {
                        return Err(EngineError::Position(format!(
                            "board: two {} kings (second on square {s})",
                            Colour::from_index(c).name()
                        )));
                    }
                    self.kings[c] = s;
                }
            }
        }
        let mut hz = 0;
        for c in 0..2 {
            for k in 0..t.nkinds {
                hz ^= t.zobrist.hand(c, k, self.hands[c].count(k));
            }
        }
        h ^= hz;
        if self.turn == Colour::White {
            h ^= t.zobrist.side;
        }
        self.hash = h;
        self.hand_hash = hz;
        self.stack.clear();
        self.first_turn = self.turn;
        self.filtered = 0;
        Ok(())
    }

    /// Checks that the position can arise: the set's piece counts, and the side not to move not in check.
    pub fn validate(&self) -> Result<()> {
        let t = &*self.tables;
        let mut counts = vec![0u32; t.nkinds];
        for s in 1..=t.n {
            let v = self.board[s];
            if v != 0 {
                counts[t.face_kind[(v >> 1) as usize] as usize] += 1;
            }
        }
        for c in 0..2 {
            for (k, x) in counts.iter_mut().enumerate() {
                *x += self.hands[c].count(k) as u32;
            }
        }
        for (k, &cnt) in counts.iter().enumerate() {
            if k != t.royal_kind && cnt > t.kind_count[k] as u32 {
                return Err(EngineError::Position(format!(
                    "position: {cnt} pieces of kind {} on board and in hand, but the {} set has {}",
                    t.kind_letter[k],
                    t.variant.display_name(),
                    t.kind_count[k]
                )));
            }
        }
        let other = self.turn.flip();
        let k = self.kings[other.index()];
        if k != 0 && self.is_attacked(k, self.turn) {
            return Err(EngineError::Position(format!(
                "position: {} (not to move) is in check on square {k}",
                other.name()
            )));
        }
        Ok(())
    }

    /// A copy with the hands replaced (the move stack emptied, hashes recomputed).
    pub fn with_hands(&self, hands: [Hand; 2]) -> Position {
        let mut p = self.clone();
        p.hands = hands;
        // The board is unchanged, so rebuilding cannot fail.
        let _ = p.rebuild();
        p
    }

    /// A copy with the side to move replaced (the move stack emptied, hashes recomputed).
    pub fn with_turn(&self, turn: Colour) -> Position {
        let mut p = self.clone();
        p.turn = turn;
        let _ = p.rebuild();
        p
    }

    /// A copy with some squares changed (`(square, value)`), hands and side as given.
    pub fn with_changes(
        &self,
        changes: &[(Square, u8)],
        hands: [Hand; 2],
        turn: Colour,
    ) -> Result<Position> {
        let mut p = self.clone();
        for &(s, v) in changes {
            if s == 0
                || s as usize > p.tables.n
                || (v != 0 && (v < 2 || v as usize >= p.tables.nvalues))
            {
                return Err(EngineError::Position(format!(
                    "no square {s} or piece value {v} here"
                )));
            }
            p.board[s as usize] = v;
        }
        p.hands = hands;
        p.turn = turn;
        p.rebuild()?;
        Ok(p)
    }

    /// An independent copy without the move stack.
    pub fn copy(&self) -> Position {
        Position {
            tables: self.tables.clone(),
            board: self.board,
            occ: self.occ,
            hands: self.hands,
            turn: self.turn,
            kings: self.kings,
            hash: self.hash,
            hand_hash: self.hand_hash,
            stack: Vec::new(),
            first_turn: self.turn,
            filtered: 0,
        }
    }

    /// The colour-mirrored position: board reversed, colours and hands swapped.
    pub fn mirror(&self) -> Position {
        let n = self.tables.n;
        let mut p = self.copy();
        for s in 1..=n {
            let v = self.board[n + 1 - s];
            p.board[s] = if v != 0 { v ^ 1 } else { 0 };
        }
        p.hands = [self.hands[1], self.hands[0]];
        p.turn = self.turn.flip();
        let _ = p.rebuild();
        p
    }

    /// The tables.
    #[inline(always)]
    pub fn tables(&self) -> &Arc<Tables> {
        &self.tables
    }

    /// The number of squares.
    #[inline(always)]
    pub fn n(&self) -> usize {
        self.tables.n
    }

    /// The piece value on square `s` (0: empty).
    #[inline(always)]
    pub fn piece(&self, s: Square) -> u8 {
        self.board[s as usize]
    }

    /// The board, square 1 first.
    pub fn board(&self) -> &[u8] {
        &self.board[1..=self.tables.n]
    }

    /// The squares holding pieces of colour `c`.
    #[inline(always)]
    pub fn occupied_by(&self, c: Colour) -> Mask {
        self.occ[c.index()]
    }

    /// The squares holding any piece.
    #[inline(always)]
    pub fn occupied(&self) -> Mask {
        self.occ[0] | self.occ[1]
    }

    /// The hand of colour `c`.
    #[inline(always)]
    pub fn hand(&self, c: Colour) -> Hand {
        self.hands[c.index()]
    }

    /// The side to move.
    #[inline(always)]
    pub fn turn(&self) -> Colour {
        self.turn
    }

    /// The square of colour `c`'s king (0 if it has none).
    #[inline(always)]
    pub fn king(&self, c: Colour) -> Square {
        self.kings[c.index()]
    }

    /// The Zobrist hash of board, hands and side to move.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hands' part of the hash.
    #[inline(always)]
    pub fn hand_hash(&self) -> u64 {
        self.hand_hash
    }

    /// The hash without the hands: board and side to move.
    #[inline(always)]
    pub fn board_key(&self) -> u64 {
        self.hash ^ self.hand_hash
    }

    /// Moves made since this position was built or copied.
    #[inline(always)]
    pub fn ply(&self) -> usize {
        self.stack.len()
    }

    /// The move stack.
    pub fn stack(&self) -> &[Undo] {
        &self.stack
    }

    /// The side to move when the position was built or copied.
    pub fn first_turn(&self) -> Colour {
        self.first_turn
    }

    /// How many moves the last legal-move or check generator left out for the stalemate or drop-mate rule.
    #[inline(always)]
    pub fn filtered(&self) -> u32 {
        self.filtered
    }

    /// The piece captured by the last move (0 if none, or no move made).
    pub fn last_capture(&self) -> u8 {
        self.stack.last().map_or(0, |u| u.captured)
    }

    /// How often the current position occurs on the move stack, itself included.
    pub fn repetitions(&self) -> usize {
        1 + self.stack.iter().filter(|u| u.hash == self.hash).count()
    }

    /// Same variant and length, and same board, hands and side to move?
    pub fn same_as(&self, other: &Position) -> bool {
        let same_tables = Arc::ptr_eq(&self.tables, &other.tables)
            || (self.tables.n == other.tables.n && self.tables.variant == other.tables.variant);
        same_tables && self.key_cmp(other) == Ordering::Equal
    }

    /// Orders positions by board (square 1 first), then Black's hand, White's hand and side to move, kind by kind.
    pub fn key_cmp(&self, other: &Position) -> Ordering {
        let nk = self.tables.nkinds;
        self.board()
            .cmp(other.board())
            .then_with(|| self.hands[0].counts(nk).cmp(&other.hands[0].counts(nk)))
            .then_with(|| self.hands[1].counts(nk).cmp(&other.hands[1].counts(nk)))
            .then_with(|| self.turn.cmp(&other.turn))
    }

    /// Makes a move (no legality check).
    ///
    /// The move must be pseudo-legal here (from a generator, or checked with
    /// [`Position::is_pseudo_legal`]); anything else leaves a broken position.
    #[inline]
    pub fn push(&mut self, m: Move) {
        let t = &*self.tables;
        let c = self.turn.index();
        let frm = m.from();
        let to = m.to();
        let h = self.hash;
        let hz = self.hand_hash;
        let moved;
        let cap;
        if frm != 0 {
            let v = self.board[frm as usize];
            moved = v;
            cap = self.board[to as usize];
            self.board[frm as usize] = 0;
            let zb = &t.zobrist;
            if cap != 0 {
                let nv = t.flip[v as usize];
                self.board[to as usize] = nv;
                let k = t.hand_kind[cap as usize] as usize;
                let cnt = self.hands[c].count(k);
                self.hands[c].add(k);
                self.occ[c] ^= bit(frm) | bit(to);
                self.occ[c ^ 1] ^= bit(to);
                let step = zb.hand_step(c, k, cnt);
                self.hash =
                    h ^ zb.side ^ zb.board(v, frm) ^ zb.board(cap, to) ^ zb.board(nv, to) ^ step;
                self.hand_hash = hz ^ step;
            } else {
                self.board[to as usize] = v;
                self.occ[c] ^= bit(frm) | bit(to);
                self.hash = h ^ zb.side ^ zb.board(v, frm) ^ zb.board(v, to);
            }
            if t.royal[v as usize] {
                self.kings[c] = to;
            }
        } else {
            let f = m.face();
            let v = f << 1 | c as u8;
            moved = v;
            cap = 0;
            self.board[to as usize] = v;
            let k = t.face_kind[f as usize] as usize;
            self.hands[c].remove(k);
            let cnt = self.hands[c].count(k);
            self.occ[c] ^= bit(to);
            let zb = &t.zobrist;
            let step = zb.hand_step(c, k, cnt);
            self.hash = h ^ step ^ zb.side ^ zb.board(v, to);
            self.hand_hash = hz ^ step;
        }
        self.stack.push(Undo {
            mv: m,
            captured: cap,
            moved,
            hash: h,
            hand_hash: hz,
        });
        self.turn = self.turn.flip();
    }

    /// Unmakes the last move and returns it (`None` if none was made).
    #[inline]
    pub fn pop(&mut self) -> Option<Move> {
        let u = self.stack.pop()?;
        let t = &*self.tables;
        let c = self.turn.flip();
        self.turn = c;
        let c = c.index();
        self.hash = u.hash;
        self.hand_hash = u.hand_hash;
        let frm = u.mv.from();
        let to = u.mv.to();
        if frm != 0 {
            self.board[frm as usize] = u.moved;
            self.board[to as usize] = u.captured;
            self.occ[c] ^= bit(frm) | bit(to);
            if u.captured != 0 {
                self.occ[c ^ 1] ^= bit(to);
                self.hands[c].remove(t.hand_kind[u.captured as usize] as usize);
            }
            if self.kings[c] == to {
                self.kings[c] = frm;
            }
        } else {
            self.board[to as usize] = 0;
            self.occ[c] ^= bit(to);
            self.hands[c].add(t.face_kind[(u.moved >> 1) as usize] as usize);
        }
        Some(u.mv)
    }

    /// The hash after move `m`, without making it.
    #[inline]
    pub fn child_hash(&self, m: Move) -> u64 {
        self.child_hashes(m).0
    }

    /// The hash and the hands' part of it after move `m`, without making it.
    #[inline]
    pub fn child_hashes(&self, m: Move) -> (u64, u64) {
        let t = &*self.tables;
        let c = self.turn.index();
        let to = m.to();
        let frm = m.from();
        let zb = &t.zobrist;
        let h = self.hash ^ zb.side;
        if frm == 0 {
            let f = m.face();
            let k = t.face_kind[f as usize] as usize;
            let step = zb.hand_step(c, k, self.hands[c].count(k).saturating_sub(1));
            return (
                h ^ step ^ zb.board(f << 1 | c as u8, to),
                self.hand_hash ^ step,
            );
        }
        let v = self.board[frm as usize];
        let cap = self.board[to as usize];
        if cap != 0 {
            let k = t.hand_kind[cap as usize] as usize;
            let step = zb.hand_step(c, k, self.hands[c].count(k));
            return (
                h ^ zb.board(v, frm) ^ zb.board(cap, to) ^ step ^ zb.board(t.flip[v as usize], to),
                self.hand_hash ^ step,
            );
        }
        (h ^ zb.board(v, frm) ^ zb.board(v, to), self.hand_hash)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::variant::builtin;

    /// A position from a board string as in position strings (digits: empty squares), for tests.
    pub(crate) fn pos(variant: &str, board: &str, turn: Colour, hands: [&[u8]; 2]) -> Position {
        let v = builtin(variant);
        let cells = parse_cells(board);
        let t = Arc::new(Tables::new(&v, cells.len()).unwrap());
        let values: Vec<u8> = cells
            .iter()
            .map(|cell| match cell {
                None => 0,
                Some((promoted, letter)) => {
                    let k = t
                        .kind_letter
                        .iter()
                        .position(|&l| l == letter.to_ascii_uppercase())
                        .unwrap();
                    let f = if *promoted {
                        t.promoted_face[k]
                    } else {
                        t.unpromoted_face[k]
                    };
                    f << 1 | letter.is_ascii_lowercase() as u8
                }
            })
            .collect();
        let mut hs: [Vec<u8>; 2] = [vec![0; t.nkinds], vec![0; t.nkinds]];
        for c in 0..2 {
            hs[c][..hands[c].len()].copy_from_slice(hands[c]);
        }
        Position::new(t, &values, [&hs[0], &hs[1]], turn).unwrap()
    }

    fn parse_cells(board: &str) -> Vec<Option<(bool, char)>> {
        let mut out = vec![];
        let mut promoted = false;
        let mut run = 0;
        for ch in board.chars() {
            if let Some(d) = ch.to_digit(10) {
                run = run * 10 + d as usize;
                continue;
            }
            out.extend(std::iter::repeat_n(None, run));
            run = 0;
            match ch {
                '+' => promoted = true,
                c => {
                    out.push(Some((promoted, c)));
                    promoted = false;
                }
            }
        }
        out.extend(std::iter::repeat_n(None, run));
        out
    }

    pub(crate) fn ito_start() -> Position {
        pos("ito", "k3fg1hc2tp5PT2CH1GF3K", Colour::Black, [&[], &[]])
    }

    #[test]
    fn a_position_holds_no_move_stack_until_a_move_is_made() {
        // Positions held by the thousand (a census shard's list, the
        // composer's candidates) cost their fields alone.
        let mut p = ito_start();
        assert_eq!(p.stack.capacity(), 0);
        p.push(Move::board(19, 13));
        assert!(p.stack.capacity() > 0);
        let q = p.copy();
        assert_eq!(q.stack.capacity(), 0);
        assert_eq!((q.hash, q.board, q.turn), (p.hash, p.board, p.turn));
        p.pop();
    }

    #[test]
    fn construction_and_validation() {
        let p = ito_start();
        assert_eq!(p.n(), 31);
        assert_eq!(p.king(Colour::Black), 31);
        assert_eq!(p.king(Colour::White), 1);
        assert!(p.validate().is_ok());
        let t = p.tables().clone();
        let mut board = p.board().to_vec();
        board[10] = 2; // a second Black king
        assert!(Position::new(t.clone(), &board, [&[0; 7], &[0; 7]], Colour::Black).is_err());
        assert!(Position::new(t.clone(), &board[..30], [&[0; 7], &[0; 7]], Colour::Black).is_err());
        board[10] = 99;
        assert!(Position::new(t.clone(), &board, [&[0; 7], &[0; 7]], Colour::Black).is_err());
        assert!(Position::new(t.clone(), p.board(), [&[0; 6], &[0; 7]], Colour::Black).is_err());
        assert!(Position::new(
            t.clone(),
            p.board(),
            [&[200, 0, 0, 0, 0, 0, 0], &[0; 7]],
            Colour::Black
        )
        .is_err());
        // Too many pawns: two on the board and one in hand.
        let q = Position::new(
            t,
            p.board(),
            [&[0, 1, 0, 0, 0, 0, 0], &[0; 7]],
            Colour::Black,
        )
        .unwrap();
        assert!(q.validate().is_err());
    }

    #[test]
    fn push_pop_restore_everything() {
        let mut p = pos(
            "ito",
            "k3fg1hc2tp5PT2CH1GF3K",
            Colour::Black,
            [&[0, 1, 0, 0, 0, 0, 0], &[]],
        );
        let before = p.clone();
        let moves = [Move::board(19, 13), Move::drop(2, 21)];
        for m in moves {
            let ch = p.child_hashes(m);
            p.push(m);
            assert_eq!((p.hash(), p.hand_hash()), ch);
            let fresh = p.with_turn(p.turn());
            assert_eq!(
                fresh.hash(),
                p.hash(),
                "incremental hash = rebuilt hash after {m:?}"
            );
            assert_eq!(fresh.hand_hash(), p.hand_hash());
            assert_eq!(fresh.occupied(), p.occupied());
            p.pop();
        }
        p.push(Move::board(19, 13)); // the pawn takes the pawn
        assert_eq!(p.last_capture(), 2 << 1 | 1);
        assert_eq!(p.hand(Colour::Black).count(1), 2);
        assert_eq!(p.piece(13), 3 << 1);
        assert_eq!(p.pop(), Some(Move::board(19, 13)));
        assert!(p.same_as(&before));
        assert_eq!(p.hash(), before.hash());
        assert_eq!(p.pop(), None);
    }

    #[test]
    fn mirror_and_keys() {
        let p = ito_start();
        let m = p.mirror();
        assert_eq!(m.turn(), Colour::White);
        assert_eq!(m.piece(1), p.piece(31) ^ 1);
        assert!(m.mirror().same_as(&p));
        assert_eq!(p.board_key() ^ p.hand_hash(), p.hash());
        assert_eq!(p.key_cmp(&p.copy()), Ordering::Equal);
        assert_eq!(p.repetitions(), 1);
    }
}
