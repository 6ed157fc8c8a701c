//! The forward build: the checks-only game graph, breadth-first from every
//! starting position at once.
//!
//! Attacker nodes are expanded (their checks) up to depth `max_plies - 1`,
//! defender nodes (their legal replies) up to `max_plies - 1` too, and a
//! defender node at any depth is tested for mate: every node of a proof of at
//! most `max_plies` plies is within reach, and nothing deeper is expanded.
//! Node numbers are given in order of discovery, so each depth is a range of
//! numbers and the frontier needs no list: the positions themselves are not
//! kept, each node is decoded from its key when its turn comes.  The
//! children of the expanded nodes are written in node order into one array
//! (with each node's count), the first half of a CSR graph.

use crate::census::key::{KeyCodec, MAX_WORDS};
use crate::census::marks::{interposes, MARKED};
use crate::census::memory::room;
use crate::census::table::{hash_padded, NodeTable};
use crate::census::Halt;
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;

/// A node's flags: the attacker is to move.
pub(crate) const ATTACKER: u8 = 1;

/// How many nodes are expanded before their children are looked up (and
/// between two calls of `keep_going`): the children's keys are made and their
/// slots prefetched first, so that the lookups' cache misses overlap
/// (measured on Ito `attacker=GT, hand=GT`, 15.1 M nodes: 8.4 CPU-s one node
/// at a time, 5.9 CPU-s in batches of 64).
const BATCH: usize = 64;

/// The graph as the forward build leaves it.
pub(crate) struct Graph {
    pub table: NodeTable,
    /// Per node: [`ATTACKER`], [`MARKED`].
    pub flags: Vec<u8>,
    /// Per node: the children stored for it (a defender's distinct replies;
    /// an attacker's checks, one per move).
    pub degree: Vec<u16>,
    /// The children of every expanded node, in node order.
    pub children: Vec<u32>,
    /// The defender nodes without a legal reply.
    pub mated: Vec<u32>,
    /// The node of each starting position, in order.
    pub roots: Vec<u32>,
    /// The first moves: (root node, check, child), in generation order.
    pub root_moves: Vec<(u32, Move, u32)>,
    /// The edges as the census counts them (an attacker's checks, a defender's distinct replies).
    pub edges: u64,
}

impl Graph {
    /// The bytes the graph holds.
    pub(crate) fn bytes(&self) -> usize {
        self.table.bytes()
            + self.flags.capacity()
            + 2 * self.degree.capacity()
            + 4 * self.children.capacity()
            + 4 * self.mated.capacity()
            + 4 * self.roots.capacity()
            + std::mem::size_of::<(u32, Move, u32)>() * self.root_moves.capacity()
    }

    /// The node of the key in `key` (of hash `h`), a new one flagged
    /// `attacker` if need be.
    #[inline]
    fn node(&mut self, key: &[u8], h: u64, attacker: bool, limit: usize) -> Result<u32, Halt> {
        let (i, new) = self
            .table
            .find_or_insert(key, h, limit)
            .ok_or(Halt::Nodes(limit))?;
        if new {
            self.flags.push(if attacker { ATTACKER } else { 0 });
            self.degree.push(0);
        }
        Ok(i)
    }
}

/// The children of a batch of expanded nodes, waiting to be looked up.
#[derive(Default)]
struct Batch {
    /// Per expanded node: its number and how many children it has here.
    nodes: Vec<(u32, usize)>,
    /// The children's keys, end to end, their hashes and the moves to them.
    keys: Vec<u8>,
    hashes: Vec<u64>,
    moves: Vec<Move>,
}

/// Builds the graph of `roots` (all with the attacker to move and the same
/// tables) to `max_plies`.  More than `node_limit` nodes stops it
/// ([`Halt::Nodes`]), and so does `keep_going` saying no ([`Halt::Interrupted`]).
pub(crate) fn build(
    roots: &[Position],
    codec: &KeyCodec,
    max_plies: u32,
    node_limit: usize,
    keep_going: &mut dyn FnMut() -> bool,
) -> Result<Graph, Halt> {
    let mut g = Graph {
        table: NodeTable::new(codec.bytes()),
        flags: vec![],
        degree: vec![],
        children: vec![],
        mated: vec![],
        roots: Vec::with_capacity(roots.len()),
        root_moves: vec![],
        edges: 0,
    };
    let Some(first) = roots.first() else {
        return Ok(g);
    };
    let width = codec.bytes();
    let mut buf = [0u8; 8 * MAX_WORDS];
    for p in roots {
        codec.encode(p, &mut buf);
        let i = g.node(&buf[..width], hash_padded(&buf, width), true, node_limit)?;
        g.roots.push(i);
    }
    let mut pos = first.copy();
    let mut moves = MoveList::new();
    let mut kids: Vec<u32> = Vec::with_capacity(64);
    let mut batch = Batch::default();
    let (mut start, mut end) = (0usize, g.table.len());
    let mut depth = 0u32;
    while start < end {
        for chunk in (start..end).step_by(BATCH) {
            if !keep_going() {
                return Err(Halt::Interrupted);
            }
            // The children's keys, made and prefetched.
            batch.nodes.clear();
            batch.keys.clear();
            batch.hashes.clear();
            batch.moves.clear();
            for i in chunk..(chunk + BATCH).min(end) {
                let attacker = g.flags[i] & ATTACKER != 0;
                if attacker && depth >= max_plies {
                    continue; // no check from here can mate within the bound
                }
                codec.decode(g.table.key(i as u32), &mut pos);
                moves.clear();
                if attacker {
                    pos.checks(&mut moves);
                } else {
                    pos.legal_moves(Some(false), &mut moves);
                    if moves.is_empty() {
                        g.mated.push(i as u32);
                        continue;
                    }
                    if depth >= max_plies {
                        continue; // not mated, and no reply can be followed within the bound
                    }
                    if interposes(&pos, moves.as_slice(), pos.ride_checkers()) {
                        g.flags[i] |= MARKED;
                    }
                }
                for &m in moves.iter() {
                    pos.push(m);
                    codec.encode(&pos, &mut buf);
                    pos.pop();
                    let h = hash_padded(&buf, width);
                    g.table.prefetch(h);
                    batch.keys.extend_from_slice(&buf[..width]);
                    batch.hashes.push(h);
                    batch.moves.push(m);
                }
                batch.nodes.push((i as u32, moves.len()));
            }
            // The lookups, in order: node numbers as without the batch.
            let mut at = 0usize;
            for &(i, count) in &batch.nodes {
                let attacker = g.flags[i as usize] & ATTACKER != 0;
                kids.clear();
                for j in at..at + count {
                    let key = &batch.keys[j * width..(j + 1) * width];
                    let c = g.node(key, batch.hashes[j], !attacker, node_limit)?;
                    kids.push(c);
                    if depth == 0 && attacker {
                        g.root_moves.push((i, batch.moves[j], c));
                    }
                }
                at += count;
                if !attacker {
                    kids.sort_unstable();
                    kids.dedup();
                }
                g.children.extend_from_slice(&kids);
                g.degree[i as usize] = kids.len() as u16;
                g.edges += kids.len() as u64;
            }
        }
        (start, end) = (end, g.table.len());
        depth += 1;
    }
    if g.children.len() > u32::MAX as usize {
        return Err(Halt::Edges(g.children.len()));
    }
    g.table.shrink();
    // The backward pass reads flags and counts at random: huge pages.
    g.flags = copied(&g.flags);
    g.degree = copied(&g.degree);
    g.children.shrink_to_fit();
    Ok(g)
}

/// A copy of `v` in memory advised for huge pages, without spare room.
fn copied<T: Copy>(v: &[T]) -> Vec<T> {
    let mut out = room(v.len());
    out.extend_from_slice(v);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::colour::Colour::Black;
    use crate::rules::position::tests::pos;

    fn graph(p: &Position, plies: u32) -> Graph {
        let codec = KeyCodec::new(p.tables(), std::slice::from_ref(p));
        build(
            std::slice::from_ref(p),
            &codec,
            plies,
            usize::MAX,
            &mut || true,
        )
        .unwrap()
    }

    #[test]
    fn depths_and_counts() {
        // Rutherford: king on 4, Silver on 3, Knight on 8, a Silver in hand.
        let p = pos("rutherford", "2Sk4N2p1", Black, [&[0, 0, 1], &[]]);
        let g0 = graph(&p, 0);
        assert_eq!(g0.table.len(), 1); // the root only: nothing within 0 plies
        let g1 = graph(&p, 1);
        let mut checks = MoveList::new();
        p.copy().checks(&mut checks);
        assert_eq!(g1.table.len(), 1 + checks.len());
        assert_eq!(g1.root_moves.len(), checks.len());
        assert_eq!(g1.degree[0] as usize, checks.len());
        // Defender nodes at depth 1 are tested for mate, not expanded.
        assert!(g1.degree[1..].iter().all(|&d| d == 0));
        let g2 = graph(&p, 2);
        assert!(g2.table.len() > g1.table.len());
        assert_eq!(g2.children.len() as u64, g2.edges);
        assert_eq!(
            g2.degree.iter().map(|&d| d as usize).sum::<usize>(),
            g2.children.len()
        );
        // Node numbers are given breadth-first: children come after parents.
        let mut at = 0;
        for (i, &d) in g2.degree.iter().enumerate() {
            for &c in &g2.children[at..at + d as usize] {
                assert!(c as usize > i);
            }
            at += d as usize;
        }
    }

    #[test]
    fn the_node_limit_stops_the_build() {
        let p = pos("rutherford", "2Sk4N2p1", Black, [&[0, 0, 1], &[]]);
        let codec = KeyCodec::new(p.tables(), std::slice::from_ref(&p));
        let r = build(std::slice::from_ref(&p), &codec, 9, 10, &mut || true);
        assert!(matches!(r, Err(Halt::Nodes(10))));
    }

    #[test]
    fn keep_going_stops_the_build() {
        let p = pos("ito", "4k3T1G20", Black, [&[0, 0, 1, 0, 0, 1], &[]]);
        let codec = KeyCodec::new(p.tables(), std::slice::from_ref(&p));
        let mut calls = 0;
        let r = build(
            std::slice::from_ref(&p),
            &codec,
            15,
            usize::MAX,
            &mut || {
                calls += 1;
                calls < 2
            },
        );
        assert!(matches!(r, Err(Halt::Interrupted)));
        assert_eq!(calls, 2); // at the first batch, then at the next one
    }

    #[test]
    fn a_mate_is_found_at_the_bound() {
        // Ito: the Goose in hand drops on 29 and mates at once (1 ply).
        let p = pos("ito", "27G2k", Black, [&[0, 0, 1], &[]]);
        let g = graph(&p, 1);
        assert!(!g.mated.is_empty());
    }
}
