//! The questions the package asks of a search, as public methods.
//!
//! Each is asked at the current position: the root, or where the caller's
//! walk ([`Search::walk`]) stands, with the walk's positions on the line.
//! MateLens count plies ([`MateLen::INFINITE`]: no bound).  A limit
//! stops a question with [`Halt::Stop`]; a question's own node budget stops
//! that question only.

use crate::moves::{Move, MoveList};
use crate::search::engine::{Halt, Search};
use crate::search::length::Length;
use crate::search::mate_len::MateLen;
use crate::search::monitor::Stop;
use crate::search::reader::{Choice, Read, Reading, OPEN};

impl Search {
    /// Is the current position mated within `b` plies?
    pub fn mate(&mut self, b: MateLen) -> Result<bool, Stop> {
        Ok(self.nested(b)?.0)
    }

    /// A proven length of the current position after [`Search::mate`]
    /// proved it within `b`: its own proof's, or `b` when that is not known.
    pub fn proof_length(&self, b: MateLen) -> MateLen {
        self.proof_len_within(b)
    }

    /// The exact mate length within `b` (None: no mate within `b`); not
    /// `exact`: the first proof's length, an upper bound.
    pub fn value(&mut self, b: MateLen, descend: bool) -> Result<Option<MateLen>, Stop> {
        Ok(self.shortest(b, descend, true)?.0)
    }

    /// The length of the first proof within `b` (an upper bound of the
    /// exact length; None: no mate within `b`).
    pub fn first_proof(&mut self, b: MateLen) -> Result<Option<MateLen>, Stop> {
        Ok(self.shortest(b, false, false)?.0)
    }

    /// Is there a mate within `b` at all?  The searches of [`Search::value`]
    /// up to its first proof, without the climb to the exact length.
    pub fn mates_at_all(&mut self, b: MateLen) -> Result<bool, Stop> {
        Ok(self.shortest(b, false, false)?.0.is_some())
    }

    /// The exact length within `b`, with at most `budget` nodes for the climb
    /// from the first proof ([`Search::shortest_within`]).
    pub fn value_within(&mut self, b: MateLen, budget: Option<u64>) -> Result<Length, Stop> {
        self.shortest_within(b, budget)
    }

    /// The best line of value `v` from here (an attacker or a defender node)
    /// and the attacker's pieces left at its end; not `thorough`: a line of
    /// that value without the leftover tie-break.
    pub fn best_line(&mut self, v: MateLen, thorough: bool) -> Result<Read, Halt> {
        let mut reading = Reading::new(thorough, self.options.leftover_pruning);
        if self.or_node() {
            self.attacker_line(&mut reading, v, -1, OPEN)
        } else {
            self.defender_line(&mut reading, v, -1, OPEN)
        }
    }

    /// The moves of [`Search::best_line`], or None if `budget` nodes do not
    /// read it (None: no budget).
    pub fn line_within(
        &mut self,
        v: MateLen,
        thorough: bool,
        budget: Option<u64>,
    ) -> Result<Option<Vec<Move>>, Halt> {
        if budget.is_none() {
            return Ok(Some(self.best_line(v, thorough)?.0));
        }
        let saved = self.monitor.budget_end();
        self.monitor.set_budget(budget);
        let r = self.best_line(v, thorough);
        self.monitor.restore_budget(saved);
        match r {
            Ok((moves, _)) => Ok(Some(moves)),
            Err(Halt::Stop(Stop::Budget)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// A mating line within `b` read off the table's proofs (not the best).
    pub fn proof_line(&mut self, b: MateLen) -> Result<Vec<Move>, Stop> {
        let mut reading = Reading::new(true, self.options.leftover_pruning);
        self.proof_line_in(&mut reading, b)
    }

    /// Every defence at this defender node (mated within `b`) with its
    /// value, best line and leftover, in move order.
    pub fn defender_choices(&mut self, b: MateLen) -> Result<Vec<Choice>, Halt> {
        let mut reading = Reading::new(true, self.options.leftover_pruning);
        self.defender_choices_in(&mut reading, b)
    }

    /// Is the defence `d` here a useless interposition (judged with bound `b`)?
    pub fn is_useless(&mut self, d: Move, b: MateLen) -> Result<bool, Stop> {
        let mut reading = Reading::new(true, self.options.leftover_pruning);
        let ranged = self.pos.ride_checkers();
        self.useless_here(&mut reading, d, b, ranged)
    }

    /// R at this defender node: the longest value of its defences that are
    /// not interpositions (None: one escapes within `b - 1`).
    pub fn best_other_value(&mut self, b: MateLen) -> Result<Option<MateLen>, Stop> {
        Ok(self.best_other(b)?.0)
    }

    /// The main line after [`Search::mate`] proved the root within `bound`:
    /// the exact length (climbing down from the proof's) and the best line.
    pub fn main_line(&mut self, bound: MateLen) -> Result<(MateLen, Vec<Move>), Halt> {
        let upper = self.proof_length(bound);
        let Some(length) = self.value(upper, true)? else {
            return Err(Halt::Internal(
                "internal error: proven mate not found again within its proof length".into(),
            ));
        };
        let mut reading = Reading::new(true, self.options.leftover_pruning);
        let (moves, _) = self.attacker_line(&mut reading, length, -1, OPEN)?;
        Ok((length, moves))
    }

    /// For every checking first move (in move order): its exact mate length
    /// within `bound` (the move included; None: no mate within it), the
    /// current position on the line.
    pub fn first_moves(&mut self, bound: MateLen) -> Result<Vec<(Move, Option<MateLen>)>, Stop> {
        let mut list = MoveList::new();
        self.pos.checks(&mut list);
        let mut moves: Vec<Move> = list.iter().copied().collect();
        moves.sort_unstable();
        let rest = if bound.is_bounded() {
            bound - 1
        } else {
            MateLen::INFINITE
        };
        let mut out = vec![];
        for m in moves {
            self.walk(m, false);
            let r = self.value(rest, false);
            self.unwalk();
            out.push((m, r?.map(|v| v + 1)));
        }
        Ok(out)
    }

    /// Stops the current question once `nodes` more nodes are spent (None: no budget).
    pub fn set_budget(&mut self, nodes: Option<u64>) {
        self.monitor.set_budget(nodes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testing::search;

    fn names(s: &Search, moves: &[Move]) -> Vec<String> {
        let mut p = s.position().copy();
        let mut out = vec![];
        for &m in moves {
            out.push(p.move_string(m));
            p.push(m);
        }
        out
    }

    #[test]
    fn mates_and_main_lines() {
        for (variant, fen, length, line) in [
            ("ito", "H1kf1P1c2K20 b PHG 1", 5, "G*7 3-2 H*5 2-1 P*2"),
            ("ito", "3T2k1CG21 b C 1", 3, "C*3 P*5 4-5"),
            (
                "ito",
                "1k2PT+Fh5+f17 b PC 1",
                9,
                "6-4 2-3 4-2 3-2 P*3 2-1 C*4 1-3 4-6",
            ),
            ("rutherford", "k2S7 b B 1", 1, "+B*5"),
        ] {
            let mut s = search(variant, fen);
            assert!(s.mate(MateLen::INFINITE).unwrap(), "{fen}");
            let (len, moves) = s.main_line(MateLen::INFINITE).unwrap();
            assert_eq!(len, MateLen::plies(length), "{fen}");
            assert_eq!(names(&s, &moves).join(" "), line, "{fen}");
            assert!(s.nodes() > 0);
        }
    }

    #[test]
    fn no_mate() {
        let mut s = search("ito", "k30 b G");
        assert!(!s.mate(MateLen::INFINITE).unwrap());
        assert_eq!(s.value(MateLen::INFINITE, false).unwrap(), None);
    }

    #[test]
    fn bounded_mates() {
        let mut s = search("ito", "7H1+F2k18 b TCG 1");
        assert!(!s.mate(MateLen::plies(7)).unwrap());
        assert!(s.mate(MateLen::plies(9)).unwrap());
        assert_eq!(
            s.value(MateLen::INFINITE, false).unwrap(),
            Some(MateLen::plies(9))
        );
        let mut s = search("ito", "7H1+F2k18 b TCG 1");
        assert_eq!(
            s.value(MateLen::INFINITE, true).unwrap(),
            Some(MateLen::plies(9))
        );
    }
}
