//! Useless interpositions (docs/solver.md, convention 6).
//!
//! An *interposition* is a defender drop or non-king board move onto a
//! square strictly between its king and a piece checking it along a ride.
//! Let R be the value of the defender's best defence that is not an
//! interposition (0 if none).  The interposition is *useless* when the
//! checker can capture the interposed piece at once with a legal check and
//! the position after that capture, with the captured piece handed back to
//! the defender, is mated within R plies, and the real position after the
//! interposition is mated within R + 1.  A useless interposition is refuted
//! but not counted: its result is [`SearchResult::Useless`].
//!
//! The verdict is itself a search, and may rest on repetitions of the line
//! (in R or the test positions): it then holds only on this line and is not
//! cached.  A verdict reached without testing, because a defence that is not
//! an interposition escapes within the bound searched, holds only up to that
//! bound: a defender node disproved through such an interposition is stored
//! as disproved up to the bound searched.

use crate::hand::Hand;
use crate::moves::Move;
use crate::search::anchors::Epoch;
use crate::search::engine::Search;
use crate::search::expansion::Child;
use crate::search::mate_len::MateLen;
use crate::search::monitor::Stop;
use crate::search::result::{Disproof, Rep, SearchResult};
use crate::square::Square;

const SLOTS: usize = 1 << 12;

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    value: i32,
    epoch: Epoch,
}

/// Verdicts already reached, by position (and defence): usable while their
/// epoch is (they rest on proofs).  Fixed size: a newer verdict replaces an
/// older one in its slot.
pub struct Verdicts {
    useless: Box<[Slot]>,
    best_other: Box<[Slot]>,
}

impl Default for Verdicts {
    fn default() -> Self {
        Self::new()
    }
}

impl Verdicts {
    /// The bytes the caches take.
    pub const BYTES: usize = 2 * SLOTS * std::mem::size_of::<Slot>();

    /// Empty caches.
    pub fn new() -> Verdicts {
        Verdicts {
            useless: vec![Slot::default(); SLOTS].into_boxed_slice(),
            best_other: vec![Slot::default(); SLOTS].into_boxed_slice(),
        }
    }

    fn get(slots: &[Slot], key: u64, floor: Epoch) -> Option<i32> {
        let s = slots[(key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 52) as usize % SLOTS];
        (s.key == key && key != 0 && s.epoch >= floor).then_some(s.value)
    }

    fn put(slots: &mut [Slot], key: u64, value: i32, epoch: Epoch) {
        slots[(key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 52) as usize % SLOTS] =
            Slot { key, value, epoch };
    }

    fn useless_key(h: u64, d: Move) -> u64 {
        (h ^ (d.raw() as u64).wrapping_mul(0xff51_afd7_ed55_8ccd)) | 1
    }
}

impl Search {
    /// Applies the useless-interposition rule to a child (an interposition
    /// the table disproves) of the current node, searched to bound `b`.
    pub(crate) fn judge_interposition(&mut self, kid: &mut Child, b: MateLen) -> Result<(), Stop> {
        // A disproof without a real bound means no mate at all, which a
        // useless interposition needs; skipping the test there also keeps
        // unbounded searches from nesting unbounded tests.
        let SearchResult::Disproven(mut disproof) = kid.v else {
            return Ok(());
        };
        if kid.checker == 0 || !b.is_bounded() {
            return Ok(());
        }
        let (useless, on_line, bounded) = self.useless(kid.m, kid.checker, b)?;
        // A verdict that rested on repetitions of the line holds only on
        // this line, and so does what follows from it.
        let here = Rep::Line(self.line.len() as u32);
        if useless {
            kid.v = SearchResult::Useless(if on_line { here } else { Rep::None });
        } else if on_line {
            kid.v = SearchResult::Disproven(Disproof {
                bound: disproof.bound,
                hand: Hand::EMPTY,
                exact: true,
                rep: here,
            });
        } else if bounded && disproof.bound > b - 1 {
            // "Not useless" only because another defence escapes within this
            // bound: at a larger one the interposition may be useless.
            disproof.bound = b - 1;
            kid.v = SearchResult::Disproven(disproof);
        }
        Ok(())
    }

    /// Is the interposition `d` of the checker on `checker` (defender to move
    /// here) useless?  Does the answer rest on the line?  Is a "not useless"
    /// this bound's only (a defence escapes within `b`)?
    pub(crate) fn useless(
        &mut self,
        d: Move,
        checker: Square,
        b: MateLen,
    ) -> Result<(bool, bool, bool), Stop> {
        let h = self.pos.hash();
        let key = Verdicts::useless_key(h, d);
        if let Some(v) = Verdicts::get(&self.verdicts.useless, key, self.anchors.floor()) {
            return Ok((v != 0, false, false));
        }
        let epoch = self.anchors.epoch();
        let strict = self.anchors.is_exact(h);
        let hb = self.pos.board_key();
        let (r, mut dependent) = self.best_other(b)?;
        let Some(r) = r else {
            // A defence that is not an interposition escapes within b.
            return Ok((false, dependent, true));
        };
        let to = d.to();
        self.pos.push(d);
        let r = self.test_recaptures(checker, to, r, strict, hb, &mut dependent);
        self.pos.pop();
        let verdict = r?;
        if !dependent {
            Verdicts::put(&mut self.verdicts.useless, key, verdict as i32, epoch);
        }
        Ok((verdict, dependent, false))
    }

    /// After the interposition (attacker to move): does a capture by the
    /// checker, the piece handed back, leave a mate within `r`, and the real
    /// position a mate within `r + 1`?
    fn test_recaptures(
        &mut self,
        checker: Square,
        to: Square,
        r: MateLen,
        strict: bool,
        hb: u64,
        dependent: &mut bool,
    ) -> Result<bool, Stop> {
        let mut exp = self.take_expansion();
        exp.generate(&mut self.pos, true);
        let captures: Vec<Move> = exp
            .moves
            .iter()
            .copied()
            .filter(|x| x.from() == checker && x.to() == to)
            .collect();
        self.give_expansion(exp);
        for x in captures {
            let kind = self.pos.tables().hand_kind[self.pos.piece(to) as usize] as usize;
            self.pos.push(x);
            self.pos.hand_back(kind);
            let res = self.nested(r);
            self.pos.take_back(kind);
            self.pos.pop();
            let (proven, dep) = res?;
            *dependent |= dep;
            if proven {
                // The one question above an exact anchor's value: asked here,
                // a proof passing through it could be found, so proofs found
                // off the line are not used.
                if strict {
                    self.anchors.push_board(hb);
                }
                let res = self.nested(r + 1);
                if strict {
                    self.anchors.pop();
                }
                let (proven, dep) = res?;
                *dependent |= dep;
                return Ok(proven);
            }
        }
        Ok(false)
    }

    /// R for the defender to move here: the longest value of its defences
    /// that are not interpositions (0 if none); None if one is not mated
    /// within `b - 1`.  And whether the answer rests on the line.
    pub(crate) fn best_other(&mut self, b: MateLen) -> Result<(Option<MateLen>, bool), Stop> {
        let h = self.pos.hash();
        if let Some(v) = Verdicts::get(&self.verdicts.best_other, h | 1, self.anchors.floor()) {
            return Ok((Some(MateLen::plies(v)), false));
        }
        let added = !self.line.contains(h);
        if added {
            self.anchor(false);
        }
        let epoch = self.anchors.epoch();
        let r = self.best_other_defence(b);
        if added {
            self.release();
        }
        let (best, dependent) = r?;
        if let Some(best) = best {
            if !dependent {
                Verdicts::put(&mut self.verdicts.best_other, h | 1, best.get(), epoch);
            }
        }
        Ok((best, dependent))
    }

    fn best_other_defence(&mut self, b: MateLen) -> Result<(Option<MateLen>, bool), Stop> {
        let ranged = self.pos.ride_checkers();
        let mut exp = self.take_expansion();
        exp.generate(&mut self.pos, false);
        let defences: Vec<Move> = exp
            .moves
            .iter()
            .copied()
            .filter(|&d| self.pos.interposition_square(d, ranged) == 0)
            .collect();
        self.give_expansion(exp);
        let mut best = MateLen::ZERO;
        let mut dependent = false;
        for d in defences {
            self.pos.push(d);
            let r = self.shortest(b - 1, false, true);
            self.pos.pop();
            let (v, dep) = r?;
            dependent |= dep;
            match v {
                None => return Ok((None, dependent)),
                Some(v) => best = best.max(v + 1),
            }
        }
        Ok((Some(best), dependent))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdict_slots() {
        let mut v = Verdicts::new();
        let k = Verdicts::useless_key(12345, Move::drop(3, 7));
        assert_eq!(Verdicts::get(&v.useless, k, 0), None);
        Verdicts::put(&mut v.useless, k, 1, 4);
        assert_eq!(Verdicts::get(&v.useless, k, 4), Some(1));
        // Found in an epoch no longer used: not used.
        assert_eq!(Verdicts::get(&v.useless, k, 5), None);
        assert_ne!(k, Verdicts::useless_key(12345, Move::drop(3, 8)));
    }
}
