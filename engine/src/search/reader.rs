//! Reading lines off bounded searches (docs/solver.md, "The answer").
//!
//! A *thorough* reading finds the best line as the conventions order lines:
//! the shortest mate, the longest defence, then the fewest pieces left to
//! the attacker (the defender's choice) and the most (the attacker's).  That
//! tie-break is a small minimax on the leftover, read with alpha-beta: a
//! call with the window (lo, hi) may stop as soon as its answer is known to
//! be at most lo or at least hi, which its caller would not take anyway (a
//! move replaces the best one only when strictly better, so the first best
//! move in order is kept, as a full reading keeps it).  The leftover also
//! has bounds that need no search: each attacker move drops or captures at
//! most one piece.  A *quick* reading plays the first check that mates in
//! time and takes the first longest defence: a line of the right length
//! without the tie-break, for a fraction of the work.
//!
//! Every node of a line is read with its value on this line known exactly,
//! so it is put on the line as an exact anchor.  Lines already read are
//! kept by (position, value) while no search under them rested on the line
//! (the memo, bounded, emptied by a garbage collection); one is reused only
//! while none of its positions is on the line.

use std::collections::HashMap;

use crate::moves::{Move, MoveList};
use crate::search::anchors::Epoch;
use crate::search::engine::{Halt, Search};
use crate::search::mate_len::MateLen;
use crate::search::monitor::Stop;
use crate::square::Mask;

/// An open upper end of a leftover window (more pieces than any hand holds).
pub const OPEN: i32 = 1 << 30;

/// A line and the pieces it leaves the attacker.
pub type Read = (Vec<Move>, i32);

struct Kept {
    moves: Vec<Move>,
    left: i32,
    seen: Vec<u64>,
    epoch: Epoch,
}

/// Lines already read.
pub struct Memo {
    lines: HashMap<(u64, MateLen, bool, bool), Kept>,
    words: usize,
    cap: usize,
    gc_runs: u64,
}

impl Memo {
    /// A memo of at most about `bytes` bytes.
    pub fn new(bytes: usize) -> Memo {
        Memo {
            lines: HashMap::new(),
            words: 0,
            cap: (bytes / 16).max(1024),
            gc_runs: 0,
        }
    }
}

/// Every defence at a defender node with its value, line and leftover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The defence.
    pub m: Move,
    /// A useless interposition (no value, no line).
    pub useless: bool,
    /// Plies to mate from the node along it (the defence included).
    pub value: Option<MateLen>,
    /// Its best line, after the defence.
    pub line: Vec<Move>,
    /// The attacker's pieces left at the end.
    pub left: i32,
}

/// One reading: thorough or quick, and whether a search under it rested on the line.
pub(crate) struct Reading {
    thorough: bool,
    prune: bool,
    path_dependent: bool,
}

impl Reading {
    pub(crate) fn new(thorough: bool, leftover_pruning: bool) -> Reading {
        Reading {
            thorough,
            prune: thorough && leftover_pruning,
            path_dependent: false,
        }
    }
}

impl Search {
    fn hand_count(&self) -> i32 {
        self.pos.hand(self.attacker).total() as i32
    }

    fn moves_here(&mut self, or_node: bool) -> Vec<Move> {
        let mut list = MoveList::new();
        if or_node {
            self.pos.checks(&mut list);
        } else {
            self.pos.evasions(&mut list);
        }
        let mut v: Vec<Move> = list.iter().copied().collect();
        v.sort_unstable();
        v
    }

    fn mated_within(&mut self, reading: &mut Reading, b: MateLen) -> Result<bool, Stop> {
        let (proven, on_line) = self.nested(b)?;
        reading.path_dependent |= on_line;
        Ok(proven)
    }

    fn enter(&mut self) {
        self.anchor(true);
    }

    fn leave(&mut self) {
        self.release();
    }

    /// Does the table already prove (or, not `proven`, disprove) the position
    /// after `m` within `b`?  Only orders moves: the search that follows decides.
    fn known_after(&mut self, m: Move, b: MateLen, proven: bool) -> bool {
        if b < MateLen::ZERO {
            return false;
        }
        self.pos.push(m);
        let v = self.probe(b);
        self.pos.pop();
        if proven {
            v.is_proven()
        } else {
            v.is_disproven()
        }
    }

    /// `read(b, lo, hi)` through the memo.
    fn memoised(
        &mut self,
        reading: &mut Reading,
        b: MateLen,
        attacker: bool,
        lo: i32,
        hi: i32,
        read: fn(&mut Search, &mut Reading, MateLen, i32, i32) -> Result<Read, Halt>,
    ) -> Result<Read, Halt> {
        let key = (self.pos.hash(), b, attacker, reading.thorough);
        let gc_runs = self.table.stats().gc_runs;
        if self.memo.gc_runs != gc_runs {
            // A collection started an epoch no older line is used in.
            self.memo.gc_runs = gc_runs;
            self.memo.lines.clear();
            self.memo.words = 0;
        }
        if let Some(k) = self.memo.lines.get(&key) {
            if k.epoch >= self.anchors.floor() && !k.seen.iter().any(|&h| self.line.contains(h)) {
                return Ok((k.moves.clone(), k.left));
            }
        }
        let outer = reading.path_dependent;
        reading.path_dependent = false;
        let epoch = self.anchors.epoch();
        let (moves, left) = read(self, reading, b, lo, hi)?;
        if !reading.path_dependent && lo < left && left < hi {
            let mut seen = Vec::with_capacity(moves.len());
            for &m in &moves {
                self.pos.push(m);
                seen.push(self.pos.hash());
            }
            for _ in &moves {
                self.pos.pop();
            }
            let words = 8 + moves.len() / 2 + seen.len();
            if self.memo.words + words > self.memo.cap {
                self.memo.lines.clear();
                self.memo.words = 0;
            }
            self.memo.words += words;
            self.memo.lines.insert(
                key,
                Kept {
                    moves: moves.clone(),
                    left,
                    seen,
                    epoch,
                },
            );
        }
        reading.path_dependent |= outer;
        Ok((moves, left))
    }

    /// The best line from an attacker node of value `b` and the attacker's
    /// pieces left; with a window (lo, hi), a leftover at most `lo` or at
    /// least `hi` is only a bound, and its line is not the best one.
    pub(crate) fn attacker_line(
        &mut self,
        reading: &mut Reading,
        b: MateLen,
        lo: i32,
        hi: i32,
    ) -> Result<Read, Halt> {
        self.memoised(reading, b, true, lo, hi, Search::read_attacker_line)
    }

    fn read_attacker_line(
        &mut self,
        reading: &mut Reading,
        b: MateLen,
        lo: i32,
        hi: i32,
    ) -> Result<Read, Halt> {
        self.lines_read += 1;
        self.enter();
        let r = self.attacker_moves(reading, b, lo, hi);
        self.leave();
        let (best, mating, skipped) = r?;
        if !mating && !skipped {
            return Err(Halt::Internal(
                "internal error: no mating move at the proven length".into(),
            ));
        }
        match best {
            Some(best) if best.1 > lo => Ok(best),
            // No line keeps more than lo: the caller keeps its own.
            _ => Ok((vec![], lo)),
        }
    }

    #[allow(clippy::type_complexity)]
    fn attacker_moves(
        &mut self,
        reading: &mut Reading,
        b: MateLen,
        lo: i32,
        hi: i32,
    ) -> Result<(Option<Read>, bool, bool), Halt> {
        let mut checks = self.moves_here(true);
        if !reading.thorough {
            // Any mating check will do: those the table already proves first,
            // so the line follows the proof just found.
            let known: Vec<bool> = checks
                .iter()
                .map(|&m| self.known_after(m, b - 1, true))
                .collect();
            let mut order: Vec<usize> = (0..checks.len()).collect();
            order.sort_by_key(|&i| !known[i]);
            checks = order.into_iter().map(|i| checks[i]).collect();
        }
        let later_moves = (b.get() - 1) / 2;
        let mut best: Option<Read> = None;
        let mut floor = lo;
        let (mut mating, mut skipped) = (false, false);
        for m in checks {
            self.pos.push(m);
            let r = self.attacker_move(reading, m, b, floor, hi, later_moves);
            self.pos.pop();
            match r? {
                None => {}
                Some(None) => skipped = true,
                Some(Some((moves, left))) => {
                    mating = true;
                    if best.as_ref().is_none_or(|x| left > x.1) {
                        let mut line = vec![m];
                        line.extend(moves);
                        best = Some((line, left));
                    }
                    if !reading.thorough {
                        break;
                    }
                    if reading.prune && left > floor {
                        floor = left;
                        if floor >= hi {
                            break; // the caller has a line that leaves less
                        }
                    }
                }
            }
        }
        Ok((best, mating, skipped))
    }

    /// After the check `m` (made): None if it does not mate within `b - 1`,
    /// Some(None) if it cannot keep more than `floor`, else its defender line.
    #[allow(clippy::type_complexity)]
    fn attacker_move(
        &mut self,
        reading: &mut Reading,
        _m: Move,
        b: MateLen,
        floor: i32,
        hi: i32,
        later_moves: i32,
    ) -> Result<Option<Option<Read>>, Halt> {
        if reading.prune && self.hand_count() + later_moves <= floor {
            return Ok(Some(None)); // cannot keep more than the best so far
        }
        if !self.mated_within(reading, b - 1)? {
            return Ok(None);
        }
        let line = self.defender_line(reading, b - 1, floor, hi)?;
        Ok(Some(Some(line)))
    }

    /// Is the defence `d` here (defender to move, mated within `b`) a useless
    /// interposition?  `ranged`: the ride checkers.
    pub(crate) fn useless_here(
        &mut self,
        reading: &mut Reading,
        d: Move,
        b: MateLen,
        ranged: Mask,
    ) -> Result<bool, Stop> {
        if !self.options.useless_interpositions {
            return Ok(false);
        }
        #[cfg(test)]
        self.trace.1.push((self.pos.copy(), d));
        let checker = self.pos.interposition_square(d, ranged);
        if checker == 0 {
            return Ok(false);
        }
        let (useless, on_line, _) = self.useless(d, checker, b)?;
        reading.path_dependent |= on_line;
        Ok(useless)
    }

    /// The best line from a defender node of value `b` (mated within `b` and
    /// not sooner), and the pieces left; the window as for [`Search::attacker_line`].
    pub(crate) fn defender_line(
        &mut self,
        reading: &mut Reading,
        b: MateLen,
        lo: i32,
        hi: i32,
    ) -> Result<Read, Halt> {
        self.memoised(reading, b, false, lo, hi, Search::read_defender_line)
    }

    fn read_defender_line(
        &mut self,
        reading: &mut Reading,
        b: MateLen,
        lo: i32,
        hi: i32,
    ) -> Result<Read, Halt> {
        #[cfg(test)]
        self.trace.0.push((self.pos.copy(), b));
        // Each of the b / 2 attacker moves left drops at most one piece.
        let least = (self.hand_count() - b.get() / 2).max(0);
        if reading.prune && least >= hi {
            return Ok((vec![], hi)); // every line leaves at least hi: the caller keeps its own
        }
        self.enter();
        let r = self.defences(reading, b, lo, hi, least);
        self.leave();
        let (best, longest, counted) = r?;
        if !counted {
            // Every defence a useless interposition: the line ends here.
            return Ok((vec![], self.hand_count()));
        }
        if !longest {
            return Err(Halt::Internal(
                "internal error: every counted defence is mated before the proven bound".into(),
            ));
        }
        let best = best.expect("a longest defence was read");
        if best.1 >= hi {
            return Ok((vec![], hi));
        }
        Ok(best)
    }

    #[allow(clippy::type_complexity)]
    fn defences(
        &mut self,
        reading: &mut Reading,
        b: MateLen,
        lo: i32,
        hi: i32,
        least: i32,
    ) -> Result<(Option<Read>, bool, bool), Halt> {
        // b is this node's exact value, so a counted defence is a longest one
        // exactly when it is not mated within b - 3: one bounded search each.
        let ranged = self.pos.ride_checkers();
        let mut defences = self.moves_here(false);
        if !reading.thorough {
            // Any longest defence will do: those the table already disproves within b - 3 first.
            let known: Vec<bool> = defences
                .iter()
                .map(|&d| self.known_after(d, b - 3, false))
                .collect();
            let mut order: Vec<usize> = (0..defences.len()).collect();
            order.sort_by_key(|&i| !known[i]);
            defences = order.into_iter().map(|i| defences[i]).collect();
        }
        let mut best: Option<Read> = None;
        let mut ceiling = hi;
        let mut longest = false;
        let mut sooner = vec![];
        for d in defences {
            // A defence mated sooner is not a longest one, useless or not, so
            // that test (dear when it fails) is made only for the others.
            self.pos.push(d);
            let r = if b >= MateLen::plies(4) {
                self.mated_within(reading, b - 3)
            } else {
                Ok(false)
            };
            self.pos.pop();
            if r? {
                sooner.push(d);
                continue;
            }
            if self.useless_here(reading, d, b, ranged)? {
                continue;
            }
            longest = true;
            self.pos.push(d);
            let r = self.attacker_line(reading, b - 1, lo, ceiling);
            self.pos.pop();
            let (moves, left) = r?;
            if best.as_ref().is_none_or(|x| left < x.1) {
                let mut line = vec![d];
                line.extend(moves);
                best = Some((line, left));
            }
            if !reading.thorough {
                break;
            }
            if reading.prune && left < ceiling {
                ceiling = left;
                if ceiling <= lo || ceiling <= least {
                    break; // the caller keeps more elsewhere, or none can leave less
                }
            }
        }
        let mut counted = longest;
        if !counted {
            for d in sooner {
                if !self.useless_here(reading, d, b, ranged)? {
                    counted = true;
                    break;
                }
            }
        }
        Ok((best, longest, counted))
    }

    /// Every defence at a defender node mated within `b`, with its value and line.
    pub(crate) fn defender_choices_in(
        &mut self,
        reading: &mut Reading,
        b: MateLen,
    ) -> Result<Vec<Choice>, Halt> {
        self.enter();
        let r = self.read_choices(reading, b);
        self.leave();
        r
    }

    fn read_choices(&mut self, reading: &mut Reading, b: MateLen) -> Result<Vec<Choice>, Halt> {
        let ranged = self.pos.ride_checkers();
        let mut valued = vec![];
        for d in self.moves_here(false) {
            if self.useless_here(reading, d, b, ranged)? {
                valued.push((d, None));
                continue;
            }
            self.pos.push(d);
            let r = self.shortest(b - 1, false, true);
            self.pos.pop();
            let (v, on_line) = r?;
            reading.path_dependent |= on_line;
            match v {
                None => {
                    return Err(Halt::Internal(
                        "internal error: a counted defence escapes the proven bound".into(),
                    ))
                }
                Some(v) => valued.push((d, Some(v))),
            }
        }
        let mut out = vec![];
        for (d, v) in valued {
            match v {
                None => out.push(Choice {
                    m: d,
                    useless: true,
                    value: None,
                    line: vec![],
                    left: 0,
                }),
                Some(v) => {
                    self.pos.push(d);
                    let r = self.attacker_line(reading, v, -1, OPEN);
                    self.pos.pop();
                    let (line, left) = r?;
                    out.push(Choice {
                        m: d,
                        useless: false,
                        value: Some(v + 1),
                        line,
                        left,
                    });
                }
            }
        }
        Ok(out)
    }

    /// A mating line within `b` from here, read off the table's proofs alone
    /// (for a mate whose length is known only as a bound): each attacker move
    /// the check with the shortest stored proof within what is left, each
    /// defence the one with the longest.  Not the best line.  Only probes: a
    /// move that would repeat a position of the line read so far is passed
    /// over.  A defence the table does not prove is taken for a useless
    /// interposition, tested only where no defence is proven (the mate ends
    /// the line there); where that test fails, or no check is proven, no
    /// line is read (empty).
    pub(crate) fn proof_line_in(
        &mut self,
        reading: &mut Reading,
        b: MateLen,
    ) -> Result<Vec<Move>, Stop> {
        let mut moves = vec![];
        let mut seen = vec![self.pos.hash()];
        let r = self.read_proof_line(reading, b, &mut moves, &mut seen);
        for _ in &moves {
            self.pos.pop();
        }
        r
    }

    fn read_proof_line(
        &mut self,
        reading: &mut Reading,
        mut b: MateLen,
        moves: &mut Vec<Move>,
        seen: &mut Vec<u64>,
    ) -> Result<Vec<Move>, Stop> {
        loop {
            let attacker = self.or_node();
            if attacker && b < MateLen::plies(1) {
                return Ok(vec![]);
            }
            let mut best: Option<(Move, MateLen)> = None;
            let mut unproven = vec![];
            for m in self.moves_here(attacker) {
                self.pos.push(m);
                // None: repeats, or not known to be mated within b - 1.
                let n = (!seen.contains(&self.pos.hash()) && self.probe(b - 1).is_proven())
                    .then(|| self.proof_len_within(b - 1));
                self.pos.pop();
                match n {
                    None => unproven.push(m),
                    Some(n) => {
                        if best.is_none_or(|(_, len)| if attacker { n < len } else { n > len }) {
                            best = Some((m, n));
                        }
                    }
                }
            }
            let Some((m, _)) = best else {
                if attacker {
                    return Ok(vec![]);
                }
                let ranged = self.pos.ride_checkers();
                for d in unproven {
                    if !self.useless_here(reading, d, b, ranged)? {
                        return Ok(vec![]);
                    }
                }
                return Ok(moves.clone()); // mated: no counted defence left
            };
            self.pos.push(m);
            moves.push(m);
            seen.push(self.pos.hash());
            b = b - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::engine::Limits;
    use crate::search::options::Options;
    use crate::search::testing::tsume_as_given;

    #[test]
    fn uselessness_is_asked_only_of_defences_that_could_be_longest() {
        // At a defender node of value b, a defence mated within b - 3 is not a
        // longest defence, useless interposition or not, so the reader does not
        // ask (the test is dear when it fails).  The main line of
        // ruth-L07-0011 has such an interposition.
        let root = tsume_as_given("rutherford", "2P1ks1L6 b LPS 1");
        let mut s = Search::new(&root, Limits::default(), Options::default()).unwrap();
        assert!(s.mate(MateLen::INFINITE).unwrap());
        let v = s.value(MateLen::INFINITE, false).unwrap().unwrap();
        s.trace = Default::default();
        let (moves, _) = s.best_line(v, true).unwrap();
        assert_eq!(moves.len(), 7);
        let (read, asked) = std::mem::take(&mut s.trace);
        let mut skipped = 0;
        for (node, b) in &read {
            let mut node = node.copy();
            let ranged = node.ride_checkers();
            let mut list = MoveList::new();
            node.evasions(&mut list);
            for &d in list.iter() {
                let mut after = node.copy();
                after.push(d);
                let mut fresh = Search::new(&root, Limits::default(), Options::default()).unwrap();
                fresh.pos = after;
                let sooner = *b >= MateLen::plies(4) && fresh.mate(*b - 3).unwrap();
                let was_asked = asked.iter().any(|(p, m)| p.same_as(&node) && *m == d);
                assert!(
                    !(sooner && was_asked),
                    "{} {}",
                    node.fen(),
                    node.move_string(d)
                );
                if sooner && node.interposition_square(d, ranged) != 0 {
                    skipped += 1;
                }
            }
        }
        assert!(skipped >= 1);
    }
}
