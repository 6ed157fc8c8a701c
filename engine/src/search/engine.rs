//! The search of one problem: its position, table, line, anchors and limits.
//!
//! [`Search`] owns everything a search needs and answers the questions the
//! package asks (the methods in [`crate::search::node`],
//! [`crate::search::length`], [`crate::search::interposition`] and
//! [`crate::search::reader`]).  Its position moves as the search walks: the
//! caller's walk along a line ([`Search::walk`]) puts positions on the line
//! as anchors, the search's own expansions push and pop above them.

use std::time::Duration;

use crate::colour::Colour;

use crate::error::{EngineError, Result as EngineResult};
use crate::hand::Hand;
use crate::moves::Move;
use crate::position::Position;
use crate::search::anchors::Anchors;
use crate::search::expansion::{Child, Expansion};
use crate::search::hands::any_hand;
use crate::search::interposition::Verdicts;
use crate::search::key::Key;
use crate::search::line::Line;
use crate::search::mate_len::MateLen;
use crate::search::monitor::{Hooks, Monitor, Stop};
use crate::search::options::Options;
use crate::search::reader::Memo;
use crate::search::result::{Disproof, Rep, SearchResult};
use crate::search::table::{Table, TableStats};

/// The most pieces of one kind a position may have (board and hands).
pub const MAX_PER_KIND: usize = 15;

/// The memory budget when the caller gives none.
pub const DEFAULT_MEMORY: usize = 256 << 20;

/// Why a question got no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Halt {
    /// A limit or the question's budget.
    Stop(Stop),
    /// A bug: the search contradicted itself.
    Internal(String),
}

impl From<Stop> for Halt {
    fn from(s: Stop) -> Halt {
        Halt::Stop(s)
    }
}

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

/// What the line reader did, for the tests: the defender nodes it read
/// (with their values) and the defences it asked about uselessness.
#[cfg(test)]
pub(crate) type Trace = (Vec<(Position, MateLen)>, Vec<(Position, Move)>);

/// The result of a position on the line: a repetition fails for the attacker.
fn repetition(h: u64) -> SearchResult {
    SearchResult::Disproven(Disproof {
        bound: MateLen::INFINITE,
        hand: any_hand(),
        exact: true,
        rep: Rep::One(h),
    })
}

/// The search of one problem.
pub struct Search {
    pub(crate) pos: Position,
    pub(crate) attacker: Colour,
    pub(crate) table: Table,
    pub(crate) line: Line,
    pub(crate) anchors: Anchors,
    pub(crate) monitor: Monitor,
    pub(crate) options: Options,
    pub(crate) verdicts: Verdicts,
    pub(crate) memo: Memo,
    pub(crate) climb_nodes: u64,
    /// Attacker nodes the line reader has read (not taken from its memo).
    pub(crate) lines_read: u64,
    // Boxed: taking one from the pool moves a pointer, not 850 bytes.
    #[allow(clippy::vec_box)]
    pub(crate) pool: Vec<Box<Expansion>>,
    pub(crate) scratch: Vec<u64>,
    /// The moves of the caller's walk, for [`Search::unwalk`].
    walked: Vec<Move>,
    /// What the line reader did, for the tests: the defender nodes it read
    /// (with their values) and the defences it asked about uselessness.
    #[cfg(test)]
    pub(crate) trace: Trace,
}

impl Search {
    /// A search of `pos`, the side to move attacking (its hands as the
    /// problem has them: the defender's filled in).
    pub fn new(pos: &Position, limits: Limits, options: Options) -> EngineResult<Search> {
        let pos = pos.copy();
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
        let table_bytes = memory.saturating_sub(memo_bytes + Verdicts::BYTES);
        let monitor = Monitor::new(limits.nodes, limits.time);
        let mut table = Table::new(table_bytes, options.hand_dominance);
        table.set_watch(monitor.watch());
        Ok(Search {
            pos,
            attacker,
            table,
            line: Line::new(),
            anchors: Anchors::new(),
            monitor,
            verdicts: Verdicts::new(),
            memo: Memo::new(memo_bytes),
            options,
            climb_nodes: 0,
            lines_read: 0,
            pool: Vec::new(),
            scratch: Vec::new(),
            walked: Vec::new(),
            #[cfg(test)]
            trace: Default::default(),
        })
    }

    /// The current position (the root, or where the caller's walk stands).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The attacker.
    pub fn attacker(&self) -> Colour {
        self.attacker
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.monitor.nodes()
    }

    /// Of those, the nodes spent climbing from a first proof to an exact length.
    pub fn climb_nodes(&self) -> u64 {
        self.climb_nodes
    }

    /// Time since the search was made.
    pub fn elapsed(&self) -> Duration {
        self.monitor.elapsed()
    }

    /// The limit that stopped the search for good, if one did.
    pub fn stopped(&self) -> Option<&Stop> {
        self.monitor.stopped()
    }

    /// Attacker nodes the line reader has read (not taken from its memo).
    pub fn lines_read(&self) -> u64 {
        self.lines_read
    }

    /// The table's statistics.
    pub fn table_stats(&self) -> TableStats {
        self.table.stats()
    }

    /// The monitor, for the caller's hooks and budgets.
    pub fn monitor(&mut self) -> &mut Monitor {
        &mut self.monitor
    }

    /// Installs the caller's hooks (interrupt check, progress every `interval`).
    pub fn set_hooks(&mut self, hooks: Box<dyn Hooks>, interval: Option<Duration>) {
        self.monitor.set_hooks(hooks, interval);
    }

    /// Is the side to move the attacker?
    #[inline(always)]
    pub(crate) fn or_node(&self) -> bool {
        self.pos.turn() == self.attacker
    }

    /// The attacker's hand here.
    #[inline(always)]
    pub(crate) fn attacker_hand(&self) -> Hand {
        self.pos.hand(self.attacker)
    }

    // --- the caller's walk -----------------------------------------------------

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

    /// Anchors the current position and plays `m` (legal here).
    pub fn walk(&mut self, m: Move, exact: bool) {
        self.anchor(exact);
        self.pos.push(m);
        self.walked.push(m);
    }

    /// Takes back the last move of the walk and its anchor.
    pub fn unwalk(&mut self) -> Option<Move> {
        let m = self.walked.pop()?;
        self.pos.pop();
        self.release();
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

    // --- values ---------------------------------------------------------------

    /// What the table knows of the current position at bound `b` (a position
    /// on the line is a repetition: it fails for the attacker).
    pub(crate) fn probe(&mut self, b: MateLen) -> SearchResult {
        let h = self.pos.hash();
        if self.line.contains(h) {
            return repetition(h);
        }
        let key = Key::of(&self.pos, self.attacker_hand());
        self.table.lookup(key, b, &self.line, &self.anchors)
    }

    /// The value of a child of the current node searched to bound `b`: from
    /// the line (a repetition), the table, and the useless-interposition rule.
    pub(crate) fn value_child(&mut self, kid: &mut Child, b: MateLen) -> Result<(), Stop> {
        if self.line.contains(kid.h) {
            kid.v = repetition(kid.h);
            return Ok(());
        }
        kid.v = self.table.lookup(kid.key, b - 1, &self.line, &self.anchors);
        self.judge_interposition(kid, b)?;
        if self.options.heuristic_init
            && kid.v == SearchResult::unknown(1, 1)
            && !self.table.known(kid.key)
        {
            kid.v = SearchResult::unknown(kid.init.0, kid.init.1);
        }
        Ok(())
    }

    /// Adds the positions a value rests on to `self.scratch`.
    pub(crate) fn gather(&mut self, rep: Rep) {
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
    pub(crate) fn scratch_without(&mut self, h: u64) {
        self.scratch.retain(|&x| x != h);
        self.scratch.sort_unstable();
        self.scratch.dedup();
    }

    /// Takes an expansion from the pool.
    pub(crate) fn take_expansion(&mut self) -> Box<Expansion> {
        self.pool.pop().unwrap_or_default()
    }

    /// Gives an expansion back to the pool.
    pub(crate) fn give_expansion(&mut self, e: Box<Expansion>) {
        self.pool.push(e);
    }

    /// The proven length of the current position's own entry if usable
    /// here and within `b`, else `b`.
    pub(crate) fn proof_len_within(&self, b: MateLen) -> MateLen {
        self.table
            .proof_length(
                Key::of(&self.pos, self.attacker_hand()),
                &self.line,
                &self.anchors,
            )
            .map_or(b, |l| l.min(b))
    }
}
