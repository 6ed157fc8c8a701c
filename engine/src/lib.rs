//! The rules engine of tsume: one-dimensional shogi variants (Ito Shogi,
//! Rutherford's 1-D Shogi, and any other described as data).
//!
//! * [`variant`]: a variant as data (faces, leaps, rides, kinds, switches);
//! * [`tables`]: the lookup tables built from it for one board length;
//! * [`position`]: the position, make/unmake and hashes; further `impl`
//!   blocks in [`attacks`], [`movegen`], [`legal`], [`checks`],
//!   [`interposition`];
//! * [`perft`] and [`unmove`] (the composer's retro-moves).
//! * [`search`]: the df-pn search and the questions the package asks of it.
//!
//! The Python binding (`tsume._engine`) is behind the `python` feature.

pub mod attacks;
pub mod checks;
pub mod colour;
pub mod error;
pub mod hand;
pub mod interposition;
pub mod legal;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod search;
pub mod square;
pub mod tables;
pub mod unmove;
pub mod variant;
pub mod zobrist;

#[cfg(feature = "python")]
mod python;

pub use colour::Colour;
pub use error::{EngineError, Result};
pub use hand::Hand;
pub use moves::{Move, MoveList, MAX_MOVES};
pub use position::Position;
pub use square::{Mask, Square};
pub use tables::Tables;
pub use variant::Variant;
