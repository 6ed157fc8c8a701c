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

use crate::search::dfpn::{Dfpn, Judge};
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

/// How a length is read once a first proof is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Climb {
    /// Not at all: the first proof's length, an upper bound (whether there
    /// is a mate at all, for the same searches).
    None,
    /// Up from the least bound not disproved, with at most this many nodes
    /// (None: no budget) for the climb.
    Up(Option<u64>),
    /// Down from the first proof's length.
    Down,
}

impl Length {
    /// The exact length of the current position's mate up to `b` (climbing up).
    pub fn exact<J: Judge>(d: &mut Dfpn<J>, b: MateLen) -> Result<Length, Stop> {
        Length::search(d, b, Climb::Up(None))
    }

    /// The least bound up to `b` within which the current position is mated,
    /// read as `climb` says.  The searches up to the first proof are not
    /// budgeted (whether there is a mate is never left open), nor is the
    /// climb when the first proof gives no length.
    pub fn search<J: Judge>(d: &mut Dfpn<J>, b: MateLen, climb: Climb) -> Result<Length, Stop> {
        let low = MateLen::plies(if d.or_node() { 1 } else { 0 });
        let short = b.min(MateLen::plies(d.options().short_first));
        let (v, next, mut on_line) = first_mated(d, low, short, None)?;
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
        let (proven, dep) = d.mated(b)?;
        on_line |= dep;
        if !proven {
            return Ok(Length {
                upper: None,
                low: next,
                on_line,
            });
        }
        // A proof of some length is in hand (or, through other hands, of none known).
        let upper = d.proof_len_within(b);
        if climb == Climb::None {
            return Ok(Length {
                upper: Some(upper),
                low: next,
                on_line,
            });
        }
        let start = d.monitor().nodes();
        let r = match climb {
            Climb::Down if upper.is_bounded() => descend(d, next, upper, on_line),
            // With no length known (a proof through other hands) the climb is
            // not budgeted: a spent budget would leave no bound to report.
            Climb::Up(budget) if upper.is_bounded() => ascend(d, next, upper, budget, on_line),
            _ => ascend(d, next, upper, None, on_line),
        };
        let climbed = d.monitor().nodes() - start;
        d.monitor_mut().add_climb(climbed);
        r
    }
}

/// After a first proof within `upper`: the first bound from `next`, the
/// least not disproved, within which the position is mated.
fn ascend<J: Judge>(
    d: &mut Dfpn<J>,
    next: MateLen,
    upper: MateLen,
    budget: Option<u64>,
    on_line: bool,
) -> Result<Length, Stop> {
    let (v, reached, dep) = first_mated(d, next, upper - 1, budget)?;
    Ok(match v {
        // (reached < upper: the budget ran out)
        None => Length {
            upper: Some(upper),
            low: reached.min(upper),
            on_line: on_line || dep,
        },
        Some(v) => Length {
            upper: Some(v),
            low: v,
            on_line: on_line || dep,
        },
    })
}

/// After a first proof within `upper`: proofs two plies shorter, down to
/// `next`, the least bound not disproved.
fn descend<J: Judge>(
    d: &mut Dfpn<J>,
    next: MateLen,
    upper: MateLen,
    mut on_line: bool,
) -> Result<Length, Stop> {
    let mut upper = upper;
    while upper - 2 >= next {
        let (proven, dep) = d.mated(upper - 2)?;
        on_line |= dep;
        if !proven {
            break;
        }
        upper = d.proof_len_within(upper - 2);
    }
    Ok(Length {
        upper: Some(upper),
        low: upper,
        on_line,
    })
}

/// The first of the bounds `low`, `low + 2`, ... up to `high` within which
/// the current position is mated (None if none), the first bound not
/// disproved, and whether an answer rests on the line.  With a `budget`,
/// the searches stop when they have spent that many nodes (the limits
/// still stop them).
fn first_mated<J: Judge>(
    d: &mut Dfpn<J>,
    low: MateLen,
    high: MateLen,
    budget: Option<u64>,
) -> Result<(Option<MateLen>, MateLen, bool), Stop> {
    let saved = d.monitor().budget_end();
    if budget.is_some() {
        d.monitor_mut().set_budget(budget);
    }
    let mut low = low;
    let mut on_line = false;
    let r = loop {
        if low > high {
            break Ok((None, low, on_line));
        }
        match d.mated(low) {
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
        d.monitor_mut().restore_budget(saved);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Position;
    use crate::search::expansion::Child;
    use crate::search::monitor::Monitor;
    use crate::search::options::Options;
    use crate::search::table::Table;
    use crate::search::testing::tsume;

    /// Every interposition counts.
    struct Counts;

    impl Judge for Counts {
        fn judge(_: &mut Dfpn<Self>, _: &mut Child, _: MateLen) -> Result<(), Stop> {
            Ok(())
        }
    }

    fn dfpn(pos: &Position, short_first: i32) -> Dfpn<Counts> {
        let options = Options {
            short_first,
            ..Options::default()
        };
        let table = Table::new(1 << 22, true);
        Dfpn::new(pos, table, Monitor::new(None, None), options, Counts)
    }

    fn len(n: i32) -> MateLen {
        MateLen::plies(n)
    }

    const NINE: &str = "7H1+F2k18 b TCG 1";

    #[test]
    fn every_climb_reads_the_same_length() {
        let nine = tsume("ito", NINE);
        for short_first in [0, 1, 9] {
            for climb in [Climb::Up(None), Climb::Down] {
                let mut d = dfpn(&nine, short_first);
                let l = Length::search(&mut d, MateLen::INFINITE, climb).unwrap();
                assert_eq!((l.upper, l.low), (Some(len(9)), len(9)), "{climb:?}");
                assert!(!l.on_line);
                // Past the short searches, the climb is counted apart.
                assert_eq!(d.monitor().climb_nodes() > 0, short_first < 9, "{climb:?}");
            }
            // No climb: the first proof's length, at least the exact one.
            let mut d = dfpn(&nine, short_first);
            let l = Length::search(&mut d, MateLen::INFINITE, Climb::None).unwrap();
            assert!(l.upper.unwrap() >= len(9) && l.low <= len(9));
            assert_eq!(d.monitor().climb_nodes(), 0);
        }
    }

    #[test]
    fn a_bound_below_the_mate_finds_none() {
        let mut d = dfpn(&tsume("ito", NINE), 9);
        let l = Length::search(&mut d, len(7), Climb::Up(None)).unwrap();
        // Not within 1, 3, 5 or 7: the least bound not disproved is 9.
        assert_eq!((l.upper, l.low), (None, len(9)));
        let mut d = dfpn(&tsume("ito", NINE), 1);
        let l = Length::exact(&mut d, len(7)).unwrap();
        assert_eq!(l.upper, None);
    }

    #[test]
    fn a_spent_budget_leaves_the_length_between_bounds() {
        let mut d = dfpn(&tsume("ito", NINE), 1);
        let l = Length::search(&mut d, MateLen::INFINITE, Climb::Up(Some(0))).unwrap();
        let upper = l.upper.unwrap();
        assert!(l.low <= len(9) && len(9) <= upper);
        // The budget was the climb's: the next question has none.
        assert!(Length::exact(&mut d, MateLen::INFINITE).unwrap().upper == Some(len(9)));
    }

    #[test]
    fn no_mate_has_no_length() {
        let mut d = dfpn(&tsume("ito", "k30 b G"), 9);
        let l = Length::exact(&mut d, MateLen::INFINITE).unwrap();
        assert_eq!(l.upper, None);
    }
}
