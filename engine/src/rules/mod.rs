//! The rules: one-dimensional shogi variants as data, and everything the
//! search and the binding ask of a position.
//!
//! * [`variant`]: a variant as data (faces, leaps, rides, kinds, switches);
//! * [`tables`]: the lookup tables built from it for one board length;
//! * [`square`], [`colour`], [`moves`], [`hand`], [`zobrist`]: the values;
//! * [`position`]: the position, make/unmake and hashes; further `impl`
//!   blocks in [`attacks`], [`movegen`], [`legal`], [`checks`],
//!   [`interposition`];
//! * [`notation`]: the one reader and writer of position, hand and move strings;
//! * [`perft`] and [`unmove`] (the composer's retro-moves);
//! * [`error`]: what goes wrong, as types.

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
pub mod square;
pub mod tables;
pub mod unmove;
pub mod variant;
pub mod zobrist;
