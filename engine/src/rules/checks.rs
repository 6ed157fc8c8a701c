//! The attacker's moves in a tsume: legal moves that give check, and what the search asks about drops that check.

use crate::rules::colour::Colour;
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;
use crate::rules::square::{bit, has, Mask, Square, Squares};

impl Position {
    /// Squares where a change of occupancy may open or close a ride of colour `c` onto `ek`.
    pub(crate) fn check_region(&self, c: Colour, ek: Square) -> Mask {
        let t = &*self.tables;
        let mut disc = 0;
        for s in Squares(self.occ[c.index()]) {
            let v = self.board[s as usize];
            if t.rider[v as usize] && has(t.reach(v, ek), s) {
                disc |= t.between(s, ek);
            }
        }
        disc
    }

    /// For each face colour `c` may drop: the drop squares from which it checks `ek`, by face.
    ///
    /// `kinds` (a bit set) defaults to the kinds in `c`'s hand.  Squares in
    /// `disc` (where a drop may give a cannon of ours its screen) are
    /// included for every face: the caller tests them exactly.
    pub(crate) fn checking_drop_squares(
        &self,
        c: Colour,
        ek: Square,
        disc: Mask,
        kinds: Option<u32>,
        out: &mut [Mask; 32],
    ) {
        let t = &*self.tables;
        let squares = self.drop_squares(c);
        let kinds = kinds.unwrap_or_else(|| self.hands[c.index()].kinds());
        for k in 0..t.nkinds {
            if kinds >> k & 1 == 0 || k == t.royal_kind {
                continue;
            }
            for &f in &t.drop_faces[k] {
                let v = f << 1 | c.index() as u8;
                out[f as usize] = squares & (disc | self.drop_attack_squares(v, ek, c));
            }
        }
    }

    /// The kinds (bit `k`) whose drop, either face allowed, would check the enemy king.
    ///
    /// Occupancy as it stands; a drop that may give a cannon of ours its
    /// screen counts for every kind.  Legality beyond drop placement is not tested.
    pub fn drop_check_kinds(&self) -> u32 {
        let c = self.turn;
        let ek = self.kings[c.flip().index()];
        if ek == 0 {
            return 0;
        }
        let t = &*self.tables;
        let mut masks = [0 as Mask; 32];
        let all = (1u32 << t.nkinds) - 1;
        self.checking_drop_squares(c, ek, self.check_region(c, ek), Some(all), &mut masks);
        let mut out = 0;
        for (f, &mask) in masks.iter().enumerate().take(t.nfaces + 1).skip(1) {
            if mask != 0 {
                out |= 1 << t.face_kind[f];
            }
        }
        out
    }

    /// The legal moves that give check (the attacker's moves in a tsume), without the repetition rule.
    pub fn checks(&mut self, out: &mut MoveList) {
        self.checks_among(None, out);
    }

    /// The moves of [`Position::checks`] made by the piece on `s`, in the
    /// same order: what a caller that wants one piece's checks asks, without
    /// generating every other piece's and every drop.
    pub fn checks_by(&mut self, s: Square, out: &mut MoveList) {
        self.checks_among(Some(s), out);
    }

    /// The checks of every piece and drop, or only of the piece on `only`.
    fn checks_among(&mut self, only: Option<Square>, out: &mut MoveList) {
        self.filtered = 0;
        let c = self.turn;
        let e = c.flip();
        let ek = self.kings[e.index()];
        if ek == 0 {
            return;
        }
        let tables = self.tables.clone();
        let t = &*tables;
        let disc = self.check_region(c, ek);
        let mut cands = MoveList::new();
        let mut buf = MoveList::new();
        let movers = match only {
            Some(s) => self.occ[c.index()] & bit(s),
            None => self.occ[c.index()],
        };
        for s in Squares(movers) {
            buf.clear();
            self.piece_moves(s, &mut buf);
            if has(disc, s) {
                for &m in buf.iter() {
                    cands.push(m);
                }
                continue;
            }
            let v = self.board[s as usize];
            let r_plain = t.reach(v, ek) | disc;
            let r_flip = t.reach(t.flip[v as usize], ek) | disc;
            for &m in buf.iter() {
                let to = m.to();
                let r = if self.board[to as usize] != 0 {
                    r_flip
                } else {
                    r_plain
                };
                if has(r, to) {
                    cands.push(m);
                }
            }
        }
        let occ = self.occ[0] | self.occ[1];
        // Not in check before the move (as in any position reached by
        // play): only the lines the move touches can give a discovered check.
        let quiet = !self.is_attacked(ek, c);
        // The drop squares where a piece, whatever it is, checks as the
        // screen a ride of ours needs (when `quiet`; else every square of
        // the lines, each drop tested in full).
        let mut screens = disc;
        let hand = self.hands[c.index()];
        if only.is_none() && (0..t.nkinds).any(|k| k != t.royal_kind && hand.count(k) != 0) {
            let squares = self.drop_squares(c);
            if quiet {
                screens = squares & self.screen_squares(ek, c);
            }
            for k in 0..t.nkinds {
                if hand.count(k) == 0 || k == t.royal_kind {
                    continue;
                }
                for &f in &t.drop_faces[k] {
                    let v = f << 1 | c.index() as u8;
                    // Quiet, a drop checks by itself or as a screen: known here.
                    let checking = if quiet {
                        self.drop_attack_squares(v, ek, c) | screens
                    } else {
                        t.reach(v, ek) | screens
                    };
                    for to in Squares(squares & checking) {
                        cands.push(Move::drop(f, to));
                    }
                }
            }
        }
        if cands.is_empty() {
            return;
        }
        let k = self.kings[c.index()];
        // Moves off the danger squares cannot expose our king (when not in check).
        let (always_test, danger) = if k == 0 {
            (false, 0)
        } else {
            let (checkers, danger) = self.king_lines(c, k, occ);
            (checkers != 0, danger)
        };
        let dropmate = !t.drop_mate;
        let mut esc = None;
        let mut filtered = 0;
        for &m in cands.iter() {
            let frm = m.from();
            let to = m.to();
            let (v, occ2, exact) = if frm != 0 {
                let w = self.board[frm as usize];
                let v = if self.board[to as usize] != 0 {
                    t.flip[w as usize]
                } else {
                    w
                };
                (
                    v,
                    (occ ^ bit(frm)) | bit(to),
                    !(has(disc, frm) || has(disc, to)),
                )
            } else {
                (
                    m.face() << 1 | c.index() as u8,
                    occ | bit(to),
                    !has(disc, to),
                )
            };
            if frm == 0 && quiet {
                // A drop listed checks (above).
            } else if exact {
                // Only the moved piece can give check: the tables decide it.
                if !has(t.leap_mask(v, to), ek) && !t.ride_hits(v, to, ek, occ2) {
                    continue;
                }
            } else if quiet {
                if !self.attacked_after(ek, c, occ2, frm, to, v) {
                    continue;
                }
            } else if !self.attacked_occ(ek, c, occ2, to, v) {
                continue;
            }
            let need_safety =
                k != 0 && (always_test || frm == k || has(danger, frm) || has(danger, to));
            if need_safety && self.move_exposes(m, c) {
                continue; // exposes our own king
            }
            if dropmate && frm == 0 && self.no_safe_reply(m, &mut esc, false, true, true) {
                filtered += 1;
                continue; // a drop that mates
            }
            out.push(m);
        }
        self.filtered = filtered;
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::colour::Colour::Black;
    use crate::rules::moves::{Move, MoveList};
    use crate::rules::position::tests::pos;

    #[test]
    fn checks_are_the_checking_legal_moves() {
        // Black to move with a pawn in hand; White king on 1.
        let mut p = pos("ito", "k29K", Black, [&[0, 1], &[]]);
        let mut c = MoveList::new();
        p.checks(&mut c);
        // Only the pawn dropped on 2 checks.
        assert_eq!(c.to_vec(), vec![Move::drop(2, 2)]);
        assert_eq!(p.drop_check_kinds() & 0b10, 0b10);
    }

    #[test]
    fn one_pieces_checks_are_those_of_all_checks_it_makes() {
        // Black: a Tile General on 6, a Silver Cannon on 9, a Pawn in hand.
        let mut p = pos("ito", "k4T2C21K", Black, [&[0, 1], &[]]);
        let mut all = MoveList::new();
        p.checks(&mut all);
        for s in 1..=31u8 {
            let mut one = MoveList::new();
            p.checks_by(s, &mut one);
            let want: Vec<Move> = all.iter().copied().filter(|m| m.from() == s).collect();
            assert_eq!(one.to_vec(), want, "square {s}");
        }
        assert!(all.iter().any(|m| m.from() != 0) && all.iter().any(|m| m.from() == 0));
    }

    #[test]
    fn drop_mate_ban_in_rutherford() {
        // White king on 1; the Black Silver on 4 guards 2 and 3.  A pawn
        // dropped on 2 (either side up) would mate: Rutherford forbids it.
        let mut p = pos("rutherford", "k2S4K", Black, [&[0, 1], &[]]);
        let mut c = MoveList::new();
        p.checks(&mut c);
        assert!(!c.contains(Move::drop(2, 2)) && !c.contains(Move::drop(3, 2)));
        assert_eq!(p.filtered(), 2);
        let mut all = MoveList::new();
        p.legal_moves(None, &mut all);
        assert!(!all.contains(Move::drop(2, 2)));
        assert_eq!(p.filtered(), 2);
        // The same drop is legal when the ban is switched off.
        let mut v = crate::rules::variant::builtin("rutherford");
        v.drop_mate = true;
        let mut q = crate::Position::from_fen(&v, "k2S4K b P").unwrap();
        let mut c = MoveList::new();
        q.checks(&mut c);
        assert!(c.contains(Move::drop(2, 2)));
        assert_eq!(q.filtered(), 0);
    }
}
