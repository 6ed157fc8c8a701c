//! Mate lengths: the least bound within which the current position is mated.
//!
//! Mate within a bound holds within every larger one, so the bounds are
//! tried from the smallest up.  Up to `Options::short_first` plies that
//! comes before any search to the bound asked: a few small searches cost far
//! less than an unbounded one, which wanders into long lines, and most mates
//! asked for are short.  Past it, one search to the bound says whether there
//! is a mate at all and gives a length (its proof's) to climb up to; or,
//! with `descend`, to climb down from: a proof within two plies less gives a
//! new length, a disproof ends it.  Descending pays when the first proof is
//! likely the shortest (a main line after a full solve), climbing up for
//! alternatives, whose first proofs are often long (each disproof on the way
//! up primes the table for the next bound).
//!
//! Lengths count plies: odd with the attacker to move, even with the
//! defender.  Every answer says whether it rests on the line.

use crate::search::engine::Search;
use crate::search::mate_len::MateLen;
use crate::search::monitor::Stop;

/// A length question's answer: mated within `upper` (None: not within the
/// bound asked), not within any bound below `low`, resting on the line or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Length {
    /// Mated within this (None: not within the bound asked).
    pub upper: Option<MateLen>,
    /// Not mated within any bound below this (`low == upper`: the exact length).
    pub low: MateLen,
    /// Does the answer rest on the line?
    pub on_line: bool,
}

impl Search {
    /// The least bound up to `b` within which the current position is mated
    /// (None if none), and whether the answer rests on the line.  Not
    /// `exact`: the first proof's length as it is, an upper bound (whether
    /// there is a mate at all, for the same searches and no climb).
    pub fn shortest(
        &mut self,
        b: MateLen,
        descend: bool,
        exact: bool,
    ) -> Result<(Option<MateLen>, bool), Stop> {
        let l = self.length(b, descend, exact, None)?;
        Ok((l.upper, l.on_line))
    }

    /// [`Search::shortest`] with at most `budget` nodes (None: no budget) for
    /// the climb from a first proof to the exact length.  The searches up to
    /// the first proof are not budgeted (whether there is a mate is never
    /// left open), nor is the climb when the first proof gives no length.
    pub fn shortest_within(&mut self, b: MateLen, budget: Option<u64>) -> Result<Length, Stop> {
        self.length(b, false, true, budget)
    }

    fn length(
        &mut self,
        b: MateLen,
        descend: bool,
        exact: bool,
        budget: Option<u64>,
    ) -> Result<Length, Stop> {
        let low = MateLen::plies(if self.or_node() { 1 } else { 0 });
        let (v, next, mut on_line) =
            self.first_mated(low, b.min(MateLen::plies(self.options.short_first)), None)?;
        if let Some(v) = v {
            return Ok(Length {
                upper: Some(v),
                low: v,
                on_line,
            });
        }
        if next > b {
            return Ok(Length {
                upper: None,
                low: next,
                on_line,
            });
        }
        let (proven, dep) = self.nested(b)?;
        on_line |= dep;
        if !proven {
            return Ok(Length {
                upper: None,
                low: next,
                on_line,
            });
        }
        // A proof of some length is in hand (or, through other hands, of none known).
        let upper = self.proof_len_within(b);
        if !exact {
            return Ok(Length {
                upper: Some(upper),
                low: next,
                on_line,
            });
        }
        let start = self.monitor.nodes();
        let r = self.climb(next, upper, descend, budget, on_line);
        self.climb_nodes += self.monitor.nodes() - start;
        r
    }

    /// After a first proof within `upper`: the climb to the exact length from
    /// `next`, the least bound not disproved.
    fn climb(
        &mut self,
        next: MateLen,
        upper: MateLen,
        descend: bool,
        budget: Option<u64>,
        mut on_line: bool,
    ) -> Result<Length, Stop> {
        if budget.is_some() || !descend || !upper.is_bounded() {
            // With no length known (a proof through other hands) the climb is
            // not budgeted: a spent budget would leave no bound to report.
            let budget = if !upper.is_bounded() { None } else { budget };
            let (v, reached, dep) = self.first_mated(next, upper - 1, budget)?;
            on_line |= dep;
            return Ok(match v {
                // (reached < upper: the budget ran out)
                None => Length {
                    upper: Some(upper),
                    low: reached.min(upper),
                    on_line,
                },
                Some(v) => Length {
                    upper: Some(v),
                    low: v,
                    on_line,
                },
            });
        }
        let mut upper = upper;
        while upper - 2 >= next {
            let (proven, dep) = self.nested(upper - 2)?;
            on_line |= dep;
            if !proven {
                break;
            }
            upper = self.proof_len_within(upper - 2);
        }
        Ok(Length {
            upper: Some(upper),
            low: upper,
            on_line,
        })
    }

    /// The first of the bounds `low`, `low + 2`, ... up to `high` within
    /// which the current position is mated (None if none), the first bound
    /// not disproved, and whether an answer rests on the line.  With a
    /// `budget`, the searches stop when they have spent that many nodes (the
    /// limits still stop them).
    pub(crate) fn first_mated(
        &mut self,
        low: MateLen,
        high: MateLen,
        budget: Option<u64>,
    ) -> Result<(Option<MateLen>, MateLen, bool), Stop> {
        let saved = self.monitor.budget_end();
        if budget.is_some() {
            self.monitor.set_budget(budget);
        }
        let mut low = low;
        let mut on_line = false;
        let r = loop {
            if low > high {
                break Ok((None, low, on_line));
            }
            match self.nested(low) {
                Ok((proven, dep)) => {
                    on_line |= dep;
                    if proven {
                        break Ok((Some(low), low, on_line));
                    }
                    low = low + 2;
                }
                // This loop's own budget: the bounds reached so far are its answer.
                Err(Stop::Budget) if budget.is_some() => break Ok((None, low, on_line)),
                Err(e) => break Err(e),
            }
        };
        if budget.is_some() {
            self.monitor.restore_budget(saved);
        }
        r
    }
}
