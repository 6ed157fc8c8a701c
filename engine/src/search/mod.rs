//! The df-pn search: does the side to move (the attacker) mate within a bound?
//!
//! One concept per file, from the ground up:
//!
//! * [`mate_len`]: mate lengths and bounds on them ([`mate_len::MateLen`]);
//! * [`numbers`]: proof and disproof numbers;
//! * [`hands`]: proof and disproof hands, carried over moves;
//! * [`result`]: what the search knows of a position ([`result::SearchResult`]);
//! * [`line`]: the positions on the current line;
//! * [`anchors`]: anchors and epochs, which say when a proof may be used;
//! * [`sets`]: the bounded home of the line positions results rest on;
//! * [`key`]: a position as the table knows it;
//! * [`bits`]: a set of slots, for the table's growth;
//! * [`entry`] and [`table`]: the transposition table, in a [`slab`];
//! * [`monitor`]: node counting and limits;
//! * [`options`]: the switches;
//! * [`groups`]: drops counted once;
//! * [`expansion`]: a node's children, phi and delta, thresholds;
//! * [`dfpn`]: the df-pn search with a length bound ([`dfpn::Dfpn`]);
//! * [`length`]: exact mate lengths ([`length::Length`]);
//! * [`verdicts`] and [`useless`]: the useless-interposition convention;
//! * [`memo`] and [`reader`]: reading lines off the searches;
//! * [`engine`]: the search of one problem and its questions ([`Search`]).

pub mod anchors;
pub mod bits;
pub mod dfpn;
pub mod engine;
pub mod entry;
pub mod expansion;
pub mod groups;
pub mod hands;
pub mod key;
pub mod length;
pub mod line;
pub mod mate_len;
pub mod memo;
pub mod monitor;
pub mod numbers;
pub mod options;
pub mod reader;
pub mod result;
pub mod sets;
pub mod slab;
pub mod table;
pub mod useless;
pub mod verdicts;

pub use engine::{Limits, Search};
pub use monitor::Halt;
pub use options::Options;

#[cfg(test)]
pub(crate) mod testing;
