//! The df-pn search: does the side to move (the attacker) mate within a bound?
//!
//! One concept per file:
//!
//! * [`bound`]: length bounds and proof/disproof numbers;
//! * [`hands`]: proof and disproof hands, carried over moves;
//! * [`value`]: what the search knows of a position at a bound;
//! * [`line`]: the positions on the current line;
//! * [`anchors`]: anchors and epochs, which say when a proof may be used;
//! * [`sets`]: the bounded home of the line positions results rest on;
//! * [`entry`] and [`table`]: the transposition table;
//! * [`monitor`]: node counting and limits.

pub mod anchors;
pub mod bound;
pub mod entry;
pub mod hands;
pub mod line;
pub mod monitor;
pub mod sets;
pub mod table;
pub mod value;
