//! A variant as data: faces with leaps and rides, piece kinds, rule switches.
//!
//! The engine knows no piece names: every table is built from this
//! description, read from JSON in the shape of `engine/variants.json` (the one
//! definition of Ito and Rutherford) or of `dataclasses.asdict` of a Python
//! `tsume.variant.Variant`.  Directions are relative to the mover: `+1` is
//! forward (toward the opponent's home end).

use serde::Deserialize;

use crate::rules::error::{EngineError, Result};
use crate::rules::square::MAX_SQUARES;

/// How a ride reaches a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum RideMode {
    /// The squares before it are empty.
    #[default]
    Slide,
    /// Exactly one piece (the screen) stands before it.
    Hop,
    /// Never.
    None,
}

/// A repeated move in one direction.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Ride {
    /// +1 forward, -1 backward.
    pub direction: i32,
    /// The ride lands on every `stride`-th square and ignores those between.
    #[serde(default = "one")]
    pub stride: i32,
    /// The farthest distance in squares (0: unlimited).
    #[serde(default)]
    pub max_distance: i32,
    /// How the ride reaches empty squares.
    #[serde(default, rename = "move")]
    pub move_mode: RideMode,
    /// How it reaches an enemy piece.
    #[serde(default)]
    pub capture: RideMode,
}

fn one() -> i32 {
    1
}

fn yes() -> bool {
    true
}

fn two() -> u32 {
    2
}

/// One face of a piece.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Face {
    /// Its name (for messages only).
    pub name: String,
    /// Forward-relative offsets reached whatever stands between.
    #[serde(default)]
    pub leaps: Vec<i32>,
    /// Its rides.
    #[serde(default)]
    pub rides: Vec<Ride>,
}

impl Face {
    /// Its leaps and rides are ones the tables can hold.
    fn check(&self) -> std::result::Result<(), String> {
        if self
            .leaps
            .iter()
            .any(|&l| l == 0 || l.unsigned_abs() as usize >= MAX_SQUARES)
        {
            return Err(format!(
                "face {}: a leap must be a non-zero offset below {MAX_SQUARES}",
                self.name
            ));
        }
        for r in &self.rides {
            if r.direction != 1 && r.direction != -1 {
                return Err(format!(
                    "ride direction must be +1 or -1, not {}",
                    r.direction
                ));
            }
            if r.stride < 1 || r.stride as usize > MAX_SQUARES || r.max_distance < 0 {
                return Err(format!(
                    "ride stride must be 1 to {MAX_SQUARES} and max_distance >= 0"
                ));
            }
        }
        Ok(())
    }
}

/// A piece of the set.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct PieceKind {
    /// One uppercase letter.
    pub letter: String,
    /// The face it shows unpromoted (and is captured as).
    pub unpromoted: Face,
    /// The other face; `None` for a piece that never flips.
    #[serde(default)]
    pub promoted: Option<Face>,
    /// The king.
    #[serde(default)]
    pub royal: bool,
    /// How many the whole set holds (both sides together).
    #[serde(default = "two")]
    pub count: u32,
}

/// What the stalemate rule says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Stalemate {
    /// A move leaving the opponent, not in check, without a king-safe move is illegal.
    #[default]
    Illegal,
    /// Such a move is allowed and the stalemated side loses.
    Loss,
}

/// A one-dimensional shogi game.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Variant {
    /// Its short name.
    pub name: String,
    /// Its full name (for messages).
    #[serde(default)]
    pub title: String,
    /// The piece set.
    pub kinds: Vec<PieceKind>,
    /// A fixed length, or `None` to take it from each position.
    #[serde(default)]
    pub board_length: Option<u32>,
    /// The shortest board.
    pub min_length: u32,
    /// The longest board.
    pub max_length: u32,
    /// The start position string, if any.
    #[serde(default)]
    pub start: Option<String>,
    /// A piece may be dropped either side up.
    #[serde(default)]
    pub drop_promoted: bool,
    /// No drop behind one's own king nor at distance < 2 from it.
    #[serde(default)]
    pub drop_king_limits: bool,
    /// A drop may give checkmate.
    #[serde(default = "yes")]
    pub drop_mate: bool,
    /// The stalemate rule.
    #[serde(default)]
    pub stalemate: Stalemate,
    /// A move making a position occur for the third time is illegal (in games).
    #[serde(default = "yes")]
    pub repetition: bool,
}

/// The most piece kinds a variant may have (a hand packs one byte per kind into a u64).
pub const MAX_KINDS: usize = 8;
/// The most faces (a piece value `face << 1 | colour` fits one bit of a u64 set of values).
pub const MAX_FACES: usize = 31;
/// The most pieces of one kind in the set.
pub const MAX_COUNT: u32 = 100;

impl Variant {
    /// Reads one variant from JSON and validates it.
    pub fn from_json(text: &str) -> Result<Variant> {
        let v: Variant = serde_json::from_str(text)
            .map_err(|e| EngineError::Variant(format!("variant description: {e}")))?;
        v.validate()?;
        Ok(v)
    }

    /// Reads a JSON list of variants ([`BUILTIN_JSON`]'s shape) and validates each.
    pub fn list_from_json(text: &str) -> Result<Vec<Variant>> {
        let vs: Vec<Variant> = serde_json::from_str(text)
            .map_err(|e| EngineError::Variant(format!("variant list: {e}")))?;
        for v in &vs {
            v.validate()?;
        }
        Ok(vs)
    }

    /// Checks everything the tables rely on.
    pub fn validate(&self) -> Result<()> {
        self.check_set()
            .and_then(|()| self.check_lengths())
            .map_err(|what| EngineError::Variant(format!("variant {}: {what}", self.name)))
    }

    /// The kinds, their letters, counts and moves.
    fn check_set(&self) -> std::result::Result<(), String> {
        if self.kinds.is_empty() || self.kinds.len() > MAX_KINDS {
            return Err(format!(
                "1 to {MAX_KINDS} piece kinds needed, not {}",
                self.kinds.len()
            ));
        }
        let faces: usize = self
            .kinds
            .iter()
            .map(|k| 1 + k.promoted.is_some() as usize)
            .sum();
        if faces > MAX_FACES {
            return Err(format!("at most {MAX_FACES} faces, not {faces}"));
        }
        if self.kinds.iter().filter(|k| k.royal).count() != 1 {
            return Err("exactly one royal piece kind needed".into());
        }
        for (i, k) in self.kinds.iter().enumerate() {
            let mut chars = k.letter.chars();
            if !matches!((chars.next(), chars.next()), (Some(c), None) if c.is_ascii_uppercase()) {
                return Err(format!(
                    "piece letter {:?} must be one uppercase letter",
                    k.letter
                ));
            }
            if self.kinds[..i].iter().any(|o| o.letter == k.letter) {
                return Err("duplicate piece letters".into());
            }
            if k.royal && k.promoted.is_some() {
                return Err("the royal piece must not flip".into());
            }
            if k.count > MAX_COUNT {
                return Err(format!(
                    "at most {MAX_COUNT} pieces of a kind, not {}",
                    k.count
                ));
            }
            for face in std::iter::once(&k.unpromoted).chain(k.promoted.iter()) {
                face.check()?;
            }
        }
        Ok(())
    }

    /// The board lengths.
    fn check_lengths(&self) -> std::result::Result<(), String> {
        if self.min_length < 1 || self.min_length > self.max_length {
            return Err(format!(
                "lengths {}..{} are not a range of board lengths",
                self.min_length, self.max_length
            ));
        }
        if self.max_length as usize > MAX_SQUARES {
            return Err(format!(
                "boards longer than {MAX_SQUARES} squares are not supported"
            ));
        }
        if let Some(n) = self.board_length {
            if !(self.min_length..=self.max_length).contains(&n) {
                return Err("board_length outside min/max".into());
            }
        }
        Ok(())
    }

    /// Is `n` a board length of this variant?
    pub fn fits(&self, n: usize) -> bool {
        (self.min_length as usize..=self.max_length as usize).contains(&n)
            && self.board_length.is_none_or(|b| b as usize == n)
    }

    /// The title, or the name if it has none.
    pub fn display_name(&self) -> &str {
        if self.title.is_empty() {
            &self.name
        } else {
            &self.title
        }
    }

    /// The index of the royal kind.
    pub fn royal_kind(&self) -> usize {
        self.kinds.iter().position(|k| k.royal).unwrap_or(0)
    }
}

/// The built-in variants (Ito and Rutherford) as JSON: their one
/// definition, which the package reads through the binding.
pub const BUILTIN_JSON: &str = include_str!("../../variants.json");

/// The variants of [`BUILTIN_JSON`], for tests.
#[cfg(test)]
pub(crate) fn builtin(name: &str) -> Variant {
    let all = Variant::list_from_json(BUILTIN_JSON).expect("variants.json reads");
    all.into_iter()
        .find(|v| v.name == name)
        .expect("a built-in variant")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_read() {
        let ito = builtin("ito");
        assert_eq!(ito.kinds.len(), 7);
        assert_eq!(ito.board_length, Some(31));
        assert_eq!(ito.stalemate, Stalemate::Illegal);
        assert!(ito.drop_mate);
        let r = builtin("rutherford");
        assert_eq!(r.max_length, 64);
        assert!(r.drop_king_limits && r.drop_promoted && !r.drop_mate);
        assert_eq!(r.stalemate, Stalemate::Loss);
        assert!(r.fits(9) && r.fits(64) && !r.fits(65) && !r.fits(8));
        assert!(ito.fits(31) && !ito.fits(30));
    }

    fn with(f: impl FnOnce(&mut Variant)) -> Result<()> {
        let mut v = builtin("ito");
        f(&mut v);
        v.validate()
    }

    #[test]
    fn bad_descriptions_are_errors() {
        assert!(with(|v| v.max_length = 65).is_err());
        assert!(with(|v| v.kinds[0].royal = false).is_err());
        assert!(with(|v| v.kinds[1].letter = "p".into()).is_err());
        assert!(with(|v| v.kinds[1].letter = "T".into()).is_err());
        assert!(with(|v| v.kinds[1].unpromoted.leaps.push(0)).is_err());
        assert!(with(|v| v.kinds[3].unpromoted.rides[0].direction = 2).is_err());
        assert!(with(|v| v.kinds[3].unpromoted.rides[0].stride = 0).is_err());
        assert!(with(|v| v.kinds[3].unpromoted.rides[0].stride = i32::MAX).is_err());
        assert!(with(|v| v.kinds[1].unpromoted.leaps.push(i32::MIN)).is_err());
        assert!(with(|v| v.board_length = Some(30)).is_err());
        assert!(with(|v| v.kinds.clear()).is_err());
        assert!(with(|v| v.kinds[1].count = 1000).is_err());
        assert!(with(|v| {
            let k = v.kinds[1].clone();
            v.kinds.extend(std::iter::repeat_n(k, 2));
        })
        .is_err());
        assert!(Variant::from_json("{").is_err());
        assert!(Variant::from_json("[]").is_err());
        assert!(Variant::from_json(
            r#"{"name": "x", "kinds": [], "min_length": 1, "max_length": 5}"#
        )
        .is_err());
    }
}
