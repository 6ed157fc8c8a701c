//! Proof and disproof numbers.
//!
//! They saturate at [`INF_PN`]: a sum of children never overflows, since a
//! node has at most a few thousand of them.

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
