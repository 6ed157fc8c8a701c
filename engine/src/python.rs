//! The Python module `tsume._engine`: the position and its tables as Python classes.
//!
//! Position strings are read by the package's Python code (`tsume.position`
//! hands the parsed board, hands and side over), whose messages point at the
//! column at fault; everything else runs here.  Square masks given to Python
//! keep the package's convention of bit `s` for square `s`.  Errors become
//! the package's own exceptions (`tsume.errors`).

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

use crate::colour::Colour;
use crate::error::EngineError;
use crate::hand::Hand;
use crate::moves::{Move, MoveList};
use crate::perft;
use crate::position::Position;
use crate::square::Mask;
use crate::tables::Tables;
use crate::unmove;
use crate::variant::Variant;

#[path = "python_search.rs"]
mod search;

/// What `tsume.position.parse_fields` returns: tables, board, turn, hands, move number, validate.
type Fields = (Py<PyTables>, Vec<u8>, i64, Vec<Vec<u8>>, u64, bool);

/// What `__reduce__` returns: the class and its arguments.
type Reduced<'py> = (Bound<'py, PyAny>, (String, Py<PyAny>));

/// A `tsume.errors` exception of class `name` with message `msg`.
fn tsume_error(py: Python<'_>, name: &str, msg: &str) -> PyErr {
    match py
        .import("tsume.errors")
        .and_then(|m| m.getattr(name))
        .and_then(|c| c.call1((msg,)))
    {
        Ok(obj) => PyErr::from_value(obj),
        Err(e) => e,
    }
}

fn engine_error(py: Python<'_>, e: EngineError) -> PyErr {
    let class = match e {
        EngineError::Variant(_) => "VariantError",
        EngineError::Position(_) => "PositionError",
        EngineError::Move(_) => "IllegalMoveError",
    };
    tsume_error(py, class, e.message())
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
    /// Tables from a variant's JSON description (`Variant.description()`), for `n` squares; `variant` is kept for callers.
    #[new]
    fn new(py: Python<'_>, description: &str, n: usize, variant: Py<PyAny>) -> PyResult<Self> {
        let v = Variant::from_json(description).map_err(|e| engine_error(py, e))?;
        let tables = Tables::new(&v, n).map_err(|e| engine_error(py, e))?;
        Ok(PyTables {
            tables: Arc::new(tables),
            variant,
        })
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
    /// Reads a position string (default: the variant's start position); see `tsume.position`.
    ///
    /// The arguments go to `tsume.position.parse_fields` as given, which has the defaults
    /// (`text=None, variant=ITO, *, validate=True`) and reads the string.
    #[new]
    #[pyo3(signature = (*args, **kwargs))]
    fn new(
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let parse = py.import("tsume.position")?.getattr("parse_fields")?;
        let parsed = parse.call(args, kwargs)?;
        let (tables, board, turn, hands, move_number, check): Fields = parsed.extract()?;
        let arc = tables.get().tables.clone();
        let turn = colour_arg(py, turn)?;
        if hands.len() != 2 {
            return Err(tsume_error(py, "PositionError", "hands: two hands needed"));
        }
        let pos = Position::new(arc, &board, [&hands[0], &hands[1]], turn)
            .map_err(|e| engine_error(py, e))?;
        if check {
            pos.validate().map_err(|e| engine_error(py, e))?;
        }
        Ok(PyPosition {
            pos,
            tables,
            first_move: move_number,
        })
    }

    /// The start position of a variant (default Ito; Rutherford's is provisional).
    #[classmethod]
    #[pyo3(signature = (*args, **kwargs))]
    fn start(
        cls: &Bound<'_, pyo3::types::PyType>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        let py = cls.py();
        let mut all = vec![py.None().into_bound(py)];
        all.extend(args.iter());
        Ok(cls.call(PyTuple::new(py, all)?, kwargs)?.unbind())
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
        let cls = py.import("tsume.position")?.getattr("Position")?;
        Ok((cls, (me.fen(true), me.variant(py))))
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
        let parse = py.import("tsume.notation")?.getattr("parse_move")?;
        let raw: u64 = parse.call1((text, self.tables.clone_ref(py)))?.extract()?;
        let mv = self.move_arg(py, raw)?;
        let mut legal = MoveList::new();
        self.pos.legal_moves(None, &mut legal);
        if legal.contains(mv) {
            return Ok(mv.raw());
        }
        let quote = py
            .import("tsume.errors")?
            .getattr("quote")?
            .call1((text,))?
            .extract::<String>()?;
        let why = self.pos.why_illegal(mv);
        Err(tsume_error(
            py,
            "IllegalMoveError",
            &format!(
                "move {quote} is not legal for {} in {}: {why}",
                self.pos.turn().name(),
                self.fen(true)
            ),
        ))
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
    m.add_class::<PyTables>()?;
    m.add_class::<PyPosition>()?;
    m.add_class::<search::PySearch>()?;
    // A panic (a bug) reaches Python as this BaseException: the CLI reports it as an internal error.
    m.add(
        "PanicException",
        m.py().get_type::<pyo3::panic::PanicException>(),
    )?;
    Ok(())
}
