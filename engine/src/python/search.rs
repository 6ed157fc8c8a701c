//! The Python face of the search: `tsume._engine.Search` (wrapped by `tsume.search`).
//!
//! Every question releases the GIL while it searches, so searches in two
//! threads run in parallel.  Ctrl-C reaches a search running on Python's main
//! thread through the monitor's interrupt hook, which takes the GIL about
//! every 20 ms to let Python run its signal handlers; a search on another
//! thread is stopped with `cancel()`.  A limit raises `tsume.search.SearchLimit`
//! (`OverBudget` for a question's own budget), a bug `RuntimeError` (a
//! panic is caught and reported as one, never aborting the interpreter).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::detach::{on_main_thread, panic_message};
use super::limits::{PyLimits, PyOptions};
use super::values::PyMove;
use super::{tsume_error, PyPosition, PyTables};
use crate::rules::moves::Move;
use crate::search::engine::{Limits, Search};
use crate::search::mate_len::MateLen;
use crate::search::monitor::{Halt, Hooks, Stop};
use crate::search::options::Options;

/// What the hooks share with the binding: whether to look at Python's
/// signals (the search runs on the main thread), the progress callback, and
/// the exception a hook met (raised when the question returns).
struct Shared {
    main_thread: AtomicBool,
    progress: Option<Py<PyAny>>,
    pending: Mutex<Option<PyErr>>,
}

struct PyHooks(Arc<Shared>);

impl Hooks for PyHooks {
    fn keep_going(&mut self) -> bool {
        if !self.0.main_thread.load(Ordering::Relaxed) {
            return true;
        }
        Python::attach(|py| match py.check_signals() {
            Ok(()) => true,
            Err(e) => {
                *self.0.pending.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                false
            }
        })
    }

    fn progress(&mut self, nodes: u64, elapsed: Duration, entries: usize, gc_runs: u64) -> bool {
        let Some(callback) = &self.0.progress else {
            return true;
        };
        Python::attach(|py| {
            let r = (|| {
                let stats = node_rate(py, nodes, elapsed.as_secs_f64())?;
                stats.set_item("table_entries", entries)?;
                stats.set_item("gc_runs", gc_runs)?;
                callback.call1(py, (stats,))
            })();
            match r {
                Ok(_) => true,
                Err(e) => {
                    *self.0.pending.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                    false
                }
            }
        })
    }
}

/// The nodes, seconds and nodes per second that progress reports and
/// statistics begin with.
fn node_rate(py: Python<'_>, nodes: u64, secs: f64) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("nodes", nodes)?;
    d.set_item("seconds", secs)?;
    d.set_item(
        "nodes_per_second",
        if secs > 0.0 { nodes as f64 / secs } else { 0.0 },
    )?;
    Ok(d)
}

/// A df-pn search of one tsume problem (see `tsume.search.Search`).
#[pyclass(name = "Search", module = "tsume._engine", frozen)]
pub struct PySearch {
    inner: Mutex<Search>,
    cancel: Arc<AtomicBool>,
    live: Arc<AtomicU64>,
    attacker: usize,
    shared: Arc<Shared>,
    tables: Py<PyTables>,
    broken: AtomicBool,
}

fn bound_arg(py: Python<'_>, b: Option<i64>) -> PyResult<MateLen> {
    match b {
        None => Ok(MateLen::INFINITE),
        Some(b) if (0..=MateLen::MAX_PLIES as i64).contains(&b) => Ok(MateLen::plies(b as i32)),
        Some(b) => Err(tsume_error(
            py,
            "ArgumentError",
            &format!(
                "bound must be None or a number of plies from 0 to {}, not {b}",
                MateLen::MAX_PLIES
            ),
        )),
    }
}

/// A node count from Python: a count past what 64 bits hold is as good as none.
fn count_arg(py: Python<'_>, n: Option<Bound<'_, PyAny>>, name: &str) -> PyResult<Option<u64>> {
    let Some(n) = n else { return Ok(None) };
    if let Ok(v) = n.extract::<u64>() {
        return Ok(Some(v));
    }
    if n.is_instance_of::<pyo3::types::PyInt>() && n.gt(0).unwrap_or(false) {
        return Ok(Some(u64::MAX));
    }
    Err(tsume_error(
        py,
        "ArgumentError",
        &format!("{name} must be None or a number of nodes, not {n}"),
    ))
}

/// A length for Python.
fn plies(b: MateLen) -> i64 {
    b.get() as i64
}

fn out_bound(b: MateLen) -> Option<i64> {
    b.bounded().map(i64::from)
}

impl PySearch {
    /// Runs `f` on the search without the GIL; limits, bugs and panics become Python exceptions.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Search) -> Result<T, Halt> + Send,
    ) -> PyResult<T> {
        if self.broken.load(Ordering::Relaxed) {
            return Err(PyRuntimeError::new_err(
                "internal error: this search failed earlier and cannot go on",
            ));
        }
        self.shared
            .main_thread
            .store(on_main_thread(py)?, Ordering::Relaxed);
        let r = py.detach(|| {
            catch_unwind(AssertUnwindSafe(|| {
                let mut s = self.inner.lock().unwrap_or_else(|p| p.into_inner());
                f(&mut s)
            }))
        });
        match r {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(Halt::Stop(stop))) => {
                if let Some(e) = self
                    .shared
                    .pending
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .take()
                {
                    return Err(e);
                }
                let reason = stop.reason();
                Err(if stop == Stop::Budget {
                    super::OverBudget::new_err(reason)
                } else {
                    super::SearchLimit::new_err(reason)
                })
            }
            Ok(Err(Halt::Internal(msg))) => Err(PyRuntimeError::new_err(msg)),
            Err(panic) => {
                self.broken.store(true, Ordering::Relaxed);
                Err(PyRuntimeError::new_err(format!(
                    "internal error: the search failed ({})",
                    panic_message(panic.as_ref())
                )))
            }
        }
    }

    /// Reads the search without the GIL (another thread may be searching with it).
    fn read<T: Send>(&self, py: Python<'_>, f: impl FnOnce(&mut Search) -> T + Send) -> T {
        py.detach(|| f(&mut self.inner.lock().unwrap_or_else(|p| p.into_inner())))
    }

    /// The `Move`s of engine moves.
    fn moves(&self, moves: &[Move]) -> Vec<PyMove> {
        self.tables.get().py_moves(moves)
    }

    /// The engine move of a `Move` argument.
    fn move_arg(&self, m: &Bound<'_, PyAny>) -> PyResult<Move> {
        let mv = m.cast::<PyMove>().map_err(|_| {
            tsume_error(
                m.py(),
                "ArgumentError",
                &format!("a move is a tsume.Move, not {}", super::type_name(m)),
            )
        })?;
        self.tables.get().engine_move(mv.get())
    }
}

#[pymethods]
impl PySearch {
    /// A search of `position` (attacker to move, the defender's hand filled
    /// in) within `limits` (a `tsume.Limits`: time, nodes, memory in MB),
    /// with `options` (a `tsume.search.Options`).
    #[new]
    #[pyo3(signature = (position, *, limits=None, options=None, progress=None, progress_interval=1.0))]
    fn new(
        py: Python<'_>,
        position: PyRef<'_, PyPosition>,
        limits: Option<Bound<'_, PyAny>>,
        options: Option<Bound<'_, PyAny>>,
        progress: Option<Py<PyAny>>,
        progress_interval: f64,
    ) -> PyResult<Self> {
        let limits = match &limits {
            None => Limits::default(),
            Some(l) => l
                .cast::<PyLimits>()
                .map_err(|_| {
                    tsume_error(
                        py,
                        "ArgumentError",
                        &format!(
                            "limits must be a tsume.Limits or None, not {}",
                            super::type_name(l)
                        ),
                    )
                })?
                .get()
                .engine(),
        };
        let options = match &options {
            None => Options::default(),
            Some(o) => o
                .cast::<PyOptions>()
                .map_err(|_| {
                    tsume_error(
                        py,
                        "ArgumentError",
                        &format!(
                            "options must be a tsume.search.Options or None, not {}",
                            super::type_name(o)
                        ),
                    )
                })?
                .get()
                .options
                .clone(),
        };
        let mut search =
            Search::new(&position.pos, limits, options).map_err(|e| super::engine_error(py, e))?;
        let shared = Arc::new(Shared {
            main_thread: AtomicBool::new(false),
            pending: Mutex::new(None),
            progress: progress.as_ref().map(|p| p.clone_ref(py)),
        });
        let interval = (progress.is_some() && progress_interval >= 0.0)
            .then(|| Duration::try_from_secs_f64(progress_interval).unwrap_or(Duration::MAX));
        search.set_hooks(Box::new(PyHooks(shared.clone())), interval);
        let cancel = search.monitor().cancel_flag();
        let live = search.monitor().live_nodes();
        let attacker = search.attacker().index();
        Ok(PySearch {
            inner: Mutex::new(search),
            cancel,
            live,
            attacker,
            shared,
            tables: position.tables.clone_ref(py),
            broken: AtomicBool::new(false),
        })
    }

    /// Stops the search (from any thread): the question under way, and every later one, raise SearchLimit.
    fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Is the current position mated within `bound` plies (None: at any length)?
    #[pyo3(signature = (bound=None))]
    fn mate(&self, py: Python<'_>, bound: Option<i64>) -> PyResult<bool> {
        let b = bound_arg(py, bound)?;
        self.run(py, |s| Ok(s.mate(b)?))
    }

    /// A proven length after `mate(bound)` proved the current position (its own proof's, or `bound`).
    #[pyo3(signature = (bound=None))]
    fn proof_length(&self, py: Python<'_>, bound: Option<i64>) -> PyResult<Option<i64>> {
        let b = bound_arg(py, bound)?;
        self.run(py, |s| Ok(out_bound(s.proof_length(b))))
    }

    /// The exact mate length within `bound` (None: no mate within it).
    #[pyo3(signature = (bound=None, descend=false))]
    fn value(&self, py: Python<'_>, bound: Option<i64>, descend: bool) -> PyResult<Option<i64>> {
        let b = bound_arg(py, bound)?;
        self.run(py, |s| Ok(s.value(b, descend)?.map(plies)))
    }

    /// The length of the first proof within `bound`: an upper bound of the mate's (None: no mate).
    #[pyo3(signature = (bound=None))]
    fn first_proof(&self, py: Python<'_>, bound: Option<i64>) -> PyResult<Option<i64>> {
        let b = bound_arg(py, bound)?;
        self.run(py, |s| Ok(s.first_proof(b)?.map(plies)))
    }

    /// Is there a mate within `bound` at all (the first proof, no climb)?
    #[pyo3(signature = (bound=None))]
    fn mates_at_all(&self, py: Python<'_>, bound: Option<i64>) -> PyResult<bool> {
        let b = bound_arg(py, bound)?;
        self.run(py, |s| Ok(s.mates_at_all(b)?))
    }

    /// `(upper, low)`: mated within `upper` (None: not within `bound`), not within any bound below `low`.
    #[pyo3(signature = (bound=None, budget=None))]
    fn value_within(
        &self,
        py: Python<'_>,
        bound: Option<i64>,
        budget: Option<Bound<'_, PyAny>>,
    ) -> PyResult<(Option<i64>, i64)> {
        let b = bound_arg(py, bound)?;
        let budget = count_arg(py, budget, "budget")?;
        self.run(py, |s| {
            let l = s.value_within(b, budget)?;
            Ok((l.upper.map(plies), plies(l.low)))
        })
    }

    /// `(moves, leftover)`: the best line of value `value` from here.
    #[pyo3(signature = (value, thorough=true))]
    fn best_line(
        &self,
        py: Python<'_>,
        value: i64,
        thorough: bool,
    ) -> PyResult<(Vec<PyMove>, i32)> {
        let v = bound_arg(py, Some(value))?;
        let (m, left) = self.run(py, |s| s.best_line(v, thorough))?;
        Ok((self.moves(&m), left))
    }

    /// The moves of `best_line`, or None if `budget` nodes do not read it.
    #[pyo3(signature = (value, thorough=true, budget=None))]
    fn line_within(
        &self,
        py: Python<'_>,
        value: i64,
        thorough: bool,
        budget: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Option<Vec<PyMove>>> {
        let v = bound_arg(py, Some(value))?;
        let budget = count_arg(py, budget, "budget")?;
        let line = self.run(py, |s| s.line_within(v, thorough, budget))?;
        Ok(line.map(|m| self.moves(&m)))
    }

    /// A mating line within `bound` read off the table's proofs (not the best; empty if none).
    fn proof_line(&self, py: Python<'_>, bound: i64) -> PyResult<Vec<PyMove>> {
        let b = bound_arg(py, Some(bound))?;
        let line = self.run(py, |s| Ok(s.proof_line(b)?))?;
        Ok(self.moves(&line))
    }

    /// Every defence here (mated within `bound`): `(move, useless, value, line, leftover)`.
    #[allow(clippy::type_complexity)]
    fn defender_choices(
        &self,
        py: Python<'_>,
        bound: i64,
    ) -> PyResult<Vec<(PyMove, bool, Option<i64>, Vec<PyMove>, i32)>> {
        let b = bound_arg(py, Some(bound))?;
        let choices = self.run(py, |s| s.defender_choices(b))?;
        let t = self.tables.get();
        Ok(choices
            .into_iter()
            .map(|c| {
                (
                    t.py_move(c.m),
                    c.useless,
                    c.value.map(plies),
                    self.moves(&c.line),
                    c.left,
                )
            })
            .collect())
    }

    /// Is the defence `move` here a useless interposition (judged within `bound`)?
    #[pyo3(signature = (r#move, bound=None))]
    fn is_useless(
        &self,
        py: Python<'_>,
        r#move: &Bound<'_, PyAny>,
        bound: Option<i64>,
    ) -> PyResult<bool> {
        let m = self.move_arg(r#move)?;
        let b = bound_arg(py, bound)?;
        self.run(py, |s| Ok(s.is_useless(m, b)?))
    }

    /// R here: the longest value of the defences that are not interpositions (None: one escapes within `bound - 1`).
    #[pyo3(signature = (bound=None))]
    fn best_other_value(&self, py: Python<'_>, bound: Option<i64>) -> PyResult<Option<i64>> {
        let b = bound_arg(py, bound)?;
        self.run(py, |s| Ok(s.best_other_value(b)?.map(plies)))
    }

    /// `(length, moves)` after `mate(bound)` proved the current position.
    #[pyo3(signature = (bound=None))]
    fn main_line(&self, py: Python<'_>, bound: Option<i64>) -> PyResult<(i64, Vec<PyMove>)> {
        let b = bound_arg(py, bound)?;
        let (len, m) = self.run(py, |s| s.main_line(b))?;
        Ok((plies(len), self.moves(&m)))
    }

    /// Every checking move here with its exact mate length within `bound` (None: none).
    #[pyo3(signature = (bound=None))]
    fn first_moves(
        &self,
        py: Python<'_>,
        bound: Option<i64>,
    ) -> PyResult<Vec<(PyMove, Option<i64>)>> {
        let b = bound_arg(py, bound)?;
        let firsts = self.run(py, |s| Ok(s.first_moves(b)?))?;
        let t = self.tables.get();
        Ok(firsts
            .into_iter()
            .map(|(m, v)| (t.py_move(m), v.map(plies)))
            .collect())
    }

    /// Puts the current position on the line (an anchor; `exact`: its value here is known) and plays `move`.
    #[pyo3(signature = (r#move, exact=false))]
    fn walk(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>, exact: bool) -> PyResult<()> {
        let m = self.move_arg(r#move)?;
        let legal = self.run(py, |s| {
            let ok = s.is_legal(m);
            if ok {
                s.walk(m, exact);
            }
            Ok(ok)
        })?;
        if !legal {
            return Err(tsume_error(
                py,
                "IllegalMoveError",
                &format!(
                    "{} is not legal here",
                    self.tables.get().py_move(m).string()
                ),
            ));
        }
        Ok(())
    }

    /// Takes back the last move of the walk (None if there is none).
    fn unwalk(&self, py: Python<'_>) -> PyResult<Option<PyMove>> {
        let m = self.run(py, |s| Ok(s.unwalk()))?;
        Ok(m.map(|m| self.tables.get().py_move(m)))
    }

    /// Takes back the whole walk.
    fn rewind(&self, py: Python<'_>) -> PyResult<()> {
        self.run(py, |s| {
            s.rewind();
            Ok(())
        })
    }

    /// How many moves the walk has made.
    #[getter]
    fn walked(&self, py: Python<'_>) -> usize {
        self.read(py, |s| s.walked())
    }

    /// A copy of the current position.
    #[getter]
    fn position(&self, py: Python<'_>) -> PyPosition {
        let pos = self.read(py, |s| s.position().copy());
        PyPosition {
            pos,
            tables: self.tables.clone_ref(py),
            first_move: 1,
        }
    }

    /// The attacker's colour.
    #[getter]
    fn attacker(&self) -> super::values::PyColour {
        crate::rules::colour::Colour::from_index(self.attacker).into()
    }

    /// Nodes searched so far (while another thread searches: as of its last
    /// look at the clock, at most 1,024 nodes ago).
    #[getter]
    fn nodes(&self) -> u64 {
        match self.inner.try_lock() {
            Ok(s) => s.nodes(),
            Err(_) => self.live.load(Ordering::Relaxed),
        }
    }

    /// Of those, the nodes spent climbing from a first proof to an exact length.
    #[getter]
    fn climb_nodes(&self, py: Python<'_>) -> u64 {
        self.read(py, |s| s.climb_nodes())
    }

    /// Stops the current question once `nodes` more nodes are spent (None: no budget).
    #[pyo3(signature = (nodes=None))]
    fn set_budget(&self, py: Python<'_>, nodes: Option<Bound<'_, PyAny>>) -> PyResult<()> {
        let nodes = count_arg(py, nodes, "nodes")?;
        self.read(py, |s| s.set_budget(nodes));
        Ok(())
    }

    /// The search's statistics: nodes, seconds, table entries, capacity, bytes, garbage collections.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (nodes, secs, climb, lines, t) = self.read(py, |s| {
            (
                s.nodes(),
                s.elapsed().as_secs_f64(),
                s.climb_nodes(),
                s.lines_read(),
                s.table_stats(),
            )
        });
        let d = node_rate(py, nodes, secs)?;
        d.set_item("climb_nodes", climb)?;
        d.set_item("lines_read", lines)?;
        d.set_item("table_entries", t.entries)?;
        d.set_item("table_capacity", t.capacity)?;
        d.set_item("table_max_capacity", t.max_capacity)?;
        d.set_item("table_bytes", t.bytes)?;
        d.set_item("gc_runs", t.gc_runs)?;
        d.set_item("dominance_hits", t.dominance_hits)?;
        d.set_item("lookups", t.lookups)?;
        d.set_item("probes", t.probes)?;
        Ok(d)
    }

    /// What the table's entries hold: `(proofs, disproofs at any length,
    /// disproofs within a bound, open)` (a diagnostic: it reads every entry).
    fn table_census(&self, py: Python<'_>) -> (usize, usize, usize, usize) {
        let [a, b, c, d] = self.read(py, |s| s.table_census());
        (a, b, c, d)
    }

    /// The reason a limit stopped the search for good (None if none did).
    #[getter]
    fn stopped(&self, py: Python<'_>) -> Option<String> {
        self.read(py, |s| s.stopped().map(|s| s.reason()))
    }
}
