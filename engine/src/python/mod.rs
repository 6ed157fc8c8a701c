//! The Python module `tsume._engine`: the position and its tables as Python classes.
//!
//! The binding is the ground floor of the package: it imports nothing from
//! `tsume`.  Position, hand and move strings are read by the crate
//! ([`crate::rules::notation`]), the error classes are created here (`tsume.errors`
//! re-exports them), and the variants come from the package once, at import:
//! `tsume.variant` hands over the function that resolves a variant argument
//! (`use_variants`).  Values cross as types (`values`: `Colour`, `Move`,
//! `Piece`, `SquareSet`, `Outcome`), never as the engine's integers.

use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::rules::error::EngineError;
use crate::rules::notation;

mod census;
mod detach;
mod limits;
mod position;
mod search;
mod setup;
mod tables;
mod values;
mod variants;

pub use position::PyPosition;
pub use tables::PyTables;

pyo3::create_exception!(
    tsume.errors,
    TsumeError,
    PyValueError,
    "Base class of every error this package raises for bad input."
);
pyo3::create_exception!(
    tsume.errors,
    VariantError,
    TsumeError,
    "An unknown variant, switch or malformed variant description."
);
pyo3::create_exception!(
    tsume.errors,
    PositionError,
    TsumeError,
    "A position string that cannot be read or describes an impossible position."
);
pyo3::create_exception!(
    tsume.errors,
    MoveError,
    TsumeError,
    "A move string that cannot be read."
);
pyo3::create_exception!(
    tsume.errors,
    IllegalMoveError,
    MoveError,
    "A well-formed move that is not legal in the position."
);
pyo3::create_exception!(
    tsume.errors,
    ArgumentError,
    TsumeError,
    "An argument of a public function of the wrong type or out of its range."
);
pyo3::create_exception!(
    tsume.search,
    SearchLimit,
    PyException,
    "A time, node or depth limit stopped the search; str() says which."
);
pyo3::create_exception!(
    tsume.search,
    OverBudget,
    SearchLimit,
    "One question's node budget is spent; unlike a limit it stops that question only."
);

/// An exception of this module's class `name` with message `msg`.
fn tsume_error(_py: Python<'_>, name: &str, msg: &str) -> PyErr {
    let msg = msg.to_string();
    match name {
        "VariantError" => VariantError::new_err(msg),
        "PositionError" => PositionError::new_err(msg),
        "MoveError" => MoveError::new_err(msg),
        "IllegalMoveError" => IllegalMoveError::new_err(msg),
        "ArgumentError" => ArgumentError::new_err(msg),
        "SearchLimit" => SearchLimit::new_err(msg),
        "OverBudget" => OverBudget::new_err(msg),
        _ => TsumeError::new_err(msg),
    }
}

fn engine_error(_py: Python<'_>, e: EngineError) -> PyErr {
    let msg = e.message().to_string();
    match e {
        EngineError::Variant(_) => VariantError::new_err(msg),
        EngineError::Position(_) => PositionError::new_err(msg),
        EngineError::Move(_) => IllegalMoveError::new_err(msg),
        EngineError::MoveSyntax(_) => MoveError::new_err(msg),
        EngineError::Argument(_) => ArgumentError::new_err(msg),
    }
}

/// Python's `repr` of a string: how every message quotes what was typed.
fn py_repr(py: Python<'_>, text: &str) -> String {
    PyString::new(py, text)
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| notation::plain_quote(text))
}

/// The package's `quote()` of any value: a string cut to its start and length,
/// anything else its `repr` cut short.
fn quote_value(value: &Bound<'_, PyAny>) -> String {
    let py = value.py();
    if let Ok(s) = value.extract::<String>() {
        return notation::quote_cut(&s, &|t: &str| py_repr(py, t));
    }
    // repr() of an int over 4,300 digits raises; its size is what matters anyway.
    if value.is_instance_of::<pyo3::types::PyInt>() {
        if let Ok(bits) = value
            .call_method0("bit_length")
            .and_then(|b| b.extract::<u64>())
        {
            if bits > 4 * notation::QUOTE_LIMIT as u64 {
                let digits = (bits as f64 * std::f64::consts::LOG10_2) as u64 + 1;
                return format!(
                    "an integer of about {} digits",
                    notation::thousands(digits as usize)
                );
            }
        }
    }
    let text = value
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<object>".into());
    if text.chars().count() <= notation::QUOTE_LIMIT + 3 {
        text
    } else {
        text.chars().take(notation::QUOTE_LIMIT).collect::<String>() + "..."
    }
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".into())
}

/// The module `tsume._engine`.
#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<tables::PyTables>()?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<setup::PySetup>()?;
    m.add_class::<values::PyColour>()?;
    m.add_class::<values::PySquareSet>()?;
    m.add_class::<values::PyPiece>()?;
    m.add_class::<values::PyMove>()?;
    m.add_class::<values::PyTermination>()?;
    m.add_class::<values::PyOutcome>()?;
    m.add_class::<limits::PyLimits>()?;
    m.add_class::<limits::PyOptions>()?;
    m.add_class::<search::PySearch>()?;
    m.add("BUILTIN_VARIANTS", crate::rules::variant::BUILTIN_JSON)?;
    m.add_function(wrap_pyfunction!(variants::use_variants, m)?)?;
    m.add_function(wrap_pyfunction!(variants::tables_for, m)?)?;
    m.add_function(wrap_pyfunction!(census::census_analyse, m)?)?;
    m.add_function(wrap_pyfunction!(census::census_cancel, m)?)?;
    for (name, class) in [
        ("TsumeError", py.get_type::<TsumeError>()),
        ("VariantError", py.get_type::<VariantError>()),
        ("PositionError", py.get_type::<PositionError>()),
        ("MoveError", py.get_type::<MoveError>()),
        ("IllegalMoveError", py.get_type::<IllegalMoveError>()),
        ("ArgumentError", py.get_type::<ArgumentError>()),
        ("SearchLimit", py.get_type::<SearchLimit>()),
        ("OverBudget", py.get_type::<OverBudget>()),
    ] {
        m.add(name, class)?;
    }
    // A panic (a bug) reaches Python as this BaseException: the CLI reports it as an internal error.
    m.add(
        "PanicException",
        py.get_type::<pyo3::panic::PanicException>(),
    )?;
    Ok(())
}
