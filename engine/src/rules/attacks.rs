//! Attacks and checks: which squares a side attacks, with the board as it is or as a move would leave it.

use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::square::{bit, has, Mask, Square, Squares};
use crate::rules::tables::RayGroup;

/// Does the piece nearest `k` on `g`'s line through `k` (occupancy `occ`)
/// slide to `k`, or the one behind it hop to it?  `at` says what stands on
/// a square, so a move can be looked at without making it.
#[inline(always)]
fn line_attacks(g: &RayGroup, k: Square, occ: Mask, at: impl Fn(Square) -> u8) -> bool {
    let mut m = occ & g.lattice[k as usize];
    if m == 0 {
        return false;
    }
    let p = g.nearest(m);
    if g.slide_range[at(p) as usize] >= p.abs_diff(k) {
        return true;
    }
    if !g.has_hop {
        return false;
    }
    m ^= bit(p);
    m != 0 && {
        let p = g.nearest(m);
        g.hop_range[at(p) as usize] >= p.abs_diff(k)
    }
}

impl Position {
    /// Is square `k` attacked by a piece of colour `by`?
    #[inline]
    pub fn is_attacked(&self, k: Square, by: Colour) -> bool {
        let t = &*self.tables;
        let c = by.index();
        let board = &self.board;
        // Only squares holding a piece of `by` can hold a leaping attacker.
        for p in Squares(self.occ[c] & t.leap_zone(c, k)) {
            if t.leap_from(c, k, p) >> board[p as usize] & 1 != 0 {
                return true;
            }
        }
        let occ = self.occ[0] | self.occ[1];
        t.ray_att[c]
            .iter()
            .any(|g| line_attacks(g, k, occ, |p| board[p as usize]))
    }

    /// [`Position::is_attacked`] as it would be with occupancy `occ` and value `val` on `sq`.
    ///
    /// This answers "would this move leave that square attacked" without
    /// making it: `occ` has the from-square cleared and the to-square set, and
    /// `sq`/`val` say what stands on the to-square afterwards (`sq` 0: nothing changes there).
    #[inline]
    pub(crate) fn attacked_occ(
        &self,
        k: Square,
        by: Colour,
        occ: Mask,
        sq: Square,
        val: u8,
    ) -> bool {
        let t = &*self.tables;
        let c = by.index();
        let board = &self.board;
        let sqb = if sq == 0 { 0 } else { bit(sq) };
        // The squares of `by`'s pieces as they would stand.
        let mut own = self.occ[c] & occ;
        if val != 0 && (val & 1) as usize == c {
            own |= sqb;
        } else {
            own &= !sqb;
        }
        let at = |p: Square| if p == sq { val } else { board[p as usize] };
        for p in Squares(own & t.leap_zone(c, k)) {
            if t.leap_from(c, k, p) >> at(p) & 1 != 0 {
                return true;
            }
        }
        t.ray_att[c].iter().any(|g| line_attacks(g, k, occ, at))
    }

    /// [`Position::attacked_occ`] of a piece of colour `by` moved from `frm`
    /// (0: dropped) to `sq`, where it stands as `val`, given that no piece of
    /// `by` attacks `k` before the move.
    ///
    /// Leaps do not change with occupancy and only the lines through `frm`
    /// or `sq` change at all, so only the moved piece's leaps and those
    /// lines need looking at: most of the lines of a board full of riders
    /// are skipped (checks() asks this of every move near a line to the king).
    #[inline]
    pub(crate) fn attacked_after(
        &self,
        k: Square,
        by: Colour,
        occ: Mask,
        frm: Square,
        sq: Square,
        val: u8,
    ) -> bool {
        let t = &*self.tables;
        let c = by.index();
        let board = &self.board;
        if has(t.leap_zone(c, k), sq) && t.leap_from(c, k, sq) >> val & 1 != 0 {
            return true;
        }
        let touched = bit(sq) | if frm != 0 { bit(frm) } else { 0 };
        let at = |p: Square| if p == sq { val } else { board[p as usize] };
        t.ray_att[c]
            .iter()
            .any(|g| g.lattice[k as usize] & touched != 0 && line_attacks(g, k, occ, at))
    }

    /// The squares of `squares` (empty ones) where a piece of colour `c`
    /// dropped leaves `c`'s king unattacked, as [`Position::attacked_occ`]
    /// tells of each drop.
    ///
    /// A drop blocks no leap and changes only the lines through its square:
    /// a leap onto the king rules out every square, a line attacking it
    /// every square off that line, and only the lines through a square
    /// left are looked at again.
    pub(crate) fn safe_drop_squares(&self, c: Colour, squares: Mask) -> Mask {
        let k = self.kings[c.index()];
        if k == 0 {
            return squares;
        }
        let t = &*self.tables;
        let e = c.flip().index();
        let board = &self.board;
        let at = |p: Square| board[p as usize];
        for p in Squares(self.occ[e] & t.leap_zone(e, k)) {
            if t.leap_from(e, k, p) >> board[p as usize] & 1 != 0 {
                return 0;
            }
        }
        let occ = self.occ[0] | self.occ[1];
        let groups = &t.ray_att[e];
        let mut left = squares;
        for g in groups {
            if left != 0 && line_attacks(g, k, occ, at) {
                left &= g.lattice[k as usize];
            }
        }
        let mut safe = 0;
        for to in Squares(left) {
            let occ2 = occ | bit(to);
            if !groups
                .iter()
                .any(|g| has(g.lattice[k as usize], to) && line_attacks(g, k, occ2, at))
            {
                safe |= bit(to);
            }
        }
        safe
    }

    /// The empty squares where a piece, whatever it is, arriving would let
    /// colour `by` attack `k` by a hop, with itself the screen; `k` not
    /// attacked by `by` now.
    ///
    /// Not attacked now, no line's nearest piece slides to `k` and none
    /// hops: a piece put beyond the nearest changes neither, and one put
    /// before it (on the line) makes the nearest the one behind, so it
    /// checks exactly when that piece hops to `k` over one screen.
    pub(crate) fn screen_squares(&self, k: Square, by: Colour) -> Mask {
        let t = &*self.tables;
        let occ = self.occ[0] | self.occ[1];
        let mut out = 0;
        for g in &t.ray_att[by.index()] {
            if !g.has_hop {
                continue;
            }
            let line = g.lattice[k as usize];
            let m = occ & line;
            if m == 0 {
                continue;
            }
            let p = g.nearest(m);
            if g.hop_range[self.board[p as usize] as usize] >= p.abs_diff(k) {
                out |= line & t.between(p, k);
            }
        }
        out & !occ
    }

    /// The empty squares from which a piece of value `v` of colour `by`
    /// put there would itself attack `k`, by a leap or a ride over the
    /// board as it stands.
    pub(crate) fn drop_attack_squares(&self, v: u8, k: Square, by: Colour) -> Mask {
        let t = &*self.tables;
        let occ = self.occ[0] | self.occ[1];
        let within = |r: u8| {
            let (k, r) = (k as usize, r as usize);
            t.above(k.saturating_sub(r + 1)) & t.below((k + r + 1).min(t.n + 1))
        };
        let mut out = t.leap_reach(v, k);
        for g in &t.ray_att[by.index()] {
            let (slide, hop) = (g.slide_range[v as usize], g.hop_range[v as usize]);
            if slide == 0 && hop == 0 {
                continue;
            }
            let line = g.lattice[k as usize];
            let m = occ & line;
            if m == 0 {
                out |= line & within(slide);
                continue;
            }
            // Nearer than the nearest piece it slides; beyond it, up to the
            // next, it hops.
            let p1 = g.nearest(m);
            let near = line & t.between(k, p1);
            out |= near & within(slide);
            if hop != 0 {
                let rest = m ^ bit(p1);
                let mut far = line & !near & !bit(p1);
                if rest != 0 {
                    far &= t.between(p1, g.nearest(rest));
                }
                out |= far & within(hop);
            }
        }
        out & !occ
    }

    /// Would move `m` of colour `c` leave its own king attacked?
    #[inline]
    pub(crate) fn move_exposes(&self, m: Move, c: Colour) -> bool {
        let frm = m.from();
        let to = m.to();
        let mut occ = self.occ[0] | self.occ[1];
        let k;
        let v;
        if frm != 0 {
            let w = self.board[frm as usize];
            occ = (occ ^ bit(frm)) | bit(to);
            k = if frm == self.kings[c.index()] {
                to
            } else {
                self.kings[c.index()]
            };
            v = if self.board[to as usize] != 0 {
                self.tables.flip[w as usize]
            } else {
                w
            };
        } else {
            v = m.face() << 1 | c.index() as u8;
            occ |= bit(to);
            k = self.kings[c.index()];
        }
        k != 0 && self.attacked_occ(k, c.flip(), occ, to, v)
    }

    /// The squares holding pieces of colour `by` that attack square `k`.
    pub fn attackers(&self, k: Square, by: Colour) -> Mask {
        let t = &*self.tables;
        let c = by.index();
        let board = &self.board;
        let mut found = 0;
        for p in Squares(self.occ[c] & t.leap_zone(c, k)) {
            if t.leap_from(c, k, p) >> board[p as usize] & 1 != 0 {
                found |= bit(p);
            }
        }
        found | self.ride_attackers(k, by)
    }

    /// The squares holding pieces of colour `by` that attack `k` along a ride.
    fn ride_attackers(&self, k: Square, by: Colour) -> Mask {
        let t = &*self.tables;
        let occ = self.occ[0] | self.occ[1];
        let mut found = 0;
        for g in &t.ray_att[by.index()] {
            let mut m = occ & g.lattice[k as usize];
            for nth in 0..2 {
                if m == 0 {
                    break;
                }
                let p = g.nearest(m);
                let rng = if nth == 0 {
                    &g.slide_range
                } else {
                    &g.hop_range
                };
                let v = self.board[p as usize];
                if (v & 1) as usize == by.index() && rng[v as usize] >= p.abs_diff(k) {
                    found |= bit(p);
                }
                if !g.has_hop {
                    break;
                }
                m ^= bit(p);
            }
        }
        found
    }

    /// Is the side to move in check?
    #[inline]
    pub fn is_check(&self) -> bool {
        let k = self.kings[self.turn.index()];
        k != 0 && self.is_attacked(k, self.turn.flip())
    }

    /// Would this pseudo-legal move check the opponent?
    pub fn gives_check(&mut self, m: Move) -> bool {
        self.push(m);
        let r = self.is_check();
        self.pop();
        r
    }

    /// The pieces checking the side to move along a ride (a leaper's check cannot be blocked).
    pub fn ride_checkers(&self) -> Mask {
        let k = self.kings[self.turn.index()];
        if k == 0 {
            return 0;
        }
        let by = self.turn.flip();
        let t = &*self.tables;
        let mut checkers = self.ride_attackers(k, by);
        // A piece that attacks by a leap as well counts as a leaper.
        for p in Squares(checkers & t.leap_zone(by.index(), k)) {
            if t.leap_from(by.index(), k, p) >> self.board[p as usize] & 1 != 0 {
                checkers &= !bit(p);
            }
        }
        checkers
    }

    /// Empty squares where the side to move could drop between its king and a ride checker.
    pub fn interposition_squares(&self) -> Mask {
        let c = self.turn;
        let k = self.kings[c.index()];
        if k == 0 {
            return 0;
        }
        let region = Squares(self.ride_checkers()).fold(0, |r, p| r | self.tables.between(p, k));
        region & self.drop_squares(c)
    }

    /// `(checkers, danger)` for the king of colour `c` on `k`, with occupancy `occ`.
    ///
    /// `checkers`: the enemy pieces attacking it.  `danger` (meaningful only
    /// when there are none): the squares where adding or removing a piece may
    /// expose it.  Leaps never change with occupancy, so only the first pieces
    /// along each line from the king matter: removing the first may unmask a
    /// slider behind it; adding a piece in front of an enemy cannon gives it a
    /// screen; removing the first or second piece may leave a cannon behind
    /// them with exactly one screen.
    pub(crate) fn king_lines(&self, c: Colour, k: Square, occ: Mask) -> (Mask, Mask) {
        let t = &*self.tables;
        let e = c.flip().index();
        let board = &self.board;
        let mut checkers = 0;
        for p in Squares(self.occ[e] & occ & t.leap_zone(e, k)) {
            if t.leap_from(e, k, p) >> board[p as usize] & 1 != 0 {
                checkers |= bit(p);
            }
        }
        let mut danger = 0;
        for g in &t.ray_att[e] {
            let lattice = g.lattice[k as usize];
            let mut m = occ & lattice;
            if m == 0 {
                continue;
            }
            let p1 = g.nearest(m);
            let v1 = board[p1 as usize] as usize;
            let d1 = p1.abs_diff(k);
            if g.slide_range[v1] >= d1 {
                checkers |= bit(p1);
            }
            if g.has_hop && g.hop_range[v1] >= d1 {
                danger |= t.between(k, p1) & lattice;
            }
            m ^= bit(p1);
            if m == 0 {
                continue;
            }
            let p2 = g.nearest(m);
            let v2 = board[p2 as usize] as usize;
            let d2 = p2.abs_diff(k);
            if g.slide_range[v2] >= d2 {
                danger |= bit(p1);
            }
            if g.has_hop {
                if g.hop_range[v2] >= d2 {
                    checkers |= bit(p2);
                }
                m ^= bit(p2);
                if m != 0 {
                    let p3 = g.nearest(m);
                    if g.hop_range[board[p3 as usize] as usize] >= p3.abs_diff(k) {
                        danger |= bit(p1) | bit(p2);
                    }
                }
            }
        }
        (checkers, danger)
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::colour::Colour::{Black, White};
    use crate::rules::moves::Move;
    use crate::rules::position::tests::{ito_start, pos};
    use crate::rules::square::{bit, has, Squares};

    #[test]
    fn start_has_no_check() {
        let p = ito_start();
        assert!(!p.is_check());
        assert!(!p.is_attacked(1, Black));
        assert!(p.is_attacked(30, Black)); // the king guards 30
    }

    #[test]
    fn leaps_and_rides_attack() {
        // White king on 1, a Black Reverse Chariot on 10: it checks along the empty line.
        let p = pos("ito", "k8+C20K", Black, [&[], &[]]);
        let p = p.with_turn(White);
        assert!(p.is_check());
        assert_eq!(p.attackers(1, Black), bit(10));
        assert_eq!(p.ride_checkers(), bit(10));
        assert_eq!(p.interposition_squares().count_ones(), 8);
        // A White pawn on 5 blocks it.
        let q = pos("ito", "k3p4+C20K", White, [&[], &[]]);
        assert!(!q.is_check());
    }

    #[test]
    fn cannon_needs_a_screen() {
        // Black Silver Cannon on 10 and a screen on 5: it checks the king on 1.
        let p = pos("ito", "k3p4C20K", White, [&[], &[]]);
        assert!(p.is_check());
        let q = pos("ito", "k8C20K", White, [&[], &[]]);
        assert!(!q.is_check());
        // Removing the screen is what would un-check: the king's danger includes it.
        let (checkers, _) = q.king_lines(White, 1, q.occupied());
        assert_eq!(checkers, 0);
        let (_, danger) = q.king_lines(White, 1, q.occupied());
        assert!(danger & bit(5) != 0);
    }

    #[test]
    fn gives_check_and_exposure() {
        // A Black Heavenly Horse on 7 leaps to 4 (checking the king on 1) or to 10.
        let mut p = pos("ito", "k5H23K", Black, [&[], &[]]);
        assert!(p.gives_check(Move::board(7, 4)));
        assert!(!p.gives_check(Move::board(7, 10)));
        assert_eq!(p.ply(), 0);
        assert!(!p.move_exposes(Move::board(31, 30), Black));
    }

    #[test]
    fn safe_drop_squares_are_the_drops_attacked_occ_allows() {
        // White to move: in check by a chariot, by a cannon through a screen
        // (a White cannon on 3 is the screen another could hop over), by a
        // leaper, and not in check.
        let cases = [
            ("k8+C20K", &[] as &[u8]),
            ("k3p4C20K", &[]),
            ("k1c2p4C19K", &[]),
            ("k5H23K", &[]),
            ("k2+C2C3p19K", &[]),
            ("2k4T2C19K", &[]),
        ];
        for (board, _) in cases {
            let p = pos("ito", board, White, [&[], &[0, 1]]);
            let k = p.king(White);
            let occ = p.occupied();
            let empty = p.tables().board_mask & !occ;
            let want = Squares(empty).fold(0, |m, to| {
                if p.attacked_occ(k, Black, occ | bit(to), 0, 0) {
                    m
                } else {
                    m | bit(to)
                }
            });
            assert_eq!(p.safe_drop_squares(White, empty), want, "{board}");
        }
    }

    #[test]
    fn screen_squares_are_the_drops_that_check_as_a_screen() {
        // Black to move, the White king not attacked: cannons on 9 and 12
        // with nothing before them, a chariot, a cannon behind a pawn.
        for board in [
            "k7C21K",
            "k10C18K",
            "k3p4C20K",
            "k7+C21K",
            "2k5C2C18K",
            "k9p8C10K",
        ] {
            let p = pos("ito", board, Black, [&[], &[]]);
            let ek = p.king(White);
            if p.is_attacked(ek, Black) {
                continue;
            }
            let occ = p.occupied();
            let empty = p.tables().board_mask & !occ;
            let want = Squares(empty).fold(0, |m, to| {
                if p.attacked_after(ek, Black, occ | bit(to), 0, to, 0) {
                    m | bit(to)
                } else {
                    m
                }
            });
            assert_eq!(p.screen_squares(ek, Black), want, "{board}");
        }
        // A cannon with an open line to the king: every square before it screens.
        let p = pos("ito", "k7C21K", Black, [&[], &[]]);
        assert_eq!(
            p.screen_squares(1, Black),
            (2..=8).fold(0, |m, s| m | bit(s))
        );
    }

    #[test]
    fn drop_attack_squares_are_where_the_tables_say_a_piece_attacks() {
        let boards = [
            ("ito", "k29K"),
            ("ito", "k3p4C20K"),
            ("ito", "k7+C21K"),
            ("ito", "2k5C2C18K"),
            ("ito", "k9p8C10K"),
            ("ito", "k1p1p3T21K"),
            ("rutherford", "1S3k8B3N2"),
            ("rutherford", "k2p3L2N5K"),
        ];
        for (variant, board) in boards {
            let p = pos(variant, board, Black, [&[], &[]]);
            let ek = p.king(White);
            let occ = p.occupied();
            let t = p.tables().clone();
            for face in 2..=t.nfaces as u8 {
                let v = face << 1;
                let want = Squares(t.board_mask & !occ).fold(0, |m, s| {
                    if has(t.leap_mask(v, s), ek) || t.ride_hits(v, s, ek, occ | bit(s)) {
                        m | bit(s)
                    } else {
                        m
                    }
                });
                assert_eq!(
                    p.drop_attack_squares(v, ek, Black),
                    want,
                    "{board} face {face}"
                );
            }
        }
    }
}
