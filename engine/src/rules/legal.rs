//! Legal moves: king safety, then the game rules that look one move ahead.
//!
//! * The stalemate rule ("illegal"): a move leaving the opponent, not in
//!   check, without a king-safe move is illegal.
//! * The drop-mate ban: a drop leaving the opponent in check without a
//!   king-safe move is illegal.
//! * Repetition (games only): a move making a position occur for the third
//!   time on the move stack is illegal.
//!
//! Both one-move-ahead rules are expensive in principle; cheap proofs that a
//! move is fine come first: an opponent king step the move cannot spoil
//! ([`Escapes`]), an opponent move the move cannot spoil (witnesses), two drop
//! squares no move of ours can take away.

use crate::rules::colour::Colour;
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;
use crate::rules::square::{bit, has, Mask, Square, Squares};

/// The most cheap proofs kept per node (more would only be shortcuts).
const MAX_PROOFS: usize = 16;

/// Safe king steps of the opponent, each with the squares a move of ours must not touch.
#[derive(Clone, Copy)]
pub(crate) struct Escapes {
    len: usize,
    steps: [(Square, Mask); MAX_PROOFS],
}

impl Position {
    /// Every legal move, into `out`.
    ///
    /// `repetition` (default: the variant's switch) forbids a move whose
    /// position has occurred twice before on the move stack.
    pub fn legal_moves(&mut self, repetition: Option<bool>, out: &mut MoveList) {
        let t = self.tables.clone();
        let repetition = repetition.unwrap_or(t.repetition);
        let c = self.turn;
        let ek = self.kings[c.flip().index()];
        self.filtered = 0;
        // A side without a king is never stalemated: with no move left it has
        // simply run out of play.
        let stale = t.stalemate_illegal && ek != 0 && !self.opponent_keeps_safe_drop();
        let dropmate = !t.drop_mate && ek != 0 && !self.hands[c.index()].is_empty();
        // The third occurrence needs at least eight plies of history.
        let rep = repetition && self.stack.len() >= 7;
        if !(stale || dropmate || rep) {
            self.safe_moves(false, true, out);
            return;
        }
        let mut moves = MoveList::new();
        self.safe_moves(false, true, &mut moves);
        let disc = if dropmate {
            self.check_region(c, ek)
        } else {
            0
        };
        // Drops that give check (or may, through a cannon's new screen): only
        // these can fall foul of the drop-mate ban.
        let mut checking = [0 as Mask; 32];
        if dropmate {
            self.checking_drop_squares(c, ek, disc, None, &mut checking);
        }
        let mut esc: Option<Escapes> = None;
        // For the stalemate rule, first look for an opponent move that ours
        // cannot spoil: the cheapest proof in measurements.
        let mut witnesses = [0 as Mask; MAX_PROOFS];
        let nw = if stale && !moves.is_empty() {
            self.opponent_witnesses(&mut witnesses)
        } else {
            0
        };
        let mut filtered = 0;
        for &m in moves.iter() {
            let to = m.to();
            let test_mate = dropmate && m.is_drop() && has(checking[m.face() as usize], to);
            if test_mate {
                if self.no_safe_reply(m, &mut esc, stale, true, !has(disc, to)) {
                    filtered += 1;
                    continue;
                }
            } else if stale {
                let touch = m.footprint();
                if !witnesses[..nw].iter().any(|&w| w & touch == 0)
                    && self.no_safe_reply(m, &mut esc, true, false, false)
                {
                    filtered += 1;
                    continue;
                }
            }
            if rep {
                self.push(m);
                let again = self.repetitions() >= 3;
                self.pop();
                if again {
                    continue;
                }
            }
            out.push(m);
        }
        self.filtered = filtered;
    }

    /// The legal moves when the side to move is in check (all legal moves then), without the repetition rule.
    pub fn evasions(&mut self, out: &mut MoveList) {
        self.legal_moves(Some(false), out);
    }

    /// Is `m` legal here?
    pub fn is_legal(&mut self, m: Move, repetition: Option<bool>) -> bool {
        if !self.is_pseudo_legal(m) {
            return false;
        }
        let mut l = MoveList::new();
        self.legal_moves(repetition, &mut l);
        l.contains(m)
    }

    /// Is the move `m` illegal for leaving the opponent no king-safe move?
    ///
    /// It is when the opponent is then in check and `mate` (a drop mate under
    /// the ban), or not in check and `stale` (the stalemate rule).  `checks`
    /// says that `m` surely gives check.  A king step of the opponent that `m`
    /// cannot spoil (kept in `esc` for the node) is looked for first; only
    /// without one is `m` made.
    pub(crate) fn no_safe_reply(
        &mut self,
        m: Move,
        esc: &mut Option<Escapes>,
        stale: bool,
        mate: bool,
        checks: bool,
    ) -> bool {
        let escapes = match esc {
            Some(e) => *e,
            None => {
                let e = self.king_escapes();
                *esc = Some(e);
                e
            }
        };
        let c = self.turn;
        let to = m.to();
        if escapes.len != 0 {
            let t = &*self.tables;
            let frm = m.from();
            let nv = if frm != 0 {
                let v = self.board[frm as usize];
                if self.board[to as usize] != 0 {
                    t.flip[v as usize]
                } else {
                    v
                }
            } else {
                m.face() << 1 | c.index() as u8
            };
            let touch = m.footprint();
            for &(s, zone) in &escapes.steps[..escapes.len] {
                if zone & touch == 0 && !has(t.reach(nv, s), to) {
                    return false;
                }
            }
        }
        let ek = self.kings[c.flip().index()];
        self.push(m);
        let in_check = checks || self.is_attacked(ek, c);
        let illegal = (if in_check { mate } else { stale }) && !self.has_safe_move();
        self.pop();
        illegal
    }

    /// Safe king steps of the opponent (the side not to move), each with its danger zone.
    ///
    /// For each leap of the opponent's king to an empty square or onto one of
    /// our pieces, where it would stand unattacked: `(square, zone)`, `zone`
    /// being the danger mask of [`Position::king_lines`] for a king there.  A
    /// move of ours changing occupancy only outside it cannot open a line
    /// onto the square; only the piece we move or drop could then attack it,
    /// which `reach` tells.  Such a move leaves the opponent a king-safe move.
    fn king_escapes(&self) -> Escapes {
        let e = self.turn.flip();
        let ek = self.kings[e.index()];
        let mut out = Escapes {
            len: 0,
            steps: [(0, 0); MAX_PROOFS],
        };
        let occ = (self.occ[0] | self.occ[1]) ^ bit(ek);
        for &s in self.tables.leap_targets(self.board[ek as usize], ek) {
            let w = self.board[s as usize];
            if w != 0 && (w & 1) as usize == e.index() {
                continue;
            }
            let (checkers, zone) = self.king_lines(e, s, occ | bit(s));
            if checkers == 0 && out.len < MAX_PROOFS {
                out.steps[out.len] = (s, zone);
                out.len += 1;
            }
        }
        out
    }

    /// Will the opponent have a king-safe drop after any move of ours?
    ///
    /// After our move the first piece on each line from the enemy king is one
    /// of today's first two pieces or the piece we moved, so a drop can only
    /// give one of our cannons a screen on squares before today's second
    /// piece.  Two drop squares outside those stretches survive any one move.
    fn opponent_keeps_safe_drop(&self) -> bool {
        let c = self.turn;
        let e = c.flip();
        if self.hands[e.index()].is_empty() {
            return false;
        }
        let t = &*self.tables;
        let mut squares = self.drop_squares(e);
        let ke = self.kings[e.index()];
        if ke != 0 {
            let occ = self.occ[0] | self.occ[1];
            for g in &t.ray_att[c.index()] {
                if !g.has_hop {
                    continue;
                }
                let ray = g.lattice[ke as usize];
                let mut m = occ & ray;
                let mut far = 0;
                for _ in 0..2 {
                    if m == 0 {
                        far = 0;
                        break;
                    }
                    far = g.nearest(m);
                    m ^= bit(far);
                }
                squares &= !(if far != 0 { t.between(ke, far) } else { ray });
            }
        }
        squares.count_ones() >= 2
    }

    /// Footprints of opponent moves that stay legal after any one move of ours; returns how many.
    ///
    /// Each is the mask of squares a non-king opponent move depends on (its
    /// two squares for a leap, the whole stretch for a ride).  A move of ours
    /// touching none of them leaves that opponent move possible, and the
    /// squares avoid every square that could join the opponent king's danger
    /// mask after one move of ours: on a line with cannons, the stretch up to
    /// the second piece and the next two pieces; on other lines, the first two
    /// pieces.  The opponent is then not stalemated by that move.
    fn opponent_witnesses(&self, out: &mut [Mask; MAX_PROOFS]) -> usize {
        let t = &*self.tables;
        let e = self.turn.flip();
        let ke = self.kings[e.index()];
        let mut region = 0;
        if ke != 0 {
            let occ = self.occ[0] | self.occ[1];
            for g in &t.ray_att[self.turn.index()] {
                let ray = g.lattice[ke as usize];
                let mut m = occ & ray;
                let want = if g.has_hop { 4 } else { 2 };
                let mut found = [0 as Square; 4];
                let mut nf = 0;
                while m != 0 && nf < want {
                    let p = g.nearest(m);
                    found[nf] = p;
                    nf += 1;
                    m ^= bit(p);
                }
                if g.has_hop {
                    if nf < 2 {
                        region |= ray;
                        continue;
                    }
                    region |= t.between(ke, found[1]) & ray;
                }
                for &p in &found[..nf] {
                    region |= bit(p);
                }
            }
        }
        let mut n = 0;
        let mut m = self.occ[e.index()] & !region;
        if ke != 0 {
            m &= !bit(ke);
        }
        let mut buf = MoveList::new();
        for s in Squares(m) {
            buf.clear();
            self.piece_moves(s, &mut buf);
            let leaps = t.leap_mask(self.board[s as usize], s);
            for &mv in buf.iter() {
                let to = mv.to();
                if region & bit(to) == 0 && n < MAX_PROOFS {
                    out[n] = if leaps & bit(to) != 0 {
                        bit(s) | bit(to)
                    } else {
                        t.between(s, to) | bit(s) | bit(to)
                    };
                    n += 1;
                }
            }
            if n >= 4 {
                break; // a move of ours touches two squares; four footprints nearly always leave one
            }
        }
        n
    }

    /// Why the move `m` is not legal here, in words (for a move that is not legal).
    pub fn why_illegal(&mut self, m: Move) -> String {
        let t = self.tables.clone();
        let c = self.turn;
        let to = m.to();
        if m.is_drop() {
            let f = m.face() as usize;
            if f == 0 || f > t.nfaces {
                return format!("there is no face {f}");
            }
            let k = t.face_kind[f] as usize;
            if self.hands[c.index()].count(k) == 0 {
                return format!("{} has no {} in hand", c.name(), t.kind_letter[k]);
            }
            if self.board[to as usize] != 0 {
                return format!("square {to} is occupied");
            }
            if !has(self.drop_squares(c), to) {
                return format!("dropping on {to} breaks the drop limits near the own king");
            }
        } else {
            let frm = m.from();
            let v = self.board[frm as usize];
            if v == 0 {
                return format!("square {frm} is empty");
            }
            if (v & 1) as usize != c.index() {
                return format!("the piece on {frm} is not {}'s", c.name());
            }
            let mut buf = MoveList::new();
            self.piece_moves(frm, &mut buf);
            if !buf.contains(m) {
                return format!(
                    "the {} on {frm} cannot move to {to}",
                    t.face_name[(v >> 1) as usize]
                );
            }
        }
        self.push(m);
        let mover = c;
        let k = self.kings[mover.index()];
        let ek = self.kings[mover.flip().index()];
        let why = if k != 0 && self.is_attacked(k, mover.flip()) {
            "it leaves the own king in check"
        } else if self.repetitions() >= 3 && t.repetition {
            "it repeats a position for the third time"
        } else if ek != 0 && self.is_attacked(ek, mover) {
            "it is a drop that gives checkmate"
        } else {
            "it stalemates the opponent"
        };
        self.pop();
        why.to_string()
    }

    /// Is the side to move checkmated (in check with no legal move)?
    pub fn is_checkmate(&mut self) -> bool {
        if !self.is_check() {
            return false;
        }
        let mut l = MoveList::new();
        self.evasions(&mut l);
        l.is_empty()
    }

    /// Is the side to move stalemated (not in check, no legal move)?
    pub fn is_stalemate(&mut self) -> bool {
        if self.is_check() {
            return false;
        }
        let mut l = MoveList::new();
        self.legal_moves(None, &mut l);
        l.is_empty()
    }

    /// The winner if the side to move has no legal move (it then loses), else `None`.
    pub fn outcome(&mut self) -> Option<Colour> {
        let mut l = MoveList::new();
        self.legal_moves(None, &mut l);
        l.is_empty().then(|| self.turn.flip())
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::colour::Colour::{Black, White};
    use crate::rules::moves::{Move, MoveList};
    use crate::rules::position::tests::{ito_start, pos};

    fn legal(p: &mut crate::Position) -> Vec<Move> {
        let mut l = MoveList::new();
        p.legal_moves(None, &mut l);
        l.to_vec()
    }

    #[test]
    fn start_position() {
        let mut p = ito_start();
        assert_eq!(legal(&mut p).len(), 11);
        assert!(p.outcome().is_none());
    }

    #[test]
    fn king_may_not_step_into_check() {
        // White king on 1, Black Reverse Chariot on 10 and king on 31; White to move, in check.
        let mut p = pos("ito", "k8+C20K", White, [&[], &[]]);
        assert!(p.is_check());
        let moves = legal(&mut p);
        // King 1 -> 2 and 3 stay on the chariot's line; nothing else to do.
        assert!(moves.is_empty());
        assert!(p.is_checkmate());
        assert_eq!(p.outcome(), Some(Black));
    }

    #[test]
    fn stalemate_rule_filters_moves() {
        // Positions from random Ito games where the stalemate rule forbids
        // moves (counts from the package's former Python engine).
        let ito = crate::rules::variant::builtin("ito");
        for (fen, legal, filtered) in [
            ("t1k1h5c+F2F+C1P1T3G1KHP3 b G", 30, 1),
            ("P1FFc4k2+T4H1P3+G1GT1K1H b C", 35, 1),
            ("T4kc+C+GF4PTh3F5KP1H1 b G", 29, 2),
        ] {
            let mut p = crate::Position::from_fen(&ito, fen).unwrap();
            let mut l = MoveList::new();
            p.legal_moves(Some(false), &mut l);
            assert_eq!((l.len(), p.filtered()), (legal, filtered), "{fen}");
            // Under "loss" nothing is filtered.
            let mut v = ito.clone();
            v.stalemate = crate::rules::variant::Stalemate::Loss;
            let mut q = crate::Position::from_fen(&v, fen).unwrap();
            let mut l2 = MoveList::new();
            q.legal_moves(Some(false), &mut l2);
            assert_eq!((l2.len(), q.filtered()), (legal + filtered as usize, 0));
        }
    }

    #[test]
    fn repetition_needs_history() {
        let mut p = ito_start();
        let seq = [
            Move::board(31, 30),
            Move::board(1, 2),
            Move::board(30, 31),
            Move::board(2, 1),
        ];
        for m in seq {
            assert!(p.is_legal(m, None));
            p.push(m);
        }
        assert_eq!(p.repetitions(), 2);
        for m in &seq[..3] {
            assert!(p.is_legal(*m, None));
            p.push(*m);
        }
        // The fourth move would make the start position occur a third time.
        assert!(!p.is_legal(seq[3], None));
        assert!(p.is_legal(seq[3], Some(false)));
    }
}
