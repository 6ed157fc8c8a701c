//! The df-pn search with a length bound: is the current position mated
//! within `b` plies?  (docs/solver.md, "df-pn with a length bound")
//!
//! [`Dfpn`] owns what the search walks with: the position (it moves as the
//! search does), the table, the line, the anchors, the monitor and the
//! options, and a [`Judge`] of the useless-interposition convention, which
//! it asks about every child that interposes against a ride check and that
//! the table disproves (the judge searches with this same `Dfpn`).
//!
//! The node search (MID) expands the current position and searches its best
//! child until the node's thresholds are reached, then stores what was
//! found.  A node's children are looked up once and again only after they
//! were searched: children only get stronger in the table (a proof stays a
//! proof, and a repetition disproof rests on this unchanging line), except
//! when a garbage collection moved the table, after which they are all
//! looked up again.  What a won or lost node stores, and for which hands,
//! is in [`Dfpn::mates`] and [`Dfpn::escapes`] (won), [`Dfpn::refuted`] and
//! [`Dfpn::mated_all`] (lost).

use crate::rules::colour::Colour;
use crate::rules::hand::Hand;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::search::anchors::Anchors;
use crate::search::expansion::{pn_dn, Child, Expansion};
use crate::search::hands::{
    any_hand, disproof_before_attack, keep_kinds_defender_lacks, max, min, pin_drop_checks,
    proof_before_attack,
};
use crate::search::key::Key;
use crate::search::line::Line;
use crate::search::mate_len::MateLen;
use crate::search::monitor::{Monitor, Stop};
use crate::search::numbers::{PnDn, INF_PN};
use crate::search::options::Options;
use crate::search::result::{Disproof, Proof, Rep, SearchResult};
use crate::search::table::Table;

/// The useless-interposition convention as the search asks it.
pub trait Judge: Sized {
    /// Revalues `kid`, a child of the current node (searched to `b`, a real
    /// bound) that interposes against the checker on `kid.checker` and that
    /// the table disproves within `b - 1`.
    fn judge(d: &mut Dfpn<Self>, kid: &mut Child, b: MateLen) -> Result<(), Stop>;
}

/// The result of a position on the line: a repetition fails for the attacker.
fn repetition(h: u64) -> SearchResult {
    SearchResult::Disproven(Disproof {
        bound: MateLen::INFINITE,
        hand: any_hand(),
        exact: true,
        rep: Rep::One(h),
    })
}

/// A df-pn search, its judge of interpositions `J`.
pub struct Dfpn<J> {
    pos: Position,
    attacker: Colour,
    table: Table,
    line: Line,
    anchors: Anchors,
    monitor: Monitor,
    options: Options,
    judge: J,
    // Boxed: taking one from the pool moves a pointer, not 850 bytes.
    #[allow(clippy::vec_box)]
    pool: Vec<Box<Expansion>>,
    scratch: Vec<u64>,
}

impl<J: Judge> Dfpn<J> {
    /// A search of `pos`, the side to move attacking.
    pub fn new(pos: &Position, table: Table, monitor: Monitor, options: Options, judge: J) -> Self {
        Dfpn {
            pos: pos.copy(),
            attacker: pos.turn(),
            table,
            line: Line::new(),
            anchors: Anchors::new(),
            monitor,
            options,
            judge,
            pool: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// The current position.
    #[inline(always)]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The current position, to walk: whoever makes a move takes it back.
    #[inline(always)]
    pub fn position_mut(&mut self) -> &mut Position {
        &mut self.pos
    }

    /// The attacker.
    #[inline(always)]
    pub fn attacker(&self) -> Colour {
        self.attacker
    }

    /// Is the side to move the attacker?
    #[inline(always)]
    pub fn or_node(&self) -> bool {
        self.pos.turn() == self.attacker
    }

    /// The attacker's hand here.
    #[inline(always)]
    pub fn attacker_hand(&self) -> Hand {
        self.pos.hand(self.attacker)
    }

    /// The table.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The positions on the line.
    pub fn line(&self) -> &Line {
        &self.line
    }

    /// The anchors.
    pub fn anchors(&self) -> &Anchors {
        &self.anchors
    }

    /// The anchors, to open an epoch of the caller's.
    pub fn anchors_mut(&mut self) -> &mut Anchors {
        &mut self.anchors
    }

    /// The monitor.
    pub fn monitor(&self) -> &Monitor {
        &self.monitor
    }

    /// The monitor, for budgets and hooks.
    pub fn monitor_mut(&mut self) -> &mut Monitor {
        &mut self.monitor
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The judge of interpositions.
    pub fn judge(&self) -> &J {
        &self.judge
    }

    /// The judge of interpositions, for its caches.
    pub fn judge_mut(&mut self) -> &mut J {
        &mut self.judge
    }

    /// Puts the current position on the line as an anchor (`exact`: its value
    /// on this line is known, see [`crate::search::anchors`]).
    pub fn anchor(&mut self, exact: bool) {
        let h = self.pos.hash();
        self.line.push(h);
        self.anchors.push(h, Some(self.pos.board_key()), exact);
    }

    /// Takes the innermost anchor off the line.
    pub fn release(&mut self) {
        self.anchors.pop();
        self.line.pop();
    }

    /// What the table knows of the current position at bound `b` (a position
    /// on the line is a repetition: it fails for the attacker).
    pub fn probe(&mut self, b: MateLen) -> SearchResult {
        let h = self.pos.hash();
        if self.line.contains(h) {
            return repetition(h);
        }
        let key = self.key();
        self.table.lookup(key, b, &self.line, &self.anchors)
    }

    /// The proven length of the current position's own entry if usable
    /// here and within `b`, else `b`.
    pub fn proof_len_within(&self, b: MateLen) -> MateLen {
        self.table
            .proof_length(self.key(), &self.line, &self.anchors)
            .map_or(b, |l| l.min(b))
    }

    /// Is the current position mated within `b` plies?  The search runs
    /// until the table can say; returns the result it says.
    pub fn solve(&mut self, b: MateLen) -> Result<SearchResult, Stop> {
        loop {
            let v = self.probe(b);
            if v.is_final() {
                return Ok(v);
            }
            self.mid(b, INF_PN - 1, INF_PN - 1)?;
        }
    }

    /// [`Dfpn::solve`] as (mated, the answer rests on the line).
    pub fn mated(&mut self, b: MateLen) -> Result<(bool, bool), Stop> {
        let v = self.solve(b)?;
        Ok((v.is_proven(), v.rep().is_some()))
    }

    /// The current position's key.
    fn key(&self) -> Key {
        Key::of(&self.pos, self.attacker_hand())
    }

    /// The result of a child of the current node searched to bound `b`: from
    /// the line (a repetition), the table, and the judge of interpositions.
    fn value_child(&mut self, kid: &mut Child, b: MateLen) -> Result<(), Stop> {
        if self.line.contains(kid.h) {
            kid.v = repetition(kid.h);
            return Ok(());
        }
        kid.v = self.table.lookup(kid.key, b - 1, &self.line, &self.anchors);
        self.judged(kid, b)?;
        if self.options.heuristic_init
            && kid.v == SearchResult::unknown(1, 1)
            && !self.table.known(kid.key)
        {
            kid.v = SearchResult::unknown(kid.init.0, kid.init.1);
        }
        Ok(())
    }

    /// Adds the positions a result rests on to `self.scratch`.
    fn gather(&mut self, rep: Rep) {
        match rep {
            Rep::None => {}
            Rep::One(h) => self.scratch.push(h),
            Rep::Line(n) => self.scratch.extend_from_slice(self.line.prefix(n as usize)),
            Rep::Stored(r) => {
                let (_, _, set) = self.table.set(r);
                self.scratch.extend_from_slice(set);
            }
        }
    }

    /// `self.scratch` as a set without `h`.
    fn scratch_without(&mut self, h: u64) {
        self.scratch.retain(|&x| x != h);
        self.scratch.sort_unstable();
        self.scratch.dedup();
    }

    /// Takes an expansion from the pool.
    fn take_expansion(&mut self) -> Box<Expansion> {
        self.pool.pop().unwrap_or_default()
    }

    /// Gives an expansion back to the pool.
    fn give_expansion(&mut self, e: Box<Expansion>) {
        self.pool.push(e);
    }

    /// Asks the judge about a child that interposes, if the table disproves it.
    fn judged(&mut self, kid: &mut Child, b: MateLen) -> Result<(), Stop> {
        // A disproof without a real bound means no mate at all, which a
        // useless interposition needs; judging only real bounds also keeps
        // unbounded searches from nesting unbounded tests.
        if kid.checker != 0 && kid.v.is_disproven() && b.is_bounded() {
            J::judge(self, kid, b)?;
        }
        Ok(())
    }

    /// Searches the current position to bound `b` until its numbers reach a threshold.
    fn mid(&mut self, b: MateLen, th_pn: PnDn, th_dn: PnDn) -> Result<SearchResult, Stop> {
        // Checked before the node is counted: a stopped search counts no more.
        self.monitor.visit()?;
        if self.monitor.progress_due {
            let table = self.table.stats();
            self.monitor.report(table.entries, table.gc_runs)?;
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
            // Won or lost: what the node stores, and for which hands.
            let work = self.monitor.nodes() - start;
            if s.phi == 0 {
                return Ok(if or_node {
                    self.mates(exp, b, s.best, work)
                } else {
                    self.escapes(exp, b, s.best, work)
                });
            }
            if s.delta == 0 {
                return Ok(if or_node {
                    self.refuted(exp, b, work)
                } else {
                    self.mated_all(exp, b, work)
                });
            }
            let (pn, dn) = pn_dn(or_node, s.phi, s.delta);
            if pn >= th_pn || dn >= th_dn {
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
                self.judged(&mut kid, b)?;
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

    /// A check mates: the shortest proven one (of equal ones, one that
    /// holds on any line).  Stores and returns the node's result.
    fn mates(&mut self, exp: &Expansion, b: MateLen, best: usize, work: u64) -> SearchResult {
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
            if let Some(v) = self.store_on_line(&[p.rep], b, SearchResult::Proven(on_line), work) {
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
        self.store(b, SearchResult::Proven(proof), work)
    }

    /// A defence escapes: child `best`, the first in move order.  Stores
    /// and returns the node's result.
    fn escapes(&mut self, exp: &Expansion, b: MateLen, best: usize, work: u64) -> SearchResult {
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

    /// Every check is refuted: stores and returns the node's result.
    fn refuted(&mut self, exp: &Expansion, b: MateLen, work: u64) -> SearchResult {
        let mut reps = Vec::new();
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
        let hand = self.attacker_hand();
        let disproof = Disproof {
            bound,
            hand: pin_drop_checks(u, self.pos.drop_check_kinds(), hand),
            exact,
            rep: Rep::None,
        };
        self.store(b, SearchResult::Disproven(disproof), work)
    }

    /// Every defence is mated: as late as the latest (a useless
    /// interposition's proof holds at this bound only).  Stores and returns
    /// the node's result.
    fn mated_all(&mut self, exp: &Expansion, b: MateLen, work: u64) -> SearchResult {
        let mut reps = Vec::new();
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
        let hand = self.attacker_hand();
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
    fn legal_for_any_hands(&mut self, m: Move) -> bool {
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
    use crate::rules::moves::MoveList;
    use crate::rules::variant::builtin;
    use crate::search::testing::{tsume, tsume_as_given};

    /// A judge that counts every interposition and records what it was asked.
    #[derive(Default)]
    struct Counts(Vec<(Move, MateLen)>);

    impl Judge for Counts {
        fn judge(d: &mut Dfpn<Self>, kid: &mut Child, b: MateLen) -> Result<(), Stop> {
            assert!(kid.checker != 0 && kid.v.is_disproven() && b.is_bounded());
            d.judge.0.push((kid.m, b));
            Ok(())
        }
    }

    fn dfpn(pos: &Position) -> Dfpn<Counts> {
        let table = Table::new(1 << 22, true);
        let monitor = Monitor::new(None, None);
        Dfpn::new(pos, table, monitor, Options::default(), Counts::default())
    }

    fn find(pos: &mut Position, text: &str) -> Move {
        let mut l = MoveList::new();
        pos.legal_moves(Some(false), &mut l);
        *l.iter()
            .find(|&&m| pos.move_string(m).eq_ignore_ascii_case(text))
            .unwrap()
    }

    #[test]
    fn mates_are_proven_with_their_length_and_the_rest_disproven() {
        let mut d = dfpn(&tsume("ito", "H1kf1P1c2K20 b PHG 1"));
        assert!(!d.mated(MateLen::plies(3)).unwrap().0);
        match d.solve(MateLen::plies(5)).unwrap() {
            SearchResult::Proven(p) => assert_eq!(p.len, MateLen::plies(5)),
            r => panic!("{r:?}"),
        }
        assert_eq!(d.proof_len_within(MateLen::INFINITE), MateLen::plies(5));
        // A lone gold does not mate: no mate at any length.
        let mut d = dfpn(&tsume("ito", "k30 b G"));
        match d.solve(MateLen::INFINITE).unwrap() {
            SearchResult::Disproven(x) => assert!(!x.bound.is_bounded() && !x.rep.is_some()),
            r => panic!("{r:?}"),
        }
        assert_eq!(d.proof_len_within(MateLen::INFINITE), MateLen::INFINITE);
    }

    #[test]
    fn an_attacker_node_without_plies_left_is_disproven_at_once() {
        let mut d = dfpn(&tsume("ito", "H1kf1P1c2K20 b PHG 1"));
        assert!(!d.mated(MateLen::ZERO).unwrap().0);
        assert_eq!(d.monitor().nodes(), 1);
        // Stored: asked again, it takes no node.
        assert!(d.probe(MateLen::ZERO).is_disproven());
    }

    #[test]
    fn a_position_on_the_line_is_a_repetition() {
        let mut d = dfpn(&tsume("ito", "H1kf1P1c2K20 b PHG 1"));
        let h = d.position().hash();
        d.anchor(false);
        match d.probe(MateLen::INFINITE) {
            SearchResult::Disproven(x) => assert_eq!(x.rep, Rep::One(h)),
            r => panic!("{r:?}"),
        }
        d.release();
        assert!(!d.probe(MateLen::INFINITE).is_final());
    }

    #[test]
    fn the_judge_is_asked_of_disproven_interpositions_at_real_bounds_only() {
        // ito-09's tree has interpositions against ride checks.
        let nine = tsume("ito", "1k2PT+Fh5+f17 b PC 1");
        // (The judge counts them all, so its mate takes longer than 9 plies.)
        let mut d = dfpn(&nine);
        assert!(!d.mated(MateLen::plies(9)).unwrap().0);
        assert!(!d.judge().0.is_empty());
        let mut d = dfpn(&nine);
        assert!(d.mated(MateLen::INFINITE).unwrap().0);
        assert!(d.judge().0.is_empty());
        // Without the convention no child is an interposition to judge.
        let options = Options {
            useless_interpositions: false,
            ..Options::default()
        };
        let table = Table::new(1 << 22, true);
        let monitor = Monitor::new(None, None);
        let mut d = Dfpn::new(&nine, table, monitor, options, Counts::default());
        assert!(!d.mated(MateLen::plies(9)).unwrap().0);
        assert!(d.judge().0.is_empty());
    }

    #[test]
    fn a_defence_is_legal_for_any_hands_only_with_a_board_answer() {
        // White attacks; Black's 6-4 leaves it, not in check, with the pawn in
        // hand and, after p*20 only, a pawn move: with no pawn in hand the
        // first would stalemate White, and 6-4 would be illegal.
        for (drop, legal) in [("p*31", false), ("p*20", true)] {
            let mut d = dfpn(&tsume_as_given("ito", "k4TG17K6 w 2p 1"));
            let m = find(&mut d.pos, drop);
            d.pos.push(m);
            let x = find(&mut d.pos, "6-4");
            assert_eq!(d.legal_for_any_hands(x), legal, "{drop}");
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
            let mut d = dfpn(&Position::from_fen(&variant, "k2T2G17K6 w phP 1").unwrap());
            let m = find(&mut d.pos, "p*31");
            d.pos.push(m);
            // (Found as a drop of the pawn face onto 2, legal or not under the ban.)
            let face = d.pos.tables().face_kind.iter().position(|&k| k == 1);
            let x = Move::drop(face.unwrap() as u8, 2);
            assert!(d.pos.gives_check(x));
            assert_eq!(d.legal_for_any_hands(x), legal, "ban {ban}");
        }
    }

    #[test]
    fn a_defender_nodes_disproof_serves_a_smaller_attacker_hand() {
        // Two pawns against a lone king do not mate.  The defender node after
        // P*11 is disproved by a defence that leaves Black's king its moves,
        // so the disproof holds with fewer pawns in Black's hand too.
        let mut d = dfpn(&tsume_as_given("ito", "9k20K b 2P 1"));
        let m = find(&mut d.pos, "P*11");
        d.pos.push(m);
        assert!(!d.mated(MateLen::INFINITE).unwrap().0);
        let key = d.key();
        let e = d.table.get(key).unwrap();
        assert!(e.disproof_bound().is_some() && !e.d_exact());
        let no_pawn = Key {
            hand: Hand::EMPTY,
            ..key
        };
        let v = d
            .table
            .lookup(no_pawn, MateLen::INFINITE, &d.line, &d.anchors);
        assert!(v.is_disproven());
    }
}
