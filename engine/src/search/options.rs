//! The search's switches: all on (or at their measured best) by default;
//! the benchmarks and tests turn them off to compare.

/// Switches for the enhancements and the conventions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Reuse proofs and disproofs for other hands on the same board.
    pub hand_dominance: bool,
    /// Look for a mate in one among the children of a new attacker node.
    pub one_ply_mate: bool,
    /// A defender node counts the drops onto one square once (their largest
    /// proof number): they mostly share their fate.
    pub same_square_max: bool,
    /// An attacker node counts the drops of one piece on one side of the
    /// king as the largest of their disproof numbers plus one for each other
    /// one not yet disproved, not as their sum: summed, a king move that
    /// leaves room for many drops looked far harder to refute than it is.
    pub drop_groups: bool,
    /// Initial numbers of a child never seen from its move (a check from a
    /// distance is harder to prove, a defence other than a king move easier).
    pub heuristic_init: bool,
    /// The 1 + epsilon trick: a child's threshold is the second-best number
    /// times 1 + 1/k, plus one (0: the plain second best + 1).
    pub one_plus_epsilon: u32,
    /// The useless-interposition convention (off: every interposition is a
    /// defence, the raw game-tree length the SAT engine computes).
    pub useless_interpositions: bool,
    /// The exact length: bounds up to this are tried before one search to
    /// the bound asked.
    pub short_first: i32,
    /// The line reader's alpha-beta on the leftover tie-break (off: every
    /// line of the best length is read, to the same line).
    pub leftover_pruning: bool,
    /// The longest search path (plies, the caller's line included) before
    /// the search stops as unknown.
    pub max_depth: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hand_dominance: true,
            one_ply_mate: false,
            same_square_max: true,
            drop_groups: true,
            heuristic_init: false,
            one_plus_epsilon: 4,
            useless_interpositions: true,
            short_first: 9,
            leftover_pruning: true,
            max_depth: 500,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults() {
        let o = Options::default();
        assert!(o.hand_dominance && o.same_square_max && o.drop_groups && o.useless_interpositions);
        assert!(!o.one_ply_mate && !o.heuristic_init);
        assert_eq!(
            (o.one_plus_epsilon, o.short_first, o.max_depth),
            (4, 9, 500)
        );
    }
}
