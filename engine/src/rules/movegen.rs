//! Pseudo-legal and king-safe move generation.
//!
//! Order matters to the Python search's tie-breaks and stays as the Python
//! engine had it: a piece's leaps in the order of its face's leaps, then its
//! rides square by square.

use crate::rules::colour::Colour;
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;
use crate::rules::square::{bit, Mask, Square, Squares};
use crate::rules::variant::RideMode;

impl Position {
    /// Appends the pseudo-legal board moves of the piece on `s`.
    #[inline]
    pub(crate) fn piece_moves(&self, s: Square, out: &mut MoveList) {
        let t = &*self.tables;
        let board = &self.board;
        let v = board[s as usize];
        let c = v & 1;
        let own = self.occ[c as usize];
        for &to in t.leap_targets(v, s) {
            if own & bit(to) == 0 {
                out.push(Move::board(s, to));
            }
        }
        for path in t.paths(v, s) {
            let mv = path.move_mode;
            let cp = path.capture;
            let mut screened = false;
            for &to in t.path_squares(path) {
                let w = board[to as usize];
                if !screened {
                    if w == 0 {
                        if mv == RideMode::Slide {
                            out.push(Move::board(s, to));
                        }
                        continue;
                    }
                    if cp == RideMode::Slide && w & 1 != c {
                        out.push(Move::board(s, to));
                    }
                    if mv == RideMode::Hop || cp == RideMode::Hop {
                        screened = true;
                        continue;
                    }
                    break;
                }
                if w == 0 {
                    if mv == RideMode::Hop {
                        out.push(Move::board(s, to));
                    }
                    continue;
                }
                if cp == RideMode::Hop && w & 1 != c {
                    out.push(Move::board(s, to));
                }
                break;
            }
        }
    }

    /// The squares where colour `c` may drop (placement rules only).
    #[inline]
    pub fn drop_squares(&self, c: Colour) -> Mask {
        let t = &*self.tables;
        let mut empty = t.board_mask & !(self.occ[0] | self.occ[1]);
        if t.drop_king_limits {
            let k = self.kings[c.index()] as usize;
            if k != 0 {
                // Not behind the own king, and at least two squares from it.
                empty &= if c == Colour::Black {
                    t.below(k - 1)
                } else {
                    t.above(k + 1)
                };
            }
        }
        empty
    }

    /// The faces colour `c` may drop with its hand as it is, in kind order (a king is never dropped).
    #[inline]
    pub(crate) fn drop_faces_in_hand(&self, c: Colour, out: &mut [u8; 32]) -> usize {
        let t = &*self.tables;
        let hand = self.hands[c.index()];
        let mut n = 0;
        if hand.is_empty() {
            return 0;
        }
        for k in 0..t.nkinds {
            if hand.count(k) != 0 && k != t.royal_kind {
                for &f in &t.drop_faces[k] {
                    out[n] = f;
                    n += 1;
                }
            }
        }
        n
    }

    /// Appends the drops of colour `c` onto the squares of `squares`, square by square.
    #[inline]
    pub(crate) fn drops(&self, c: Colour, squares: Mask, out: &mut MoveList) {
        if squares == 0 {
            return;
        }
        let mut faces = [0u8; 32];
        let nf = self.drop_faces_in_hand(c, &mut faces);
        if nf == 0 {
            return;
        }
        for to in Squares(squares) {
            for &f in &faces[..nf] {
                out.push(Move::drop(f, to));
            }
        }
    }

    /// Appends the drops onto `squares` that leave colour `c`'s king safe.
    ///
    /// What a drop does to its own king depends only on the square (any
    /// piece blocks a line or becomes a screen), so one trial per square
    /// serves every piece in hand.
    pub(crate) fn safe_drops(&self, c: Colour, squares: Mask, out: &mut MoveList) {
        if squares == 0 {
            return;
        }
        let mut faces = [0u8; 32];
        let nf = self.drop_faces_in_hand(c, &mut faces);
        if nf == 0 {
            return;
        }
        for to in Squares(self.safe_drop_squares(c, squares)) {
            for &f in &faces[..nf] {
                out.push(Move::drop(f, to));
            }
        }
    }

    /// Every move obeying piece movement and drop placement, ignoring king safety.
    pub fn pseudo_legal_moves(&self, out: &mut MoveList) {
        let c = self.turn;
        for s in Squares(self.occ[c.index()]) {
            self.piece_moves(s, out);
        }
        self.drops(c, self.drop_squares(c), out);
    }

    /// Is `m` a pseudo-legal move here (movement and drop placement)?
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let t = &*self.tables;
        let to = m.to();
        if to == 0 || to as usize > t.n {
            return false;
        }
        let c = self.turn;
        if m.is_drop() {
            let f = m.face() as usize;
            if f == 0 || f > t.nfaces {
                return false;
            }
            let k = t.face_kind[f] as usize;
            k != t.royal_kind
                && self.hands[c.index()].count(k) != 0
                && t.drop_faces[k].contains(&(f as u8))
                && self.drop_squares(c) & bit(to) != 0
        } else {
            let frm = m.from();
            if frm as usize > t.n || m.face() != 0 {
                return false;
            }
            let v = self.board[frm as usize];
            if v == 0 || (v & 1) as usize != c.index() {
                return false;
            }
            let mut buf = MoveList::new();
            self.piece_moves(frm, &mut buf);
            buf.contains(m)
        }
    }

    /// The moves that leave the mover's king safe (movement, drop placement, king safety).
    ///
    /// With `first_only` it stops at the first one found; without `drops`,
    /// only moves of pieces on the board are looked at.
    pub(crate) fn safe_moves(&self, first_only: bool, drops: bool, out: &mut MoveList) {
        let c = self.turn;
        let k = self.kings[c.index()];
        let start = out.len();
        if k == 0 {
            let mut all = MoveList::new();
            self.pseudo_legal_moves(&mut all);
            for &m in all.iter() {
                if drops || !m.is_drop() {
                    out.push(m);
                    if first_only {
                        return;
                    }
                }
            }
            return;
        }
        let t = &*self.tables;
        let mut risky = MoveList::new();
        let mut buf = MoveList::new();
        let (checkers, danger) = self.king_lines(c, k, self.occ[0] | self.occ[1]);
        let own = self.occ[c.index()];
        if checkers != 0 {
            // A non-king move can only lift a check by changing what stands on
            // a checker's square or between it and the king.
            let region = Squares(checkers).fold(checkers, |r, p| r | t.between(p, k));
            // King moves first: with `first_only` they are the likeliest answer.
            self.piece_moves(k, &mut buf);
            for &m in buf.iter() {
                if !self.move_exposes(m, c) {
                    out.push(m);
                    if first_only {
                        return;
                    }
                }
            }
            if drops {
                self.safe_drops(c, self.drop_squares(c) & region, out);
            }
            if first_only && out.len() > start {
                out.truncate(start + 1);
                return;
            }
            for s in Squares(own ^ bit(k)) {
                if region & bit(s) != 0 {
                    self.piece_moves(s, &mut risky);
                } else if t.span(self.board[s as usize], s) & region != 0 {
                    buf.clear();
                    self.piece_moves(s, &mut buf);
                    for &m in buf.iter() {
                        if region & bit(m.to()) != 0 {
                            risky.push(m);
                        }
                    }
                }
            }
        } else {
            if drops {
                let squares = self.drop_squares(c);
                self.drops(c, squares & !danger, out);
                if first_only && out.len() > start {
                    out.truncate(start + 1);
                    return;
                }
                self.safe_drops(c, squares & danger, out);
            }
            for s in Squares(own) {
                if s == k || danger & bit(s) != 0 {
                    self.piece_moves(s, &mut risky);
                    continue;
                }
                if danger == 0 {
                    self.piece_moves(s, out);
                } else {
                    buf.clear();
                    self.piece_moves(s, &mut buf);
                    for &m in buf.iter() {
                        if danger & bit(m.to()) != 0 {
                            risky.push(m);
                        } else {
                            out.push(m);
                        }
                    }
                }
                if first_only && out.len() > start {
                    out.truncate(start + 1);
                    return;
                }
            }
        }
        for &m in risky.iter() {
            if !self.move_exposes(m, c) {
                out.push(m);
                if first_only {
                    return;
                }
            }
        }
    }

    /// Has the side to move any move that leaves its own king safe?
    ///
    /// The inner test of the stalemate and drop-mate rules: movement, drop
    /// placement and king safety only.
    pub fn has_safe_move(&self) -> bool {
        let mut out = MoveList::new();
        self.safe_moves(true, true, &mut out);
        !out.is_empty()
    }

    /// Has the side to move a king-safe move of a piece on the board (one that needs no hand)?
    pub fn has_safe_board_move(&self) -> bool {
        let mut out = MoveList::new();
        self.safe_moves(true, false, &mut out);
        !out.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::colour::Colour::{Black, White};
    use crate::rules::moves::{Move, MoveList};
    use crate::rules::position::tests::{ito_start, pos};

    #[test]
    fn start_moves() {
        let p = ito_start();
        let mut l = MoveList::new();
        p.pseudo_legal_moves(&mut l);
        assert_eq!(l.len(), 11);
        let mut s = MoveList::new();
        p.safe_moves(false, true, &mut s);
        assert_eq!(s.len(), 11);
        assert!(p.has_safe_move() && p.has_safe_board_move());
    }

    #[test]
    fn cannon_hops_and_captures() {
        // Black Silver Cannon on 10, White pawn on 5 (screen), White king on 1:
        // it may hop to 4, 3, 2 and capture the king on 1 only after the screen.
        let p = pos("ito", "k3p4C20K", Black, [&[], &[]]);
        let mut l = MoveList::new();
        p.piece_moves(10, &mut l);
        let tos: Vec<u8> = l.iter().map(|m| m.to()).collect();
        assert_eq!(tos, vec![4, 3, 2, 1]);
        assert!(p.is_pseudo_legal(Move::board(10, 4)));
        assert!(!p.is_pseudo_legal(Move::board(10, 9)));
    }

    #[test]
    fn drops_and_king_limits() {
        // Rutherford: no drop behind the own king nor next to it.
        let p = pos("rutherford", "k7K", Black, [&[0, 1], &[]]);
        let sq = p.drop_squares(Black);
        assert_eq!(sq, (1u64 << 7) - 2); // squares 2..=7
        let w = p.drop_squares(White);
        assert_eq!(w, ((1u64 << 8) - 1) & !0b11); // squares 3..=8
        let mut l = MoveList::new();
        p.pseudo_legal_moves(&mut l);
        // King: 9 -> 8 and 7; a pawn dropped either side up on six squares.
        assert_eq!(l.len(), 2 + 12);
        assert!(p.is_pseudo_legal(Move::drop(3, 2)));
        assert!(!p.is_pseudo_legal(Move::drop(3, 8)));
        assert!(!p.is_pseudo_legal(Move::drop(4, 2))); // no Silver in hand
    }
}
