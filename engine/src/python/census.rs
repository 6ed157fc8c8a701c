//! `tsume._engine.census_analyse`: the census's retrograde analysis of a
//! whole shard in one call (`tsume.census.retro` wraps it).
//!
//! The analysis runs without the GIL.  On Python's main thread it takes the
//! GIL about every 20 ms to let Python run its signal handlers, so Ctrl-C
//! stops it; the `KeyboardInterrupt` is raised when the call returns.  On
//! another thread (a census run with `--threads`) it is stopped by
//! `census_cancel()`, which the census calls when Ctrl-C reaches the main
//! thread.  The node limit raises `tsume.search.SearchLimit`, a bug
//! `RuntimeError` (a panic is caught, never aborting the interpreter).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::detach::{on_main_thread, panic_message};
use super::values::PyMove;
use super::{quote_value, type_name, ArgumentError, PyPosition, PyTables, SearchLimit, TsumeError};
use crate::census::{analyse, Halt};
use crate::rules::position::Position;

/// How often the analysis lets Python look at its signals.
const SIGNAL_EVERY: Duration = Duration::from_millis(20);

/// How many times `census_cancel()` was called: a call of `census_analyse`
/// stops when it changes.
static CANCELS: AtomicU64 = AtomicU64::new(0);

/// Stops every call of `census_analyse` running in this process now (each
/// raises `TsumeError`); calls made afterwards are not affected.
#[pyfunction]
pub fn census_cancel() {
    CANCELS.fetch_add(1, Ordering::SeqCst);
}

/// One starting position's answer: marked, mate length (None: no mate
/// within the bound), every optimal first move.
type PyAnswer = (bool, Option<u32>, Vec<PyMove>);

fn count_arg(value: &Bound<'_, PyAny>, name: &str, what: &str) -> PyResult<u64> {
    let bad = || {
        ArgumentError::new_err(format!(
            "{name} must be {what}, not {} {}",
            type_name(value),
            quote_value(value)
        ))
    };
    if value.is_instance_of::<pyo3::types::PyBool>()
        || !value.is_instance_of::<pyo3::types::PyInt>()
    {
        return Err(bad());
    }
    match value.extract::<u64>() {
        Ok(v) => Ok(v),
        // Past what 64 bits hold: as good as no limit; below zero: wrong.
        Err(_) if value.gt(0).unwrap_or(false) => Ok(u64::MAX),
        Err(_) => Err(bad()),
    }
}

/// Solves `positions` (the attacker to move in each, one variant and board
/// length) by retrograde analysis of their checks-only game graph to
/// `max_plies` plies.  Returns one `(marked, length, first_moves)` per
/// position, in order, and statistics (`graph_nodes`, `graph_edges`,
/// `graph_bytes`, `seconds_graph`, `seconds_backward`).  A marked position
/// met an interposition: its length is plain minimax's, to be settled by
/// df-pn.  More than `node_limit` graph nodes raises `SearchLimit`.
#[pyfunction]
#[pyo3(signature = (positions, max_plies, node_limit=None))]
pub fn census_analyse<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
    max_plies: &Bound<'py, PyAny>,
    node_limit: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Vec<PyAnswer>, Bound<'py, PyDict>)> {
    let plies = count_arg(max_plies, "max_plies", "a number of plies")?;
    let plies = u32::try_from(plies).unwrap_or(u32::MAX);
    let limit = match node_limit {
        None => None,
        Some(v) if v.is_none() => None,
        Some(v) => Some(
            usize::try_from(count_arg(v, "node_limit", "None or a number of nodes")?)
                .unwrap_or(usize::MAX),
        ),
    };
    let (roots, tables) = read_roots(py, positions)?;
    let on_main = on_main_thread(py)?;
    let mut pending: Option<PyErr> = None;
    let mut last = Instant::now();
    let cancels = CANCELS.load(Ordering::SeqCst);
    let mut keep_going = || {
        if CANCELS.load(Ordering::Relaxed) != cancels {
            return false;
        }
        if !on_main || last.elapsed() < SIGNAL_EVERY {
            return true;
        }
        last = Instant::now();
        Python::attach(|py| match py.check_signals() {
            Ok(()) => true,
            Err(e) => {
                pending = Some(e);
                false
            }
        })
    };
    let r = py.detach(|| {
        catch_unwind(AssertUnwindSafe(|| {
            analyse(&roots, plies, limit, &mut keep_going)
        }))
    });
    let analysis = match r {
        Ok(Ok(a)) => a,
        Ok(Err(Halt::Interrupted)) => {
            return Err(pending
                .take()
                .unwrap_or_else(|| TsumeError::new_err("the census was interrupted")))
        }
        Ok(Err(Halt::Mixed)) => return Err(ArgumentError::new_err(Halt::Mixed.message())),
        Ok(Err(halt)) => return Err(SearchLimit::new_err(halt.message())),
        Err(panic) => {
            return Err(PyRuntimeError::new_err(format!(
                "internal error: the census failed ({})",
                panic_message(panic.as_ref())
            )));
        }
    };
    let answers = match &tables {
        None => vec![],
        Some(t) => {
            let t = t.get();
            analysis
                .answers
                .into_iter()
                .map(|a| (a.marked, a.length, t.py_moves(&a.first_moves)))
                .collect()
        }
    };
    let s = &analysis.stats;
    let stats = PyDict::new(py);
    stats.set_item("graph_nodes", s.nodes)?;
    stats.set_item("graph_edges", s.edges)?;
    stats.set_item("graph_bytes", s.bytes)?;
    stats.set_item("seconds_graph", s.seconds_graph)?;
    stats.set_item("seconds_backward", s.seconds_backward)?;
    Ok((answers, stats))
}

/// The engine positions of the `positions` argument, and the tables of the
/// first (None if there is none).
fn read_roots(
    py: Python<'_>,
    positions: &Bound<'_, PyAny>,
) -> PyResult<(Vec<Position>, Option<Py<PyTables>>)> {
    let mut roots: Vec<Position> = vec![];
    let mut tables = None;
    for item in positions.try_iter()? {
        let item = item?;
        let p = item.cast::<PyPosition>().map_err(|_| {
            ArgumentError::new_err(format!(
                "positions must be Positions, not {} {}",
                type_name(&item),
                quote_value(&item)
            ))
        })?;
        let p = p.borrow();
        if tables.is_none() {
            tables = Some(p.tables.clone_ref(py));
        }
        roots.push(p.pos.copy());
    }
    Ok((roots, tables))
}
