//! Useless interpositions (docs/solver.md, convention 6).
//!
//! An *interposition* is a defender drop or non-king board move onto a
//! square strictly between its king and a piece checking it along a ride
//! ([`crate::rules::interposition`]).  Let R be the value of the defender's best
//! defence that is not an interposition (0 if none).  The interposition is
//! *useless* when the checker can capture the interposed piece at once with
//! a legal check and the position after that capture, with the captured
//! piece handed back to the defender, is mated within R plies, and the real
//! position after the interposition is mated within R + 1.  A useless
//! interposition is refuted but not counted: its result is
//! [`SearchResult::Useless`].
//!
//! The verdict is itself a search, and may rest on repetitions of the line
//! (in R or the test positions): it then holds only on this line and is not
//! cached.  A verdict reached without testing, because a defence that is not
//! an interposition escapes within the bound searched, holds only up to that
//! bound: a defender node disproved through such an interposition is stored
//! as disproved up to the bound searched.

use crate::rules::hand::Hand;
use crate::rules::moves::{Move, MoveList};
use crate::rules::square::Square;
use crate::search::dfpn::{Dfpn, Judge};
use crate::search::expansion::Child;
use crate::search::length::Length;
use crate::search::mate_len::MateLen;
use crate::search::monitor::Stop;
use crate::search::result::{Disproof, Rep, SearchResult};
use crate::search::verdicts::Verdicts;

/// The convention, with the verdicts it reached.
#[derive(Default)]
pub struct UselessRule {
    /// By position and interposition: useless (1) or not (0).
    useless: Verdicts,
    /// By position: R.
    best_other: Verdicts,
}

/// A verdict with what it rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Is the interposition useless?
    pub useless: bool,
    /// Does the verdict rest on the line?
    pub on_line: bool,
    /// Is a "not useless" this bound's only (a defence escapes within it)?
    pub bounded: bool,
}

impl UselessRule {
    /// The bytes the caches take.
    pub const BYTES: usize = 2 * Verdicts::BYTES;

    /// No verdict reached yet.
    pub fn new() -> UselessRule {
        UselessRule::default()
    }

    fn useless_key(h: u64, d: Move) -> u64 {
        (h ^ (d.raw() as u64).wrapping_mul(0xff51_afd7_ed55_8ccd)) | 1
    }

    /// Is the interposition `m` against the checker on `checker` (defender to
    /// move in `d`'s position, mated within `b` if anything) useless?
    pub fn verdict(
        d: &mut Dfpn<Self>,
        m: Move,
        checker: Square,
        b: MateLen,
    ) -> Result<Verdict, Stop> {
        let h = d.position().hash();
        let key = UselessRule::useless_key(h, m);
        if let Some(v) = d.judge().useless.get(key, d.anchors().floor()) {
            return Ok(Verdict {
                useless: v != 0,
                on_line: false,
                bounded: false,
            });
        }
        let epoch = d.anchors().epoch();
        let strict = d.anchors().is_exact(h);
        let hb = d.position().board_key();
        let (r, mut dependent) = UselessRule::best_other(d, b)?;
        let Some(r) = r else {
            // A defence that is not an interposition escapes within b.
            return Ok(Verdict {
                useless: false,
                on_line: dependent,
                bounded: true,
            });
        };
        let to = m.to();
        d.position_mut().push(m);
        let r = test_recaptures(d, checker, to, r, strict, hb, &mut dependent);
        d.position_mut().pop();
        let useless = r?;
        if !dependent {
            d.judge_mut().useless.put(key, useless as i32, epoch);
        }
        Ok(Verdict {
            useless,
            on_line: dependent,
            bounded: false,
        })
    }

    /// R for the defender to move in `d`'s position: the longest value of
    /// its defences that are not interpositions (0 if none); None if one is
    /// not mated within `b - 1`.  And whether the answer rests on the line.
    pub fn best_other(d: &mut Dfpn<Self>, b: MateLen) -> Result<(Option<MateLen>, bool), Stop> {
        let h = d.position().hash();
        if let Some(v) = d.judge().best_other.get(h | 1, d.anchors().floor()) {
            return Ok((Some(MateLen::plies(v)), false));
        }
        let added = !d.line().contains(h);
        if added {
            d.anchor(false);
        }
        let epoch = d.anchors().epoch();
        let r = best_other_defence(d, b);
        if added {
            d.release();
        }
        let (best, dependent) = r?;
        if let Some(best) = best {
            if !dependent {
                d.judge_mut().best_other.put(h | 1, best.get(), epoch);
            }
        }
        Ok((best, dependent))
    }
}

impl Judge for UselessRule {
    fn judge(d: &mut Dfpn<Self>, kid: &mut Child, b: MateLen) -> Result<(), Stop> {
        let SearchResult::Disproven(mut disproof) = kid.v else {
            return Ok(());
        };
        let v = UselessRule::verdict(d, kid.m, kid.checker, b)?;
        // A verdict that rested on repetitions of the line holds only on
        // this line, and so does what follows from it.
        let here = Rep::Line(d.line().len() as u32);
        if v.useless {
            kid.v = SearchResult::Useless(if v.on_line { here } else { Rep::None });
        } else if v.on_line {
            kid.v = SearchResult::Disproven(Disproof {
                bound: disproof.bound,
                hand: Hand::EMPTY,
                exact: true,
                rep: here,
            });
        } else if v.bounded && disproof.bound > b - 1 {
            // "Not useless" only because another defence escapes within this
            // bound: at a larger one the interposition may be useless.
            disproof.bound = b - 1;
            kid.v = SearchResult::Disproven(disproof);
        }
        Ok(())
    }
}

/// After the interposition (attacker to move): does a capture by the
/// checker, the piece handed back, leave a mate within `r`, and the real
/// position a mate within `r + 1`?
fn test_recaptures(
    d: &mut Dfpn<UselessRule>,
    checker: Square,
    to: Square,
    r: MateLen,
    strict: bool,
    hb: u64,
    dependent: &mut bool,
) -> Result<bool, Stop> {
    let mut list = MoveList::new();
    d.position_mut().checks_by(checker, &mut list);
    let captures: Vec<Move> = list.iter().copied().filter(|x| x.to() == to).collect();
    for x in captures {
        let pos = d.position_mut();
        let kind = pos.tables().hand_kind[pos.piece(to) as usize] as usize;
        pos.push(x);
        pos.hand_back(kind);
        let res = d.mated(r);
        let pos = d.position_mut();
        pos.take_back(kind);
        pos.pop();
        let (proven, dep) = res?;
        *dependent |= dep;
        if proven {
            // The one question above an exact anchor's value: asked here,
            // a proof passing through it could be found, so proofs found
            // off the line are not used.
            if strict {
                d.anchors_mut().push_board(hb);
            }
            let res = d.mated(r + 1);
            if strict {
                d.anchors_mut().pop();
            }
            let (proven, dep) = res?;
            *dependent |= dep;
            return Ok(proven);
        }
    }
    Ok(false)
}

fn best_other_defence(
    d: &mut Dfpn<UselessRule>,
    b: MateLen,
) -> Result<(Option<MateLen>, bool), Stop> {
    let pos = d.position_mut();
    let ranged = pos.ride_checkers();
    let mut list = MoveList::new();
    pos.evasions(&mut list);
    let defences: Vec<Move> = list
        .iter()
        .copied()
        .filter(|&m| pos.interposition_square(m, ranged) == 0)
        .collect();
    let mut best = MateLen::ZERO;
    let mut dependent = false;
    for m in defences {
        d.position_mut().push(m);
        let r = Length::exact(d, b - 1);
        d.position_mut().pop();
        let l = r?;
        dependent |= l.on_line;
        match l.upper {
            None => return Ok((None, dependent)),
            Some(v) => best = best.max(v + 1),
        }
    }
    Ok((Some(best), dependent))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::monitor::Monitor;
    use crate::search::options::Options;
    use crate::search::table::Table;
    use crate::search::testing::tsume;

    /// A search of `fen` (attacker to move) walked along `line`.
    fn after(fen: &str, line: &str, options: Options) -> Dfpn<UselessRule> {
        let table = Table::new(1 << 24, true);
        let monitor = Monitor::new(None, None);
        let mut d = Dfpn::new(
            &tsume("ito", fen),
            table,
            monitor,
            options,
            UselessRule::new(),
        );
        for text in line.split(' ') {
            let mut list = MoveList::new();
            let p = d.position_mut();
            p.legal_moves(Some(false), &mut list);
            let m = *list.iter().find(|&&m| p.move_string(m) == text).unwrap();
            p.push(m);
        }
        d
    }

    /// The defender's interpositions here, with the checker each blocks.
    fn interpositions(d: &mut Dfpn<UselessRule>) -> Vec<(Move, Square)> {
        let mut list = MoveList::new();
        d.position_mut().evasions(&mut list);
        let ranged = d.position().ride_checkers();
        let pos = d.position();
        list.iter()
            .map(|&m| (m, pos.interposition_square(m, ranged)))
            .filter(|&(_, c)| c != 0)
            .collect()
    }

    #[test]
    fn interpositions_the_checker_takes_back_into_the_same_mate_are_useless() {
        // The end of ito-09's main line: every defence is a drop on 4 against
        // the swallow on 6, which takes it and mates as before.
        let ito_09 = (
            "1k2PT+Fh5+f17 b CP 1",
            "6-4 2-3 4-2 3-2 P*3 2-1 C*4 1-3 4-6",
        );
        let mut d = after(ito_09.0, ito_09.1, Options::default());
        let end = d.position().copy();
        assert_eq!(
            UselessRule::best_other(&mut d, MateLen::plies(2)).unwrap(),
            (Some(MateLen::ZERO), false)
        );
        let drops = interpositions(&mut d);
        assert_eq!(drops.len(), 5);
        for &(m, checker) in &drops {
            assert_eq!(checker, 6);
            let v = UselessRule::verdict(&mut d, m, checker, MateLen::plies(2)).unwrap();
            assert!(v.useless && !v.on_line, "{} {v:?}", end.move_string(m));
        }
        // Verdicts are kept: asked again, they take no node.
        let nodes = d.monitor().nodes();
        let (m, checker) = drops[0];
        assert!(
            UselessRule::verdict(&mut d, m, checker, MateLen::plies(2))
                .unwrap()
                .useless
        );
        assert_eq!(d.monitor().nodes(), nodes);
        // So the position is mated where it stands, not counting them.
        assert!(d.mated(MateLen::ZERO).unwrap().0);
        let counted = Options {
            useless_interpositions: false,
            ..Options::default()
        };
        let mut plain = after(ito_09.0, ito_09.1, counted);
        assert!(!plain.mated(MateLen::ZERO).unwrap().0);
        assert!(plain.mated(MateLen::plies(2)).unwrap().0);
    }

    #[test]
    fn interpositions_that_prolong_the_mate_count() {
        // F4-5 checks along 3 and 1; every defence is a drop on 3, and H*4
        // then mates: no capture of the dropped piece mates as soon.
        let mut d = after("kg1F2P1fc21 b H 1", "4-5", Options::default());
        let pos = d.position().copy();
        let drops = interpositions(&mut d);
        assert!(!drops.is_empty());
        for (m, checker) in drops {
            let v = UselessRule::verdict(&mut d, m, checker, MateLen::plies(2)).unwrap();
            assert!(!v.useless, "{}", pos.move_string(m));
        }
        assert!(!d.mated(MateLen::ZERO).unwrap().0);
        assert!(d.mated(MateLen::plies(2)).unwrap().0);
    }

    #[test]
    fn verdicts_are_kept_by_position_and_interposition() {
        let k = UselessRule::useless_key(12345, Move::drop(3, 7));
        assert_ne!(k, UselessRule::useless_key(12345, Move::drop(3, 8)));
        assert_ne!(k, UselessRule::useless_key(12346, Move::drop(3, 7)));
        assert_ne!(k, 0);
    }
}
