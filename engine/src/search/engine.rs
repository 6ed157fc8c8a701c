//! The search of one problem, and the questions the package asks of it.
//!
//! [`Search`] owns a df-pn search ([`Dfpn`], with the useless-interposition
//! convention) and the memo of the lines it read.  Each question is asked at
//! the current position: the root, or where the caller's walk
//! ([`Search::walk`]) stands, with the walk's positions on the line as
//! anchors; the search's own expansions push and pop above them.  Bounds
//! count plies ([`MateLen::INFINITE`]: no bound).  A limit stops a question
//! with [`Halt::Stop`]; a question's own node budget stops that question only.

use std::time::Duration;

use crate::rules::colour::Colour;
use crate::rules::error::{EngineError, Result as EngineResult};
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;
use crate::search::dfpn::Dfpn;
use crate::search::length::{Climb, Length};
use crate::search::mate_len::MateLen;
use crate::search::memo::Memo;
use crate::search::monitor::{Halt, Hooks, Monitor, Stop};
use crate::search::options::Options;
use crate::search::reader::{Choice, Read, Reading, OPEN};
use crate::search::table::{Table, TableStats};
use crate::search::useless::UselessRule;

/// The most pieces of one kind a position may have (board and hands).
pub const MAX_PER_KIND: usize = 15;

/// The memory budget when the caller gives none.
pub const DEFAULT_MEMORY: usize = 256 << 20;

/// The limits of a search.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Nodes (exact).
    pub nodes: Option<u64>,
    /// Time.
    pub time: Option<Duration>,
    /// Bytes for the table and the other bounded structures (None: [`DEFAULT_MEMORY`]).
    pub memory: Option<usize>,
}

/// The search of one problem.
pub struct Search {
    dfpn: Dfpn<UselessRule>,
    memo: Memo,
    /// The moves of the caller's walk, for [`Search::unwalk`].
    walked: Vec<Move>,
}

impl Search {
    /// A search of `pos`, the side to move attacking (its hands as the
    /// problem has them: the defender's filled in).
    pub fn new(pos: &Position, limits: Limits, options: Options) -> EngineResult<Search> {
        let attacker = pos.turn();
        if pos.king(attacker.flip()) == 0 {
            return Err(EngineError::Position(
                "tsume: the defender has no king on the board".into(),
            ));
        }
        // The table keeps hands in four bits per kind.
        let t = pos.tables().clone();
        for k in 0..t.nkinds {
            let on_board = pos
                .board()
                .iter()
                .filter(|&&v| v != 0 && t.face_kind[(v >> 1) as usize] as usize == k)
                .count();
            let total = on_board
                + pos.hand(Colour::Black).count(k) as usize
                + pos.hand(Colour::White).count(k) as usize;
            if total > MAX_PER_KIND {
                return Err(EngineError::Position(format!(
                    "the search takes at most {MAX_PER_KIND} pieces of a kind, not {total} of {}",
                    t.kind_letter[k]
                )));
            }
        }
        let memory = limits.memory.unwrap_or(DEFAULT_MEMORY);
        // The table gets most of the budget; the verdict caches and the line
        // reader's memo a fixed share (see docs/solver.md, "Memory").
        let memo_bytes = memory / 16;
        let table_bytes = memory.saturating_sub(memo_bytes + UselessRule::BYTES);
        let monitor = Monitor::new(limits.nodes, limits.time);
        let mut table = Table::new(table_bytes, options.hand_dominance);
        table.set_watch(monitor.watch());
        Ok(Search {
            dfpn: Dfpn::new(pos, table, monitor, options, UselessRule::new()),
            memo: Memo::new(memo_bytes),
            walked: Vec::new(),
        })
    }

    /// The current position (the root, or where the caller's walk stands).
    pub fn position(&self) -> &Position {
        self.dfpn.position()
    }

    /// The attacker.
    pub fn attacker(&self) -> Colour {
        self.dfpn.attacker()
    }

    /// The options.
    pub fn options(&self) -> &Options {
        self.dfpn.options()
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.dfpn.monitor().nodes()
    }

    /// Of those, the nodes spent climbing from a first proof to an exact length.
    pub fn climb_nodes(&self) -> u64 {
        self.dfpn.monitor().climb_nodes()
    }

    /// Time since the search was made.
    pub fn elapsed(&self) -> Duration {
        self.dfpn.monitor().elapsed()
    }

    /// The limit that stopped the search for good, if one did.
    pub fn stopped(&self) -> Option<&Stop> {
        self.dfpn.monitor().stopped()
    }

    /// Attacker nodes the line reader has read (not taken from its memo).
    pub fn lines_read(&self) -> u64 {
        self.memo.lines_read()
    }

    /// The table's statistics.
    pub fn table_stats(&self) -> TableStats {
        self.dfpn.table().stats()
    }

    /// What the table's entries hold ([`Table::census`]).
    pub fn table_census(&self) -> [usize; 4] {
        self.dfpn.table().census()
    }

    /// The monitor, for the caller's hooks and budgets.
    pub fn monitor(&mut self) -> &mut Monitor {
        self.dfpn.monitor_mut()
    }

    /// Installs the caller's hooks (interrupt check, progress every `interval`).
    pub fn set_hooks(&mut self, hooks: Box<dyn Hooks>, interval: Option<Duration>) {
        self.dfpn.monitor_mut().set_hooks(hooks, interval);
    }

    // --- the caller's walk -----------------------------------------------------

    /// Is `m` a legal move here (the repetition rule aside)?
    pub fn is_legal(&mut self, m: Move) -> bool {
        let mut list = MoveList::new();
        self.dfpn.position_mut().legal_moves(Some(false), &mut list);
        list.contains(m)
    }

    /// Anchors the current position and plays `m` (legal here).
    pub fn walk(&mut self, m: Move, exact: bool) {
        self.dfpn.anchor(exact);
        self.dfpn.position_mut().push(m);
        self.walked.push(m);
    }

    /// Takes back the last move of the walk and its anchor.
    pub fn unwalk(&mut self) -> Option<Move> {
        let m = self.walked.pop()?;
        self.dfpn.position_mut().pop();
        self.dfpn.release();
        Some(m)
    }

    /// How many moves the walk has made.
    pub fn walked(&self) -> usize {
        self.walked.len()
    }

    /// Takes back the whole walk.
    pub fn rewind(&mut self) {
        while self.unwalk().is_some() {}
    }

    // --- the questions ---------------------------------------------------------

    /// Is the current position mated within `b` plies?
    pub fn mate(&mut self, b: MateLen) -> Result<bool, Stop> {
        Ok(self.dfpn.mated(b)?.0)
    }

    /// A proven length of the current position after [`Search::mate`]
    /// proved it within `b`: its own proof's, or `b` when that is not known.
    pub fn proof_length(&self, b: MateLen) -> MateLen {
        self.dfpn.proof_len_within(b)
    }

    /// The exact mate length within `b` (None: no mate within `b`), climbing
    /// down from the first proof if `descend`, else up.
    pub fn value(&mut self, b: MateLen, descend: bool) -> Result<Option<MateLen>, Stop> {
        let climb = if descend {
            Climb::Down
        } else {
            Climb::Up(None)
        };
        Ok(Length::search(&mut self.dfpn, b, climb)?.upper)
    }

    /// The length of the first proof within `b` (an upper bound of the
    /// exact length; None: no mate within `b`).
    pub fn first_proof(&mut self, b: MateLen) -> Result<Option<MateLen>, Stop> {
        Ok(Length::search(&mut self.dfpn, b, Climb::None)?.upper)
    }

    /// Is there a mate within `b` at all?  The searches of [`Search::value`]
    /// up to its first proof, without the climb to the exact length.
    pub fn mates_at_all(&mut self, b: MateLen) -> Result<bool, Stop> {
        Ok(self.first_proof(b)?.is_some())
    }

    /// The exact length within `b`, with at most `budget` nodes (None: no
    /// budget) for the climb from the first proof ([`Length::search`]).
    pub fn value_within(&mut self, b: MateLen, budget: Option<u64>) -> Result<Length, Stop> {
        Length::search(&mut self.dfpn, b, Climb::Up(budget))
    }

    fn reading(&mut self, thorough: bool) -> Reading<'_> {
        Reading::new(&mut self.dfpn, &mut self.memo, thorough)
    }

    /// The best line of value `v` from here (an attacker or a defender node)
    /// and the attacker's pieces left at its end; not `thorough`: a line of
    /// that value without the leftover tie-break.
    pub fn best_line(&mut self, v: MateLen, thorough: bool) -> Result<Read, Halt> {
        let attacker = self.dfpn.or_node();
        let mut reading = self.reading(thorough);
        if attacker {
            reading.attacker_line(v, -1, OPEN)
        } else {
            reading.defender_line(v, -1, OPEN)
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
        let saved = self.dfpn.monitor().budget_end();
        self.dfpn.monitor_mut().set_budget(budget);
        let r = self.best_line(v, thorough);
        self.dfpn.monitor_mut().restore_budget(saved);
        match r {
            Ok((moves, _)) => Ok(Some(moves)),
            Err(Halt::Stop(Stop::Budget)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// A mating line within `b` read off the table's proofs (not the best).
    pub fn proof_line(&mut self, b: MateLen) -> Result<Vec<Move>, Stop> {
        self.reading(true).proof_line(b)
    }

    /// Every defence at this defender node (mated within `b`) with its
    /// value, best line and leftover, in move order.
    pub fn defender_choices(&mut self, b: MateLen) -> Result<Vec<Choice>, Halt> {
        self.reading(true).defender_choices(b)
    }

    /// Is the defence `d` here a useless interposition (judged with bound `b`)?
    pub fn is_useless(&mut self, d: Move, b: MateLen) -> Result<bool, Stop> {
        let ranged = self.dfpn.position().ride_checkers();
        self.reading(true).useless_here(d, b, ranged)
    }

    /// R at this defender node: the longest value of its defences that are
    /// not interpositions (None: one escapes within `b - 1`).
    pub fn best_other_value(&mut self, b: MateLen) -> Result<Option<MateLen>, Stop> {
        Ok(UselessRule::best_other(&mut self.dfpn, b)?.0)
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
        let (moves, _) = self.reading(true).attacker_line(length, -1, OPEN)?;
        Ok((length, moves))
    }

    /// For every checking first move (in move order): its exact mate length
    /// within `bound` (the move included; None: no mate within it), the
    /// current position on the line.
    pub fn first_moves(&mut self, bound: MateLen) -> Result<Vec<(Move, Option<MateLen>)>, Stop> {
        let mut list = MoveList::new();
        self.dfpn.position_mut().checks(&mut list);
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
        self.dfpn.monitor_mut().set_budget(nodes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testing::{tsume, tsume_as_given};

    fn search(variant: &str, fen: &str) -> Search {
        Search::new(&tsume(variant, fen), Limits::default(), Options::default()).unwrap()
    }

    fn names(s: &Search, moves: &[Move]) -> Vec<String> {
        let mut p = s.position().copy();
        let mut out = vec![];
        for &m in moves {
            out.push(p.move_string(m));
            p.push(m);
        }
        out
    }

    fn find(s: &mut Search, text: &str) -> Move {
        let mut l = MoveList::new();
        s.dfpn.position_mut().legal_moves(Some(false), &mut l);
        let p = s.position();
        *l.iter()
            .find(|&&m| p.move_string(m).eq_ignore_ascii_case(text))
            .unwrap()
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
        assert!(!s.mates_at_all(MateLen::INFINITE).unwrap());
    }

    #[test]
    fn bounded_mates_and_every_way_to_a_length() {
        let nine = "7H1+F2k18 b TCG 1";
        let mut s = search("ito", nine);
        assert!(!s.mate(MateLen::plies(7)).unwrap());
        assert!(s.mate(MateLen::plies(9)).unwrap());
        assert_eq!(
            s.value(MateLen::INFINITE, false).unwrap(),
            Some(MateLen::plies(9))
        );
        let mut s = search("ito", nine);
        assert_eq!(
            s.value(MateLen::INFINITE, true).unwrap(),
            Some(MateLen::plies(9))
        );
        // The first proof is an upper bound; a budget of no nodes for the
        // climb leaves the length between the bound reached and that proof.
        let mut s = search("ito", nine);
        let first = s.first_proof(MateLen::INFINITE).unwrap().unwrap();
        assert!(first >= MateLen::plies(9));
        let mut s = search("ito", nine);
        let l = s.value_within(MateLen::INFINITE, Some(0)).unwrap();
        assert!(l.low <= MateLen::plies(9) && MateLen::plies(9) <= l.upper.unwrap());
        assert!(s.climb_nodes() <= s.nodes());
    }

    #[test]
    fn first_moves_are_valued_with_the_root_on_the_line() {
        let mut s = search("ito", "3T2k1CG21 b C 1");
        let values = s.first_moves(MateLen::INFINITE).unwrap();
        assert_eq!(s.walked(), 0);
        let mated: Vec<String> = values
            .iter()
            .filter(|(_, v)| *v == Some(MateLen::plies(3)))
            .map(|(m, _)| s.position().move_string(*m))
            .collect();
        assert_eq!(mated, ["C*3"]);
        assert!(values
            .iter()
            .all(|(_, v)| v.is_none_or(|v| v >= MateLen::plies(3))));
    }

    #[test]
    fn the_walk_anchors_and_takes_back() {
        let mut s = search("ito", "H1kf1P1c2K20 b PHG 1");
        let root = s.position().copy();
        let m = find(&mut s, "G*7");
        assert!(s.is_legal(m));
        s.walk(m, false);
        assert_eq!(s.walked(), 1);
        assert!(!s.dfpn.or_node() && s.dfpn.anchors().anchored());
        // The defender, mated in 4 from here.
        assert_eq!(
            s.value(MateLen::INFINITE, false).unwrap(),
            Some(MateLen::plies(4))
        );
        let choices = s.defender_choices(MateLen::plies(4)).unwrap();
        assert!(choices.iter().any(|c| c.value == Some(MateLen::plies(4))));
        assert_eq!(s.unwalk(), Some(m));
        assert_eq!(s.unwalk(), None);
        assert!(s.position().same_as(&root) && s.dfpn.anchors().is_empty());
        s.walk(m, true);
        s.rewind();
        assert_eq!(s.walked(), 0);
    }

    #[test]
    fn limits_stop_a_question_and_a_budget_only_its_own() {
        let nine = tsume("ito", "1k2PT+Fh5+f17 b PC 1");
        let limits = Limits {
            nodes: Some(10),
            ..Limits::default()
        };
        let mut s = Search::new(&nine, limits, Options::default()).unwrap();
        assert_eq!(s.mate(MateLen::INFINITE), Err(Stop::Nodes));
        assert_eq!(s.nodes(), 10);
        assert_eq!(s.stopped(), Some(&Stop::Nodes));
        // A line that takes searching: not read within 5 nodes, read without a budget.
        let mut s = search("ito", "1k2PT+Fh5+f17 b PC 1");
        assert_eq!(
            s.line_within(MateLen::plies(9), true, Some(5)).unwrap(),
            None
        );
        let line = s.line_within(MateLen::plies(9), true, None).unwrap();
        assert_eq!(line.map(|l| l.len()), Some(9));
        assert_eq!(s.stopped(), None);
    }

    #[test]
    fn positions_the_search_refuses() {
        let variant = crate::rules::variant::builtin("ito");
        let no_king = Position::from_fen(&variant, "30K b G 1").unwrap();
        assert!(Search::new(&no_king, Limits::default(), Options::default()).is_err());
        let ok = tsume_as_given("ito", "k29K b 2G 1");
        assert!(Search::new(&ok, Limits::default(), Options::default()).is_ok());
    }

    #[test]
    fn a_proof_is_flagged_when_its_tree_meets_an_anchor_board() {
        // The flag is carried from the mated position up through every
        // defence and every mating move to the root.
        let five = tsume("ito", "H1kf1P1c2K20 b PHG 1");
        let mut mated = search("ito", "H1kf1P1c2K20 b PHG 1");
        let (_, line) = mated.main_line(MateLen::INFINITE).unwrap();
        let mut end = five.copy();
        for &m in &line {
            end.push(m);
        }
        for on_the_mate in [false, true] {
            let mut s = search("ito", "H1kf1P1c2K20 b PHG 1");
            let board = if on_the_mate { end.board_key() } else { 12345 };
            s.dfpn.anchors_mut().push_board(board);
            assert!(s.mate(MateLen::INFINITE).unwrap());
            let key = crate::search::key::Key::of(s.position(), s.dfpn.attacker_hand());
            let e = s.dfpn.table().get(key).unwrap();
            assert!(e.proof_len().is_some());
            assert_eq!(e.pa(), on_the_mate);
        }
    }

    /// Every first move of a 9-ply problem valued with the root anchored,
    /// as the verifier and `solve --all-first-moves` do: within 9 plies if
    /// `bounded`, else whether it mates at all.
    fn first_moves(dominance: bool, bounded: bool) -> (Vec<(Move, bool, Option<MateLen>)>, Search) {
        let nine = tsume("ito", "7H1+F2k18 b TCG 1");
        let options = Options {
            hand_dominance: dominance,
            ..Options::default()
        };
        let mut s = Search::new(&nine, Limits::default(), options).unwrap();
        s.dfpn.anchor(false);
        let mut list = MoveList::new();
        s.dfpn.position_mut().checks(&mut list);
        let mut checks: Vec<Move> = list.iter().copied().collect();
        checks.sort_unstable();
        let mut out = vec![];
        for m in checks {
            s.dfpn.position_mut().push(m);
            if bounded {
                out.push((m, false, s.value(MateLen::plies(9), false).unwrap()));
            } else {
                out.push((m, s.mate(MateLen::INFINITE).unwrap(), None));
            }
            s.dfpn.position_mut().pop();
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
                .dfpn
                .table()
                .entries()
                .filter(|e| e.proof_len().is_some() && !e.p_exact())
                .collect();
            assert!(s.table_stats().dominance_hits > 0 && reusable.iter().any(|e| !e.pa()));
            if !bounded {
                // ... and the unbounded ones met the root's board in some trees.
                assert!(reusable.iter().any(|e| e.pa()));
            }
        }
    }
}
