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
//! kept in a [`Memo`].

use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;
use crate::rules::square::Mask;
use crate::search::dfpn::Dfpn;
use crate::search::length::Length;
use crate::search::mate_len::MateLen;
use crate::search::memo::Memo;
use crate::search::monitor::{Halt, Stop};
use crate::search::useless::UselessRule;

/// An open upper end of a leftover window (more pieces than any hand holds).
pub const OPEN: i32 = 1 << 30;

/// A line and the pieces it leaves the attacker.
pub type Read = (Vec<Move>, i32);

/// What a reading did, for the tests: the defender nodes it read (with
/// their values) and the defences it asked about uselessness.
#[cfg(test)]
pub type Trace = (Vec<(Position, MateLen)>, Vec<(Position, Move)>);

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

/// One reading, thorough or quick, from the search's current position.
pub struct Reading<'a> {
    d: &'a mut Dfpn<UselessRule>,
    memo: &'a mut Memo,
    thorough: bool,
    prune: bool,
    /// A search under the node being read rested on the line.
    path_dependent: bool,
    #[cfg(test)]
    pub(crate) trace: Trace,
}

/// A reader of lines: a function of the reading, the value and the window.
type Reader<'a> = fn(&mut Reading<'a>, MateLen, i32, i32) -> Result<Read, Halt>;

impl<'a> Reading<'a> {
    /// A reading of `d`'s lines, keeping them in `memo`.
    pub fn new(d: &'a mut Dfpn<UselessRule>, memo: &'a mut Memo, thorough: bool) -> Reading<'a> {
        let prune = thorough && d.options().leftover_pruning;
        Reading {
            d,
            memo,
            thorough,
            prune,
            path_dependent: false,
            #[cfg(test)]
            trace: Default::default(),
        }
    }

    fn pos(&mut self) -> &mut Position {
        self.d.position_mut()
    }

    fn hand_count(&self) -> i32 {
        self.d.attacker_hand().total() as i32
    }

    fn moves_here(&mut self, or_node: bool) -> Vec<Move> {
        let mut list = MoveList::new();
        if or_node {
            self.pos().checks(&mut list);
        } else {
            self.pos().evasions(&mut list);
        }
        let mut v: Vec<Move> = list.iter().copied().collect();
        v.sort_unstable();
        v
    }

    fn mated_within(&mut self, b: MateLen) -> Result<bool, Stop> {
        let (proven, on_line) = self.d.mated(b)?;
        self.path_dependent |= on_line;
        Ok(proven)
    }

    /// `moves` with those after which the table already proves (or, not
    /// `proven`, disproves) the position within `b` first.  Only orders
    /// moves: the search that follows decides.
    fn known_first(&mut self, moves: Vec<Move>, b: MateLen, proven: bool) -> Vec<Move> {
        let mut known = Vec::with_capacity(moves.len());
        for &m in &moves {
            let mut k = false;
            if b >= MateLen::ZERO {
                self.pos().push(m);
                let v = self.d.probe(b);
                self.pos().pop();
                k = if proven {
                    v.is_proven()
                } else {
                    v.is_disproven()
                };
            }
            known.push(k);
        }
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_by_key(|&i| !known[i]);
        order.into_iter().map(|i| moves[i]).collect()
    }

    /// `read(b, lo, hi)` through the memo, with the current position on the
    /// line as an exact anchor.
    fn memoised(
        &mut self,
        b: MateLen,
        attacker: bool,
        lo: i32,
        hi: i32,
        read: Reader<'a>,
    ) -> Result<Read, Halt> {
        let key = (self.d.position().hash(), b, attacker, self.thorough);
        let gc_runs = self.d.table().stats().gc_runs;
        let floor = self.d.anchors().floor();
        if let Some(kept) = self.memo.get(key, gc_runs, floor, self.d.line()) {
            return Ok(kept);
        }
        let outer = self.path_dependent;
        self.path_dependent = false;
        let epoch = self.d.anchors().epoch();
        self.d.anchor(true);
        let r = read(self, b, lo, hi);
        self.d.release();
        let (moves, left) = r?;
        if !self.path_dependent && lo < left && left < hi {
            let mut seen = Vec::with_capacity(moves.len());
            for &m in &moves {
                self.pos().push(m);
                seen.push(self.d.position().hash());
            }
            for _ in &moves {
                self.pos().pop();
            }
            self.memo.put(key, &moves, left, seen, epoch);
        }
        self.path_dependent |= outer;
        Ok((moves, left))
    }

    /// The best line from an attacker node of value `b` and the attacker's
    /// pieces left; with a window (lo, hi), a leftover at most `lo` or at
    /// least `hi` is only a bound, and its line is not the best one.
    pub fn attacker_line(&mut self, b: MateLen, lo: i32, hi: i32) -> Result<Read, Halt> {
        self.memoised(b, true, lo, hi, Reading::read_attacker_line)
    }

    fn read_attacker_line(&mut self, b: MateLen, lo: i32, hi: i32) -> Result<Read, Halt> {
        self.memo.count_read();
        let (best, mating, skipped) = self.attacker_moves(b, lo, hi)?;
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
        b: MateLen,
        lo: i32,
        hi: i32,
    ) -> Result<(Option<Read>, bool, bool), Halt> {
        let mut checks = self.moves_here(true);
        if !self.thorough {
            // Any mating check will do: those the table already proves first,
            // so the line follows the proof just found.
            checks = self.known_first(checks, b - 1, true);
        }
        let later_moves = (b.get() - 1) / 2;
        let mut best: Option<Read> = None;
        let mut floor = lo;
        let (mut mating, mut skipped) = (false, false);
        for m in checks {
            self.pos().push(m);
            let r = self.attacker_move(b, floor, hi, later_moves);
            self.pos().pop();
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
                    if !self.thorough {
                        break;
                    }
                    if self.prune && left > floor {
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

    /// After a check (made): None if it does not mate within `b - 1`,
    /// Some(None) if it cannot keep more than `floor`, else its defender line.
    fn attacker_move(
        &mut self,
        b: MateLen,
        floor: i32,
        hi: i32,
        later_moves: i32,
    ) -> Result<Option<Option<Read>>, Halt> {
        if self.prune && self.hand_count() + later_moves <= floor {
            return Ok(Some(None)); // cannot keep more than the best so far
        }
        if !self.mated_within(b - 1)? {
            return Ok(None);
        }
        let line = self.defender_line(b - 1, floor, hi)?;
        Ok(Some(Some(line)))
    }

    /// Is the defence `m` here (defender to move, mated within `b`) a useless
    /// interposition?  `ranged`: the ride checkers.
    pub fn useless_here(&mut self, m: Move, b: MateLen, ranged: Mask) -> Result<bool, Stop> {
        if !self.d.options().useless_interpositions {
            return Ok(false);
        }
        #[cfg(test)]
        {
            let here = self.d.position().copy();
            self.trace.1.push((here, m));
        }
        let checker = self.d.position().interposition_square(m, ranged);
        if checker == 0 {
            return Ok(false);
        }
        let v = UselessRule::verdict(self.d, m, checker, b)?;
        self.path_dependent |= v.on_line;
        Ok(v.useless)
    }

    /// The best line from a defender node of value `b` (mated within `b` and
    /// not sooner), and the pieces left; the window as for [`Reading::attacker_line`].
    pub fn defender_line(&mut self, b: MateLen, lo: i32, hi: i32) -> Result<Read, Halt> {
        self.memoised(b, false, lo, hi, Reading::read_defender_line)
    }

    fn read_defender_line(&mut self, b: MateLen, lo: i32, hi: i32) -> Result<Read, Halt> {
        #[cfg(test)]
        {
            let here = self.d.position().copy();
            self.trace.0.push((here, b));
        }
        // Each of the b / 2 attacker moves left drops at most one piece.
        let least = (self.hand_count() - b.get() / 2).max(0);
        if self.prune && least >= hi {
            return Ok((vec![], hi)); // every line leaves at least hi: the caller keeps its own
        }
        let (best, longest, counted) = self.defences(b, lo, hi, least)?;
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
        b: MateLen,
        lo: i32,
        hi: i32,
        least: i32,
    ) -> Result<(Option<Read>, bool, bool), Halt> {
        // b is this node's exact value, so a counted defence is a longest one
        // exactly when it is not mated within b - 3: one bounded search each.
        let ranged = self.d.position().ride_checkers();
        let mut defences = self.moves_here(false);
        if !self.thorough {
            // Any longest defence will do: those the table already disproves within b - 3 first.
            defences = self.known_first(defences, b - 3, false);
        }
        let mut best: Option<Read> = None;
        let mut ceiling = hi;
        let mut longest = false;
        let mut sooner = vec![];
        for m in defences {
            // A defence mated sooner is not a longest one, useless or not, so
            // that test (dear when it fails) is made only for the others.
            self.pos().push(m);
            let r = if b >= MateLen::plies(4) {
                self.mated_within(b - 3)
            } else {
                Ok(false)
            };
            self.pos().pop();
            if r? {
                sooner.push(m);
                continue;
            }
            if self.useless_here(m, b, ranged)? {
                continue;
            }
            longest = true;
            self.pos().push(m);
            let r = self.attacker_line(b - 1, lo, ceiling);
            self.pos().pop();
            let (moves, left) = r?;
            if best.as_ref().is_none_or(|x| left < x.1) {
                let mut line = vec![m];
                line.extend(moves);
                best = Some((line, left));
            }
            if !self.thorough {
                break;
            }
            if self.prune && left < ceiling {
                ceiling = left;
                if ceiling <= lo || ceiling <= least {
                    break; // the caller keeps more elsewhere, or none can leave less
                }
            }
        }
        let mut counted = longest;
        if !counted {
            for m in sooner {
                if !self.useless_here(m, b, ranged)? {
                    counted = true;
                    break;
                }
            }
        }
        Ok((best, longest, counted))
    }

    /// Every defence at a defender node mated within `b`, with its value and line.
    pub fn defender_choices(&mut self, b: MateLen) -> Result<Vec<Choice>, Halt> {
        self.d.anchor(true);
        let r = self.read_choices(b);
        self.d.release();
        r
    }

    fn read_choices(&mut self, b: MateLen) -> Result<Vec<Choice>, Halt> {
        let ranged = self.d.position().ride_checkers();
        let mut valued = vec![];
        for m in self.moves_here(false) {
            if self.useless_here(m, b, ranged)? {
                valued.push((m, None));
                continue;
            }
            self.pos().push(m);
            let r = Length::exact(self.d, b - 1);
            self.pos().pop();
            let l = r?;
            self.path_dependent |= l.on_line;
            match l.upper {
                None => {
                    return Err(Halt::Internal(
                        "internal error: a counted defence escapes the proven bound".into(),
                    ))
                }
                Some(v) => valued.push((m, Some(v))),
            }
        }
        let mut out = vec![];
        for (m, v) in valued {
            match v {
                None => out.push(Choice {
                    m,
                    useless: true,
                    value: None,
                    line: vec![],
                    left: 0,
                }),
                Some(v) => {
                    self.pos().push(m);
                    let r = self.attacker_line(v, -1, OPEN);
                    self.pos().pop();
                    let (line, left) = r?;
                    out.push(Choice {
                        m,
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
    pub fn proof_line(&mut self, b: MateLen) -> Result<Vec<Move>, Stop> {
        let mut moves = vec![];
        let mut seen = vec![self.d.position().hash()];
        let r = self.read_proof_line(b, &mut moves, &mut seen);
        for _ in &moves {
            self.pos().pop();
        }
        r
    }

    fn read_proof_line(
        &mut self,
        mut b: MateLen,
        moves: &mut Vec<Move>,
        seen: &mut Vec<u64>,
    ) -> Result<Vec<Move>, Stop> {
        loop {
            let attacker = self.d.or_node();
            if attacker && b < MateLen::plies(1) {
                return Ok(vec![]);
            }
            let mut best: Option<(Move, MateLen)> = None;
            let mut unproven = vec![];
            for m in self.moves_here(attacker) {
                self.pos().push(m);
                // None: repeats, or not known to be mated within b - 1.
                let h = self.d.position().hash();
                let n = (!seen.contains(&h) && self.d.probe(b - 1).is_proven())
                    .then(|| self.d.proof_len_within(b - 1));
                self.pos().pop();
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
                let ranged = self.d.position().ride_checkers();
                for d in unproven {
                    if !self.useless_here(d, b, ranged)? {
                        return Ok(vec![]);
                    }
                }
                return Ok(moves.clone()); // mated: no counted defence left
            };
            self.pos().push(m);
            moves.push(m);
            seen.push(self.d.position().hash());
            b = b - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::monitor::Monitor;
    use crate::search::options::Options;
    use crate::search::table::Table;
    use crate::search::testing::{tsume, tsume_as_given};

    fn dfpn(pos: &Position) -> Dfpn<UselessRule> {
        let table = Table::new(1 << 24, true);
        let monitor = Monitor::new(None, None);
        Dfpn::new(pos, table, monitor, Options::default(), UselessRule::new())
    }

    fn names(pos: &Position, moves: &[Move]) -> String {
        let mut p = pos.copy();
        let mut out = vec![];
        for &m in moves {
            out.push(p.move_string(m));
            p.push(m);
        }
        out.join(" ")
    }

    #[test]
    fn uselessness_is_asked_only_of_defences_that_could_be_longest() {
        // At a defender node of value b, a defence mated within b - 3 is not a
        // longest defence, useless interposition or not, so the reader does not
        // ask (the test is dear when it fails).  The main line of
        // ruth-L07-0011 has such an interposition.
        let root = tsume_as_given("rutherford", "2P1ks1L6 b LPS 1");
        let mut d = dfpn(&root);
        let v = Length::exact(&mut d, MateLen::INFINITE)
            .unwrap()
            .upper
            .unwrap();
        let mut memo = Memo::new(1 << 20);
        let mut reading = Reading::new(&mut d, &mut memo, true);
        let (moves, _) = reading.attacker_line(v, -1, OPEN).unwrap();
        assert_eq!(moves.len(), 7);
        let (read, asked) = std::mem::take(&mut reading.trace);
        let mut skipped = 0;
        for (node, b) in &read {
            let mut node = node.copy();
            let ranged = node.ride_checkers();
            let mut list = MoveList::new();
            node.evasions(&mut list);
            for &m in list.iter() {
                let mut after = node.copy();
                after.push(m);
                let sooner = *b >= MateLen::plies(4) && dfpn(&after).mated(*b - 3).unwrap().0;
                let was_asked = asked.iter().any(|(p, x)| p.same_as(&node) && *x == m);
                assert!(
                    !(sooner && was_asked),
                    "{} {}",
                    node.fen(),
                    node.move_string(m)
                );
                if sooner && node.interposition_square(m, ranged) != 0 {
                    skipped += 1;
                }
            }
        }
        assert!(skipped >= 1);
    }

    #[test]
    fn a_quick_reading_finds_a_line_of_the_same_length() {
        let nine = tsume("ito", "1k2PT+Fh5+f17 b PC 1");
        for thorough in [true, false] {
            let mut d = dfpn(&nine);
            let mut memo = Memo::new(1 << 20);
            let (moves, _) = Reading::new(&mut d, &mut memo, thorough)
                .attacker_line(MateLen::plies(9), -1, OPEN)
                .unwrap();
            assert_eq!(moves.len(), 9, "{}", names(&nine, &moves));
            if thorough {
                assert_eq!(names(&nine, &moves), "6-4 2-3 4-2 3-2 P*3 2-1 C*4 1-3 4-6");
            }
        }
    }

    #[test]
    fn lines_read_once_are_kept() {
        let nine = tsume("ito", "1k2PT+Fh5+f17 b PC 1");
        let mut d = dfpn(&nine);
        let mut memo = Memo::new(1 << 20);
        let first = Reading::new(&mut d, &mut memo, true)
            .attacker_line(MateLen::plies(9), -1, OPEN)
            .unwrap();
        let (read, nodes) = (memo.lines_read(), d.monitor().nodes());
        assert!(read > 0);
        let again = Reading::new(&mut d, &mut memo, true)
            .attacker_line(MateLen::plies(9), -1, OPEN)
            .unwrap();
        assert_eq!(again, first);
        assert_eq!((memo.lines_read(), d.monitor().nodes()), (read, nodes));
    }

    #[test]
    fn every_defence_with_its_value_and_line() {
        // After 6-4 the defender has a mate in 8 against it.
        let nine = tsume("ito", "1k2PT+Fh5+f17 b PC 1");
        let mut d = dfpn(&nine);
        let mut list = MoveList::new();
        d.position_mut().checks(&mut list);
        let first = *list
            .iter()
            .find(|&&m| nine.move_string(m) == "6-4")
            .unwrap();
        d.position_mut().push(first);
        let after = d.position().copy();
        let mut memo = Memo::new(1 << 20);
        let choices = Reading::new(&mut d, &mut memo, true)
            .defender_choices(MateLen::plies(8))
            .unwrap();
        assert!(!choices.is_empty());
        let longest = choices.iter().filter_map(|c| c.value).max().unwrap();
        assert_eq!(longest, MateLen::plies(8));
        for c in choices.iter().filter(|c| !c.useless) {
            let v = c.value.unwrap();
            assert_eq!(
                c.line.len() as i32 + 1,
                v.get(),
                "{}",
                after.move_string(c.m)
            );
        }
        let best = choices
            .iter()
            .find(|c| names(&after, &[c.m]) == "2-3")
            .unwrap();
        assert_eq!(best.value, Some(MateLen::plies(8)));
    }

    #[test]
    fn a_proof_line_is_read_off_the_table() {
        let five = tsume("ito", "H1kf1P1c2K20 b PHG 1");
        let mut d = dfpn(&five);
        assert!(d.mated(MateLen::INFINITE).unwrap().0);
        let mut memo = Memo::new(1 << 20);
        let nodes = d.monitor().nodes();
        let line = Reading::new(&mut d, &mut memo, true)
            .proof_line(MateLen::INFINITE)
            .unwrap();
        // A mate, read by probes alone.
        assert_eq!(d.monitor().nodes(), nodes);
        assert!(!line.is_empty() && line.len() % 2 == 1);
        let mut end = five.copy();
        for &m in &line {
            end.push(m);
        }
        let mut evasions = MoveList::new();
        end.evasions(&mut evasions);
        assert!(end.is_check() && evasions.is_empty());
        // The position is back where it was.
        assert!(d.position().same_as(&five));
    }
}
