//! The census's retrograde analysis: the checks-only game graph of many
//! starting positions and the backward pass over it, as a tablebase is built.
//!
//! [`analyse`] takes positions with the attacker to move and returns, for
//! each, its exact mate length within `max_plies` (or none), **every**
//! optimal first move, and whether an interposition was met (then the
//! length is that of plain minimax, and the caller settles the position by
//! the df-pn search, which applies the useless-interposition rule).
//!
//! One concept per file:
//!
//! * [`key`]: compact exact node keys (a position in a few bytes);
//! * [`table`]: the keys in one arena and the index that finds them;
//! * [`forward`]: the graph, breadth-first, its children in CSR form;
//! * [`csr`]: the parents of every node, in CSR form;
//! * [`backward`]: the distances, shortest mate against longest defence;
//! * [`marks`]: the interposition test and the marks' spreading;
//! * [`memory`]: large arrays in huge pages.
//!
//! Memory: while the graph is built, per node its key (a few bytes, see
//! [`key`]), 5 bytes of index at most 70 % full, a flag byte and a count
//! of children (2 bytes), and 4 bytes per edge for the children; the index
//! and the keys are dropped before the parents (4 bytes a node and an edge)
//! are made, and the children before the values (2 bytes a node).  Measured
//! on Ito `attacker=GT, hand=GT`, shard 12 (670,329 nodes, 949,114 edges):
//! 32.6 bytes a node at the peak by the arrays' own count
//! ([`Stats::bytes`]), 46 bytes a node of peak resident memory.

mod backward;
mod csr;
mod forward;
mod key;
mod marks;
mod memory;
mod table;

use std::sync::Arc;
use std::time::Instant;

use crate::rules::moves::Move;
use crate::rules::position::Position;

use backward::{distances, UNWON};
use csr::Parents;
use forward::build;
use key::KeyCodec;
use marks::MARKED;

/// Why an analysis stopped without answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Halt {
    /// The graph needs more nodes than the limit.
    Nodes(usize),
    /// The graph has more edges than 32-bit indices hold.
    Edges(usize),
    /// A mate longer than the values hold, within a bound that allows it.
    Deep(u32),
    /// The starting positions are not all of one variant and board length.
    Mixed,
    /// The caller's `keep_going` said no.
    Interrupted,
}

impl Halt {
    /// What stopped it, in a sentence.
    pub fn message(&self) -> String {
        match self {
            Halt::Nodes(n) => format!(
                "the census graph needs more than {} nodes",
                thousands(*n as u64)
            ),
            Halt::Edges(n) => format!(
                "the census graph has {} edges, more than it can index",
                thousands(*n as u64)
            ),
            Halt::Deep(b) => format!(
                "the census cannot measure mates of {} plies or more (bound {b})",
                UNWON
            ),
            Halt::Mixed => {
                "the census positions must all be of one variant and board length".into()
            }
            Halt::Interrupted => "the census was interrupted".into(),
        }
    }
}

/// `1234567` as `1,234,567`.
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// The answer for one starting position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// An interposition was met in its analysis: `length` and `first_moves`
    /// are plain minimax's, which may count a useless interposition.
    pub marked: bool,
    /// The mate length within the bound (None: no mate within it).
    pub length: Option<u32>,
    /// Every first move that mates in `length`, in generation order.
    pub first_moves: Vec<Move>,
}

/// What the analysis cost.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Graph nodes.
    pub nodes: usize,
    /// Graph edges: an attacker's checks, a defender's distinct replies.
    pub edges: u64,
    /// The most bytes the graph held at once (its arrays' capacities).
    pub bytes: usize,
    /// Seconds of the forward build.
    pub seconds_graph: f64,
    /// Seconds of the parents, the backward pass and the marks.
    pub seconds_backward: f64,
}

/// The answers, one per starting position in order, and the statistics.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub answers: Vec<Answer>,
    pub stats: Stats,
}

/// Analyses `roots` (the attacker to move in each) to `max_plies` plies:
/// see the module documentation.  A graph of more than `node_limit` nodes
/// stops it, and so does `keep_going` (asked every few milliseconds of work)
/// saying no.
pub fn analyse(
    roots: &[Position],
    max_plies: u32,
    node_limit: Option<usize>,
    keep_going: &mut dyn FnMut() -> bool,
) -> Result<Analysis, Halt> {
    let started = Instant::now();
    let Some(first) = roots.first() else {
        return Ok(Analysis {
            answers: vec![],
            stats: Stats::default(),
        });
    };
    let t = first.tables();
    let same = |p: &Position| {
        Arc::ptr_eq(p.tables(), t) || (p.n() == t.n && p.tables().variant == t.variant)
    };
    if !roots.iter().all(same) {
        return Err(Halt::Mixed);
    }
    let codec = KeyCodec::new(t, roots);
    let mut g = build(
        roots,
        &codec,
        max_plies,
        node_limit.unwrap_or(usize::MAX),
        keep_going,
    )?;
    let built = Instant::now();
    let nodes = g.table.len();
    let mut peak = g.bytes();
    // The keys and their index are not needed any more: only the numbers.
    g.table = table::NodeTable::new(1);
    let parents = Parents::from_children(nodes, &g.degree, &g.children);
    peak = peak.max(g.bytes() + parents.bytes());
    g.children = Vec::new();
    let value = distances(
        &g.flags,
        &mut g.degree,
        &parents,
        &g.mated,
        max_plies,
        keep_going,
    )?;
    peak = peak.max(g.bytes() + parents.bytes() + 2 * value.capacity());
    marks::spread(&mut g.flags, &parents, keep_going)?;

    // The first moves, by root node (roots were numbered first, in order).
    let distinct = g.roots.iter().map(|&r| r as usize + 1).max().unwrap_or(0);
    let mut moves: Vec<Vec<(Move, u32)>> = vec![vec![]; distinct];
    for &(r, m, c) in &g.root_moves {
        moves[r as usize].push((m, c));
    }
    let answers = g
        .roots
        .iter()
        .map(|&r| {
            let v = value[r as usize];
            let (length, first_moves) = if v == UNWON {
                (None, vec![])
            } else {
                let firsts = moves[r as usize]
                    .iter()
                    .filter(|&&(_, c)| v > 0 && value[c as usize] == v - 1)
                    .map(|&(m, _)| m)
                    .collect();
                (Some(v as u32), firsts)
            };
            Answer {
                marked: g.flags[r as usize] & MARKED != 0,
                length,
                first_moves,
            }
        })
        .collect();
    let done = Instant::now();
    Ok(Analysis {
        answers,
        stats: Stats {
            nodes,
            edges: g.edges,
            bytes: peak,
            seconds_graph: (built - started).as_secs_f64(),
            seconds_backward: (done - built).as_secs_f64(),
        },
    })
}

#[cfg(test)]
mod tests;
