//! `Setup`: a position string's fields read for form only (shakmaty's word),
//! what the studio's editor draws before the position is legal (two kings of
//! a side while one is moved, a piece too many).

use pyo3::prelude::*;

use super::tables::PyTables;
use super::values::{PyColour, PyPiece};
use super::variants::{read_setup, variant_key};
use super::{type_name, PositionError};
use crate::rules::notation::Setup;

/// The fields of a position string, not validated: `board` (a `Piece` or
/// None per square, square 1 first), `turn`, `hands` (`[black counts,
/// white counts]` by kind), `move_number`, and the `tables` of its variant
/// and length.  `Position(setup.fen())` makes the position when it is legal.
#[pyclass(name = "Setup", module = "tsume._engine", frozen)]
pub struct PySetup {
    setup: Setup,
    tables: Py<PyTables>,
}

#[pymethods]
impl PySetup {
    /// Reads a position string for `variant` (default Ito) without validating it.
    #[new]
    #[pyo3(signature = (text, variant=None))]
    fn new(
        py: Python<'_>,
        text: &Bound<'_, PyAny>,
        variant: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let key = variant_key(py, variant.filter(|v| !v.is_none()))?;
        let text: String = text.extract().map_err(|_| {
            PositionError::new_err(format!(
                "position must be a string, not {}",
                type_name(text)
            ))
        })?;
        let (setup, tables) = read_setup(py, &text, &key)?;
        Ok(PySetup { setup, tables })
    }

    /// The tables of its variant and board length.
    #[getter]
    fn tables(&self, py: Python<'_>) -> Py<PyTables> {
        self.tables.clone_ref(py)
    }

    /// A `Piece` or None per square, square 1 first.
    #[getter]
    fn board(&self, py: Python<'_>) -> Vec<Option<Py<PyPiece>>> {
        let t = self.tables.get();
        self.setup
            .board
            .iter()
            .map(|&v| t.piece_of(py, v))
            .collect()
    }

    /// The side to move.
    #[getter]
    fn turn(&self) -> PyColour {
        self.setup.turn.into()
    }

    /// `[black counts, white counts]` by kind.
    #[getter]
    fn hands(&self) -> Vec<Vec<u8>> {
        self.setup.hands.to_vec()
    }

    /// The move number.
    #[getter]
    fn move_number(&self) -> u64 {
        self.setup.move_number
    }

    /// The position string (move number included).
    fn fen(&self) -> String {
        self.setup.fen()
    }
}
