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
use crate::search::bound::{Bound, PnDn, INF, INF_PN};
use crate::search::engine::Search;
use crate::search::expansion::{pn_dn, Expansion};
use crate::search::hands::{any_hand, disproof_before_attack, keep_kinds_defender_lacks, min, max, pin_drop_checks, proof_before_attack};
use crate::search::monitor::Stop;
use crate::search::value::{Rep, Value};

impl Search {
    /// Is the current position mated within `b` plies?  The search runs
    /// until the table can say; returns the value it says.
    pub(crate) fn solve(&mut self, b: Bound) -> Result<Value, Stop> {
        loop {
            let v = self.probe(b);
            if v.is_final() {
                return Ok(v);
            }
            self.mid(b, INF_PN - 1, INF_PN - 1)?;
        }
    }

    /// [`Search::solve`] as (mated, the answer rests on the line).
    pub(crate) fn nested(&mut self, b: Bound) -> Result<(bool, bool), Stop> {
        let v = self.solve(b)?;
        Ok((v.is_proven(), v.rep.is_some()))
    }

    /// Searches the current position to bound `b` until its numbers reach a threshold.
    pub(crate) fn mid(&mut self, b: Bound, th_pn: PnDn, th_dn: PnDn) -> Result<Value, Stop> {
        // Checked before the node is counted: a stopped search counts no more.
        self.monitor.visit()?;
        if self.monitor.progress_due {
            self.monitor.report(self.table.len())?;
        }
        let or_node = self.or_node();
        let hand = self.attacker_hand();
        let bkey = self.pos.board_key();
        if or_node && b < 1 {
            self.table.store_disproof(bkey, hand, 0, 0, any_hand(), false, &mut self.anchors);
            return Ok(Value::disproven(0, any_hand(), false, Rep::None));
        }
        let mut exp = self.take_expansion();
        let r = self.expand(&mut exp, b, th_pn, th_dn);
        self.give_expansion(exp);
        r
    }

    fn expand(&mut self, exp: &mut Expansion, b: Bound, th_pn: PnDn, th_dn: PnDn) -> Result<Value, Stop> {
        let start = self.monitor.nodes();
        let or_node = self.or_node();
        let hand = self.attacker_hand();
        let bkey = self.pos.board_key();
        exp.generate(&mut self.pos, or_node);
        if exp.moves.is_empty() {
            let exact = exp.filtered > 0;
            if or_node {
                // No check: no mate at any length.  A kind the attacker lacks
                // whose drop would check may not be added to the disproof hand.
                let u = pin_drop_checks(any_hand(), self.pos.drop_check_kinds(), hand);
                self.table.store_disproof(bkey, hand, INF, 0, u, exact, &mut self.anchors);
                return Ok(Value::disproven(INF, u, exact, Rep::None));
            }
            // Mate.  Where the defender could have interposed, a kind it
            // lacked could have been dropped: the proof needs it kept away.
            let l = if self.pos.interposition_squares() != 0 { hand } else { Hand::EMPTY };
            let pa = self.anchors.on_anchor_board(bkey);
            let _ = self.table.store_proof(bkey, hand, 0, 0, l, exact, pa, &mut self.anchors);
            return Ok(Value::proven(0, l, exact, pa, Rep::None));
        }
        exp.make_children(&self.pos, hand, &self.options);
        if self.line.len() >= self.options.max_depth as usize {
            return Err(self.monitor.stop(Stop::Depth(self.options.max_depth)));
        }
        let h = self.pos.hash();
        self.line.push(h);
        let r = self.search_children(exp, b, th_pn, th_dn, start);
        self.line.pop();
        r
    }

    /// Looks every child up again until no collection moved the table meanwhile.
    fn value_children(&mut self, exp: &mut Expansion, b: Bound) -> Result<(), Stop> {
        for kid in &exp.kids {
            self.table.prefetch(kid.bkey);
        }
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

    fn search_children(&mut self, exp: &mut Expansion, b: Bound, th_pn: PnDn, th_dn: PnDn, start: u64) -> Result<Value, Stop> {
        let or_node = exp.or_node;
        if or_node && self.options.one_ply_mate {
            self.one_ply_mates(exp);
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
                let hand = self.attacker_hand();
                self.table.store_open(self.pos.board_key(), hand, b, pn, dn, work, &mut self.anchors);
                return Ok(Value::open(pn, dn));
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

    /// Stores proofs of the children that are mates in one.
    fn one_ply_mates(&mut self, exp: &Expansion) {
        for kid in &exp.kids {
            if self.table.known(kid.bkey, kid.hand) {
                continue;
            }
            self.pos.push(kid.m);
            let mated = !self.pos.has_safe_move();
            self.pos.pop();
            if mated {
                let _ = self.table.store_proof(kid.bkey, kid.hand, 0, 0, Hand::EMPTY, true, true, &mut self.anchors);
            }
        }
    }

    /// The side to move wins through child `best` (or, at an attacker node,
    /// the shortest proven child): store and return the node's value.
    fn won(&mut self, exp: &Expansion, b: Bound, best: usize, start: u64) -> Value {
        let h = self.pos.hash();
        let bkey = self.pos.board_key();
        let hand = self.attacker_hand();
        let work = self.monitor.nodes() - start;
        if exp.or_node {
            // The shortest proof; of equal ones, one that holds on any line.
            let mut pick = best;
            for (i, kid) in exp.kids.iter().enumerate() {
                let p = &exp.kids[pick].v;
                if kid.v.pn == 0 && (kid.v.x < p.x || kid.v.x == p.x && p.rep.is_some()) {
                    pick = i;
                }
            }
            let kid = exp.kids[pick];
            let length = kid.v.x + 1;
            if let Some(v) = self.store_line_proof(kid.v.rep, h, length, work) {
                return v;
            }
            let (l, exact) = if kid.v.exact {
                (Hand::EMPTY, true)
            } else {
                // A drop is legal under a drop-mate ban only while the defender
                // can answer it, which needs its hand: keep such a proof exact.
                let banned = !self.pos.tables().drop_mate && kid.m.is_drop();
                (proof_before_attack(kid.v.hand, kid.change), banned)
            };
            let pa = kid.v.pa || kid.v.rep.is_some() || self.anchors.on_anchor_board(bkey);
            let _ = self.table.store_proof(bkey, hand, length, work, l, exact, pa, &mut self.anchors);
            return Value::proven(length, l, exact, pa, Rep::None);
        }
        // A defence escapes (the first in move order).
        let kid = exp.kids[best];
        if let Some(v) = self.store_rep_disproof(kid.v.rep, h, b, work) {
            return v;
        }
        // Exact unless the defence is legal whatever the hands hold: an
        // interposition found effective may be useless with other hands, and
        // the stalemate rule or a drop-mate ban may forbid the defence when
        // the attacker holds less.
        let exact = kid.v.rep.is_some()
            || kid.v.exact
            || kid.checker != 0
            || (self.pos.king(self.attacker) != 0 && !self.legal_for_any_hands(kid.m));
        let bound = kid.v.x + 1;
        self.table.store_disproof(bkey, hand, bound, work, kid.v.hand, exact, &mut self.anchors);
        Value::disproven(bound, kid.v.hand, exact, Rep::None)
    }

    /// Every child is lost for the side to move: store and return the node's value.
    fn lost(&mut self, exp: &Expansion, b: Bound, start: u64) -> Value {
        let h = self.pos.hash();
        let bkey = self.pos.board_key();
        let hand = self.attacker_hand();
        let work = self.monitor.nodes() - start;
        self.scratch.clear();
        if exp.or_node {
            // Every check is refuted.
            let mut bound = INF;
            let mut u = any_hand();
            let mut exact = exp.filtered > 0;
            let mut rep = false;
            for kid in &exp.kids {
                // A repetition disproof has a bound too: once the repetition of
                // this very node is dropped, the plain disproof left holds up to it.
                bound = bound.min(kid.v.x.saturating_add(1));
                if kid.v.rep.is_some() {
                    self.gather(kid.v.rep);
                    rep = true;
                    exact = true;
                } else if kid.v.exact {
                    exact = true;
                } else {
                    match disproof_before_attack(kid.v.hand, kid.change) {
                        Some(k) => u = min(u, k),
                        None => exact = true,
                    }
                }
            }
            if rep {
                self.scratch_without(h);
                if !self.scratch.is_empty() {
                    let set = std::mem::take(&mut self.scratch);
                    let r = self.table.store_rep_disproof(bkey, hand, b, &set, work, &mut self.anchors);
                    self.scratch = set;
                    return Value::disproven(b, Hand::EMPTY, true, Rep::Stored(r));
                }
            }
            let u = pin_drop_checks(u, self.pos.drop_check_kinds(), hand);
            self.table.store_disproof(bkey, hand, bound, work, u, exact, &mut self.anchors);
            return Value::disproven(bound, u, exact, Rep::None);
        }
        // Every defence is mated: as late as the latest (a useless
        // interposition's proof holds at this bound only).
        let mut latest: Bound = -1;
        let mut used_useless = false;
        let mut exact = exp.filtered > 0;
        let mut l = Hand::EMPTY;
        let mut pa = false;
        let mut rep = false;
        for kid in &exp.kids {
            if kid.v.x == -1 {
                used_useless = true;
            }
            if kid.v.rep.is_some() {
                self.gather(kid.v.rep);
                rep = true;
            }
            latest = latest.max(kid.v.x);
            pa |= kid.v.pa || kid.v.rep.is_some();
            if kid.v.exact {
                exact = true;
            } else if !exact {
                l = max(l, kid.v.hand);
            }
        }
        let length = if used_useless {
            b
        } else if latest >= 0 {
            latest + 1
        } else {
            0
        };
        if rep {
            if let Some(v) = self.store_gathered_line_proof(h, length, work) {
                return v;
            }
        }
        if !exact && self.pos.interposition_squares() != 0 {
            let d = self.pos.hand(self.attacker.flip());
            l = keep_kinds_defender_lacks(l, hand, d, self.pos.tables().nkinds);
        }
        let exact = exact || used_useless || !hand.covers(l);
        let pa = pa || self.anchors.on_anchor_board(bkey);
        let _ = self.table.store_proof(bkey, hand, length, work, l, exact, pa, &mut self.anchors);
        Value::proven(length, l, exact, pa, Rep::None)
    }

    /// A proof that rests on the line positions of `rep` (this node's own
    /// aside): stored apart, and returned; None if it holds on any line.
    fn store_line_proof(&mut self, rep: Rep, h: u64, length: Bound, work: u64) -> Option<Value> {
        if !rep.is_some() {
            return None;
        }
        self.scratch.clear();
        self.gather(rep);
        self.store_gathered_line_proof(h, length, work)
    }

    fn store_gathered_line_proof(&mut self, h: u64, length: Bound, work: u64) -> Option<Value> {
        self.scratch_without(h);
        if self.scratch.is_empty() {
            return None;
        }
        let set = std::mem::take(&mut self.scratch);
        let hand = self.attacker_hand();
        let stored = self.table.store_line_proof(self.pos.board_key(), hand, length, &set, work, &mut self.anchors);
        self.scratch = set;
        // Not stored (a collection dropped proofs): the parent looks its
        // children up again, so what is returned here is not used.
        let rep = stored.map_or(Rep::Line(self.line.len() as u32), Rep::Stored);
        Some(Value::proven(length, Hand::EMPTY, true, true, rep))
    }

    /// A disproof that rests on the line positions of `rep` (this node's own
    /// aside): stored apart, and returned; None if it holds on any line.
    fn store_rep_disproof(&mut self, rep: Rep, h: u64, b: Bound, work: u64) -> Option<Value> {
        if !rep.is_some() {
            return None;
        }
        self.scratch.clear();
        self.gather(rep);
        self.scratch_without(h);
        if self.scratch.is_empty() {
            return None;
        }
        let set = std::mem::take(&mut self.scratch);
        let hand = self.attacker_hand();
        let r = self.table.store_rep_disproof(self.pos.board_key(), hand, b, &set, work, &mut self.anchors);
        self.scratch = set;
        Some(Value::disproven(b, Hand::EMPTY, true, Rep::Stored(r)))
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
