//! What the search knows of a position at a bound: a result.
//!
//! Unknown: its proof and disproof numbers.  Proven: mated within a length,
//! with the proof hand.  Disproven: not mated within a bound, with the
//! disproof hand.  A useless interposition is a result of its own: refuted,
//! but not a defence that counts (docs/solver.md, convention 6).  A result
//! that holds only on the current line says which line positions it rests
//! on ([`Rep`]); it then holds for its own hands only.

use crate::rules::hand::Hand;
use crate::search::mate_len::MateLen;
use crate::search::numbers::{PnDn, INF_PN};
use crate::search::sets::SetRef;

/// The line positions a result rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rep {
    /// None: the result holds on any line.
    #[default]
    None,
    /// One position: a repetition of it.
    One(u64),
    /// The first `n` positions of the line (the whole line as it stood).
    Line(u32),
    /// A set stored with a table entry.
    Stored(SetRef),
}

impl Rep {
    /// Does the result rest on the line?
    #[inline(always)]
    pub fn is_some(self) -> bool {
        self != Rep::None
    }
}

/// Mated within a length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The length.
    pub len: MateLen,
    /// The proof hand: an attacker holding at least this is mated too.
    pub hand: Hand,
    /// Holds for this position's hands only.
    pub exact: bool,
    /// The proof's tree met an anchor's board (or may have).
    pub pa: bool,
    /// The line positions the proof rests on.
    pub rep: Rep,
}

/// Not mated within a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Disproof {
    /// The bound.
    pub bound: MateLen,
    /// The disproof hand: an attacker holding at most this is not mated either.
    pub hand: Hand,
    /// Holds for this position's hands only.
    pub exact: bool,
    /// The line positions the disproof rests on.
    pub rep: Rep,
}

/// A result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchResult {
    /// Not known yet: the proof and disproof numbers.
    Unknown {
        pn: PnDn,
        dn: PnDn,
    },
    Proven(Proof),
    Disproven(Disproof),
    /// A useless interposition, resting on the line positions of its `Rep`.
    Useless(Rep),
}

impl SearchResult {
    /// An unknown result with these numbers.
    #[inline(always)]
    pub const fn unknown(pn: PnDn, dn: PnDn) -> SearchResult {
        SearchResult::Unknown { pn, dn }
    }

    /// The proof number (0: proven).
    #[inline(always)]
    pub fn pn(&self) -> PnDn {
        match self {
            SearchResult::Unknown { pn, .. } => *pn,
            SearchResult::Proven(_) | SearchResult::Useless(_) => 0,
            SearchResult::Disproven(_) => INF_PN,
        }
    }

    /// The disproof number (0: disproven).
    #[inline(always)]
    pub fn dn(&self) -> PnDn {
        match self {
            SearchResult::Unknown { dn, .. } => *dn,
            SearchResult::Proven(_) | SearchResult::Useless(_) => INF_PN,
            SearchResult::Disproven(_) => 0,
        }
    }

    /// Proven (a useless interposition too: the defence is refuted)?
    #[inline(always)]
    pub fn is_proven(&self) -> bool {
        matches!(self, SearchResult::Proven(_) | SearchResult::Useless(_))
    }

    /// Disproven?
    #[inline(always)]
    pub fn is_disproven(&self) -> bool {
        matches!(self, SearchResult::Disproven(_))
    }

    /// Proven or disproven?
    #[inline(always)]
    pub fn is_final(&self) -> bool {
        !matches!(self, SearchResult::Unknown { .. })
    }

    /// The line positions the result rests on.
    #[inline(always)]
    pub fn rep(&self) -> Rep {
        match self {
            SearchResult::Unknown { .. } => Rep::None,
            SearchResult::Proven(p) => p.rep,
            SearchResult::Disproven(d) => d.rep,
            SearchResult::Useless(rep) => *rep,
        }
    }

    /// phi: the number the side to move wants to bring to 0 (pn at an
    /// attacker node, dn at a defender node).
    #[inline(always)]
    pub fn phi(&self, or_node: bool) -> PnDn {
        if or_node {
            self.pn()
        } else {
            self.dn()
        }
    }

    /// delta: the other number.
    #[inline(always)]
    pub fn delta(&self, or_node: bool) -> PnDn {
        if or_node {
            self.dn()
        } else {
            self.pn()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phi_and_delta_follow_the_side_to_move() {
        let v = SearchResult::unknown(3, 7);
        assert_eq!((v.phi(true), v.delta(true)), (3, 7));
        assert_eq!((v.phi(false), v.delta(false)), (7, 3));
        assert!(!v.is_final() && !v.rep().is_some());
    }

    #[test]
    fn final_results_have_their_numbers() {
        let p = SearchResult::Proven(Proof {
            len: MateLen::plies(5),
            hand: Hand::EMPTY,
            exact: false,
            pa: false,
            rep: Rep::None,
        });
        assert!(p.is_proven() && p.is_final() && !p.is_disproven());
        assert_eq!((p.pn(), p.dn()), (0, INF_PN));
        let d = SearchResult::Disproven(Disproof {
            bound: MateLen::plies(5),
            hand: Hand::EMPTY,
            exact: false,
            rep: Rep::One(4),
        });
        assert!(d.is_disproven() && d.is_final() && !d.is_proven());
        assert_eq!((d.pn(), d.dn(), d.rep()), (INF_PN, 0, Rep::One(4)));
        // A useless interposition counts as refuted.
        let u = SearchResult::Useless(Rep::Line(3));
        assert!(u.is_proven() && u.is_final());
        assert_eq!((u.pn(), u.dn(), u.rep()), (0, INF_PN, Rep::Line(3)));
    }
}
