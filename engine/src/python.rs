//! The Python module `tsume._engine`: the position and its tables as Python classes.
//!
//! The binding is the ground floor of the package: it imports nothing from
//! `tsume`.  Position, hand and move strings are read by the crate
//! ([`crate::notation`]), the error classes are created here (`tsume.errors`
//! re-exports them), and the variants come from the package once, at import:
//! `tsume.variant` hands over the function that resolves a variant argument
//! (`use_variants`).  Square masks given to Python keep the package's
//! convention of bit `s` for square `s`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

use crate::colour::Colour;
use crate::error::EngineError;
use crate::hand::Hand;
use crate::moves::{Move, MoveList};
use crate::notation::{self, Setup};
use crate::perft;
use crate::position::Position;
use crate::square::Mask;
use crate::tables::Tables;
use crate::unmove;
use crate::variant::Variant;

#[path = "python_search.rs"]
mod search;

/// What `__reduce__` returns: the class and its arguments.
type Reduced<'py> = (Bound<'py, PyAny>, (String, Py<PyAny>));

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

// --- variants ------------------------------------------------------------------------------

/// A variant the binding has met: the package's value and the engine's
/// reading of its description, with the tables of each board length.
struct Known {
    object: Py<PyAny>,
    variant: Arc<Variant>,
    tables: HashMap<usize, Py<PyTables>>,
}

/// The variants met so far, by their description; the package's resolver.
#[derive(Default)]
struct Registry {
    known: HashMap<String, Known>,
    /// A variant object (by address, held alive in `known`) or a spec string to its description.
    by_object: HashMap<usize, String>,
    by_spec: HashMap<String, String>,
    builtin: Vec<Variant>,
}

/// The most variant objects and specs remembered (each `get_variant` with
/// switches makes a new object): past it the address and spec maps start over.
const REMEMBERED: usize = 4096;

static REGISTRY: Mutex<Option<Registry>> = Mutex::new(None);
static RESOLVER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn registry<T>(f: impl FnOnce(&mut Registry) -> T) -> T {
    let mut guard = REGISTRY.lock().unwrap_or_else(|p| p.into_inner());
    f(guard.get_or_insert_with(Registry::default))
}

/// Given once by `tsume.variant` at import: the function that makes a variant
/// of a `variant=` argument (a name, a spec with switches, a Variant), and the
/// built-in variants, which messages may suggest.
#[pyfunction]
fn use_variants(py: Python<'_>, resolver: Py<PyAny>, builtin: Vec<Py<PyAny>>) -> PyResult<()> {
    let mut read = vec![];
    for v in &builtin {
        let desc: String = v.bind(py).call_method0("description")?.extract()?;
        read.push(Variant::from_json(&desc).map_err(|e| engine_error(py, e))?);
    }
    let _ = RESOLVER.set(py, resolver);
    registry(|r| r.builtin = read);
    Ok(())
}

/// The description (the registry's key) of a `variant=` argument: None is the
/// resolver's default (Ito), a string a name or spec, else a Variant.
fn variant_key(py: Python<'_>, arg: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
    let spec = match arg {
        None => Some("ito".to_string()),
        Some(a) => a.extract::<String>().ok(),
    };
    let hit = registry(|r| match (&spec, arg) {
        (Some(s), _) => r.by_spec.get(s).cloned(),
        (None, Some(a)) => r.by_object.get(&(a.as_ptr() as usize)).cloned(),
        (None, None) => None,
    });
    if let Some(key) = hit {
        return Ok(key);
    }
    let resolver = RESOLVER.get(py).ok_or_else(|| {
        PyErr::new::<pyo3::exceptions::PyRuntimeError, _>(
            "tsume._engine: no variants yet (import tsume first)",
        )
    })?;
    let given = match &spec {
        Some(s) => PyString::new(py, s).into_any(),
        None => arg.expect("an object").clone(),
    };
    let object = resolver.bind(py).call1((given,))?;
    let desc: String = object.call_method0("description")?.extract()?;
    let variant = Variant::from_json(&desc).map_err(|e| engine_error(py, e))?;
    let object = object.unbind();
    let address = object.as_ptr() as usize;
    registry(|r| {
        if r.by_object.len() > REMEMBERED || r.by_spec.len() > REMEMBERED {
            r.by_object.clear();
            r.by_spec.clear();
        }
        r.known.entry(desc.clone()).or_insert_with(|| Known {
            object: object.clone_ref(py),
            variant: Arc::new(variant),
            tables: HashMap::new(),
        });
        // The address stays valid while `known` holds the object it names.
        if r.known[&desc].object.as_ptr() as usize == address {
            r.by_object.insert(address, desc.clone());
        }
        if let Some(s) = spec {
            r.by_spec.insert(s, desc.clone());
        }
    });
    Ok(desc)
}

/// The tables of a known variant for `n` squares, made once.
fn tables_of(py: Python<'_>, key: &str, n: usize) -> PyResult<Py<PyTables>> {
    let found = registry(|r| {
        let k = &r.known[key];
        match k.tables.get(&n) {
            Some(t) => Ok(t.clone_ref(py)),
            None => Err((k.variant.clone(), k.object.clone_ref(py))),
        }
    });
    let (variant, object) = match found {
        Ok(t) => return Ok(t),
        Err(missing) => missing,
    };
    let tables = Tables::new(&variant, n).map_err(|e| engine_error(py, e))?;
    let made = Py::new(
        py,
        PyTables {
            tables: Arc::new(tables),
            variant: object,
        },
    )?;
    Ok(registry(|r| {
        r.known
            .get_mut(key)
            .expect("known")
            .tables
            .entry(n)
            .or_insert(made)
            .clone_ref(py)
    }))
}

/// The engine's reading of a known variant and the other built-in ones.
fn variant_and_others(key: &str) -> (Arc<Variant>, Vec<Variant>) {
    registry(|r| (r.known[key].variant.clone(), r.builtin.clone()))
}

/// The tables for `variant` (a name, spec or Variant) on `n` squares, shared
/// by every position of that game and length.
#[pyfunction]
#[pyo3(signature = (variant, n))]
fn tables_for(py: Python<'_>, variant: &Bound<'_, PyAny>, n: usize) -> PyResult<Py<PyTables>> {
    let key = variant_key(py, Some(variant))?;
    tables_of(py, &key, n)
}

/// Reads a position string for the variant named by `key`.
fn read_setup(py: Python<'_>, text: &str, key: &str) -> PyResult<(Setup, Py<PyTables>)> {
    let (variant, others) = variant_and_others(key);
    let mut made: Option<Py<PyTables>> = None;
    let mut tables = |n: usize| -> crate::error::Result<Arc<Tables>> {
        let t = tables_of(py, key, n).map_err(|e| EngineError::Variant(e.to_string()))?;
        let arc = t.get().tables.clone();
        made = Some(t);
        Ok(arc)
    };
    let setup = Setup::read(text, &variant, &others, &mut tables, &|t: &str| {
        py_repr(py, t)
    })
    .map_err(|e| engine_error(py, e))?;
    Ok((setup, made.expect("tables made for a read position")))
}

/// Small ints as a Python list (a `Vec<u8>` would become `bytes`).
fn ints(xs: &[u8]) -> Vec<u32> {
    xs.iter().map(|&x| x as u32).collect()
}

/// A mask in the package's convention (bit `s` for square `s`).
fn py_mask(m: Mask) -> u128 {
    (m as u128) << 1
}

fn colour_arg(py: Python<'_>, c: i64) -> PyResult<Colour> {
    match c {
        0 => Ok(Colour::Black),
        1 => Ok(Colour::White),
        _ => Err(tsume_error(
            py,
            "ArgumentError",
            &format!("colour must be 0 (Black) or 1 (White), not {c}"),
        )),
    }
}

/// The tables of one variant and board length (read-only; `tsume.tables.tables_for` caches them).
#[pyclass(name = "Tables", module = "tsume._engine", frozen)]
pub struct PyTables {
    tables: Arc<Tables>,
    variant: Py<PyAny>,
}

#[pymethods]
impl PyTables {
    /// Reads a hands field (`-`, `2PTg`) into `[black counts, white counts]`
    /// (the one reader of hands: position strings and stated defender hands).
    fn read_hands(&self, py: Python<'_>, field: &str) -> PyResult<Vec<Vec<u8>>> {
        let [b, w] = notation::read_hands(field, &self.tables, &|t: &str| py_repr(py, t))
            .map_err(|e| engine_error(py, e))?;
        Ok(vec![b, w])
    }

    /// Reads a move string (`19-18`, `P*18`, `+L*18`) for this board, for form
    /// only (MoveError); `Position.parse_move` also checks it is legal.
    fn read_move(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<u32> {
        let Ok(s) = text.extract::<String>() else {
            return Err(MoveError::new_err(format!(
                "move must be a string, not {}",
                type_name(text)
            )));
        };
        notation::read_move(&s, &self.tables, &|t: &str| py_repr(py, t))
            .map(|m| m.raw())
            .map_err(|e| engine_error(py, e))
    }

    /// The board field of a board list (index 0 unused: `face << 1 | colour` per square).
    fn board_string(&self, py: Python<'_>, board: Vec<u8>) -> PyResult<String> {
        let n = self.tables.n;
        if board.len() != n + 1
            || board
                .iter()
                .any(|&v| v != 0 && (v < 2 || v as usize >= self.tables.nvalues))
        {
            return Err(tsume_error(
                py,
                "ArgumentError",
                &format!(
                    "board: {} values for {n} squares, or a value that is no piece",
                    board.len()
                ),
            ));
        }
        Ok(notation::board_string(&self.tables, &board[1..]))
    }

    /// The hands field of `[black counts, white counts]` (`2PTh`, `-`).
    fn hands_string(&self, py: Python<'_>, hands: Vec<Vec<u8>>) -> PyResult<String> {
        let nk = self.tables.nkinds;
        if hands.len() != 2 || hands.iter().any(|h| h.len() != nk) {
            return Err(tsume_error(
                py,
                "ArgumentError",
                &format!("hands: two lists of {nk} counts needed"),
            ));
        }
        Ok(notation::hands_string(&self.tables, [&hands[0], &hands[1]]))
    }

    /// The variant (the Python value).
    #[getter]
    fn variant(&self, py: Python<'_>) -> Py<PyAny> {
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

    /// The number of piece values (`face << 1 | colour`).
    #[getter]
    fn nvalues(&self) -> usize {
        self.tables.nvalues
    }

    /// The index of the royal kind.
    #[getter]
    fn royal_kind(&self) -> usize {
        self.tables.royal_kind
    }

    /// `[face]`: its letter (`P`, `+P`; index 0 is empty).
    #[getter]
    fn face_letters(&self) -> Vec<String> {
        self.tables.face_letter.clone()
    }

    /// `[face]`: its name.
    #[getter]
    fn face_names(&self) -> Vec<String> {
        self.tables.face_name.clone()
    }

    /// `[face]`: its kind (-1 at index 0).
    #[getter]
    fn face_kind(&self) -> Vec<i32> {
        let mut v: Vec<i32> = self.tables.face_kind.iter().map(|&k| k as i32).collect();
        v[0] = -1;
        v
    }

    /// `[face]`: is it a promoted face?
    #[getter]
    fn face_promoted(&self) -> Vec<bool> {
        self.tables.face_promoted.clone()
    }

    /// `[kind]`: its letter.
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
        ints(&self.tables.kind_count)
    }

    /// `[kind]`: its unpromoted face.
    #[getter]
    fn unpromoted_face(&self) -> Vec<u32> {
        ints(&self.tables.unpromoted_face)
    }

    /// `[kind]`: its promoted face (0 if it never flips).
    #[getter]
    fn promoted_face(&self) -> Vec<u32> {
        ints(&self.tables.promoted_face)
    }

    /// `[kind]`: the faces it may be dropped as.
    #[getter]
    fn drop_faces<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        self.tables
            .drop_faces
            .iter()
            .map(|fs| PyTuple::new(py, fs))
            .collect()
    }

    /// `[value]`: is it a king?
    #[getter]
    fn royal(&self) -> Vec<bool> {
        self.tables.royal[..self.tables.nvalues].to_vec()
    }

    /// `[value]`: the value after it captures.
    #[getter]
    fn flip(&self) -> Vec<u32> {
        ints(&self.tables.flip[..self.tables.nvalues])
    }

    /// `[value]`: the kind it becomes in hand.
    #[getter]
    fn hand_kind(&self) -> Vec<u32> {
        ints(&self.tables.hand_kind[..self.tables.nvalues])
    }

    /// All squares (bit `s` for square `s`).
    #[getter]
    fn board_mask(&self) -> u128 {
        py_mask(self.tables.board_mask)
    }

    /// The squares strictly between `a` and `b` (bit `s` for square `s`).
    fn between(&self, a: usize, b: usize) -> u128 {
        let n = self.tables.n;
        if a > n || b > n {
            return 0;
        }
        py_mask(self.tables.between(a as u8, b as u8))
    }

    /// Every square value `v` on `s` could move to, whatever the occupancy (bit `s` for square `s`).
    fn span(&self, v: usize, s: usize) -> u128 {
        if v >= self.tables.nvalues || s == 0 || s > self.tables.n {
            return 0;
        }
        py_mask(self.tables.span(v as u8, s as u8))
    }

    fn __repr__(&self) -> String {
        format!("Tables({}, {})", self.tables.variant.name, self.tables.n)
    }
}

/// The fields of a position string read for form only (shakmaty's word):
/// what the studio's editor draws before the position is legal.
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

    /// The board indexed by square (index 0 unused): 0 empty, else `face << 1 | colour`.
    #[getter]
    fn board(&self) -> Vec<u32> {
        std::iter::once(0)
            .chain(self.setup.board.iter().map(|&v| v as u32))
            .collect()
    }

    /// The side to move: 0 Black, 1 White.
    #[getter]
    fn turn(&self) -> usize {
        self.setup.turn.index()
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

/// A position of a one-dimensional shogi variant (see `tsume.position` for the Python face of it).
#[pyclass(name = "Position", module = "tsume._engine")]
pub struct PyPosition {
    pos: Position,
    tables: Py<PyTables>,
    first_move: u64,
}

impl PyPosition {
    fn wrap(&self, py: Python<'_>, pos: Position, first_move: u64) -> PyPosition {
        PyPosition {
            pos,
            tables: self.tables.clone_ref(py),
            first_move,
        }
    }

    /// A move int of this board: squares on it, a drop's face one of the variant's.
    fn move_arg(&self, py: Python<'_>, m: u64) -> PyResult<Move> {
        let nfaces = self.pos.tables().nfaces;
        Move::from_raw(m, self.pos.n())
            .filter(|mv| mv.face() as usize <= nfaces)
            .ok_or_else(|| {
                tsume_error(
                    py,
                    "IllegalMoveError",
                    &format!("{m} is not a move int on this board"),
                )
            })
    }

    fn list(moves: &MoveList) -> Vec<u32> {
        moves.iter().map(|m| m.raw()).collect()
    }

    fn current_move_number(&self) -> u64 {
        self.first_move + (self.pos.ply() as u64 + self.pos.first_turn().index() as u64) / 2
    }

    fn hands_arg(&self, py: Python<'_>, counts: &[Vec<i64>]) -> PyResult<[Hand; 2]> {
        let nk = self.pos.tables().nkinds;
        let mut out = [Hand::EMPTY; 2];
        for (c, h) in counts.iter().enumerate().take(2) {
            if h.len() != nk {
                return Err(tsume_error(
                    py,
                    "PositionError",
                    &format!("hands: {} counts for {nk} kinds", h.len()),
                ));
            }
            let small: Option<Vec<u8>> = h.iter().map(|&x| u8::try_from(x).ok()).collect();
            out[c] = small
                .as_deref()
                .and_then(Hand::from_counts)
                .ok_or_else(|| {
                    tsume_error(py, "PositionError", "hands: a count below 0 or too large")
                })?;
        }
        Ok(out)
    }
}

#[pymethods]
impl PyPosition {
    /// Reads a position string (default: the variant's start position, Ito's
    /// unless `variant` names another); with `validate`, checks that the
    /// position can arise.  Raises PositionError, VariantError, ArgumentError.
    #[new]
    #[pyo3(signature = (text=None, variant=None, *, validate=None))]
    fn new(
        py: Python<'_>,
        text: Option<&Bound<'_, PyAny>>,
        variant: Option<&Bound<'_, PyAny>>,
        validate: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let check = match validate {
            None => true,
            Some(v) => v
                .extract::<bool>()
                .ok()
                .filter(|_| v.is_instance_of::<pyo3::types::PyBool>())
                .ok_or_else(|| {
                    ArgumentError::new_err(format!(
                        "validate must be True or False, not {} {}",
                        type_name(v),
                        quote_value(v)
                    ))
                })?,
        };
        let key = variant_key(py, variant.filter(|v| !v.is_none()))?;
        let text: String = match text.filter(|t| !t.is_none()) {
            None => {
                let (v, _) = variant_and_others(&key);
                v.start.clone().ok_or_else(|| {
                    PositionError::new_err(format!(
                        "{} has no start position; give one",
                        v.display_name()
                    ))
                })?
            }
            Some(t) => t.extract::<String>().map_err(|_| {
                PositionError::new_err(format!("position must be a string, not {}", type_name(t)))
            })?,
        };
        let (setup, tables) = read_setup(py, &text, &key)?;
        let pos = setup.position(check).map_err(|e| engine_error(py, e))?;
        Ok(PyPosition {
            pos,
            tables,
            first_move: setup.move_number,
        })
    }

    /// The start position of a variant (default Ito; Rutherford's is provisional).
    #[classmethod]
    #[pyo3(signature = (variant=None))]
    fn start(
        cls: &Bound<'_, pyo3::types::PyType>,
        variant: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let py = cls.py();
        Ok(cls.call1((py.None(), variant))?.unbind())
    }

    /// The tables (faces, kinds, letters; read-only).
    #[getter]
    fn t(&self, py: Python<'_>) -> Py<PyTables> {
        self.tables.clone_ref(py)
    }

    /// The variant.
    #[getter]
    fn variant(&self, py: Python<'_>) -> Py<PyAny> {
        self.tables.get().variant.clone_ref(py)
    }

    /// The number of squares.
    #[getter]
    fn n(&self) -> usize {
        self.pos.n()
    }

    /// The side to move: 0 Black, 1 White.
    #[getter]
    fn turn(&self) -> usize {
        self.pos.turn().index()
    }

    /// The Zobrist hash of board, hands and side to move.
    #[getter]
    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    /// The hands' part of the hash (`hash ^ hand_hash` is the board key).
    #[getter]
    fn hand_hash(&self) -> u64 {
        self.pos.hand_hash()
    }

    /// How many moves the last `legal_moves`/`checks`/`evasions` left out for the stalemate or drop-mate rule.
    #[getter]
    fn filtered(&self) -> u32 {
        self.pos.filtered()
    }

    /// Moves made since this object was built or copied.
    #[getter]
    fn ply(&self) -> usize {
        self.pos.ply()
    }

    /// The move number: it grows after each White move, as in the position string.
    #[getter]
    fn move_number(&self) -> u64 {
        self.current_move_number()
    }

    /// The board as a list indexed by square (index 0 is always 0): 0 empty, else `face << 1 | colour`.
    fn board_list(&self) -> Vec<u32> {
        let mut v = Vec::with_capacity(self.pos.n() + 1);
        v.push(0);
        v.extend(self.pos.board().iter().map(|&x| x as u32));
        v
    }

    /// A colour's hand: the count of each kind.
    fn hand_counts(&self, py: Python<'_>, colour: i64) -> PyResult<Vec<u32>> {
        let c = colour_arg(py, colour)?;
        Ok(ints(&self.pos.hand(c).counts(self.pos.tables().nkinds)))
    }

    /// A colour's hand packed `field_bits` bits per kind (kind `k` from bit `field_bits * k`), counts capped at `cap`.
    #[pyo3(signature = (colour, field_bits=8, cap=255))]
    fn hand_packed(&self, py: Python<'_>, colour: i64, field_bits: u32, cap: u8) -> PyResult<u128> {
        let h = self.pos.hand(colour_arg(py, colour)?);
        let nk = self.pos.tables().nkinds as u32;
        if field_bits == 0 || field_bits * nk > 128 {
            return Err(tsume_error(
                py,
                "ArgumentError",
                &format!("hand_packed: {field_bits}-bit fields do not fit"),
            ));
        }
        Ok((0..nk).fold(0u128, |acc, k| {
            acc | (h.count(k as usize).min(cap) as u128) << (field_bits * k)
        }))
    }

    /// The square of a colour's king (0 if it has none).
    fn king_square(&self, py: Python<'_>, colour: i64) -> PyResult<u8> {
        Ok(self.pos.king(colour_arg(py, colour)?))
    }

    /// The squares holding a colour's pieces (bit `s` for square `s`).
    fn occupancy(&self, py: Python<'_>, colour: i64) -> PyResult<u128> {
        Ok(py_mask(self.pos.occupied_by(colour_arg(py, colour)?)))
    }

    /// The piece value captured by the last move (0 if none or no move made).
    fn last_capture(&self) -> u8 {
        self.pos.last_capture()
    }

    /// The letter of the piece on a square (`+` for promoted, lowercase White), or None.
    fn piece_at(&self, py: Python<'_>, square: i64) -> PyResult<Option<String>> {
        if square < 1 || square as usize > self.pos.n() {
            return Err(tsume_error(
                py,
                "ArgumentError",
                &format!("square {square} is off the board (1..{})", self.pos.n()),
            ));
        }
        let v = self.pos.piece(square as u8);
        if v == 0 {
            return Ok(None);
        }
        let letter = &self.pos.tables().face_letter[(v >> 1) as usize];
        Ok(Some(if v & 1 == 0 {
            letter.clone()
        } else {
            letter.to_ascii_lowercase()
        }))
    }

    /// A copy with new hands (`[black counts, white counts]`), no move stack; not validated.
    fn with_hands(&self, py: Python<'_>, hands: Vec<Vec<i64>>) -> PyResult<PyPosition> {
        if hands.len() != 2 {
            return Err(tsume_error(py, "PositionError", "hands: two hands needed"));
        }
        let hs = self.hands_arg(py, &hands)?;
        Ok(self.wrap(py, self.pos.with_hands(hs), self.current_move_number()))
    }

    /// A copy with squares changed (`[(square, value), ...]`), hands and side to move given, no move stack; not validated.
    #[pyo3(signature = (changes, hands, turn, move_number=None))]
    fn with_changes(
        &self,
        py: Python<'_>,
        changes: Vec<(u8, u8)>,
        hands: Vec<Vec<i64>>,
        turn: i64,
        move_number: Option<u64>,
    ) -> PyResult<PyPosition> {
        let hs = self.hands_arg(py, &hands)?;
        let c = colour_arg(py, turn)?;
        let p = self
            .pos
            .with_changes(&changes, hs, c)
            .map_err(|e| engine_error(py, e))?;
        Ok(self.wrap(
            py,
            p,
            move_number
                .unwrap_or_else(|| self.current_move_number())
                .max(1),
        ))
    }

    /// Checks that the position can arise (piece counts, side not to move not in check); raises PositionError.
    fn validate(&self, py: Python<'_>) -> PyResult<()> {
        self.pos.validate().map_err(|e| engine_error(py, e))
    }

    /// An independent copy, without the move stack.
    fn copy(&self, py: Python<'_>) -> PyPosition {
        self.wrap(py, self.pos.copy(), self.current_move_number())
    }

    fn __copy__(&self, py: Python<'_>) -> PyPosition {
        self.copy(py)
    }

    /// The colour-mirrored position: board reversed, colours and hands swapped.
    fn mirror(&self, py: Python<'_>) -> PyPosition {
        self.wrap(py, self.pos.mirror(), self.current_move_number())
    }

    /// The position string.
    #[pyo3(signature = (move_number=true))]
    fn fen(&self, move_number: bool) -> String {
        if move_number {
            format!("{} {}", self.pos.fen(), self.current_move_number())
        } else {
            self.pos.fen()
        }
    }

    fn __str__(&self) -> String {
        self.fen(true)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let spec: String = self.variant(py).bind(py).getattr("spec")?.extract()?;
        Ok(format!("Position('{}', '{spec}')", self.fen(true)))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let py = slf.py();
        let me = slf.borrow();
        Ok((slf.get_type().into_any(), (me.fen(true), me.variant(py))))
    }

    /// An exact key of board, hands and side to move (the hash may collide; this cannot).
    fn key<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let nk = self.pos.tables().nkinds;
        let board = PyTuple::new(py, self.board_list())?;
        let h0 = PyTuple::new(py, self.pos.hand(Colour::Black).counts(nk))?;
        let h1 = PyTuple::new(py, self.pos.hand(Colour::White).counts(nk))?;
        PyTuple::new(
            py,
            [
                board.into_any(),
                h0.into_any(),
                h1.into_any(),
                self.pos.turn().index().into_pyobject(py)?.into_any(),
            ],
        )
    }

    /// The exact key as bytes: the board as `board_list()`, Black's and White's hand counts, the side to move.
    fn key_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let nk = self.pos.tables().nkinds;
        let mut out = Vec::with_capacity(self.pos.n() + 2 + 2 * nk);
        out.push(0);
        out.extend_from_slice(self.pos.board());
        out.extend(self.pos.hand(Colour::Black).counts(nk));
        out.extend(self.pos.hand(Colour::White).counts(nk));
        out.push(self.pos.turn().index() as u8);
        PyBytes::new(py, &out)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyPosition>() {
            Ok(o) => {
                let o = o.borrow();
                self.tables.is(&o.tables) && self.pos.same_as(&o.pos)
            }
            Err(_) => false,
        }
    }

    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    /// Makes a move (no legality check beyond its shape: use `push_str` or `is_legal`).
    fn push(&mut self, py: Python<'_>, m: u64) -> PyResult<()> {
        let mv = self.move_arg(py, m)?;
        let p = &self.pos;
        let c = p.turn();
        let ok = if mv.is_drop() {
            let t = p.tables();
            let f = mv.face() as usize;
            f <= t.nfaces
                && t.face_kind[f] as usize != t.royal_kind
                && p.hand(c).count(t.face_kind[f] as usize) != 0
                && p.piece(mv.to()) == 0
        } else {
            let v = p.piece(mv.from());
            let w = p.piece(mv.to());
            v != 0 && (v & 1) as usize == c.index() && (w == 0 || (w & 1) as usize != c.index())
        };
        if !ok {
            return Err(tsume_error(
                py,
                "IllegalMoveError",
                &format!("move {} cannot be made here", p.move_string(mv)),
            ));
        }
        self.pos.push(mv);
        Ok(())
    }

    /// Unmakes the last move and returns it.
    fn pop(&mut self, py: Python<'_>) -> PyResult<u32> {
        self.pos
            .pop()
            .map(|m| m.raw())
            .ok_or_else(|| tsume_error(py, "IllegalMoveError", "pop: no move to take back"))
    }

    /// The last move made, if any.
    fn peek(&self) -> Option<u32> {
        self.pos.stack().last().map(|u| u.mv.raw())
    }

    /// How often the current position has occurred on the move stack (1 if new).
    fn repetitions(&self) -> usize {
        self.pos.repetitions()
    }

    /// Every legal move; `repetition` (default: the variant's switch) forbids a third occurrence on the move stack.
    #[pyo3(signature = (repetition=None))]
    fn legal_moves(&mut self, repetition: Option<bool>) -> Vec<u32> {
        let mut l = MoveList::new();
        self.pos.legal_moves(repetition, &mut l);
        Self::list(&l)
    }

    /// The legal moves that give check (the attacker's moves in a tsume); no repetition rule.
    fn checks(&mut self) -> Vec<u32> {
        let mut l = MoveList::new();
        self.pos.checks(&mut l);
        Self::list(&l)
    }

    /// The legal moves when in check (all legal moves then); no repetition rule.
    fn evasions(&mut self) -> Vec<u32> {
        let mut l = MoveList::new();
        self.pos.evasions(&mut l);
        Self::list(&l)
    }

    /// Every move obeying piece movement and drop placement, ignoring king safety.
    fn pseudo_legal_moves(&self) -> Vec<u32> {
        let mut l = MoveList::new();
        self.pos.pseudo_legal_moves(&mut l);
        Self::list(&l)
    }

    /// Is the move int `m` legal here?
    #[pyo3(signature = (m, repetition=None))]
    fn is_legal(&mut self, m: u64, repetition: Option<bool>) -> bool {
        match Move::from_raw(m, self.pos.n()) {
            Some(mv) => self.pos.is_legal(mv, repetition),
            None => false,
        }
    }

    /// Is the side to move in check?
    fn is_check(&self) -> bool {
        self.pos.is_check()
    }

    /// In check with no legal move.
    fn is_checkmate(&mut self) -> bool {
        self.pos.is_checkmate()
    }

    /// Not in check and no legal move.
    fn is_stalemate(&mut self) -> bool {
        self.pos.is_stalemate()
    }

    /// The winner (0 Black, 1 White) if the side to move has no legal move, else None.
    fn outcome(&mut self) -> Option<usize> {
        self.pos.outcome().map(|c| c.index())
    }

    /// Would this (pseudo-legal) move check the opponent?
    fn gives_check(&mut self, py: Python<'_>, m: u64) -> PyResult<bool> {
        let mv = self.move_arg(py, m)?;
        if !self.pos.is_pseudo_legal(mv) {
            return Err(tsume_error(
                py,
                "IllegalMoveError",
                &format!("move {} cannot be made here", self.pos.move_string(mv)),
            ));
        }
        Ok(self.pos.gives_check(mv))
    }

    /// Is square `k` attacked by a piece of colour `by`?
    fn is_attacked(&self, py: Python<'_>, k: i64, by: i64) -> PyResult<bool> {
        let by = colour_arg(py, by)?;
        if k < 1 || k as usize > self.pos.n() {
            return Ok(false);
        }
        Ok(self.pos.is_attacked(k as u8, by))
    }

    /// The squares holding pieces of colour `by` that attack square `k` (bit `s` for square `s`).
    fn attackers(&self, py: Python<'_>, k: i64, by: i64) -> PyResult<u128> {
        let by = colour_arg(py, by)?;
        if k < 1 || k as usize > self.pos.n() {
            return Ok(0);
        }
        Ok(py_mask(self.pos.attackers(k as u8, by)))
    }

    /// The squares where a colour may drop (placement rules only; bit `s` for square `s`).
    fn drop_squares(&self, py: Python<'_>, colour: i64) -> PyResult<u128> {
        Ok(py_mask(self.pos.drop_squares(colour_arg(py, colour)?)))
    }

    /// Has the side to move any move that leaves its own king safe?
    fn has_safe_move(&self) -> bool {
        self.pos.has_safe_move()
    }

    /// Has the side to move a king-safe move of a piece on the board (one needing no hand)?
    fn has_safe_board_move(&self) -> bool {
        self.pos.has_safe_board_move()
    }

    /// The kinds (bit `k`) whose drop would check the enemy king (placement only).
    fn drop_check_kinds(&self) -> u32 {
        self.pos.drop_check_kinds()
    }

    /// The pieces checking the side to move along a ride (bit `s` for square `s`).
    fn ride_checkers(&self) -> u128 {
        py_mask(self.pos.ride_checkers())
    }

    /// Empty squares where the side to move could drop between its king and a ride checker (bit `s` for square `s`).
    fn interposition_squares(&self) -> u128 {
        py_mask(self.pos.interposition_squares())
    }

    /// The hash after move `m`, without making it.
    fn child_hash(&self, py: Python<'_>, m: u64) -> PyResult<u64> {
        Ok(self.pos.child_hash(self.move_arg(py, m)?))
    }

    /// For each move: `(child hash, child hand hash, kind, sign)`, without making them.
    ///
    /// `kind` is the kind whose count in the mover's hand the move changes
    /// (-1 if none) and `sign` -1 for a drop, +1 for a capture, 0 otherwise.
    fn child_keys<'py>(&self, py: Python<'py>, moves: Vec<u64>) -> PyResult<Bound<'py, PyList>> {
        let t = self.pos.tables().clone();
        let out = PyList::empty(py);
        for m in moves {
            let mv = self.move_arg(py, m)?;
            let (h, hz) = self.pos.child_hashes(mv);
            let (kind, sign): (i64, i64) = if mv.is_drop() {
                (t.face_kind[mv.face() as usize] as i64, -1)
            } else {
                let cap = self.pos.piece(mv.to());
                if cap != 0 {
                    (t.hand_kind[cap as usize] as i64, 1)
                } else {
                    (-1, 0)
                }
            };
            out.append((h, hz, kind, sign))?;
        }
        Ok(out)
    }

    /// Perft: the number of legal move sequences of length `depth`, every move made and unmade.
    fn perft(&mut self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        let mut err = None;
        let r =
            perft::perft_interruptible(&mut self.pos, depth, &mut || match py.check_signals() {
                Ok(()) => true,
                Err(e) => {
                    err = Some(e);
                    false
                }
            });
        match (r, err) {
            (Some(n), _) => Ok(n),
            (None, Some(e)) => Err(e),
            (None, None) => Err(tsume_error(py, "TsumeError", "perft: interrupted")),
        }
    }

    /// Perft split by first move: `[(move int, count), ...]` in generation order.
    fn divide(&mut self, py: Python<'_>, depth: u32) -> PyResult<Vec<(u32, u64)>> {
        let mut err = None;
        let r = perft::divide(&mut self.pos, depth, &mut || match py.check_signals() {
            Ok(()) => true,
            Err(e) => {
                err = Some(e);
                false
            }
        });
        match (r, err) {
            (Some(d), _) => Ok(d.into_iter().map(|(m, n)| (m.raw(), n)).collect()),
            (None, Some(e)) => Err(e),
            (None, None) => Err(tsume_error(py, "TsumeError", "perft: interrupted")),
        }
    }

    /// Every `(previous position, move)` leading here, sorted by the previous position's key, then the move.
    fn unmoves(&self, py: Python<'_>) -> Vec<(PyPosition, u32)> {
        // The move number goes up after each White move; there is no move 0.
        let mover_white = self.pos.turn() == Colour::Black;
        let now = self.current_move_number();
        let before = if mover_white {
            now.saturating_sub(1).max(1)
        } else {
            now
        };
        unmove::unmoves(&self.pos)
            .into_iter()
            .map(|(p, m)| (self.wrap(py, p, before), m.raw()))
            .collect()
    }

    /// Reads a move string and checks it is legal here (MoveError if malformed, IllegalMoveError if illegal).
    fn parse_move(&mut self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<u32> {
        let raw = self.tables.get().read_move(py, text)?;
        let mv = self.move_arg(py, raw as u64)?;
        let mut legal = MoveList::new();
        self.pos.legal_moves(None, &mut legal);
        if legal.contains(mv) {
            return Ok(mv.raw());
        }
        let why = self.pos.why_illegal(mv);
        Err(IllegalMoveError::new_err(format!(
            "move {} is not legal for {} in {}: {why}",
            quote_value(text),
            self.pos.turn().name(),
            self.fen(true)
        )))
    }

    /// Reads a move string, checks it is legal, makes it and returns the move int.
    fn push_str(&mut self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<u32> {
        let m = self.parse_move(py, text)?;
        let mv = self.move_arg(py, m as u64)?;
        self.pos.push(mv);
        Ok(m)
    }

    /// The move string of a move int (`19-18`, `P*18`).
    fn move_str(&self, py: Python<'_>, m: u64) -> PyResult<String> {
        Ok(self.pos.move_string(self.move_arg(py, m)?))
    }

    /// A readable form such as `T20-18`, `C23x19=+C` or `P*18` (call before pushing).
    fn move_readable(&self, py: Python<'_>, m: u64) -> PyResult<String> {
        let mv = self.move_arg(py, m)?;
        if mv.is_drop() {
            return Ok(self.pos.move_string(mv));
        }
        let t = self.pos.tables();
        let v = self.pos.piece(mv.from());
        if v == 0 {
            return Err(tsume_error(
                py,
                "IllegalMoveError",
                &format!("square {} is empty", mv.from()),
            ));
        }
        let case = |s: &str| {
            if v & 1 == 1 {
                s.to_ascii_lowercase()
            } else {
                s.to_string()
            }
        };
        let letter = case(&t.face_letter[(v >> 1) as usize]);
        let new = case(&t.face_letter[(t.flip[v as usize] >> 1) as usize]);
        if self.pos.piece(mv.to()) != 0 {
            // A king never flips, so there is nothing to say after its capture.
            let suffix = if t.royal[v as usize] {
                String::new()
            } else {
                format!("={new}")
            };
            return Ok(format!("{letter}{}x{}{suffix}", mv.from(), mv.to()));
        }
        Ok(format!("{letter}{}-{}", mv.from(), mv.to()))
    }

    /// The pieces in a colour's hand, e.g. `2PT` (`-` if none), always uppercase.
    fn hand_string(&self, py: Python<'_>, colour: i64) -> PyResult<String> {
        let c = colour_arg(py, colour)?;
        let t = self.pos.tables();
        let h = self.pos.hand(c);
        let mut s = String::new();
        for k in 0..t.nkinds {
            let cnt = h.count(k);
            if cnt != 0 {
                if cnt > 1 {
                    s += &cnt.to_string();
                }
                s.push(t.kind_letter[k]);
            }
        }
        Ok(if s.is_empty() { "-".into() } else { s })
    }
}

/// The module `tsume._engine`.
#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyTables>()?;
    m.add_class::<PyPosition>()?;
    m.add_class::<PySetup>()?;
    m.add_function(wrap_pyfunction!(use_variants, m)?)?;
    m.add_function(wrap_pyfunction!(tables_for, m)?)?;
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
    m.add_class::<search::PySearch>()?;
    // A panic (a bug) reaches Python as this BaseException: the CLI reports it as an internal error.
    m.add(
        "PanicException",
        m.py().get_type::<pyo3::panic::PanicException>(),
    )?;
    Ok(())
}
