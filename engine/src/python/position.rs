//! `Position`: a position of a one-dimensional shogi variant, mutable, with
//! make/unmake, legal moves, checks and evasions, in `Move`s, `Piece`s,
//! `Colour`s and `SquareSet`s.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use super::tables::PyTables;
use super::values::{colour_arg, PyColour, PyMove, PyOutcome, PyPiece, PySquareSet, PyTermination};
use super::variants::{read_setup, variant_and_others, variant_key};
use super::{
    engine_error, quote_value, type_name, ArgumentError, IllegalMoveError, PositionError,
    TsumeError,
};
use crate::rules::colour::Colour;
use crate::rules::hand::Hand;
use crate::rules::moves::{Move, MoveList};
use crate::rules::perft;
use crate::rules::position::Position;
use crate::rules::unmove;

/// What `__reduce__` returns: the class and its arguments.
type Reduced<'py> = (Bound<'py, PyAny>, (String, Py<PyAny>));

/// A position of a one-dimensional shogi variant (see `tsume.position`).
#[pyclass(name = "Position", module = "tsume._engine")]
pub struct PyPosition {
    pub pos: Position,
    pub tables: Py<PyTables>,
    pub first_move: u64,
}

impl PyPosition {
    fn wrap(&self, py: Python<'_>, pos: Position, first_move: u64) -> PyPosition {
        PyPosition {
            pos,
            tables: self.tables.clone_ref(py),
            first_move,
        }
    }

    /// The engine move of a `Move` argument.
    fn move_arg(&self, m: &Bound<'_, PyAny>) -> PyResult<Move> {
        let mv = m.cast::<PyMove>().map_err(|_| {
            ArgumentError::new_err(format!(
                "a move is a tsume.Move, not {} {}",
                type_name(m),
                quote_value(m)
            ))
        })?;
        self.tables.get().engine_move(mv.get())
    }

    fn moves(&self, list: &MoveList) -> Vec<PyMove> {
        self.tables.get().py_moves(list.as_slice())
    }

    fn current_move_number(&self) -> u64 {
        self.first_move + (self.pos.ply() as u64 + self.pos.first_turn().index() as u64) / 2
    }

    fn hands_arg(&self, counts: &[Vec<i64>]) -> PyResult<[Hand; 2]> {
        let nk = self.pos.tables().nkinds;
        if counts.len() != 2 {
            return Err(PositionError::new_err("hands: two hands needed"));
        }
        let mut out = [Hand::EMPTY; 2];
        for (c, h) in counts.iter().enumerate() {
            if h.len() != nk {
                return Err(PositionError::new_err(format!(
                    "hands: {} counts for {nk} kinds",
                    h.len()
                )));
            }
            let small: Option<Vec<u8>> = h.iter().map(|&x| u8::try_from(x).ok()).collect();
            out[c] = small
                .as_deref()
                .and_then(Hand::from_counts)
                .ok_or_else(|| PositionError::new_err("hands: a count below 0 or too large"))?;
        }
        Ok(out)
    }

    fn square_arg(&self, square: i64) -> PyResult<u8> {
        if square < 1 || square as usize > self.pos.n() {
            return Err(ArgumentError::new_err(format!(
                "square {square} is off the board (1..{})",
                self.pos.n()
            )));
        }
        Ok(square as u8)
    }

    /// The engine's perft or divide, stopped by Ctrl-C.
    fn interruptible<T>(
        &mut self,
        py: Python<'_>,
        run: impl FnOnce(&mut Position, &mut dyn FnMut() -> bool) -> Option<T>,
    ) -> PyResult<T> {
        let mut err = None;
        let r = run(&mut self.pos, &mut || match py.check_signals() {
            Ok(()) => true,
            Err(e) => {
                err = Some(e);
                false
            }
        });
        match (r, err) {
            (Some(v), _) => Ok(v),
            (None, Some(e)) => Err(e),
            (None, None) => Err(TsumeError::new_err("perft: interrupted")),
        }
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
            Some(v) if v.is_instance_of::<pyo3::types::PyBool>() => v.extract::<bool>()?,
            Some(v) => {
                return Err(ArgumentError::new_err(format!(
                    "validate must be True or False, not {} {}",
                    type_name(v),
                    quote_value(v)
                )))
            }
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

    /// The tables (the variant on this board length; read-only).
    #[getter]
    fn t(&self, py: Python<'_>) -> Py<PyTables> {
        self.tables.clone_ref(py)
    }

    /// The variant.
    #[getter]
    fn variant(&self, py: Python<'_>) -> Py<PyAny> {
        self.tables.get().variant(py)
    }

    /// The number of squares.
    #[getter]
    fn n(&self) -> usize {
        self.pos.n()
    }

    /// The side to move.
    #[getter]
    fn turn(&self) -> PyColour {
        self.pos.turn().into()
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

    /// A `Piece` or None per square, square 1 first.
    fn board(&self, py: Python<'_>) -> Vec<Option<Py<PyPiece>>> {
        let t = self.tables.get();
        self.pos
            .board()
            .iter()
            .map(|&v| t.piece_of(py, v))
            .collect()
    }

    /// The piece on a square, or None.
    fn piece_at(&self, py: Python<'_>, square: i64) -> PyResult<Option<Py<PyPiece>>> {
        let s = self.square_arg(square)?;
        Ok(self.tables.get().piece_of(py, self.pos.piece(s)))
    }

    /// A colour's hand: the count of each kind (in the order of `t.kind_letters`).
    fn hand_counts(&self, colour: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        let c = colour_arg(colour)?;
        let nk = self.pos.tables().nkinds;
        Ok(self
            .pos
            .hand(c)
            .counts(nk)
            .iter()
            .map(|&x| x as u32)
            .collect())
    }

    /// The square of a colour's king, or None.
    fn king_square(&self, colour: &Bound<'_, PyAny>) -> PyResult<Option<u8>> {
        let k = self.pos.king(colour_arg(colour)?);
        Ok((k != 0).then_some(k))
    }

    /// The squares holding a colour's pieces.
    fn occupancy(&self, colour: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        Ok(PySquareSet::of(self.pos.occupied_by(colour_arg(colour)?)))
    }

    /// The piece the last move captured (as it stood on the board), or None.
    fn last_capture(&self, py: Python<'_>) -> Option<Py<PyPiece>> {
        self.tables.get().piece_of(py, self.pos.last_capture())
    }

    /// A copy with new hands (`[black counts, white counts]`), no move stack; not validated.
    fn with_hands(&self, py: Python<'_>, hands: Vec<Vec<i64>>) -> PyResult<PyPosition> {
        let hs = self.hands_arg(&hands)?;
        Ok(self.wrap(py, self.pos.with_hands(hs), self.current_move_number()))
    }

    /// A copy with squares changed (`[(square, Piece or None), ...]`), hands
    /// and side to move given, no move stack; not validated.
    #[pyo3(signature = (changes, hands, turn, move_number=None))]
    fn with_changes(
        &self,
        py: Python<'_>,
        changes: Vec<(i64, Bound<'_, PyAny>)>,
        hands: Vec<Vec<i64>>,
        turn: &Bound<'_, PyAny>,
        move_number: Option<u64>,
    ) -> PyResult<PyPosition> {
        let t = self.tables.get();
        let mut values = Vec::with_capacity(changes.len());
        for (s, piece) in &changes {
            // The engine says which square is off the board (a PositionError).
            let s = u8::try_from(*s).map_err(|_| {
                PositionError::new_err(format!("square {s} is off the board (1..{})", self.pos.n()))
            })?;
            values.push((s, t.value_arg(piece)?));
        }
        let hs = self.hands_arg(&hands)?;
        let c = colour_arg(turn)?;
        let p = self
            .pos
            .with_changes(&values, hs, c)
            .map_err(|e| engine_error(py, e))?;
        let number = move_number.unwrap_or_else(|| self.current_move_number());
        Ok(self.wrap(py, p, number.max(1)))
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
        // (0, square 1, ..., square n): the keys the package has stored stay the same.
        let squares: Vec<u8> = std::iter::once(0)
            .chain(self.pos.board().iter().copied())
            .collect();
        let board = PyTuple::new(py, squares)?;
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

    /// The exact key as bytes: the board, Black's and White's hand counts, the side to move.
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
    fn push(&mut self, m: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = self.move_arg(m)?;
        let p = &self.pos;
        let c = p.turn();
        let ok = if mv.is_drop() {
            let t = p.tables();
            let k = t.face_kind[mv.face() as usize] as usize;
            k != t.royal_kind && p.hand(c).count(k) != 0 && p.piece(mv.to()) == 0
        } else {
            let v = p.piece(mv.from());
            let w = p.piece(mv.to());
            v != 0 && (v & 1) as usize == c.index() && (w == 0 || (w & 1) as usize != c.index())
        };
        if !ok {
            return Err(IllegalMoveError::new_err(format!(
                "move {} cannot be made here",
                p.move_string(mv)
            )));
        }
        self.pos.push(mv);
        Ok(())
    }

    /// Unmakes the last move and returns it.
    fn pop(&mut self) -> PyResult<PyMove> {
        let m = self
            .pos
            .pop()
            .ok_or_else(|| IllegalMoveError::new_err("pop: no move to take back"))?;
        Ok(self.tables.get().py_move(m))
    }

    /// The last move made, if any.
    fn peek(&self) -> Option<PyMove> {
        self.pos
            .stack()
            .last()
            .map(|u| self.tables.get().py_move(u.mv))
    }

    /// How often the current position has occurred on the move stack (1 if new).
    fn repetitions(&self) -> usize {
        self.pos.repetitions()
    }

    /// Every legal move; `repetition` (default: the variant's switch) forbids a third occurrence on the move stack.
    #[pyo3(signature = (repetition=None))]
    fn legal_moves(&mut self, repetition: Option<bool>) -> Vec<PyMove> {
        let mut l = MoveList::new();
        self.pos.legal_moves(repetition, &mut l);
        self.moves(&l)
    }

    /// The legal moves that give check (the attacker's moves in a tsume); no repetition rule.
    fn checks(&mut self) -> Vec<PyMove> {
        let mut l = MoveList::new();
        self.pos.checks(&mut l);
        self.moves(&l)
    }

    /// The legal moves when in check (all legal moves then); no repetition rule.
    fn evasions(&mut self) -> Vec<PyMove> {
        let mut l = MoveList::new();
        self.pos.evasions(&mut l);
        self.moves(&l)
    }

    /// Every move obeying piece movement and drop placement, ignoring king safety.
    fn pseudo_legal_moves(&self) -> Vec<PyMove> {
        let mut l = MoveList::new();
        self.pos.pseudo_legal_moves(&mut l);
        self.moves(&l)
    }

    /// Is `m` legal here?  (A move off this board or of another game is not.)
    #[pyo3(signature = (m, repetition=None))]
    fn is_legal(&mut self, m: &Bound<'_, PyAny>, repetition: Option<bool>) -> PyResult<bool> {
        match self.move_arg(m) {
            Ok(mv) => Ok(self.pos.is_legal(mv, repetition)),
            Err(e) if e.is_instance_of::<IllegalMoveError>(m.py()) => Ok(false),
            Err(e) => Err(e),
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

    /// How the game ended, if the side to move has no legal move, else None.
    fn outcome(&mut self) -> Option<PyOutcome> {
        let winner = self.pos.outcome()?;
        let termination = if self.pos.is_check() {
            PyTermination::Checkmate
        } else {
            PyTermination::Stalemate
        };
        Some(PyOutcome {
            termination,
            winner,
        })
    }

    /// Would this (pseudo-legal) move check the opponent?
    fn gives_check(&mut self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        let mv = self.move_arg(m)?;
        if !self.pos.is_pseudo_legal(mv) {
            return Err(IllegalMoveError::new_err(format!(
                "move {} cannot be made here",
                self.pos.move_string(mv)
            )));
        }
        Ok(self.pos.gives_check(mv))
    }

    /// Is square `k` attacked by a piece of colour `by`?
    fn is_attacked(&self, k: i64, by: &Bound<'_, PyAny>) -> PyResult<bool> {
        let by = colour_arg(by)?;
        if k < 1 || k as usize > self.pos.n() {
            return Ok(false);
        }
        Ok(self.pos.is_attacked(k as u8, by))
    }

    /// The squares holding pieces of colour `by` that attack square `k`.
    fn attackers(&self, k: i64, by: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        let by = colour_arg(by)?;
        if k < 1 || k as usize > self.pos.n() {
            return Ok(PySquareSet::default());
        }
        Ok(PySquareSet::of(self.pos.attackers(k as u8, by)))
    }

    /// The squares where a colour may drop (placement rules only).
    fn drop_squares(&self, colour: &Bound<'_, PyAny>) -> PyResult<PySquareSet> {
        Ok(PySquareSet::of(self.pos.drop_squares(colour_arg(colour)?)))
    }

    /// Has the side to move any move that leaves its own king safe?
    fn has_safe_move(&self) -> bool {
        self.pos.has_safe_move()
    }

    /// Has the side to move a king-safe move of a piece on the board (one needing no hand)?
    fn has_safe_board_move(&self) -> bool {
        self.pos.has_safe_board_move()
    }

    /// The pieces checking the side to move along a ride.
    fn ride_checkers(&self) -> PySquareSet {
        PySquareSet::of(self.pos.ride_checkers())
    }

    /// Empty squares where the side to move could drop between its king and a ride checker.
    fn interposition_squares(&self) -> PySquareSet {
        PySquareSet::of(self.pos.interposition_squares())
    }

    /// The hash after move `m`, without making it.
    fn child_hash(&self, m: &Bound<'_, PyAny>) -> PyResult<u64> {
        Ok(self.pos.child_hash(self.move_arg(m)?))
    }

    /// Perft: the number of legal move sequences of length `depth`, every move made and unmade.
    fn perft(&mut self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        self.interruptible(py, |p, go| perft::perft_interruptible(p, depth, go))
    }

    /// Perft split by first move: `[(Move, count), ...]` in generation order.
    fn divide(&mut self, py: Python<'_>, depth: u32) -> PyResult<Vec<(PyMove, u64)>> {
        let d = self.interruptible(py, |p, go| perft::divide(p, depth, go))?;
        let t = self.tables.get();
        Ok(d.into_iter().map(|(m, n)| (t.py_move(m), n)).collect())
    }

    /// Every `(previous position, move)` leading here, sorted by the previous position's key, then the move.
    fn unmoves(&self, py: Python<'_>) -> Vec<(PyPosition, PyMove)> {
        // The move number goes up after each White move; there is no move 0.
        let mover_white = self.pos.turn() == Colour::Black;
        let now = self.current_move_number();
        let before = if mover_white {
            now.saturating_sub(1).max(1)
        } else {
            now
        };
        let t = self.tables.get();
        unmove::unmoves(&self.pos)
            .into_iter()
            .map(|(p, m)| (self.wrap(py, p, before), t.py_move(m)))
            .collect()
    }

    /// Reads a move string and checks it is legal here (MoveError if malformed, IllegalMoveError if illegal).
    fn parse_move(&mut self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let t = self.tables.get();
        let read = t.read_move(py, text)?;
        let mv = t.engine_move(&read)?;
        let mut legal = MoveList::new();
        self.pos.legal_moves(None, &mut legal);
        if legal.contains(mv) {
            return Ok(read);
        }
        let why = self.pos.why_illegal(mv);
        Err(IllegalMoveError::new_err(format!(
            "move {} is not legal for {} in {}: {why}",
            quote_value(text),
            self.pos.turn().name(),
            self.fen(true)
        )))
    }

    /// Reads a move string, checks it is legal, makes it and returns the move.
    fn push_str(&mut self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let m = self.parse_move(py, text)?;
        let mv = self.tables.get().engine_move(&m)?;
        self.pos.push(mv);
        Ok(m)
    }

    /// A readable form such as `T20-18`, `C23x19=+C` or `P*18` (call before pushing).
    fn move_readable(&self, m: &Bound<'_, PyAny>) -> PyResult<String> {
        let mv = self.move_arg(m)?;
        if mv.is_drop() {
            return Ok(self.pos.move_string(mv));
        }
        let t = self.pos.tables();
        let v = self.pos.piece(mv.from());
        if v == 0 {
            return Err(IllegalMoveError::new_err(format!(
                "square {} is empty",
                mv.from()
            )));
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
    fn hand_string(&self, colour: &Bound<'_, PyAny>) -> PyResult<String> {
        let c = colour_arg(colour)?;
        let t = self.pos.tables();
        let nk = t.nkinds;
        let mut counts = [vec![0u8; nk], vec![0u8; nk]];
        counts[0] = self.pos.hand(c).counts(nk);
        Ok(crate::rules::notation::hands_string(
            t,
            [&counts[0], &counts[1]],
        ))
    }
}
