//! Length bounds and proof/disproof numbers.
//!
//! A *bound* counts plies: "mated within `b` plies".  Bounds at or above
//! [`UNBOUNDED`] mean "no bound" (a search without one starts at [`INF`] and
//! each ply down subtracts one, so it never falls below [`UNBOUNDED`]).
//! Proof and disproof numbers saturate at [`INF_PN`]: a sum of children never
//! overflows, since a node has at most a few thousand of them.

/// A length bound in plies; negative: below any real bound.
pub type Bound = i32;

/// "No bound": a search asked for mate at any length starts here.
pub const INF: Bound = 1 << 30;

/// Bounds from here up are unbounded searches, however deep they went.
pub const UNBOUNDED: Bound = INF >> 1;

/// The proven length of a position never proven: above every bound, [`INF`] included.
pub const NOT_PROVEN: Bound = Bound::MAX;

/// The disproven bound of a position never disproven.
pub const NOT_DISPROVEN: Bound = -1;

/// A proof or disproof number.
pub type PnDn = u64;

/// The infinite proof or disproof number (a disproven or proven node).
pub const INF_PN: PnDn = 1 << 40;

/// Adds two numbers, saturating at [`INF_PN`].
#[inline(always)]
pub fn add(a: PnDn, b: PnDn) -> PnDn {
    (a + b).min(INF_PN)
}

/// The threshold of the best child from the second best number, widened by
/// the 1 + epsilon trick (Pawlewicz and Lew): `second * (1 + 1/k) + 1`, or
/// the plain `second + 1` when `k` is 0; never above the node's own threshold.
#[inline(always)]
pub fn widened(second: PnDn, k: u32, own: PnDn) -> PnDn {
    let wide = if k == 0 {
        second + 1
    } else {
        second + second / k as PnDn + 1
    };
    wide.min(own)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unbounded_searches_stay_unbounded() {
        // A path of a million plies from INF is still unbounded.
        const { assert!(INF - 1_000_000 >= UNBOUNDED) };
        const { assert!(NOT_PROVEN > INF + 1000) };
        const { assert!(NOT_DISPROVEN < 0) };
    }

    #[test]
    fn numbers_saturate() {
        assert_eq!(add(INF_PN, INF_PN), INF_PN);
        assert_eq!(add(3, 4), 7);
        // A sum over many infinite children stays in range.
        let many = (0..5000).fold(0, |acc, _| add(acc, INF_PN));
        assert_eq!(many, INF_PN);
    }

    #[test]
    fn widened_thresholds() {
        assert_eq!(widened(8, 0, 100), 9);
        assert_eq!(widened(8, 4, 100), 11);
        assert_eq!(widened(8, 4, 5), 5);
        assert_eq!(widened(INF_PN, 4, INF_PN - 1), INF_PN - 1);
    }
}
