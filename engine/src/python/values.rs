//! The rules' values as Python sees them, in python-chess's manner: `Colour`,
//! `SquareSet`, `Piece`, `Move`, `Termination` and `Outcome`, each immutable
//! and hashable.  Inside the engine they are small integers; they cross the
//! boundary only as these.

use std::hash::{Hash, Hasher};

use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use super::{ArgumentError, MoveError};
use crate::rules::colour::Colour;
use crate::rules::square::{Mask, MAX_SQUARES};

/// A side: `Colour.BLACK` (moves toward square 1, moves first) or
/// `Colour.WHITE`.  Equal to, hashed as and usable as the index 0 or 1, so
/// that `hands[colour]` and `colour ^ 1` read as they did with plain ints.
#[pyclass(name = "Colour", module = "tsume._engine", eq, eq_int, frozen)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PyColour {
    #[pyo3(name = "BLACK")]
    Black = 0,
    #[pyo3(name = "WHITE")]
    White = 1,
}

impl From<Colour> for PyColour {
    fn from(c: Colour) -> PyColour {
        match c {
            Colour::Black => PyColour::Black,
            Colour::White => PyColour::White,
        }
    }
}

impl From<PyColour> for Colour {
    fn from(c: PyColour) -> Colour {
        match c {
            PyColour::Black => Colour::Black,
            PyColour::White => Colour::White,
        }
    }
}

#[pymethods]
impl PyColour {
    /// The other side.
    fn other(&self) -> PyColour {
        Colour::from(*self).flip().into()
    }

    /// `Black` or `White`.
    #[getter]
    fn title(&self) -> &'static str {
        Colour::from(*self).name()
    }

    fn __invert__(&self) -> PyColour {
        self.other()
    }

    /// `colour ^ 1` is the other side, `colour ^ 0` the same one.
    fn __xor__(&self, other: i64) -> PyResult<PyColour> {
        match other {
            0 => Ok(*self),
            1 => Ok(self.other()),
            _ => Err(ArgumentError::new_err(format!(
                "a colour ^ {other}: only ^ 0 and ^ 1 name a colour"
            ))),
        }
    }

    fn __rxor__(&self, other: i64) -> PyResult<PyColour> {
        self.__xor__(other)
    }

    fn __index__(&self) -> usize {
        *self as usize
    }

    fn __int__(&self) -> usize {
        *self as usize
    }

    fn __hash__(&self) -> u64 {
        *self as u64
    }

    /// Pickled as `getattr(Colour, "BLACK")`: an enum member has no constructor.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Named<'py>> {
        let py = slf.py();
        let name = match slf.get() {
            PyColour::Black => "BLACK",
            PyColour::White => "WHITE",
        };
        let getattr = py.import("builtins")?.getattr("getattr")?;
        Ok((getattr, (slf.py().get_type::<PyColour>().into_any(), name)))
    }
}

/// What `Colour.__reduce__` returns: `getattr` and its arguments.
type Named<'py> = (Bound<'py, PyAny>, (Bound<'py, PyAny>, &'static str));

/// A colour argument: a `Colour`, or 0/1.
pub fn colour_arg(value: &Bound<'_, PyAny>) -> PyResult<Colour> {
    if let Ok(c) = value.cast::<PyColour>() {
        return Ok((*c.get()).into());
    }
    match value.extract::<i64>() {
        Ok(0) => Ok(Colour::Black),
        Ok(1) => Ok(Colour::White),
        _ => Err(ArgumentError::new_err(format!(
            "colour must be Colour.BLACK or Colour.WHITE (or 0, 1), not {}",
            super::quote_value(value)
        ))),
    }
}

/// A set of squares, as python-chess's `SquareSet`: iterated lowest square
/// first, with `in`, `len`, `|`, `&`, `-`, `^`; `int()` is its mask (bit
/// `s - 1` for square `s`, as everywhere in the engine).
#[pyclass(name = "SquareSet", module = "tsume._engine", frozen, eq, hash)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PySquareSet {
    pub mask: Mask,
}

impl PySquareSet {
    pub fn of(mask: Mask) -> PySquareSet {
        PySquareSet { mask }
    }

    fn squares(&self) -> Vec<u8> {
        (0..MAX_SQUARES as u8)
            .filter(|i| self.mask >> i & 1 != 0)
            .map(|i| i + 1)
            .collect()
    }
}

#[pymethods]
impl PySquareSet {
    /// The squares given (each from 1 to 64).
    #[new]
    #[pyo3(signature = (squares=None))]
    fn new(squares: Option<&Bound<'_, PyAny>>) -> PyResult<PySquareSet> {
        let mut mask: Mask = 0;
        if let Some(items) = squares {
            for item in items.try_iter()? {
                let item = item?;
                let s: i64 = item.extract().map_err(|_| {
                    ArgumentError::new_err(format!(
                        "a square is a whole number, not {}",
                        super::quote_value(&item)
                    ))
                })?;
                if !(1..=MAX_SQUARES as i64).contains(&s) {
                    return Err(ArgumentError::new_err(format!(
                        "square {s} is outside 1..{MAX_SQUARES}"
                    )));
                }
                mask |= 1 << (s - 1);
            }
        }
        Ok(PySquareSet { mask })
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        PyList::new(py, self.squares())?
            .into_any()
            .try_iter()
            .map(|i| i.into_any())
    }

    fn __len__(&self) -> usize {
        self.mask.count_ones() as usize
    }

    fn __bool__(&self) -> bool {
        self.mask != 0
    }

    fn __contains__(&self, square: i64) -> bool {
        (1..=MAX_SQUARES as i64).contains(&square) && self.mask >> (square - 1) & 1 != 0
    }

    fn __or__(&self, other: &PySquareSet) -> PySquareSet {
        PySquareSet::of(self.mask | other.mask)
    }

    fn __and__(&self, other: &PySquareSet) -> PySquareSet {
        PySquareSet::of(self.mask & other.mask)
    }

    fn __sub__(&self, other: &PySquareSet) -> PySquareSet {
        PySquareSet::of(self.mask & !other.mask)
    }

    fn __xor__(&self, other: &PySquareSet) -> PySquareSet {
        PySquareSet::of(self.mask ^ other.mask)
    }

    fn __int__(&self) -> u64 {
        self.mask
    }

    fn __repr__(&self) -> String {
        let squares: Vec<String> = self.squares().iter().map(|s| s.to_string()).collect();
        format!("SquareSet([{}])", squares.join(", "))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Vec<u8>,))> {
        Ok((slf.get_type().into_any(), (slf.get().squares(),)))
    }
}

/// A piece of a variant: its face (`letter`, `+` first when promoted, as in
/// position strings; `name`), its kind (the unpromoted letter), its colour,
/// whether it is the king.  Equal when letter and colour are.  Made by the
/// engine (`Position.piece_at`, `Tables.piece`), never from a bare letter, so
/// that it always names a piece of its game.
#[pyclass(name = "Piece", module = "tsume._engine", frozen)]
#[derive(Clone, Debug)]
pub struct PyPiece {
    pub letter: String,
    pub colour: Colour,
    pub name: String,
    pub kind: char,
    pub royal: bool,
}

impl PartialEq for PyPiece {
    fn eq(&self, other: &Self) -> bool {
        self.letter == other.letter && self.colour == other.colour
    }
}

impl Hash for PyPiece {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.letter.hash(state);
        self.colour.hash(state);
    }
}

#[pymethods]
impl PyPiece {
    /// A piece as its game names it (the engine makes these: `Tables.piece`,
    /// `Position.piece_at`); whether it is a piece of a given game is that
    /// game's to say when it is used.
    #[new]
    #[pyo3(signature = (letter, colour, name, royal=false))]
    fn new(letter: &str, colour: &Bound<'_, PyAny>, name: &str, royal: bool) -> PyResult<PyPiece> {
        let up = letter.to_ascii_uppercase();
        let kind = match up.as_bytes() {
            [b'+', l] | [l] if l.is_ascii_alphabetic() => *l as char,
            _ => {
                return Err(ArgumentError::new_err(format!(
                    "a piece's letter is one letter, optionally after '+', not {letter:?}"
                )))
            }
        };
        Ok(PyPiece {
            letter: up,
            colour: colour_arg(colour)?,
            name: name.to_string(),
            kind,
            royal,
        })
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, PyColour, String, bool))> {
        let p = slf.get();
        Ok((
            slf.get_type().into_any(),
            (p.letter.clone(), p.colour.into(), p.name.clone(), p.royal),
        ))
    }

    /// The face's letter, uppercase, `+` first when promoted (`P`, `+P`).
    #[getter]
    fn letter(&self) -> &str {
        &self.letter
    }

    #[getter]
    fn colour(&self) -> PyColour {
        self.colour.into()
    }

    /// The face's name (`Pawn`, `Go-Between`).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The kind: the unpromoted letter (`P` for `+P`), what it is in hand.
    #[getter]
    fn kind(&self) -> String {
        self.kind.to_string()
    }

    #[getter]
    fn promoted(&self) -> bool {
        self.letter.starts_with('+')
    }

    /// Is it a king?
    #[getter]
    fn royal(&self) -> bool {
        self.royal
    }

    /// As a position string writes it: White's in lowercase (`+p`).
    fn symbol(&self) -> String {
        match self.colour {
            Colour::Black => self.letter.clone(),
            Colour::White => self.letter.to_ascii_lowercase(),
        }
    }

    fn __str__(&self) -> String {
        self.symbol()
    }

    fn __repr__(&self) -> String {
        format!("Piece('{}')", self.symbol())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyPiece>().is_ok_and(|o| *o.get() == *self)
    }

    fn __hash__(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.hash(&mut h);
        h.finish()
    }
}

/// A move as a value: `from_square` and `to_square` for a board move; for a
/// drop `from_square` is None and `drop` the dropped face's letter (`P`, or
/// `+L` for a piece dropped promoted side up).  `str()` is the move string
/// (`19-18`, `P*18`, `+L*18`), `Move.parse` reads one (for form; a position
/// says whether it is legal there).  Equal and hashed by what it says.
#[pyclass(name = "Move", module = "tsume._engine", frozen, eq, ord, hash)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PyMove {
    pub from: u8,
    pub to: u8,
    /// A drop: the letter (uppercase) and whether it lands promoted side up.
    pub drop: Option<(char, bool)>,
}

/// Board moves first, by from- then to-square, then drops by square and
/// letter: a fixed order for sorting (a game's own order is
/// `tsume.render.canonical_order`).
impl Ord for PyMove {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let key = |m: &PyMove| (m.drop.is_some(), m.from, m.to, m.drop);
        key(self).cmp(&key(other))
    }
}

impl PartialOrd for PyMove {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PyMove {
    pub fn board(from: u8, to: u8) -> PyMove {
        PyMove {
            from,
            to,
            drop: None,
        }
    }

    pub fn string(&self) -> String {
        match self.drop {
            None => format!("{}-{}", self.from, self.to),
            Some((l, promoted)) => format!("{}{l}*{}", if promoted { "+" } else { "" }, self.to),
        }
    }

    fn square(value: i64, what: &str) -> PyResult<u8> {
        if (1..=MAX_SQUARES as i64).contains(&value) {
            Ok(value as u8)
        } else {
            Err(MoveError::new_err(format!(
                "{what} {value} is outside 1..{MAX_SQUARES}"
            )))
        }
    }

    fn drop_letter(text: &str) -> Option<(char, bool)> {
        match text.as_bytes() {
            [b'+', l] if l.is_ascii_alphabetic() => Some(((*l as char).to_ascii_uppercase(), true)),
            [l] if l.is_ascii_alphabetic() => Some(((*l as char).to_ascii_uppercase(), false)),
            _ => None,
        }
    }
}

#[pymethods]
impl PyMove {
    /// `Move(19, 18)` is a board move, `Move(None, 18, drop="P")` a drop.
    #[new]
    #[pyo3(signature = (from_square, to_square, drop=None))]
    fn new(from_square: Option<i64>, to_square: i64, drop: Option<&str>) -> PyResult<PyMove> {
        let to = PyMove::square(to_square, "to-square")?;
        match (from_square, drop) {
            (Some(f), None) => {
                let from = PyMove::square(f, "from-square")?;
                if from == to {
                    return Err(MoveError::new_err(
                        "from- and to-square are the same".to_string(),
                    ));
                }
                Ok(PyMove::board(from, to))
            }
            (None, Some(d)) => {
                let drop = PyMove::drop_letter(d).ok_or_else(|| {
                    MoveError::new_err(format!(
                        "a drop names a piece letter, optionally after '+', not {d:?}"
                    ))
                })?;
                Ok(PyMove {
                    from: 0,
                    to,
                    drop: Some(drop),
                })
            }
            _ => Err(MoveError::new_err(
                "a move has a from-square or drops a piece, one of the two".to_string(),
            )),
        }
    }

    /// Reads a move string (`19-18`, `P*18`, `+L*18`) for form only: whether
    /// its squares are on a board and its piece droppable is the position's
    /// to say (`Position.parse_move` says both).
    #[staticmethod]
    fn parse(text: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let Ok(s) = text.extract::<String>() else {
            return Err(MoveError::new_err(format!(
                "move must be a string, not {}",
                super::type_name(text)
            )));
        };
        let t = s.trim();
        let bad = || {
            MoveError::new_err(format!(
                "move {}: expected <from>-<to>, <L>*<to> or +<L>*<to>",
                super::quote_value(text)
            ))
        };
        let number = |x: &str| -> PyResult<i64> {
            if x.is_empty() || x.len() > 9 || !x.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            Ok(x.parse().expect("digits"))
        };
        if let Some((f, to)) = t.split_once('-') {
            return PyMove::new(Some(number(f)?), number(to)?, None);
        }
        let (piece, to) = t.split_once('*').ok_or_else(bad)?;
        PyMove::new(None, number(to)?, Some(piece))
    }

    /// The from-square (None for a drop).
    #[getter(from_square)]
    fn origin(&self) -> Option<u8> {
        self.drop.is_none().then_some(self.from)
    }

    #[getter(to_square)]
    fn target(&self) -> u8 {
        self.to
    }

    /// A drop's face letter (`P`, `+L`), None for a board move.
    #[getter]
    fn drop(&self) -> Option<String> {
        self.drop
            .map(|(l, p)| format!("{}{l}", if p { "+" } else { "" }))
    }

    #[getter]
    fn is_drop(&self) -> bool {
        self.drop.is_some()
    }

    fn __str__(&self) -> String {
        self.string()
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.string())
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let m = slf.get();
        let args = PyTuple::new(
            py,
            [
                m.origin().into_pyobject(py)?.into_any(),
                m.to.into_pyobject(py)?.into_any(),
                m.drop().into_pyobject(py)?.into_any(),
            ],
        )?;
        Ok((slf.get_type().into_any(), args))
    }
}

/// How a game ended.
#[pyclass(
    name = "Termination",
    module = "tsume._engine",
    eq,
    eq_int,
    frozen,
    hash
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PyTermination {
    /// The side to move is in check and has no legal move.
    #[pyo3(name = "CHECKMATE")]
    Checkmate,
    /// The side to move is not in check and has no legal move (it loses).
    #[pyo3(name = "STALEMATE")]
    Stalemate,
}

/// The end of a game, as python-chess's `Outcome`: how, and who won.
#[pyclass(name = "Outcome", module = "tsume._engine", frozen, eq, hash)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PyOutcome {
    pub termination: PyTermination,
    pub winner: Colour,
}

#[pymethods]
impl PyOutcome {
    #[getter]
    fn termination(&self) -> PyTermination {
        self.termination
    }

    #[getter]
    fn winner(&self) -> PyColour {
        self.winner.into()
    }

    fn __repr__(&self) -> String {
        let how = match self.termination {
            PyTermination::Checkmate => "CHECKMATE",
            PyTermination::Stalemate => "STALEMATE",
        };
        let who = match self.winner {
            Colour::Black => "BLACK",
            Colour::White => "WHITE",
        };
        format!("Outcome(termination=Termination.{how}, winner=Colour.{who})")
    }
}
