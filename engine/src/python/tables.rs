//! `Tables`: a variant on one board length, as Python sees it.  The engine's
//! tables are indexed by small integers (faces, `face << 1 | colour`
//! values); this face of them speaks in letters, `Piece`s and `Move`s, and
//! converts between the two for the rest of the binding.

use std::sync::Arc;

use pyo3::prelude::*;

use super::values::{colour_arg, PyMove, PyPiece, PySquareSet};
use super::{engine_error, py_repr, type_name, ArgumentError, IllegalMoveError, MoveError};
use crate::rules::colour::Colour;
use crate::rules::moves::Move;
use crate::rules::notation;
use crate::rules::square::Square;
use crate::rules::tables::Tables;

/// The tables of one variant and board length (read-only; made once per
/// variant and length by `tables_for`).
#[pyclass(name = "Tables", module = "tsume._engine", frozen)]
pub struct PyTables {
    pub tables: Arc<Tables>,
    variant: Py<PyAny>,
    /// The `Piece` of each piece value (`face << 1 | colour`), made once.
    pieces: Vec<Option<Py<PyPiece>>>,
}

impl PyTables {
    pub fn new(py: Python<'_>, tables: Arc<Tables>, variant: Py<PyAny>) -> PyResult<PyTables> {
        let t = &*tables;
        let mut pieces = vec![None, None];
        for v in 2..t.nvalues {
            let face = v >> 1;
            let letter = t.face_letter[face].clone();
            let piece = PyPiece {
                kind: letter.trim_start_matches('+').chars().next().unwrap_or('?'),
                letter,
                colour: Colour::from_index(v),
                name: t.face_name[face].clone(),
                royal: t.royal[v],
            };
            pieces.push(Some(Py::new(py, piece)?));
        }
        Ok(PyTables {
            tables,
            variant,
            pieces,
        })
    }

    /// The `Piece` of a piece value (None for an empty square).
    pub fn piece_of(&self, py: Python<'_>, v: u8) -> Option<Py<PyPiece>> {
        self.pieces
            .get(v as usize)
            .and_then(|p| p.as_ref().map(|p| p.clone_ref(py)))
    }

    /// The piece value of a `Piece` of this variant.
    pub fn value_of(&self, p: &PyPiece) -> PyResult<u8> {
        let t = &*self.tables;
        (1..=t.nfaces)
            .find(|&f| t.face_letter[f] == p.letter)
            .map(|f| (f as u8) << 1 | p.colour.index() as u8)
            .ok_or_else(|| {
                ArgumentError::new_err(format!(
                    "{} is not a piece of {}",
                    p.letter,
                    t.variant.display_name()
                ))
            })
    }

    /// The `Move` of an engine move.
    pub fn py_move(&self, m: Move) -> PyMove {
        if !m.is_drop() {
            return PyMove::board(m.from(), m.to());
        }
        let letter = &self.tables.face_letter[m.face() as usize];
        let promoted = letter.starts_with('+');
        let l = letter.trim_start_matches('+').chars().next().unwrap_or('?');
        PyMove {
            from: 0,
            to: m.to(),
            drop: Some((l, promoted)),
        }
    }

    /// The `Move` of an engine move list.
    pub fn py_moves(&self, moves: &[Move]) -> Vec<PyMove> {
        moves.iter().map(|&m| self.py_move(m)).collect()
    }

    /// The engine move of a `Move`: its squares on this board, its dropped
    /// face one of this variant's (legality is the position's question).
    pub fn engine_move(&self, m: &PyMove) -> PyResult<Move> {
        let t = &*self.tables;
        let off = |s: Square| s == 0 || s as usize > t.n;
        if off(m.to) || (m.drop.is_none() && off(m.from)) {
            return Err(IllegalMoveError::new_err(format!(
                "move {} is off this board (1..{})",
                m.string(),
                t.n
            )));
        }
        let Some((letter, promoted)) = m.drop else {
            return Ok(Move::board(m.from, m.to));
        };
        let face = t
            .kind_index(letter)
            .map(|k| t.unpromoted_face[k] + promoted as u8)
            .filter(|&f| {
                let k = t.face_kind[f as usize] as usize;
                t.drop_faces[k].contains(&f)
            });
        face.map(|f| Move::drop(f, m.to)).ok_or_else(|| {
            IllegalMoveError::new_err(format!(
                "move {}: {} drops no such piece",
                m.string(),
                t.variant.display_name()
            ))
        })
    }

    /// A `Piece` argument (or None for an empty square) as a piece value.
    pub fn value_arg(&self, value: &Bound<'_, PyAny>) -> PyResult<u8> {
        if value.is_none() {
            return Ok(0);
        }
        let p = value.cast::<PyPiece>().map_err(|_| {
            ArgumentError::new_err(format!(
                "a square holds a Piece or None, not {}",
                type_name(value)
            ))
        })?;
        self.value_of(p.get())
    }
}

#[pymethods]
impl PyTables {
    /// The variant (the package's value).
    #[getter]
    pub fn variant(&self, py: Python<'_>) -> Py<PyAny> {
        self.variant.clone_ref(py)
    }

    /// The number of squares.
    #[getter]
    fn n(&self) -> usize {
        self.tables.n
    }

    /// The number of piece kinds.
    #[getter]
    fn nkinds(&self) -> usize {
        self.tables.nkinds
    }

    /// The index of the king's kind among the kinds.
    #[getter]
    fn royal_kind(&self) -> usize {
        self.tables.royal_kind
    }

    /// `[kind]`: its letter (the order of `hand_counts`).
    #[getter]
    fn kind_letters(&self) -> Vec<String> {
        self.tables
            .kind_letter
            .iter()
            .map(|c| c.to_string())
            .collect()
    }

    /// `[kind]`: how many the set holds.
    #[getter]
    fn kind_count(&self) -> Vec<u32> {
        self.tables.kind_count.iter().map(|&c| c as u32).collect()
    }

    /// Every face's letter in the engine's order: each kind's unpromoted face,
    /// then its promoted one (`["K", "P", "+P", ...]`): the order `legal_moves`
    /// lists drops in.
    #[getter]
    fn faces(&self) -> Vec<String> {
        self.tables.face_letter[1..].to_vec()
    }

    /// `[kind]`: the faces it may be dropped as, by letter (`["P"]`, `["L", "+L"]`; none for the king).
    #[getter]
    fn drop_letters(&self) -> Vec<Vec<String>> {
        let t = &*self.tables;
        t.drop_faces
            .iter()
            .map(|fs| {
                fs.iter()
                    .map(|&f| t.face_letter[f as usize].clone())
                    .collect()
            })
            .collect()
    }

    /// The piece a position string writes as `symbol` (`P`, `+p`; the case gives the colour).
    fn piece(&self, py: Python<'_>, symbol: &str) -> PyResult<Py<PyPiece>> {
        let t = &*self.tables;
        let letter = symbol.to_ascii_uppercase();
        let colour = if symbol.bytes().any(|b| b.is_ascii_lowercase()) {
            Colour::White
        } else {
            Colour::Black
        };
        (1..=t.nfaces)
            .find(|&f| t.face_letter[f] == letter)
            .and_then(|f| self.piece_of(py, (f as u8) << 1 | colour.index() as u8))
            .ok_or_else(|| {
                ArgumentError::new_err(format!(
                    "{} is not a piece of {}",
                    py_repr(py, symbol),
                    t.variant.display_name()
                ))
            })
    }

    /// The unpromoted piece of kind `letter` of `colour` (what a hand holds).
    fn kind_piece(
        &self,
        py: Python<'_>,
        letter: &str,
        colour: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyPiece>> {
        let c = colour_arg(colour)?;
        let t = &*self.tables;
        let k = letter
            .chars()
            .next()
            .filter(|_| letter.chars().count() == 1)
            .and_then(|l| t.kind_index(l))
            .ok_or_else(|| {
                ArgumentError::new_err(format!(
                    "{} is not a kind of {}",
                    py_repr(py, letter),
                    t.variant.display_name()
                ))
            })?;
        Ok(self
            .piece_of(py, t.unpromoted_face[k] << 1 | c.index() as u8)
            .expect("a face of the variant"))
    }

    /// Reads a hands field (`-`, `2PTg`) into `[black counts, white counts]`
    /// (the one reader of hands: position strings and stated defender hands).
    fn read_hands(&self, py: Python<'_>, field: &str) -> PyResult<Vec<Vec<u8>>> {
        let [b, w] = notation::read_hands(field, &self.tables, &|t: &str| py_repr(py, t))
            .map_err(|e| engine_error(py, e))?;
        Ok(vec![b, w])
    }

    /// Reads a move string (`19-18`, `P*18`, `+L*18`) for this board, for form
    /// only (MoveError); `Position.parse_move` also checks it is legal.
    pub fn read_move(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let Ok(s) = text.extract::<String>() else {
            return Err(MoveError::new_err(format!(
                "move must be a string, not {}",
                type_name(text)
            )));
        };
        notation::read_move(&s, &self.tables, &|t: &str| py_repr(py, t))
            .map(|m| self.py_move(m))
            .map_err(|e| engine_error(py, e))
    }

    /// The board field of a board: one `Piece` or None per square, square 1 first.
    fn board_string(&self, board: Vec<Bound<'_, PyAny>>) -> PyResult<String> {
        let n = self.tables.n;
        if board.len() != n {
            return Err(ArgumentError::new_err(format!(
                "board: {} squares given for a board of {n}",
                board.len()
            )));
        }
        let values = board
            .iter()
            .map(|v| self.value_arg(v))
            .collect::<PyResult<Vec<u8>>>()?;
        Ok(notation::board_string(&self.tables, &values))
    }

    /// The hands field of `[black counts, white counts]` (`2PTh`, `-`).
    fn hands_string(&self, hands: Vec<Vec<u8>>) -> PyResult<String> {
        let nk = self.tables.nkinds;
        if hands.len() != 2 || hands.iter().any(|h| h.len() != nk) {
            return Err(ArgumentError::new_err(format!(
                "hands: two lists of {nk} counts needed"
            )));
        }
        Ok(notation::hands_string(&self.tables, [&hands[0], &hands[1]]))
    }

    /// The squares strictly between `a` and `b`.
    fn between(&self, a: usize, b: usize) -> PySquareSet {
        let n = self.tables.n;
        if a == 0 || b == 0 || a > n || b > n {
            return PySquareSet::default();
        }
        PySquareSet::of(self.tables.between(a as u8, b as u8))
    }

    fn __repr__(&self) -> String {
        format!("Tables({}, {})", self.tables.variant.name, self.tables.n)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyTables>()
            .is_ok_and(|o| Arc::ptr_eq(&o.get().tables, &self.tables))
    }

    fn __hash__(&self) -> u64 {
        Arc::as_ptr(&self.tables) as u64
    }
}
