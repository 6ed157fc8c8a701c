//! The expansion of one node: its children, their values, and what they add
//! up to.
//!
//! Attacker (OR) and defender (AND) nodes share one code path through phi
//! and delta: phi is the number the side to move wants to bring to 0 (pn at
//! an attacker node, dn at a defender node), delta the other.  A node's phi
//! is its children's least (the side to move picks one child), its delta
//! their sum with drop groups counted once ([`crate::search::groups`]); the
//! side to move has won when a child's phi is 0 and lost when every child's
//! delta is.  The best child is the first of least phi; its thresholds are
//! the second least phi widened by 1 + epsilon, and what the node's delta
//! threshold leaves beside the other children.
//!
//! An expansion owns its buffers and is reused: the search keeps a pool of
//! them, so expanding a node allocates nothing once the pool is warm.

use crate::rules::hand::Hand;
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;
use crate::rules::square::Square;
use crate::search::groups::{drop_group, same_square, GroupSums};
use crate::search::hands::HandChange;
use crate::search::key::Key;
use crate::search::numbers::{widened, PnDn, INF_PN};
use crate::search::options::Options;
use crate::search::result::SearchResult;
use crate::search::table::Table;

/// A child of an expanded node.
#[derive(Clone, Copy, Debug)]
pub struct Child {
    /// The move.
    pub m: Move,
    /// The child's hash.
    pub h: u64,
    /// The child's key (its board and the attacker's hand there).
    pub key: Key,
    /// How the move changes the attacker's hand (an attacker's move only).
    pub change: HandChange,
    /// An interposition's checker square (0: not an interposition).
    pub checker: Square,
    /// The drop group (0: counts alone).
    pub group: u8,
    /// The initial numbers of a child never seen.
    pub init: (PnDn, PnDn),
    /// The child's result as last looked up or searched.
    pub v: SearchResult,
}

/// What a node's children add up to.
#[derive(Clone, Copy, Debug, Default)]
pub struct Summary {
    /// The node's phi and delta.
    pub phi: PnDn,
    pub delta: PnDn,
    /// The first child of least phi.
    pub best: usize,
    /// The second least phi.
    pub phi2: PnDn,
}

/// One node's expansion.
pub struct Expansion {
    /// The moves as generated.
    pub moves: Box<MoveList>,
    /// The children, in generation order.
    pub kids: Vec<Child>,
    /// An attacker node?
    pub or_node: bool,
    /// Moves the generator left out for the stalemate or drop-mate rule.
    pub filtered: u32,
    /// The table generation the children's values were looked up in.
    pub generation: u64,
    sums: GroupSums,
}

impl Default for Expansion {
    fn default() -> Self {
        Self::new()
    }
}

impl Expansion {
    /// An empty expansion.
    pub fn new() -> Expansion {
        Expansion {
            moves: Box::new(MoveList::new()),
            kids: Vec::new(),
            or_node: true,
            filtered: 0,
            generation: 0,
            sums: GroupSums::new(true),
        }
    }

    /// Generates the moves of `pos`: the checks at an attacker node, the
    /// evasions at a defender node.
    pub fn generate(&mut self, pos: &mut Position, or_node: bool) {
        self.or_node = or_node;
        self.moves.clear();
        if or_node {
            pos.checks(&mut self.moves);
        } else {
            pos.evasions(&mut self.moves);
        }
        self.filtered = pos.filtered();
    }

    /// Makes a child of each generated move (`attacker_hand`: the attacker's
    /// hand here), starting to load each child's table slot as it goes.
    pub fn make_children(
        &mut self,
        pos: &Position,
        attacker_hand: Hand,
        options: &Options,
        table: &Table,
    ) {
        let or_node = self.or_node;
        let t = &**pos.tables();
        let turn = pos.turn();
        let king = pos.king(turn);
        let enemy_king = pos.king(turn.flip());
        let ranged = if !or_node && options.useless_interpositions {
            pos.ride_checkers()
        } else {
            0
        };
        let same = options.same_square_max && !or_node;
        let grouped = options.drop_groups && or_node;
        self.kids.clear();
        for &m in self.moves.iter() {
            let (h, hz) = pos.child_hashes(m);
            table.prefetch(h ^ hz);
            let frm = m.from();
            let to = m.to();
            let change = if frm == 0 {
                HandChange::Drop(t.face_kind[m.face() as usize])
            } else {
                let cap = pos.piece(to);
                if cap != 0 {
                    HandChange::Capture(t.hand_kind[cap as usize])
                } else {
                    HandChange::None
                }
            };
            let (hand, change) = if or_node {
                (change.apply(attacker_hand), change)
            } else {
                (attacker_hand, HandChange::None)
            };
            let checker = if ranged != 0 {
                pos.interposition_square(m, ranged)
            } else {
                0
            };
            let group = if frm != 0 {
                0
            } else if same {
                same_square(to)
            } else if grouped {
                drop_group(m.face(), to, enemy_king)
            } else {
                0
            };
            let init = if or_node {
                (if to.abs_diff(enemy_king) <= 1 { 1 } else { 2 }, 1)
            } else {
                (1, if frm == king && frm != 0 { 1 } else { 2 })
            };
            self.kids.push(Child {
                m,
                h,
                key: Key {
                    board: h ^ hz,
                    hand,
                },
                change,
                checker,
                group,
                init,
                v: SearchResult::unknown(1, 1),
            });
        }
    }

    /// What the children add up to.
    pub fn summarize(&mut self) -> Summary {
        let or_node = self.or_node;
        self.sums.clear(or_node);
        let mut phi = INF_PN;
        let mut phi2 = INF_PN;
        let mut best = 0;
        for (i, kid) in self.kids.iter().enumerate() {
            let p = kid.v.phi(or_node);
            if p < phi {
                phi2 = phi;
                phi = p;
                best = i;
            } else if p < phi2 {
                phi2 = p;
            }
            self.sums.add(kid.group, kid.v.delta(or_node));
        }
        Summary {
            phi,
            delta: self.sums.total(),
            best,
            phi2,
        }
    }

    /// The thresholds (phi, delta) of the best child, from the node's own and
    /// its summary; `epsilon_k` as in [`widened`].
    pub fn child_thresholds(
        &self,
        s: &Summary,
        th_phi: PnDn,
        th_delta: PnDn,
        epsilon_k: u32,
    ) -> (PnDn, PnDn) {
        let kid = &self.kids[s.best];
        let counted = self.sums.counted(kid.group, kid.v.delta(self.or_node));
        (
            widened(s.phi2, epsilon_k, th_phi),
            th_delta
                .saturating_sub(s.delta)
                .saturating_add(counted)
                .min(INF_PN),
        )
    }
}

/// The (pn, dn) of a node from its phi and delta.
#[inline(always)]
pub fn pn_dn(or_node: bool, phi: PnDn, delta: PnDn) -> (PnDn, PnDn) {
    if or_node {
        (phi, delta)
    } else {
        (delta, phi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kid(pn: PnDn, dn: PnDn, group: u8) -> Child {
        Child {
            m: Move::board(1, 2),
            h: 0,
            key: Key {
                board: 0,
                hand: Hand::EMPTY,
            },
            change: HandChange::None,
            checker: 0,
            group,
            init: (1, 1),
            v: SearchResult::unknown(pn, dn),
        }
    }

    #[test]
    fn an_attacker_node_takes_the_least_pn_and_sums_the_dn() {
        let mut e = Expansion::new();
        e.or_node = true;
        e.kids = vec![kid(5, 2, 0), kid(3, 4, 0), kid(3, 1, 0), kid(9, 7, 0)];
        let s = e.summarize();
        assert_eq!((s.phi, s.delta, s.best, s.phi2), (3, 14, 1, 3));
        // The best child: phi threshold from the second best, widened; delta what is left.
        let (tp, td) = e.child_thresholds(&s, 100, 50, 0);
        assert_eq!((tp, td), (4, 50 - 14 + 4));
        assert_eq!(pn_dn(true, s.phi, s.delta), (3, 14));
    }

    #[test]
    fn a_defender_node_takes_the_least_dn_and_sums_the_pn_by_square() {
        let mut e = Expansion::new();
        e.or_node = false;
        // Two drops onto square 7 (pn 4 and 6) count as 6.
        e.kids = vec![kid(4, 9, 7), kid(6, 3, 7), kid(2, 5, 0)];
        let s = e.summarize();
        assert_eq!((s.phi, s.delta, s.best, s.phi2), (3, 8, 1, 5));
        assert_eq!(pn_dn(false, s.phi, s.delta), (8, 3));
        let (tp, td) = e.child_thresholds(&s, 40, 30, 4);
        assert_eq!(tp, 5 + 5 / 4 + 1);
        // The best child's own pn counts as its group's largest.
        assert_eq!(td, 30 - 8 + 6);
    }

    #[test]
    fn won_and_lost() {
        let mut e = Expansion::new();
        e.or_node = true;
        e.kids = vec![kid(INF_PN, 0, 0), kid(0, INF_PN, 0)];
        let s = e.summarize();
        assert_eq!((s.phi, s.best), (0, 1));
        e.kids = vec![kid(INF_PN, 0, 0), kid(INF_PN, 0, 3), kid(INF_PN, 0, 3)];
        let s = e.summarize();
        assert_eq!((s.phi, s.delta), (INF_PN, 0));
    }
}
