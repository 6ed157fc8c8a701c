//! The engine of tsume: one-dimensional shogi variants (Ito Shogi,
//! Rutherford's 1-D Shogi, and any other described as data), in layers:
//!
//! * [`rules`]: variants as data, positions, moves, checks and evasions,
//!   notation, perft, un-moves;
//! * [`search`]: the df-pn search and the questions the package asks of it,
//!   over the rules;
//! * [`census`]: the census's retrograde analysis of many positions at once,
//!   over the rules;
//! * `python` (the `python` feature): the binding `tsume._engine`, over both.

pub mod census;
pub mod rules;
pub mod search;

#[cfg(feature = "python")]
mod python;

pub use rules::colour::Colour;
pub use rules::error::{EngineError, Result};
pub use rules::hand::Hand;
pub use rules::moves::{Move, MoveList, MAX_MOVES};
pub use rules::position::Position;
pub use rules::square::{Mask, Square};
pub use rules::tables::Tables;
pub use rules::variant::Variant;
