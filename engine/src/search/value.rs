//! What the search knows of a position at a bound: a value.
//!
//! Open: its proof and disproof numbers.  Proven (`pn == 0`): mated within
//! `x` plies (`x == -1`: a useless interposition, which is refuted but not
//! counted), with the proof hand.  Disproven (`dn == 0`): not mated within
//! `x` plies, with the disproof hand.  A value that holds only on the
//! current line says which line positions it rests on ([`Rep`]); it then
//! holds for its own hands only.

use crate::hand::Hand;
use crate::search::mate_len::MateLen;
use crate::search::numbers::{PnDn, INF_PN};
use crate::search::sets::SetRef;

/// The line positions a value rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rep {
    /// None: the value holds on any line.
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
    /// Does the value rest on the line?
    #[inline(always)]
    pub fn is_some(self) -> bool {
        self != Rep::None
    }
}

/// A value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    /// The proof number (0: proven).
    pub pn: PnDn,
    /// The disproof number (0: disproven).
    pub dn: PnDn,
    /// The proven length or the disproven bound.
    pub x: MateLen,
    /// The line positions the value rests on.
    pub rep: Rep,
    /// The proof hand of a proof, the disproof hand of a disproof.
    pub hand: Hand,
    /// Holds for this position's hands only.
    pub exact: bool,
    /// A proof whose tree met an anchor's board (or may have).
    pub pa: bool,
}

impl Value {
    /// An open value.
    #[inline(always)]
    pub fn open(pn: PnDn, dn: PnDn) -> Value {
        Value {
            pn,
            dn,
            x: MateLen::ZERO,
            rep: Rep::None,
            hand: Hand::EMPTY,
            exact: true,
            pa: true,
        }
    }

    /// Mated within `x` plies.
    #[inline(always)]
    pub fn proven(x: MateLen, hand: Hand, exact: bool, pa: bool, rep: Rep) -> Value {
        Value {
            pn: 0,
            dn: INF_PN,
            x,
            rep,
            hand,
            exact,
            pa,
        }
    }

    /// Not mated within `x` plies.
    #[inline(always)]
    pub fn disproven(x: MateLen, hand: Hand, exact: bool, rep: Rep) -> Value {
        Value {
            pn: INF_PN,
            dn: 0,
            x,
            rep,
            hand,
            exact,
            pa: true,
        }
    }

    /// Proven?
    #[inline(always)]
    pub fn is_proven(&self) -> bool {
        self.pn == 0
    }

    /// Disproven?
    #[inline(always)]
    pub fn is_disproven(&self) -> bool {
        self.dn == 0
    }

    /// Proven or disproven?
    #[inline(always)]
    pub fn is_final(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }

    /// phi: the number the side to move wants to bring to 0 (pn at an
    /// attacker node, dn at a defender node).
    #[inline(always)]
    pub fn phi(&self, or_node: bool) -> PnDn {
        if or_node {
            self.pn
        } else {
            self.dn
        }
    }

    /// delta: the other number.
    #[inline(always)]
    pub fn delta(&self, or_node: bool) -> PnDn {
        if or_node {
            self.dn
        } else {
            self.pn
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phi_and_delta_follow_the_side_to_move() {
        let v = Value::open(3, 7);
        assert_eq!((v.phi(true), v.delta(true)), (3, 7));
        assert_eq!((v.phi(false), v.delta(false)), (7, 3));
        assert!(!v.is_final());
        let p = Value::proven(MateLen::plies(5), Hand::EMPTY, false, false, Rep::None);
        assert!(p.is_proven() && p.is_final() && !p.is_disproven());
        let d = Value::disproven(MateLen::plies(5), Hand::EMPTY, false, Rep::One(4));
        assert!(d.is_disproven() && d.rep.is_some());
    }
}
