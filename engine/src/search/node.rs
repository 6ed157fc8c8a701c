//! The node search (df-pn's MID): expand the current position and search its
//! best child until the node's thresholds are reached, then store what was
//! found.
//!
//! A node's children are looked up once and again only after they were
//! searched: children only get stronger in the table (a proof stays a proof,
//! and a repetition disproof rests on this unchanging line), except when a
//! garbage collection moved the table, after which they are all looked up
//! again.  What a won or lost node stores, and for which hands, is in
//! [`Search::won`] and [`Search::lost`].

use crate::hand::Hand;
use crate::search::engine::Search;
use crate::search::expansion::{pn_dn, Child, Expansion};
use crate::search::hands::{
    any_hand, disproof_before_attack, keep_kinds_defender_lacks, max, min, pin_drop_checks,
    proof_before_attack,
};
use crate::search::key::Key;
use crate::search::mate_len::MateLen;
use crate::search::monitor::Stop;
use crate::search::numbers::{PnDn, INF_PN};
use crate::search::result::{Disproof, Proof, Rep, SearchResult};

impl Search {
    /// Is the current position mated within `b` plies?  The search runs
    /// until the table can say; returns the result it says.
    pub(crate) fn solve(&mut self, b: MateLen) -> Result<SearchResult, Stop> {
        loop {
            let v = self.probe(b);
            if v.is_final() {
                return Ok(v);
            }
            self.mid(b, INF_PN - 1, INF_PN - 1)?;
        }
    }

    /// [`Search::solve`] as (mated, the answer rests on the line).
    pub(crate) fn nested(&mut self, b: MateLen) -> Result<(bool, bool), Stop> {
        let v = self.solve(b)?;
        Ok((v.is_proven(), v.rep().is_some()))
    }

    /// Searches the current position to bound `b` until its numbers reach a threshold.
    pub(crate) fn mid(
        &mut self,
        b: MateLen,
        th_pn: PnDn,
        th_dn: PnDn,
    ) -> Result<SearchResult, Stop> {
        // Checked before the node is counted: a stopped search counts no more.
        self.monitor.visit()?;
        if self.monitor.progress_due {
            self.monitor.report(self.table.len())?;
        }
        // The node's own entry is written when it returns: start loading it.
        self.table.prefetch(self.pos.board_key());
        if self.or_node() && b < MateLen::plies(1) {
            let none = Disproof {
                bound: MateLen::ZERO,
                hand: any_hand(),
                exact: false,
                rep: Rep::None,
            };
            return Ok(self.store(b, SearchResult::Disproven(none), 0));
        }
        let mut exp = self.take_expansion();
        let r = self.expand(&mut exp, b, th_pn, th_dn);
        self.give_expansion(exp);
        r
    }

    fn expand(
        &mut self,
        exp: &mut Expansion,
        b: MateLen,
        th_pn: PnDn,
        th_dn: PnDn,
    ) -> Result<SearchResult, Stop> {
        let start = self.monitor.nodes();
        let or_node = self.or_node();
        let hand = self.attacker_hand();
        exp.generate(&mut self.pos, or_node);
        if exp.moves.is_empty() {
            return Ok(self.leaf(exp));
        }
        exp.make_children(&self.pos, hand, &self.options, &self.table);
        if self.line.len() >= self.options.max_depth as usize {
            return Err(self.monitor.stop(Stop::Depth(self.options.max_depth)));
        }
        let h = self.pos.hash();
        self.line.push(h);
        let r = self.search_children(exp, b, th_pn, th_dn, start);
        self.line.pop();
        r
    }

    /// A node without a move: store and return its result.
    fn leaf(&mut self, exp: &Expansion) -> SearchResult {
        let hand = self.attacker_hand();
        let exact = exp.filtered > 0;
        let result = if exp.or_node {
            // No check: no mate at any length.  A kind the attacker lacks
            // whose drop would check may not be added to the disproof hand.
            SearchResult::Disproven(Disproof {
                bound: MateLen::INFINITE,
                hand: pin_drop_checks(any_hand(), self.pos.drop_check_kinds(), hand),
                exact,
                rep: Rep::None,
            })
        } else {
            // Mate.  Where the defender could have interposed, a kind it
            // lacked could have been dropped: the proof needs it kept away.
            SearchResult::Proven(Proof {
                len: MateLen::ZERO,
                hand: if self.pos.interposition_squares() != 0 {
                    hand
                } else {
                    Hand::EMPTY
                },
                exact,
                pa: self.anchors.on_anchor_board(self.pos.board_key()),
                rep: Rep::None,
            })
        };
        self.store(MateLen::ZERO, result, 0)
    }

    /// Looks every child up again until no collection moved the table meanwhile.
    fn value_children(&mut self, exp: &mut Expansion, b: MateLen) -> Result<(), Stop> {
        loop {
            let generation = self.table.generation();
            for i in 0..exp.kids.len() {
                let mut kid = exp.kids[i];
                self.value_child(&mut kid, b)?;
                exp.kids[i] = kid;
            }
            if self.table.generation() == generation {
                exp.generation = generation;
                return Ok(());
            }
        }
    }

    fn search_children(
        &mut self,
        exp: &mut Expansion,
        b: MateLen,
        th_pn: PnDn,
        th_dn: PnDn,
        start: u64,
    ) -> Result<SearchResult, Stop> {
        let or_node = exp.or_node;
        if or_node && self.options.one_ply_mate {
            self.one_ply_mates(exp, b);
        }
        self.value_children(exp, b)?;
        let eps = self.options.one_plus_epsilon;
        let (th_phi, th_delta) = pn_dn(or_node, th_pn, th_dn);
        loop {
            let s = exp.summarize();
            if s.phi == 0 {
                return Ok(self.won(exp, b, s.best, start));
            }
            if s.delta == 0 {
                return Ok(self.lost(exp, b, start));
            }
            let (pn, dn) = pn_dn(or_node, s.phi, s.delta);
            if pn >= th_pn || dn >= th_dn {
                let work = self.monitor.nodes() - start;
                return Ok(self.store(b, SearchResult::unknown(pn, dn), work));
            }
            let (child_phi, child_delta) = exp.child_thresholds(&s, th_phi, th_delta, eps);
            let (child_pn, child_dn) = pn_dn(or_node, child_phi, child_delta);
            let best = s.best;
            let m = exp.kids[best].m;
            self.pos.push(m);
            let r = self.mid(b - 1, child_pn, child_dn);
            self.pos.pop();
            let v = r?;
            if exp.generation != self.table.generation() {
                // A collection: older proofs may be distrusted, sets moved.
                self.value_children(exp, b)?;
            } else {
                let mut kid = exp.kids[best];
                kid.v = v;
                self.judge_interposition(&mut kid, b)?;
                exp.kids[best] = kid;
                if exp.generation != self.table.generation() {
                    self.value_children(exp, b)?;
                }
            }
        }
    }

    /// Stores proofs of the children (searched to `b - 1`) that are mates in one.
    fn one_ply_mates(&mut self, exp: &Expansion, b: MateLen) {
        for kid in &exp.kids {
            if self.table.known(kid.key) {
                continue;
            }
            self.pos.push(kid.m);
            let mated = !self.pos.has_safe_move();
            self.pos.pop();
            if mated {
                let mate = Proof {
                    len: MateLen::ZERO,
                    hand: Hand::EMPTY,
                    exact: true,
                    pa: true,
                    rep: Rep::None,
                };
                let (result, set) = (SearchResult::Proven(mate), &[]);
                self.table
                    .store(kid.key, b - 1, result, set, 0, &mut self.anchors);
            }
        }
    }

    /// The side to move wins through child `best` (or, at an attacker node,
    /// the shortest proven child): store and return the node's result.
    fn won(&mut self, exp: &Expansion, b: MateLen, best: usize, start: u64) -> SearchResult {
        let work = self.monitor.nodes() - start;
        if exp.or_node {
            // The shortest proof; of equal ones, one that holds on any line.
            let (mut pick, mut p) = (best, proof(&exp.kids[best]));
            for (i, kid) in exp.kids.iter().enumerate() {
                if let SearchResult::Proven(k) = kid.v {
                    if k.len < p.len || k.len == p.len && p.rep.is_some() {
                        (pick, p) = (i, k);
                    }
                }
            }
            let kid = exp.kids[pick];
            let len = p.len + 1;
            if p.rep.is_some() {
                let on_line = Proof {
                    len,
                    ..self.on_line_proof()
                };
                if let Some(v) =
                    self.store_on_line(&[p.rep], b, SearchResult::Proven(on_line), work)
                {
                    return v;
                }
            }
            let (hand, exact) = if p.exact {
                (Hand::EMPTY, true)
            } else {
                // A drop is legal under a drop-mate ban only while the defender
                // can answer it, which needs its hand: keep such a proof exact.
                let banned = !self.pos.tables().drop_mate && kid.m.is_drop();
                (proof_before_attack(p.hand, kid.change), banned)
            };
            let pa = p.pa || p.rep.is_some() || self.anchors.on_anchor_board(self.pos.board_key());
            let proof = Proof {
                len,
                hand,
                exact,
                pa,
                rep: Rep::None,
            };
            return self.store(b, SearchResult::Proven(proof), work);
        }
        // A defence escapes (the first in move order).
        let kid = exp.kids[best];
        let d = disproof(&kid);
        if d.rep.is_some() {
            let on_line = SearchResult::Disproven(self.on_line_disproof(b));
            if let Some(v) = self.store_on_line(&[d.rep], b, on_line, work) {
                return v;
            }
        }
        // Exact unless the defence is legal whatever the hands hold: an
        // interposition found effective may be useless with other hands, and
        // the stalemate rule or a drop-mate ban may forbid the defence when
        // the attacker holds less.
        let exact = d.rep.is_some()
            || d.exact
            || kid.checker != 0
            || (self.pos.king(self.attacker) != 0 && !self.legal_for_any_hands(kid.m));
        let disproof = Disproof {
            bound: d.bound + 1,
            hand: d.hand,
            exact,
            rep: Rep::None,
        };
        self.store(b, SearchResult::Disproven(disproof), work)
    }

    /// Every child is lost for the side to move: store and return the node's result.
    fn lost(&mut self, exp: &Expansion, b: MateLen, start: u64) -> SearchResult {
        let hand = self.attacker_hand();
        let work = self.monitor.nodes() - start;
        let mut reps = Vec::new();
        if exp.or_node {
            // Every check is refuted.
            let mut bound = MateLen::INFINITE;
            let mut u = any_hand();
            let mut exact = exp.filtered > 0;
            for kid in &exp.kids {
                let d = disproof(kid);
                // A repetition disproof has a bound too: once the repetition of
                // this very node is dropped, the plain disproof left holds up to it.
                bound = bound.min(d.bound + 1);
                if d.rep.is_some() {
                    reps.push(d.rep);
                    exact = true;
                } else if d.exact {
                    exact = true;
                } else {
                    match disproof_before_attack(d.hand, kid.change) {
                        Some(k) => u = min(u, k),
                        None => exact = true,
                    }
                }
            }
            if !reps.is_empty() {
                let on_line = SearchResult::Disproven(self.on_line_disproof(b));
                if let Some(v) = self.store_on_line(&reps, b, on_line, work) {
                    return v;
                }
            }
            let disproof = Disproof {
                bound,
                hand: pin_drop_checks(u, self.pos.drop_check_kinds(), hand),
                exact,
                rep: Rep::None,
            };
            return self.store(b, SearchResult::Disproven(disproof), work);
        }
        // Every defence is mated: as late as the latest (a useless
        // interposition's proof holds at this bound only).
        let mut latest = MateLen::ZERO;
        let mut used_useless = false;
        let mut exact = exp.filtered > 0;
        let mut l = Hand::EMPTY;
        let mut pa = false;
        for kid in &exp.kids {
            let p = match kid.v {
                SearchResult::Proven(p) => p,
                SearchResult::Useless(rep) => {
                    used_useless = true;
                    // Refuted for this position's hands, maybe through the anchors.
                    Proof {
                        len: MateLen::ZERO,
                        hand: Hand::EMPTY,
                        exact: true,
                        pa: true,
                        rep,
                    }
                }
                _ => unreachable!("every defence of a lost defender node is refuted"),
            };
            if p.rep.is_some() {
                reps.push(p.rep);
            }
            latest = latest.max(p.len);
            pa |= p.pa || p.rep.is_some();
            if p.exact {
                exact = true;
            } else if !exact {
                l = max(l, p.hand);
            }
        }
        let len = if used_useless { b } else { latest + 1 };
        if !reps.is_empty() {
            let on_line = Proof {
                len,
                ..self.on_line_proof()
            };
            if let Some(v) = self.store_on_line(&reps, b, SearchResult::Proven(on_line), work) {
                return v;
            }
        }
        if !exact && self.pos.interposition_squares() != 0 {
            let d = self.pos.hand(self.attacker.flip());
            l = keep_kinds_defender_lacks(l, hand, d, self.pos.tables().nkinds);
        }
        let proof = Proof {
            len,
            hand: l,
            exact: exact || used_useless || !hand.covers(l),
            pa: pa || self.anchors.on_anchor_board(self.pos.board_key()),
            rep: Rep::None,
        };
        self.store(b, SearchResult::Proven(proof), work)
    }

    /// The current position's key.
    fn key(&self) -> Key {
        Key::of(&self.pos, self.attacker_hand())
    }

    /// Stores the current node's result of a search to `b`, holding on any
    /// line, and returns it.
    fn store(&mut self, b: MateLen, result: SearchResult, work: u64) -> SearchResult {
        let key = self.key();
        self.table
            .store(key, b, result, &[], work, &mut self.anchors)
    }

    /// A proof resting on the line, before its length: for this position's
    /// hands only, its tree through the line.
    fn on_line_proof(&self) -> Proof {
        Proof {
            len: MateLen::ZERO,
            hand: Hand::EMPTY,
            exact: true,
            pa: true,
            rep: Rep::Line(self.line.len() as u32),
        }
    }

    /// A disproof within `b` resting on the line, for this position's hands only.
    fn on_line_disproof(&self, b: MateLen) -> Disproof {
        Disproof {
            bound: b,
            hand: Hand::EMPTY,
            exact: true,
            rep: Rep::Line(self.line.len() as u32),
        }
    }

    /// Stores the current node's result of a search to `b` that rests on the
    /// line positions of `reps` (this node's own aside) and returns it; None
    /// if it rests on none but this node (it then holds on any line).
    fn store_on_line(
        &mut self,
        reps: &[Rep],
        b: MateLen,
        result: SearchResult,
        work: u64,
    ) -> Option<SearchResult> {
        self.scratch.clear();
        for &rep in reps {
            self.gather(rep);
        }
        self.scratch_without(self.pos.hash());
        if self.scratch.is_empty() {
            return None;
        }
        let set = std::mem::take(&mut self.scratch);
        let key = self.key();
        // A proof not stored (a collection dropped proofs) keeps resting on
        // the whole line: its parent looks its children up again anyway.
        let stored = self
            .table
            .store(key, b, result, &set, work, &mut self.anchors);
        self.scratch = set;
        Some(stored)
    }

    /// Is the defence `m` legal whatever the hands hold?
    ///
    /// The stalemate rule and the drop-mate ban make a defence illegal when
    /// the attacker has no king-safe answer, and with fewer pieces in hand it
    /// may have none.  A king-safe move of a piece on the board needs no
    /// hand; without one, the defence is safe from the stalemate rule only
    /// when it checks (or the rule is off), and from the drop-mate ban only
    /// when it does not check or is not a drop (or drops may mate).
    pub(crate) fn legal_for_any_hands(&mut self, m: crate::moves::Move) -> bool {
        let drop_mate = self.pos.tables().drop_mate;
        let stalemate_illegal = self.pos.tables().stalemate_illegal;
        self.pos.push(m);
        let legal = if self.pos.is_check() {
            drop_mate || !m.is_drop() || self.pos.has_safe_board_move()
        } else {
            !stalemate_illegal || self.pos.has_safe_board_move()
        };
        self.pos.pop();
        legal
    }
}

/// The proof of a proven child.
fn proof(kid: &Child) -> Proof {
    match kid.v {
        SearchResult::Proven(p) => p,
        _ => unreachable!("the child is proven"),
    }
}

/// The disproof of a disproven child.
fn disproof(kid: &Child) -> Disproof {
    match kid.v {
        SearchResult::Disproven(d) => d,
        _ => unreachable!("the child is disproven"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::{Move, MoveList};
    use crate::position::Position;
    use crate::search::engine::Limits;
    use crate::search::options::Options;
    use crate::search::testing::tsume_as_given;
    use crate::variant::builtin;

    fn find(pos: &mut Position, text: &str) -> Move {
        let mut l = MoveList::new();
        pos.legal_moves(Some(false), &mut l);
        *l.iter()
            .find(|&&m| pos.move_string(m).eq_ignore_ascii_case(text))
            .unwrap()
    }

    fn search_at(pos: &Position) -> Search {
        Search::new(pos, Limits::default(), Options::default()).unwrap()
    }

    #[test]
    fn a_defence_is_legal_for_any_hands_only_with_a_board_answer() {
        // White attacks; Black's 6-4 leaves it, not in check, with the pawn in
        // hand and, after p*20 only, a pawn move: with no pawn in hand the
        // first would stalemate White, and 6-4 would be illegal.
        for (drop, legal) in [("p*31", false), ("p*20", true)] {
            let mut s = search_at(&tsume_as_given("ito", "k4TG17K6 w 2p 1"));
            let m = find(&mut s.pos, drop);
            s.pos.push(m);
            let d = find(&mut s.pos, "6-4");
            assert_eq!(s.legal_for_any_hands(d), legal, "{drop}");
        }
    }

    #[test]
    fn a_checking_defence_is_legal_for_any_hands_unless_it_is_a_banned_drop_mate() {
        // White attacks, its k on 1 boxed in (Black's T on 4 covers 2, the G
        // on 7 covers 3).  Black's P*2 checks it and White has nothing but
        // drops: a drop mate, which only a ban makes illegal.
        for (ban, legal) in [(false, true), (true, false)] {
            let mut variant = builtin("ito");
            variant.drop_mate = !ban;
            let mut s = search_at(&Position::from_fen(&variant, "k2T2G17K6 w phP 1").unwrap());
            let m = find(&mut s.pos, "p*31");
            s.pos.push(m);
            // (Found as a drop of the pawn face onto 2, legal or not under the ban.)
            let d = Move::drop(
                s.pos
                    .tables()
                    .face_kind
                    .iter()
                    .position(|&k| k == 1)
                    .unwrap() as u8,
                2,
            );
            assert!(s.pos.gives_check(d));
            assert_eq!(s.legal_for_any_hands(d), legal, "ban {ban}");
        }
    }

    #[test]
    fn a_defender_nodes_disproof_serves_a_smaller_attacker_hand() {
        // Two pawns against a lone king do not mate.  The defender node after
        // P*11 is disproved by a defence that leaves Black's king its moves,
        // so the disproof holds with fewer pawns in Black's hand too.
        let mut s = search_at(&tsume_as_given("ito", "9k20K b 2P 1"));
        let m = find(&mut s.pos, "P*11");
        s.pos.push(m);
        assert!(!s.mate(MateLen::INFINITE).unwrap());
        let bkey = s.pos.board_key();
        let hand = s.attacker_hand();
        let e = s.table.get(Key { board: bkey, hand }).unwrap();
        assert!(e.disproof_bound().is_some() && !e.d_exact());
        let v = s.table.lookup(
            Key {
                board: bkey,
                hand: Hand::EMPTY,
            },
            MateLen::INFINITE,
            &s.line,
            &s.anchors,
        ); // no pawn left
        assert!(v.is_disproven());
    }

    #[test]
    fn a_proof_is_flagged_when_its_tree_meets_an_anchor_board() {
        // The flag is carried from the mated position up through every
        // defence and every mating move to the root.
        let five = crate::search::testing::tsume("ito", "H1kf1P1c2K20 b PHG 1");
        let mut mated = search_at(&five);
        assert!(mated.mate(MateLen::INFINITE).unwrap());
        let (_, line) = mated.main_line(MateLen::INFINITE).unwrap();
        let mut end = five.copy();
        for &m in &line {
            end.push(m);
        }
        for on_the_mate in [false, true] {
            let mut s = search_at(&five);
            s.anchors
                .push_board(if on_the_mate { end.board_key() } else { 12345 });
            assert!(s.mate(MateLen::INFINITE).unwrap());
            let e = s.table.get(s.key()).unwrap();
            assert!(e.proof_len().is_some());
            assert_eq!(e.pa(), on_the_mate);
        }
    }

    /// Every first move of a 9-ply problem valued with the root anchored,
    /// as the verifier and `solve --all-first-moves` do: within 9 plies if
    /// `bounded`, else whether it mates at all.
    fn first_moves(dominance: bool, bounded: bool) -> (Vec<(Move, bool, Option<MateLen>)>, Search) {
        let nine = crate::search::testing::tsume("ito", "7H1+F2k18 b TCG 1");
        let options = Options {
            hand_dominance: dominance,
            ..Options::default()
        };
        let mut s = Search::new(&nine, Limits::default(), options).unwrap();
        s.anchor(false);
        let mut list = MoveList::new();
        s.pos.checks(&mut list);
        let mut checks: Vec<Move> = list.iter().copied().collect();
        checks.sort_unstable();
        let mut out = vec![];
        for m in checks {
            s.pos.push(m);
            if bounded {
                out.push((m, false, s.value(MateLen::plies(9), false).unwrap()));
            } else {
                out.push((m, s.mate(MateLen::INFINITE).unwrap(), None));
            }
            s.pos.pop();
        }
        (out, s)
    }

    #[test]
    fn anchored_searches_reuse_proofs_for_other_hands_and_keep_every_answer() {
        for bounded in [true, false] {
            let (values, s) = first_moves(true, bounded);
            let (plain, _) = first_moves(false, bounded);
            assert_eq!(values, plain);
            // Proofs found for other hands served these searches under the anchor...
            let reusable: Vec<_> = s
                .table
                .entries()
                .filter(|e| e.proof_len().is_some() && !e.p_exact())
                .collect();
            assert!(s.table.stats().dominance_hits > 0 && reusable.iter().any(|e| !e.pa()));
            if !bounded {
                // ... and the unbounded ones met the root's board in some trees.
                assert!(reusable.iter().any(|e| e.pa()));
            }
        }
    }
}
