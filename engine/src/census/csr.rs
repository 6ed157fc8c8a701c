//! The parents of every node, in compressed sparse row form.
//!
//! The backward pass goes from children to parents; the forward build
//! writes children.  Turning one into the other is a counting sort: count
//! each node's parents, lay their lists end to end (`start`), and fill them
//! walking the children in node order.  Two flat `u32` arrays, 4 bytes an
//! edge and 4 a node, whatever the graph.

use crate::census::memory::big;

/// Every node's parents: node `i`'s are `list[start[i]..start[i + 1]]`.
pub(crate) struct Parents {
    start: Vec<u32>,
    list: Vec<u32>,
}

impl Parents {
    /// The parents of `nodes` nodes whose children are `children`, node `i`
    /// having the next `degree[i]` of them (in node order).  At most
    /// `u32::MAX` edges (the caller checks).
    pub(crate) fn from_children(nodes: usize, degree: &[u16], children: &[u32]) -> Parents {
        let mut start = big(nodes + 1, 0u32);
        for &c in children {
            start[c as usize + 1] += 1;
        }
        for i in 0..nodes {
            start[i + 1] += start[i];
        }
        // start[c] serves as node c's cursor, moving up to its end, which is
        // where node c + 1 begins: shifting by one place restores the starts.
        let mut list = big(children.len(), 0u32);
        let mut at = 0usize;
        for (i, &d) in degree.iter().enumerate() {
            for &c in &children[at..at + d as usize] {
                list[start[c as usize] as usize] = i as u32;
                start[c as usize] += 1;
            }
            at += d as usize;
        }
        start.copy_within(0..nodes, 1);
        start[0] = 0;
        Parents { start, list }
    }

    /// The parents of node `i` (a parent twice when it has two moves to `i`).
    #[inline(always)]
    pub(crate) fn of(&self, i: u32) -> &[u32] {
        &self.list[self.start[i as usize] as usize..self.start[i as usize + 1] as usize]
    }

    /// The bytes it holds.
    pub(crate) fn bytes(&self) -> usize {
        4 * (self.start.capacity() + self.list.capacity())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_of_a_small_graph() {
        // 0 -> 1, 2; 1 -> 2, 3; 2 -> 3; 3 -> nothing; 4 -> 3, 3.
        let degree = [2, 2, 1, 0, 2];
        let children = [1, 2, 2, 3, 3, 3, 3];
        let p = Parents::from_children(5, &degree, &children);
        assert_eq!(p.of(0), &[] as &[u32]);
        assert_eq!(p.of(1), &[0]);
        assert_eq!(p.of(2), &[0, 1]);
        assert_eq!(p.of(3), &[1, 2, 4, 4]);
        assert_eq!(p.of(4), &[] as &[u32]);
        assert_eq!(p.bytes(), 4 * (6 + 7));
    }

    #[test]
    fn an_empty_graph() {
        let p = Parents::from_children(0, &[], &[]);
        assert_eq!(p.bytes(), 4);
    }
}
