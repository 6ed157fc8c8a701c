//! The df-pn search: does the side to move (the attacker) mate within a bound?
//!
//! One concept per file:
//!
//! * [`mate_len`]: mate lengths and bounds on them;
//! * [`numbers`]: proof and disproof numbers;
//! * [`hands`]: proof and disproof hands, carried over moves;
//! * [`result`]: what the search knows of a position at a bound;
//! * [`line`]: the positions on the current line;
//! * [`anchors`]: anchors and epochs, which say when a proof may be used;
//! * [`sets`]: the bounded home of the line positions results rest on;
//! * [`key`]: a position as the table knows it;
//! * [`entry`] and [`table`]: the transposition table, in a [`slab`];
//! * [`monitor`]: node counting and limits;
//! * [`options`]: the switches;
//! * [`groups`]: drops counted once;
//! * [`expansion`]: a node's children, phi and delta, thresholds;
//! * [`engine`]: the search of one problem ([`Search`]);
//! * [`node`]: the node search (MID) and what a won or lost node stores;
//! * [`interposition`]: the useless-interposition convention;
//! * [`length`]: exact mate lengths;
//! * [`reader`]: reading lines off the searches;
//! * [`questions`]: the public questions.

pub mod anchors;
pub mod engine;
pub mod entry;
pub mod expansion;
pub mod groups;
pub mod hands;
pub mod interposition;
pub mod key;
pub mod length;
pub mod line;
pub mod mate_len;
pub mod monitor;
pub mod node;
pub mod numbers;
pub mod options;
pub mod questions;
pub mod reader;
pub mod result;
pub mod sets;
pub mod slab;
pub mod table;

pub use engine::{Halt, Limits, Search};
pub use options::Options;

#[cfg(test)]
pub(crate) mod testing;
