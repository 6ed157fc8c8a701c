//! `Limits` and `Options`: the work a search may do and its switches, each
//! one value, checked once when it is made and handed to the engine as it
//! is (python-chess's `engine.Limit` is the model).  They wrap the engine's
//! own [`Limits`] and [`Options`]: one definition of each.

use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt};

use super::{quote_value, type_name, ArgumentError};
use crate::search::engine::Limits;
use crate::search::options::Options;

/// The largest memory bound taken, in megabytes (a petabyte: the bound
/// becomes a count of table entries, which must stay finite), and as the
/// messages write it (Python's `%g`).
const MAX_MEMORY_MB: (f64, &str) = (1e9, "1e+09");

/// A positive finite number of `unit` (None: no limit), as the package's
/// argument checks word it.
fn positive_finite(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
    unit: &str,
    most: Option<(f64, &str)>,
) -> PyResult<Option<f64>> {
    let Some(v) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let number = !v.is_instance_of::<PyBool>()
        && (v.is_instance_of::<PyInt>() || v.is_instance_of::<PyFloat>());
    if !number {
        return Err(ArgumentError::new_err(format!(
            "{name} must be a number of {unit} or None, not {} {}",
            type_name(v),
            quote_value(v)
        )));
    }
    let x: f64 = v
        .extract()
        .map_err(|_| ArgumentError::new_err(format!("{name} is too large: {}", quote_value(v))))?;
    if !x.is_finite() && v.is_instance_of::<PyInt>() {
        return Err(ArgumentError::new_err(format!(
            "{name} is too large: {}",
            quote_value(v)
        )));
    }
    if !x.is_finite() || x <= 0.0 {
        return Err(ArgumentError::new_err(format!(
            "{name} must be a positive finite number of {unit}, not {}",
            quote_value(v)
        )));
    }
    if let Some((_, written)) = most.filter(|(most, _)| x > *most) {
        return Err(ArgumentError::new_err(format!(
            "{name} must be at most {written} {unit}, not {}",
            quote_value(v)
        )));
    }
    Ok(Some(x))
}

/// A whole number at least `least` (None: the default).
fn whole(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
    what: &str,
    least: i64,
) -> PyResult<Option<i64>> {
    let Some(v) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    if v.is_instance_of::<PyBool>() || !v.is_instance_of::<PyInt>() {
        return Err(ArgumentError::new_err(format!(
            "{name} must be {what} (an int >= {least}) or None, not {} {}",
            type_name(v),
            quote_value(v)
        )));
    }
    let n: i64 = v
        .extract()
        .map_err(|_| ArgumentError::new_err(format!("{name} is too large: {}", quote_value(v))))?;
    if n < least {
        return Err(ArgumentError::new_err(format!(
            "{name} must be at least {least}, not {n}"
        )));
    }
    Ok(Some(n))
}

fn flag(value: Option<&Bound<'_, PyAny>>, name: &str, default: bool) -> PyResult<bool> {
    match value.filter(|v| !v.is_none()) {
        None => Ok(default),
        Some(v) if v.is_instance_of::<PyBool>() => v.extract(),
        Some(v) => Err(ArgumentError::new_err(format!(
            "{name} must be True or False, not {} {}",
            type_name(v),
            quote_value(v)
        ))),
    }
}

fn show<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or("None".into(), |x| x.to_string())
}

/// A float as Python's `repr` writes it (`5.0`, `0.25`, `1e+20`).
fn float_repr(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e16 {
        format!("{x:.1}")
    } else {
        format!("{x}")
    }
}

/// Stop a search after `time` seconds, `nodes` df-pn nodes, or once it has
/// grown the process by `memory` megabytes; None for no limit.  What a limit
/// stops is reported, never guessed.  A value that is not a positive finite
/// number is refused when the value is made.
#[pyclass(name = "Limits", module = "tsume._engine", frozen)]
#[derive(Clone, Debug, PartialEq)]
pub struct PyLimits {
    time: Option<f64>,
    nodes: Option<u64>,
    memory: Option<f64>,
}

impl PyLimits {
    /// The engine's limits.
    pub fn engine(&self) -> Limits {
        Limits {
            nodes: self.nodes,
            time: self
                .time
                .map(|t| Duration::try_from_secs_f64(t).unwrap_or(Duration::MAX)),
            memory: self.memory.map(|mb| (mb * 1e6).min(1e15) as usize),
        }
    }
}

#[pymethods]
impl PyLimits {
    #[new]
    #[pyo3(signature = (time=None, nodes=None, memory=None))]
    fn new(
        time: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        memory: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyLimits> {
        Ok(PyLimits {
            time: positive_finite(time, "Limits.time", "seconds", None)?,
            nodes: whole(nodes, "Limits.nodes", "a number of nodes", 1)?.map(|n| n as u64),
            memory: positive_finite(memory, "Limits.memory", "megabytes", Some(MAX_MEMORY_MB))?,
        })
    }

    /// Seconds (None: no limit).
    #[getter]
    fn time(&self) -> Option<f64> {
        self.time
    }

    /// df-pn nodes (None: no limit).
    #[getter]
    fn nodes(&self) -> Option<u64> {
        self.nodes
    }

    /// Megabytes (None: the default budget).
    #[getter]
    fn memory(&self) -> Option<f64> {
        self.memory
    }

    fn __repr__(&self) -> String {
        format!(
            "Limits(time={}, nodes={}, memory={})",
            show(self.time.map(float_repr)),
            show(self.nodes),
            show(self.memory.map(float_repr))
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyLimits>().is_ok_and(|o| *o.get() == *self)
    }

    fn __hash__(&self) -> u64 {
        let bits = |x: Option<f64>| x.map_or(u64::MAX, f64::to_bits);
        bits(self.time)
            ^ self.nodes.unwrap_or(u64::MAX).rotate_left(21)
            ^ bits(self.memory).rotate_left(42)
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Option<f64>, Option<u64>, Option<f64>))> {
        let l = slf.get();
        Ok((slf.get_type().into_any(), (l.time, l.nodes, l.memory)))
    }
}

/// The search's switches (the defaults are the measured best; the benchmarks
/// and tests turn them off to compare).  Each keyword is checked: a flag is
/// True or False, a count a whole number.
#[pyclass(name = "Options", module = "tsume._engine", frozen)]
#[derive(Clone, Debug)]
pub struct PyOptions {
    pub options: Options,
}

/// The names of the switches, in order.
const SWITCHES: [&str; 10] = [
    "hand_dominance",
    "one_ply_mate",
    "same_square_max",
    "drop_groups",
    "heuristic_init",
    "one_plus_epsilon",
    "useless_interpositions",
    "short_first",
    "leftover_pruning",
    "max_depth",
];

impl PyOptions {
    fn values(&self) -> [(&'static str, String); 10] {
        let o = &self.options;
        let b = |x: bool| {
            if x {
                "True".to_string()
            } else {
                "False".to_string()
            }
        };
        [
            (SWITCHES[0], b(o.hand_dominance)),
            (SWITCHES[1], b(o.one_ply_mate)),
            (SWITCHES[2], b(o.same_square_max)),
            (SWITCHES[3], b(o.drop_groups)),
            (SWITCHES[4], b(o.heuristic_init)),
            (SWITCHES[5], o.one_plus_epsilon.to_string()),
            (SWITCHES[6], b(o.useless_interpositions)),
            (SWITCHES[7], o.short_first.to_string()),
            (SWITCHES[8], b(o.leftover_pruning)),
            (SWITCHES[9], o.max_depth.to_string()),
        ]
    }
}

#[pymethods]
impl PyOptions {
    #[new]
    #[pyo3(signature = (*, hand_dominance=None, one_ply_mate=None, same_square_max=None, drop_groups=None,
                        heuristic_init=None, one_plus_epsilon=None, useless_interpositions=None,
                        short_first=None, leftover_pruning=None, max_depth=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        hand_dominance: Option<&Bound<'_, PyAny>>,
        one_ply_mate: Option<&Bound<'_, PyAny>>,
        same_square_max: Option<&Bound<'_, PyAny>>,
        drop_groups: Option<&Bound<'_, PyAny>>,
        heuristic_init: Option<&Bound<'_, PyAny>>,
        one_plus_epsilon: Option<&Bound<'_, PyAny>>,
        useless_interpositions: Option<&Bound<'_, PyAny>>,
        short_first: Option<&Bound<'_, PyAny>>,
        leftover_pruning: Option<&Bound<'_, PyAny>>,
        max_depth: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyOptions> {
        let d = Options::default();
        let n = |v, name: &str, least, max: i64| -> PyResult<Option<i64>> {
            let x = whole(v, &format!("Options.{name}"), "a whole number", least)?;
            match x {
                Some(x) if x > max => Err(ArgumentError::new_err(format!(
                    "Options.{name} must be at most {max}, not {x}"
                ))),
                x => Ok(x),
            }
        };
        Ok(PyOptions {
            options: Options {
                hand_dominance: flag(hand_dominance, "Options.hand_dominance", d.hand_dominance)?,
                one_ply_mate: flag(one_ply_mate, "Options.one_ply_mate", d.one_ply_mate)?,
                same_square_max: flag(
                    same_square_max,
                    "Options.same_square_max",
                    d.same_square_max,
                )?,
                drop_groups: flag(drop_groups, "Options.drop_groups", d.drop_groups)?,
                heuristic_init: flag(heuristic_init, "Options.heuristic_init", d.heuristic_init)?,
                one_plus_epsilon: n(one_plus_epsilon, "one_plus_epsilon", 0, 1 << 20)?
                    .map_or(d.one_plus_epsilon, |x| x as u32),
                useless_interpositions: flag(
                    useless_interpositions,
                    "Options.useless_interpositions",
                    d.useless_interpositions,
                )?,
                short_first: n(short_first, "short_first", 0, 1 << 20)?
                    .map_or(d.short_first, |x| x as i32),
                leftover_pruning: flag(
                    leftover_pruning,
                    "Options.leftover_pruning",
                    d.leftover_pruning,
                )?,
                max_depth: n(max_depth, "max_depth", 1, 1 << 20)?.map_or(d.max_depth, |x| x as u32),
            },
        })
    }

    #[getter]
    fn hand_dominance(&self) -> bool {
        self.options.hand_dominance
    }
    #[getter]
    fn one_ply_mate(&self) -> bool {
        self.options.one_ply_mate
    }
    #[getter]
    fn same_square_max(&self) -> bool {
        self.options.same_square_max
    }
    #[getter]
    fn drop_groups(&self) -> bool {
        self.options.drop_groups
    }
    #[getter]
    fn heuristic_init(&self) -> bool {
        self.options.heuristic_init
    }
    #[getter]
    fn one_plus_epsilon(&self) -> u32 {
        self.options.one_plus_epsilon
    }
    #[getter]
    fn useless_interpositions(&self) -> bool {
        self.options.useless_interpositions
    }
    #[getter]
    fn short_first(&self) -> i32 {
        self.options.short_first
    }
    #[getter]
    fn leftover_pruning(&self) -> bool {
        self.options.leftover_pruning
    }
    #[getter]
    fn max_depth(&self) -> u32 {
        self.options.max_depth
    }

    /// The switches by name, as keywords of the constructor.
    fn as_dict<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(slf.py());
        for name in SWITCHES {
            d.set_item(name, slf.getattr(name)?)?;
        }
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let parts: Vec<String> = self
            .values()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        format!("Options({})", parts.join(", "))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyOptions>()
            .is_ok_and(|o| o.get().options == self.options)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.values().hash(&mut h);
        h.finish()
    }

    /// Pickled as its keywords (the constructor takes keywords only).
    fn __getnewargs_ex__<'py>(slf: &Bound<'py, Self>) -> PyResult<((), Bound<'py, PyDict>)> {
        Ok(((), PyOptions::as_dict(slf)?))
    }
}
